// --tile-check-target=target= overrides the description's own target field, and an unknown or missing target is reported with the known names.
// RUN: %tilegen-opt %s --tile-check-target=target=sm_80 | FileCheck %s --check-prefix=OVERRIDE
// RUN: %tilegen-opt %s --tile-check-target | FileCheck %s --check-prefix=FIELD
// RUN: not %tilegen-opt %s --tile-check-target=target=sm_91 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %tilegen-opt %S/Inputs/no-target.mlir --tile-check-target -verify-diagnostics

// OVERRIDE: target = "sm_80"
// FIELD: target = "sm_120a"
// UNKNOWN: error: 'tile.gemm' op unknown target 'sm_91'; known targets: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_103a, sm_120, sm_120a
tile.gemm @g {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], target = "sm_120a"
}
