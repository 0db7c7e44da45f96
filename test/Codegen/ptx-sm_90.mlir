// The wide 128x256x64 example's PTX for sm_90: PTX ISA 8.0, exactly 128 mma.sync and 32 ldmatrix.x4 per K-slice (4 k16 steps x (4 x 8) MMAs; 4 A + 4 B loads), 36 cp.async in 3 commit groups, wait_group 1 in the loop.
// RUN: %tilegen %examples/gemm_bf16_128x256x64_3stage.mlir --target=sm_90 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=MMA
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=LDM
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CPASYNC
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=COMMIT

// CHECK:      .version 8.0
// CHECK-NEXT: .target sm_90{{$}}
// CHECK:      .visible .entry gemm_bf16_128x256x64_3stage(
// CHECK:      .maxntid 256, 1, 1
// CHECK-DAG:  cp.async.commit_group;
// CHECK-DAG:  ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG:  mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK:      cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;
// CHECK:      cp.async.wait_group 0;

// COMMIT-COUNT-3: cp.async.commit_group;
// COMMIT-NOT:     cp.async.commit_group

// MMA-COUNT-128: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// MMA-NOT:       mma.sync

// LDM-COUNT-32: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// LDM-NOT:      ldmatrix

// CPASYNC-COUNT-36: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CPASYNC-NOT:      cp.async.cg
