// The description verifier takes 6- and 4-bit operands without block scales (the plain .kind::f8f6f4), alone and beside FP8 operands, and prints them back as written; which targets run them is tile-check-target's question.
// RUN: %tilegen-opt %s | FileCheck %s
// RUN: %tilegen-opt %s | %tilegen-opt | FileCheck %s

// CHECK-LABEL: tile.gemm @fp6_fp4
// CHECK: a = f6E3M2FN row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
// CHECK-NOT: scale_
tile.gemm @fp6_fp4 { a = f6E3M2FN row, b = f4E2M1FN col, c = bf16 row, tile = [128, 128, 128] }

// CHECK-LABEL: tile.gemm @fp8_fp6
// CHECK: a = f8E4M3FN row, b = f6E2M3FN col, c = bf16 row, accumulator = f32,
tile.gemm @fp8_fp6 { a = f8E4M3FN row, b = f6E2M3FN col, c = bf16 row, tile = [128, 128, 128] }
