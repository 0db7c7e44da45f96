// `schedule = auto` resolves a 64-row tile on sm_90a to the warp-specialised wgmma kernel with one consumer warpgroup (warps = [1, 1]), as it resolves the 128-row tile to two; where the target has TMA but no wgmma (sm_90, sm_120a) it is the warp-specialised mma.sync kernel (a TMA producer warp) when the description allows it, else multistage; without TMA (sm_86) always multistage.
// RUN: %tilegen-opt %s --tile-check-target=target=sm_90a | FileCheck %s --check-prefix=SM90A
// RUN: %tilegen-opt %s --tile-check-target=target=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: %tilegen-opt %s --tile-check-target=target=sm_120a | FileCheck %s --check-prefix=SM120A
// RUN: %tilegen-opt %s --tile-check-target=target=sm_86 | FileCheck %s --check-prefix=SM86

// SM90A-LABEL: tile.gemm @rows64 {
// SM90A:         schedule = warp_specialized, copy = tma, warps = [1, 1], mma = [64, 256, 16],
// SM90-LABEL:  tile.gemm @rows64 {
// SM90:          schedule = warp_specialized, copy = tma, warps = [2, 4], mma = [16, 8, 16],
// SM86-LABEL:  tile.gemm @rows64 {
// SM86:          schedule = multistage, copy = cp_async, warps = [2, 4], mma = [16, 8, 16],
tile.gemm @rows64 {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [64, 256, 64], schedule = auto
}

// SM90A-LABEL: tile.gemm @rows128 {
// SM90A:         schedule = warp_specialized, copy = tma, warps = [2, 1], mma = [64, 256, 16],
// SM90-LABEL:  tile.gemm @rows128 {
// SM90:          tile = [128, 256, 64], stages = 3, accumulators = 1,
// SM90-NEXT:     schedule = warp_specialized, copy = tma, warps = [2, 4], mma = [16, 8, 16],
// The TMA ring with its epilogue staging does not fit 99 KB: multistage, 2 stages.
// SM120A-LABEL: tile.gemm @rows128 {
// SM120A:         tile = [128, 256, 64], stages = 2, accumulators = 1,
// SM120A-NEXT:    schedule = multistage, copy = cp_async, warps = [2, 4], mma = [16, 8, 16],
tile.gemm @rows128 {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [128, 256, 64], schedule = auto
}

// A 128x128 tile fits 99 KB with the TMA ring: 2 stages of 32 KB and 16 KB of staging.
// SM120A-LABEL: tile.gemm @fits99 {
// SM120A:         tile = [128, 128, 64], stages = 2, accumulators = 1,
// SM120A-NEXT:    schedule = warp_specialized, copy = tma, warps = [2, 4], mma = [16, 8, 16],
tile.gemm @fits99 {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [128, 128, 64], schedule = auto
}

// Rows aligned to 2 bytes: TMA needs 16-byte strides, so the cp.async ring.
// SM90-LABEL: tile.gemm @align1 {
// SM90:         schedule = multistage, copy = cp_async,
// SM120A-LABEL: tile.gemm @align1 {
// SM120A:         schedule = multistage, copy = cp_async,
tile.gemm @align1 {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [128, 128, 64], alignment = 1, schedule = auto
}

// K-slice rows of 64 bytes (not the 128-byte swizzle span the TMA-fed kernel reads): multistage.
// SM90-LABEL: tile.gemm @k32 {
// SM90:         schedule = multistage, copy = cp_async,
tile.gemm @k32 {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [128, 128, 32], schedule = auto
}

