// The default example's PTX for sm_80: PTX ISA 7.0, a 256-thread kernel on dynamic shared memory, exactly 32 bf16 m16n8k16 mma.sync, 12 ldmatrix.x4, 16 cp.async of 16 bytes in 4 commit groups, and the two CTA barriers.
// RUN: %tilegen %examples/gemm_bf16_multistage.mlir --target=sm_80 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=MMA
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=LDM
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CPASYNC
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=OPERANDS
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=WAIT

// CHECK:      .version 7.0
// CHECK-NEXT: .target sm_80
// CHECK-NEXT: .address_size 64
// CHECK:      .extern .shared .align 1024 .b8 __tilegen_smem[];
// CHECK:      .visible .entry gemm_bf16_multistage(
// CHECK-NEXT:   .param .u64 .ptr .global .align 1 gemm_bf16_multistage_param_0,
// CHECK-COUNT-3: .param .u64 .ptr .global .align 1 gemm_bf16_multistage_param_{{[1-3]}},
// CHECK-COUNT-3: .param .u32 gemm_bf16_multistage_param_{{[4-6]}},
// CHECK-NEXT:   .param .f32 gemm_bf16_multistage_param_7,
// CHECK-NEXT:   .param .f32 gemm_bf16_multistage_param_8
// CHECK-NEXT: )
// CHECK-NEXT: .maxntid 256, 1, 1
// The PTX block order is LLVM's, so the body is checked by presence (DAG); counts below.
// CHECK-DAG:  cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// CHECK-DAG:  cp.async.commit_group;
// CHECK-DAG:  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// CHECK-DAG:  mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-DAG:  cvt.rn.bf16.f32
// CHECK-DAG:  st.global.b32
// In the K loop: wait until at most stages - 2 = 2 groups are in flight, then a CTA barrier.
// WAIT:      cp.async.wait_group 2;
// WAIT-NEXT: bar.sync 0;
// WAIT:      cp.async.wait_group 0;
// CHECK:      ret;

// One mma.sync: D (4 x f32), A (4 x b32 = 8 bf16), B (2 x b32 = 4 bf16), C (4 x f32), every value in a 32-bit register.
// OPERANDS:      mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// OPERANDS-NEXT:   {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// OPERANDS-NEXT:   {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}},
// OPERANDS-NEXT:   {%r{{[0-9]+}}, %r{{[0-9]+}}},
// OPERANDS-NEXT:   {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};

// MMA-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// MMA-NOT:      mma.sync

// LDM-COUNT-12: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// LDM-NOT:      ldmatrix

// CPASYNC-COUNT-16: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CPASYNC-NOT:      cp.async.cg
