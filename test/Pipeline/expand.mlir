// tile-expand-pipeline turns one tile.gemm into the plan of its target family: ring slots and their hand-off, roles and their instructions, accumulator buffers and where they live, the tile loops and shared memory.
// RUN: %tilegen %s --target=sm_80 --emit=pipeline | FileCheck %s --check-prefix=SM80 --implicit-check-not='{{^ *}}tile.gemm'
// RUN: %tilegen %s --target=sm_120a --emit=pipeline | FileCheck %s --check-prefix=SM120 --implicit-check-not='{{^ *}}tile.gemm'
// RUN: %tilegen %s --target=sm_90a --emit=pipeline | FileCheck %s --check-prefix=SM90A --implicit-check-not='{{^ *}}tile.gemm'
// RUN: %tilegen %s --target=sm_100a --emit=pipeline | FileCheck %s --check-prefix=SM100A --implicit-check-not='{{^ *}}tile.gemm'
// RUN: %tilegen-opt %s --tile-check-target=target=sm_80 --tile-expand-pipeline | FileCheck %s --check-prefix=SM80 --implicit-check-not='{{^ *}}tile.gemm'
// RUN: %tilegen %S/Inputs/pair.mlir --target=sm_100a --emit=pipeline | FileCheck %s --check-prefix=PAIR --implicit-check-not='{{^ *}}tile.gemm'

// The same description, schedule and stages left to the target.
tile.gemm @gemm { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64] }

// mma.sync, every warp in every role, a 3-slot cp.async ring in 163 KB (3 x 48 KB = 144 KB).
// SM80-LABEL: tile.pipeline @gemm target "sm_80" block [256, 1, 1] cluster [1, 1, 1] smem 147456
// SM80-SAME:    description = "tile.gemm @gemm {
// SM80-NEXT:    tile.ring slots 3 slice_k 64 a [128, 64] bf16 row b [256, 64] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 49152 b_offset 16384
// SM80-NEXT:    tile.accumulators 1 x [128, 256] f32 in registers
// SM80-NEXT:    tile.role producer warps [0, 8]
// SM80-NEXT:    tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4]
// SM80-NEXT:    tile.role epilogue warps [0, 8] layout [2, 4]
// SM80-NEXT:    tile.schedule tiles [128, 256] slice_k 64 grid tiles raster row swizzle 8
// SM80-NEXT:    tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct

// The same on sm_120a: 99 KB per block leaves room for 2 slots only.
// SM120-LABEL: tile.pipeline @gemm target "sm_120a" block [256, 1, 1] cluster [1, 1, 1] smem 98304
// SM120-NEXT:    tile.ring slots 2 slice_k 64 {{.*}} sync cp_async_groups
// SM120-NEXT:    tile.accumulators 1 x [128, 256] f32 in registers
// SM120:         tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32>

// wgmma: one producer warpgroup, two consumer warpgroups, full/empty mbarriers, TMA in, TMA out.
// SM90A-LABEL: tile.pipeline @gemm target "sm_90a" block [384, 1, 1] cluster [1, 1, 1] smem 229504
// SM90A-NEXT:    tile.ring slots 4 slice_k 64 {{.*}} sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 49152 b_offset 16384 barriers 229376
// SM90A-NEXT:    tile.accumulators 1 x [128, 256] f32 in registers
// SM90A-NEXT:    tile.role producer warps [0, 4] layout [] regs 40
// SM90A-NEXT:    tile.role mma warps [4, 8] issues <wgmma [64, 256, 16] bf16 x bf16 -> f32> layout [2, 1] regs 232
// SM90A-NEXT:    tile.role epilogue warps [4, 8]
// SM90A-NEXT:    tile.schedule tiles [128, 256] slice_k 64 grid tiles
// SM90A-NEXT:    tile.epilogue {{.*}} via smem_tma offset 196608 bytes 32768

// tcgen05: a producer warp, one MMA-issuing warp, an epilogue warpgroup; the accumulator in TMEM.
// SM100A-LABEL: tile.pipeline @gemm target "sm_100a" block [192, 1, 1] cluster [1, 1, 1] smem 213120
// SM100A-NEXT:    tile.ring slots 4 slice_k 64 {{.*}} sync mbarrier_full_empty swizzle b128
// SM100A-NEXT:    tile.accumulators 1 x [128, 256] f32 in tmem
// SM100A-NEXT:    tile.role producer warps [0, 1]
// SM100A-NEXT:    tile.role mma warps [1, 1] issues <tcgen05 [128, 256, 16] bf16 x bf16 -> f32>
// SM100A-NEXT:    tile.role epilogue warps [2, 4]
// SM100A-NEXT:    tile.schedule tiles [128, 256]
// SM100A-NEXT:    tile.epilogue {{.*}} via smem_tma

// A CTA pair: each CTA's ring holds half of A and half of B; two TMEM accumulators of the CTA's 128
// rows (ring and accumulators are per CTA); one tcgen05.mma.cta_group::2 with the pair's M = 256
// (PTX ISA: M = 128 or 256 with cta_group::2, each CTA's TMEM holding M / 2 rows); persistent grid.
// PAIR-LABEL: tile.pipeline @pair target "sm_100a" block [192, 1, 1] cluster [2, 1, 1]
// PAIR-NEXT:    tile.ring slots {{[0-9]+}} slice_k 64 a [128, 64] bf16 row b [128, 64] bf16 col
// PAIR-NEXT:    tile.accumulators 2 x [128, 256] f32 in tmem
// PAIR:         tile.role mma warps [1, 1] issues <tcgen05 [256, 256, 16] bf16 x bf16 -> f32, cta_group = 2>
// PAIR:         tile.schedule tiles [256, 256] slice_k 64 grid persistent
