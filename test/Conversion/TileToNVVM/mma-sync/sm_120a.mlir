// On sm_120a (RTX 50: mma.sync only) the f16 example with row-major B lowers to f16 m16n8k16 mma.sync fed by ldmatrix (A) and ldmatrix.trans (B, layout col), with an f32 output.
// RUN: %tilegen %examples/gemm_f16_brow_f32out_beta.mlir --target=sm_120a --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.'

// CHECK-LABEL: llvm.func @gemm_f16_brow_f32out_beta(
// CHECK-SAME:    nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK-SAME:    tilegen.target = "sm_120a"
// CHECK:         scf.for
// CHECK:           nvvm.cp.async.commit.group
// CHECK:           nvvm.cp.async.commit.group
// CHECK:           scf.for %{{.*}} iter_args(
// CHECK-NEXT:        nvvm.cp.async.wait.group 1
// CHECK-NEXT:        nvvm.barrier0
// CHECK-COUNT-4:     nvvm.ldmatrix %{{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK-COUNT-2:     nvvm.ldmatrix %{{.*}}layout = #nvvm.mma_layout<col>, num = 4 : i32
// CHECK-COUNT-16:    nvvm.mma.sync A[%{{.*}}]  B[%{{.*}}]  C[%{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK:             scf.yield
// CHECK:           nvvm.cp.async.wait.group 0
// CHECK:           llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK:         llvm.return
