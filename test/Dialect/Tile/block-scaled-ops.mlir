// The block-scaled descriptions (MXFP8, MXFP4, NVFP4 with its per-tensor factor, mixed FP8 x FP4, bf16 x MXFP4 with upcast) parse, verify and print back as written.
// RUN: %tilegen-opt %s | FileCheck %s
// RUN: %tilegen-opt %s | %tilegen-opt | FileCheck %s

// CHECK-LABEL: tile.gemm @mxfp8
// CHECK: a = f8E4M3FN row, b = f8E5M2 col, c = bf16 row, accumulator = f32,
// CHECK-NEXT: scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32],
tile.gemm @mxfp8 { a = f8E4M3FN row, b = f8E5M2 col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128] }

// CHECK-LABEL: tile.gemm @nvfp4
// CHECK: a = f4E2M1FN row, b = f4E2M1FN col,
// CHECK-NEXT: scale_a = f8E4M3FN [1, 16] * f32 tensor, scale_b = f8E4M3FN [1, 16],
tile.gemm @nvfp4 { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E4M3FN [1, 16] * f32 tensor, scale_b = f8E4M3FN [1, 16], tile = [128, 128, 256] }

// CHECK-LABEL: tile.gemm @fp8_x_fp6
// CHECK: a = f8E4M3FN row, b = f6E3M2FN col,
tile.gemm @fp8_x_fp6 { a = f8E4M3FN row, b = f6E3M2FN col, c = f32 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128] }

// CHECK-LABEL: tile.gemm @bf16_x_mxfp4
// CHECK: a = bf16 row, b = f4E2M1FN col,
// CHECK-NEXT: scale_b = f8E8M0FNU [1, 32],
// CHECK-NEXT: upcast = bf16,
tile.gemm @bf16_x_mxfp4 { a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E8M0FNU [1, 32], upcast = bf16, tile = [128, 128, 64] }
