// 6- and 4-bit operands on sm_120a (.kind::f8f6f4, no scales): the producer arms each slice with the packed bytes TMA brings (128 rows x 128 e3m2 = 12288, 128 x 128 e2m1 = 8192), the tensor maps name the padded forms, the consumers load A with ldmatrix m8n16 .b8x16.b6x16_p32 and B with .b8x16.b4x16_p64, shift each e2m1 register left by 2 and mask it to 0x3C per byte (0x3C3C3C3C = 1010580540), and call the .kind.f8f6f4 intrinsic; the e3m2 registers go to the MMA as loaded. On sm_120 the description is refused.
// RUN: %tilegen %s --target=sm_120a --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.' --implicit-check-not=nvvm.mma.sync --implicit-check-not=nvvm.cp.async.shared.global
// RUN: not %tilegen %s --target=sm_120 --emit=nvvm-scf 2>&1 | FileCheck %s --check-prefix=SM120

tile.gemm @fp6_fp4 {
  a = f6E3M2FN row, b = f4E2M1FN col, c = bf16 row,
  tile = [128, 128, 128], mma = [16, 8, 32], warps = [4, 2], stages = 2
}

// CHECK-LABEL: llvm.func @fp6_fp4(
// CHECK-SAME:    tilegen.constraints = [{dim = "K", multiple = 128 : i64
// CHECK-SAME:    smem_form = "16u6_align16b"
// CHECK-SAME:    smem_form = "16u4_align16b"
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c20480_i32
// A: two m16 blocks of e3m2 (ldmatrix as loaded), B: four pairs of n8 columns of e2m1 (shifted).
// CHECK:         nvvm.ldmatrix {{.*}}eltType = #nvvm.ld_st_matrix_elt_type<b8x16.b6x16_p32>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 16>
// CHECK-NOT:     arith.shli
// CHECK:         nvvm.ldmatrix {{.*}}eltType = #nvvm.ld_st_matrix_elt_type<b8x16.b6x16_p32>
// CHECK:         %[[B:.*]] = nvvm.ldmatrix {{.*}}eltType = #nvvm.ld_st_matrix_elt_type<b8x16.b4x16_p64>
// CHECK:         %[[W:.*]] = llvm.extractvalue %[[B]][0]
// CHECK:         %[[S:.*]] = arith.shli %[[W]], %c2_i32 : i32
// CHECK:         %[[C:.*]] = arith.andi %[[S]], %c1010580540_i32 : i32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.kind.f8f6f4.f32.e3m2.e2m1.f32"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[C]], %{{.*}}, %{{.*}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>

// SM120: error: 'tile.gemm' op a = 'f6E3M2FN', b = 'f4E2M1FN' has no mma.sync instruction on target sm_120 (mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32 needs sm_120a (6- and 4-bit types; plain sm_120 has none)); its mma.sync takes bf16, f16, e4m3, e5m2
