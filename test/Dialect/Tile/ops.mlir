// tile.gemm and the pipeline-level ops print what they parse: defaults are filled in, `stages = auto` survives, and the output parses again to the same text.
// RUN: %tilegen-opt %s | %tilegen-opt | FileCheck %s
// RUN: %tilegen %examples/gemm_bf16_multistage.mlir --target=sm_90 --emit=pipeline | %tilegen-opt | %tilegen-opt | FileCheck %s --check-prefix=EMITTED
// RUN: %tilegen %examples/gemm_bf16_multistage.mlir --target=sm_90 --emit=pipeline > %t.pipeline.mlir
// RUN: %tilegen-opt %t.pipeline.mlir > %t.once.mlir
// RUN: %tilegen-opt %t.once.mlir > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// Only the required fields: every other field takes its default.
// CHECK-LABEL: tile.gemm @minimal {
// CHECK-NEXT:    a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
// CHECK-NEXT:    tile = [128, 128, 32], stages = auto, accumulators = 1,
// CHECK-NEXT:    schedule = auto, copy = auto,
// CHECK-NEXT:    cluster = [1, 1, 1], multicast = none, cta_group = 1,
// CHECK-NEXT:    grid = tiles, raster = row, swizzle = 8,
// CHECK-NEXT:    alpha = 1.000000e+00, beta = 0.000000e+00
// CHECK-NEXT:  }
tile.gemm @minimal { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// `stages = auto` written out, fields in any order.
// CHECK-LABEL: tile.gemm @auto_stages {
// CHECK-NEXT:    a = f16 col, b = f16 row, c = f32 row, accumulator = f32,
// CHECK-NEXT:    tile = [64, 128, 64], stages = auto, accumulators = 1,
// CHECK-NEXT:    schedule = multistage, copy = auto,
tile.gemm @auto_stages {
  schedule = multistage, stages = auto, tile = [64, 128, 64],
  c = f32 row, b = f16 row, a = f16 col
}

// Every field given.
// CHECK-LABEL: tile.gemm @all_fields {
// CHECK-NEXT:    a = bf16 row, b = bf16 col, c = bf16 col, accumulator = f32,
// CHECK-NEXT:    tile = [256, 128, 64], stages = 5, accumulators = 2,
// CHECK-NEXT:    schedule = warp_specialized, copy = tma, warps = [1, 1], mma = [256, 128, 16],
// CHECK-NEXT:    cluster = [2, 1, 1], multicast = ab, cta_group = 2,
// CHECK-NEXT:    grid = persistent, raster = col, swizzle = 4,
// CHECK-NEXT:    alpha = 2.500000e-01, beta = -1.000000e+00, target = "sm_100a"
// CHECK-NEXT:  }
tile.gemm @all_fields {
  a = bf16 row, b = bf16 col, c = bf16 col, accumulator = f32,
  tile = [256, 128, 64], stages = 5, accumulators = 2,
  schedule = warp_specialized, copy = tma, warps = [1, 1], mma = [256, 128, 16],
  cluster = [2, 1, 1], multicast = ab, cta_group = 2,
  grid = persistent, raster = col, swizzle = 4,
  alpha = 0.25, beta = -1.0, target = "sm_100a"
}

// `alignment`: printed when given, as one value when A and B share it, else as [a, b].
// CHECK-LABEL: tile.gemm @align_one {
// CHECK:         alpha = 1.000000e+00, beta = 0.000000e+00, alignment = 2
// CHECK-NEXT:  }
tile.gemm @align_one { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alignment = 2 }
// CHECK-LABEL: tile.gemm @align_two {
// CHECK:         alpha = 1.000000e+00, beta = 0.000000e+00, alignment = [1, 8], target = "sm_90"
// CHECK-NEXT:  }
tile.gemm @align_two { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alignment = [1, 8], target = "sm_90" }
// CHECK-LABEL: tile.gemm @align_same {
// CHECK:         alpha = 1.000000e+00, beta = 0.000000e+00, alignment = 4
// CHECK-NEXT:  }
tile.gemm @align_same { a = f16 row, b = f16 col, c = bf16 row, tile = [128, 128, 32], alignment = [4, 4] }

// The pipeline level, as --emit=pipeline prints it for sm_90a (warp-specialised, wgmma).
// CHECK-LABEL: tile.pipeline @pipeline_sm90a target "sm_90a" block [384, 1, 1] cluster [2, 1, 1] smem 229504 attributes {description = "tile.gemm @ws"} {
// CHECK-NEXT:    tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [256, 64] bf16 col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 49152 b_offset 16384 barriers 196608
// CHECK-NEXT:    tile.accumulators 1 x [128, 256] f32 in registers
// CHECK-NEXT:    tile.role producer warps [0, 4] layout [] regs 40
// CHECK-NEXT:    tile.role mma warps [4, 8] issues <wgmma [64, 256, 16] bf16 x bf16 -> f32> layout [2, 1] regs 232
// CHECK-NEXT:    tile.role epilogue warps [4, 8] layout [2, 1] regs 232
// CHECK-NEXT:    tile.schedule tiles [128, 256] slice_k 64 grid tiles raster row swizzle 8
// CHECK-NEXT:    tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 196736 bytes 32768
// CHECK-NEXT:  }
tile.pipeline @pipeline_sm90a target "sm_90a" block [384, 1, 1] cluster [2, 1, 1] smem 229504 attributes {description = "tile.gemm @ws"} {
  tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [256, 64] bf16 col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 49152 b_offset 16384 barriers 196608
  tile.accumulators 1 x [128, 256] f32 in registers
  tile.role producer warps [0, 4] layout [] regs 40
  tile.role mma warps [4, 8] issues <wgmma [64, 256, 16] bf16 x bf16 -> f32> layout [2, 1] regs 232
  tile.role epilogue warps [4, 8] layout [2, 1] regs 232
  tile.schedule tiles [128, 256] slice_k 64 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 196736 bytes 32768
}

// EMITTED-LABEL: tile.pipeline @gemm_bf16_multistage target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "tile.gemm @gemm_bf16_multistage {
// EMITTED-NEXT:    tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
// EMITTED-NEXT:    tile.accumulators 1 x [128, 128] f32 in registers
// EMITTED-NEXT:    tile.role producer warps [0, 8] layout [] regs 0
// EMITTED-NEXT:    tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
// EMITTED-NEXT:    tile.role epilogue warps [0, 8] layout [2, 4] regs 0
// EMITTED-NEXT:    tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
// EMITTED-NEXT:    tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
// EMITTED-NEXT:  }

// alpha and beta take decimal integers and a leading '+' (MLIR's float syntax alone takes
// neither); a hexadecimal literal is the f64 bit pattern, as the generic form prints it.
// CHECK-LABEL: tile.gemm @int_scalars
// CHECK: alpha = 2.000000e+00, beta = -1.000000e+00
tile.gemm @int_scalars { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alpha = 2, beta = -1 }
// CHECK-LABEL: tile.gemm @big_int_scalar
// 10^38 becomes the nearest f64, as the literal 1.0e38 does.
// CHECK: alpha = 9.9999999999999997E+37, beta = 1.500000e+00
tile.gemm @big_int_scalar { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alpha = +100000000000000000000000000000000000000, beta = +0x3FF8000000000000 }
// CHECK-LABEL: tile.gemm @plus_float
// CHECK: alpha = 2.500000e-01, beta = 0.000000e+00
tile.gemm @plus_float { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alpha = +0.25, beta = 0 }

// The largest f32 as C writes it (FLT_MAX, 3.40282347e38) is in range for alpha and beta.
// CHECK-LABEL: tile.gemm @flt_max
// CHECK: alpha = 3.4028234{{[0-9]*}}E+38, beta = -3.4028234{{[0-9]*}}E+38
tile.gemm @flt_max { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alpha = 3.40282347e38, beta = -3.40282347e38 }
