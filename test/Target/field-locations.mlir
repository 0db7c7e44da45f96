// A target rule that a description breaks is reported at the field it names, at that field's line and column; a rule about a field left out (a default) is reported at the op.
// RUN: %tilegen-opt %s --tile-check-target -verify-diagnostics
// RUN: not %tilegen-opt %s --tile-check-target 2>&1 | FileCheck %s

// tile
tile.gemm @tile_m {
  a = bf16 row, b = bf16 col, c = bf16 row,
  schedule = warp_specialized, target = "sm_90a",
  // CHECK: field-locations.mlir:[[@LINE+2]]:3: error: 'tile.gemm' op tile M = 96 is no multiple of 64
  // expected-error @+1 {{tile M = 96 is no multiple of 64}}
  tile = [96, 128, 64]
}

// stages
tile.gemm @ring {
  a = bf16 row, b = bf16 col, c = bf16 row,
  // CHECK: field-locations.mlir:[[@LINE+2]]:26: error: 'tile.gemm' op the ring does not fit in shared memory on target sm_120
  // expected-error @+1 {{the ring does not fit in shared memory on target sm_120}}
  tile = [128, 256, 64], stages = 4, schedule = multistage,
  target = "sm_120"
}

// schedule
tile.gemm @ws {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64],
  // CHECK: field-locations.mlir:[[@LINE+2]]:21: error: 'tile.gemm' op schedule = warp_specialized with mma.sync needs TMA
  // expected-error @+1 {{schedule = warp_specialized with mma.sync needs TMA}}
  target = "sm_86", schedule = warp_specialized
}

// cluster
tile.gemm @cluster {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64],
  target = "sm_80",
  // CHECK: field-locations.mlir:[[@LINE+2]]:3: error: 'tile.gemm' op cluster = [2, 1, 1] has 2 CTAs; target sm_80 allows at most 1
  // expected-error @+1 {{cluster = [2, 1, 1] has 2 CTAs; target sm_80 allows at most 1}}
  cluster = [2, 1, 1]
}

// warps
tile.gemm @warps {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], target = "sm_90",
  // CHECK: field-locations.mlir:[[@LINE+2]]:3: error: 'tile.gemm' op tile M = 128 does not split into warps = [3, 2]
  // expected-error @+1 {{tile M = 128 does not split into warps = [3, 2]}}
  warps = [3, 2]
}

// alignment
tile.gemm @align {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], target = "sm_90a",
  // CHECK: field-locations.mlir:[[@LINE+2]]:17: error: 'tile.gemm' op not supported yet: alignment = 4 with copy = tma
  // expected-error @+1 {{not supported yet: alignment = 4 with copy = tma}}
  copy = tma,   alignment = 4
}

// target
tile.gemm @target {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64],
  // CHECK: field-locations.mlir:[[@LINE+2]]:3: error: 'tile.gemm' op unknown target 'sm_91'
  // expected-error @+1 {{unknown target 'sm_91'}}
  target = "sm_91"
}

// a default: `stages` is left out (auto), so the op is the place
// CHECK: field-locations.mlir:[[@LINE+2]]:1: error: 'tile.gemm' op stages = auto: not even 2 stages fit on target sm_120
// expected-error @+1 {{stages = auto: not even 2 stages fit on target sm_120}}
tile.gemm @default {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [128, 256, 128], schedule = multistage, target = "sm_120"
}
