// alignment travels from tile.gemm into the plan's ring (`align [a, b]`, only below 16 bytes), makes schedule = auto pick mma.sync on TMA targets, and a plan with it given as input is accepted as the one tilegen builds.
// RUN: %tilegen %s --target=sm_90a --emit=pipeline | FileCheck %s --check-prefix=SM90A
// RUN: %tilegen %s --target=sm_100a --emit=pipeline | FileCheck %s --check-prefix=SM100A
// RUN: %tilegen %s --target=sm_90a --emit=tile | FileCheck %s --check-prefix=TILE
// RUN: %tilegen %s --target=sm_90a --emit=pipeline | %tilegen-opt --tile-lower-to-nvvm | FileCheck %s --check-prefix=LOWERED

// Below 16 bytes: the mma.sync schedule, the ring carries the alignment.
// SM90A-LABEL: tile.pipeline @narrow target "sm_90a" block [256, 1, 1]
// SM90A-NEXT:    tile.ring slots {{[0-9]+}} slice_k 64 a [128, 64] bf16 row b [256, 64] bf16 col align [2, 2] sync cp_async_groups swizzle xor16x8
// SM90A:         tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32>
// SM100A-LABEL: tile.pipeline @narrow target "sm_100a"
// SM100A-NEXT:    tile.ring {{.*}} align [2, 2] sync cp_async_groups swizzle xor16x8
// SM100A:         tile.role mma {{.*}} issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32>
// TILE-LABEL: tile.gemm @narrow {
// TILE:         schedule = multistage, copy = cp_async,
// TILE:         alignment = 2, target = "sm_90a"
tile.gemm @narrow { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], alignment = 2 }

// 16 bytes written out: the plan of the default, wgmma on sm_90a, no align in the ring.
// SM90A-LABEL: tile.pipeline @wide target "sm_90a" block [384, 1, 1]
// SM90A-NEXT:    tile.ring {{.*}} bf16 col sync mbarrier_full_empty swizzle b128
// SM90A:         tile.role mma warps [4, 8] issues <wgmma
tile.gemm @wide { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], alignment = 8 }

// Per operand, FP8: bytes = elements.
// SM90A-LABEL: tile.pipeline @fp8_mixed target "sm_90a"
// SM90A-NEXT:    tile.ring {{.*}} align [1, 16] sync cp_async_groups
// SM90A:         tile.role mma {{.*}} issues <mma_sync [16, 8, 32] f8E4M3FN x f8E4M3FN -> f32
tile.gemm @fp8_mixed { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 tensor, scale_b = f32 tensor, tile = [128, 128, 64], alignment = [1, 16] }

// LOWERED-DAG: llvm.func @narrow(
// LOWERED-DAG: llvm.func @wide(
// LOWERED-DAG: llvm.func @fp8_mixed(
