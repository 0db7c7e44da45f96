// tile-expand-pipeline for the warp-specialised mma.sync schedule: a TMA ring with full/empty mbarriers and the 128-byte swizzle, the consumer warps first (one group, or two with accumulators = 2) and the producer warp last, accumulators in registers, D through shared memory and TMA; the stage count from the target's shared memory (2 in 99 KB on sm_120a, 4 in 227 KB on sm_90).
// RUN: %tilegen %s --target=sm_120a --emit=pipeline | FileCheck %s --check-prefix=SM120A --implicit-check-not='{{^ *}}tile.gemm'
// RUN: %tilegen %s --target=sm_90 --emit=pipeline | FileCheck %s --check-prefix=SM90 --implicit-check-not='{{^ *}}tile.gemm'

tile.gemm @coop { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], schedule = warp_specialized, grid = persistent }

// 2 x 32 KB of ring, 8 warps x 2 x 16 rows x 64 bytes of staging, then the barriers.
// SM120A-LABEL: tile.pipeline @coop target "sm_120a" block [288, 1, 1] cluster [1, 1, 1] smem 82048
// SM120A-NEXT:    tile.ring slots 2 slice_k 64 a [128, 64] bf16 row b [128, 64] bf16 col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 32768 b_offset 16384 barriers 81920
// SM120A-NEXT:    tile.accumulators 1 x [128, 128] f32 in registers
// SM120A-NEXT:    tile.role producer warps [8, 1] layout [] regs 0
// SM120A-NEXT:    tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
// SM120A-NEXT:    tile.role epilogue warps [0, 8] layout [2, 4] regs 0
// SM120A-NEXT:    tile.schedule tiles [128, 128] slice_k 64 grid persistent raster row swizzle 8
// SM120A-NEXT:    tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 65536 bytes 16384
// SM90-LABEL:   tile.pipeline @coop target "sm_90" block [288, 1, 1] cluster [1, 1, 1] smem 147584
// SM90-NEXT:      tile.ring slots 4 slice_k 64

tile.gemm @pingpong { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], accumulators = 2, schedule = warp_specialized, grid = persistent }

// Two groups of [2, 2] warps: 8 consumer warps, each staging 16 rows x 128 bytes twice.
// SM120A-LABEL: tile.pipeline @pingpong target "sm_120a" block [288, 1, 1] cluster [1, 1, 1] smem 98432
// SM120A-NEXT:    tile.ring slots 2 slice_k 64 {{.*}} sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 32768 b_offset 16384 barriers 98304
// SM120A-NEXT:    tile.accumulators 2 x [128, 128] f32 in registers
// SM120A-NEXT:    tile.role producer warps [8, 1] layout [] regs 0
// SM120A-NEXT:    tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 2] regs 0
// SM120A:         tile.epilogue {{.*}} via smem_tma offset 65536 bytes 32768
