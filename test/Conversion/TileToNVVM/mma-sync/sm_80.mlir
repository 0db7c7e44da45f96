// On sm_80 the default example lowers to one llvm.func kernel: a 4-slot cp.async ring (3 groups in flight before the loop), per K-slice 2 x (4 A + 2 B ldmatrix.x4, 16 bf16 m16n8k16 mma.sync), and no tile op left.
// RUN: %tilegen %examples/gemm_bf16_multistage.mlir --target=sm_80 --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.'
// RUN: %tilegen %examples/gemm_bf16_multistage.mlir --target=sm_80 --emit=nvvm-scf | grep -c 'nvvm.mma.sync' | FileCheck %s --check-prefix=MMAS
// MMAS: {{^32$}}

// CHECK:       llvm.mlir.global external @__tilegen_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @gemm_bf16_multistage(
// CHECK-SAME:    %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: f32)
// CHECK-SAME:    nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK-SAME:    tilegen.smem = 65536 : i64, tilegen.target = "sm_80"
// CHECK:         [[SMEM:%.+]] = llvm.mlir.addressof @__tilegen_smem : !llvm.ptr<3>
// CHECK:         [[TID:%.+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         nvvm.read.ptx.sreg.ctaid.x
// CHECK:         scf.for

// Prologue: stages - 1 = 3 slices in flight, one commit group each, 16-byte cache-global copies.
// CHECK:           nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = {{ *}}cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK:           nvvm.cp.async.commit.group
// CHECK:           nvvm.cp.async.commit.group
// CHECK:           nvvm.cp.async.commit.group

// Main loop over K-slices: wait for the oldest group (stages - 2 may stay in flight), barrier, refill, multiply.
// CHECK:           scf.for %{{.*}} iter_args(
// CHECK-NEXT:        nvvm.cp.async.wait.group 2
// CHECK-NEXT:        nvvm.barrier0
// CHECK:             nvvm.cp.async.shared.global
// CHECK:             nvvm.cp.async.commit.group
// CHECK-COUNT-6:     nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-16:    nvvm.mma.sync A[%{{.*}}]  B[%{{.*}}]  C[%{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-6:     nvvm.ldmatrix
// CHECK-COUNT-16:    nvvm.mma.sync
// CHECK:             scf.yield

// Drain, then the epilogue: alpha * acc + beta * C, converted to bf16, stored with bounds checks.
// CHECK:           nvvm.cp.async.wait.group 0
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:           llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
// CHECK:         llvm.return
