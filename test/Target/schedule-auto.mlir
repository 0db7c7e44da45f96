// `schedule = auto` resolves a 64-row tile on sm_90a to the warp-specialised wgmma kernel with one consumer warpgroup (warps = [1, 1]), as it resolves the 128-row tile to two; where the target has no wgmma it is the multistage mma.sync kernel.
// RUN: %tilegen-opt %s --tile-check-target=target=sm_90a | FileCheck %s --check-prefix=SM90A
// RUN: %tilegen-opt %s --tile-check-target=target=sm_90 | FileCheck %s --check-prefix=SM90

// SM90A-LABEL: tile.gemm @rows64 {
// SM90A:         schedule = warp_specialized, copy = tma, warps = [1, 1], mma = [64, 256, 16],
// SM90-LABEL:  tile.gemm @rows64 {
// SM90:          schedule = multistage, copy = cp_async,
tile.gemm @rows64 {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [64, 256, 64], schedule = auto
}

// SM90A-LABEL: tile.gemm @rows128 {
// SM90A:         schedule = warp_specialized, copy = tma, warps = [2, 1], mma = [64, 256, 16],
tile.gemm @rows128 {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [128, 256, 64], schedule = auto
}
