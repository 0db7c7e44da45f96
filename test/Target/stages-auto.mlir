// `stages = auto` resolves to a number that depends on the target: the 99 KB shared-memory budget of sm_120 holds fewer 48 KB slots than the 227 KB of sm_90.
// RUN: %tilegen-opt %s --tile-check-target=target=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: %tilegen-opt %s --tile-check-target=target=sm_120 | FileCheck %s --check-prefix=SM120
// RUN: %tilegen-opt %s --tile-check-target=target=sm_80 | FileCheck %s --check-prefix=SM80

// 128x256x64 bf16: one slot is A 16 KB + B 32 KB = 48 KB.
// SM90-LABEL: tile.gemm @wide {
// SM90:         tile = [128, 256, 64], stages = 3,
// SM90:         schedule = multistage, copy = cp_async, warps = [2, 4], mma = [16, 8, 16],
// SM90:         target = "sm_90"
// SM120-LABEL: tile.gemm @wide {
// SM120:        tile = [128, 256, 64], stages = 2,
// SM120:        target = "sm_120"
// SM80-LABEL:  tile.gemm @wide {
// SM80:         tile = [128, 256, 64], stages = 3,
tile.gemm @wide {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [128, 256, 64], stages = auto, schedule = multistage
}

// An explicit stage count is kept as written.
// SM90-LABEL: tile.gemm @fixed {
// SM90:         tile = [128, 128, 32], stages = 3,
// SM120-LABEL: tile.gemm @fixed {
// SM120:        tile = [128, 128, 32], stages = 3,
tile.gemm @fixed {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [128, 128, 32], stages = 3, schedule = multistage
}
