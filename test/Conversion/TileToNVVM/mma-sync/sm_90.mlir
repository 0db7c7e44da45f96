// On sm_90 (Hopper without `a`: no wgmma) the wide 128x256x64 example lowers to mma.sync: a 3-slot cp.async ring, per K-slice 4 x (4 A + 4 B ldmatrix.x4, 32 mma.sync), 128 mma.sync in all.
// RUN: %tilegen %examples/gemm_bf16_128x256x64_3stage.mlir --target=sm_90 --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.'
// RUN: %tilegen %examples/gemm_bf16_128x256x64_3stage.mlir --target=sm_90 --emit=nvvm-scf | grep -c 'nvvm.mma.sync' | FileCheck %s --check-prefix=MMAS
// RUN: %tilegen %examples/gemm_bf16_128x256x64_3stage.mlir --target=sm_90 --emit=nvvm-scf | grep -c 'nvvm.ldmatrix' | FileCheck %s --check-prefix=LDMATRIX
// MMAS: {{^128$}}
// LDMATRIX: {{^32$}}

// CHECK-LABEL: llvm.func @gemm_bf16_128x256x64_3stage(
// CHECK-SAME:    nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK-SAME:    tilegen.smem = 147456 : i64, tilegen.target = "sm_90", tilegen.tile = array<i64: 128, 256>
// CHECK:         scf.for
// CHECK:           nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = {{ *}}cg
// CHECK:           nvvm.cp.async.commit.group
// CHECK:           nvvm.cp.async.commit.group
// CHECK-NOT:       nvvm.cp.async.commit.group
// CHECK:           scf.for %{{.*}} iter_args(
// CHECK-NEXT:        nvvm.cp.async.wait.group 1
// CHECK-NEXT:        nvvm.barrier0
// CHECK:             nvvm.cp.async.commit.group
// CHECK-COUNT-8:     nvvm.ldmatrix %{{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK-COUNT-32:    nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK:             scf.yield
// CHECK:           nvvm.cp.async.wait.group 0
// CHECK:         llvm.return
