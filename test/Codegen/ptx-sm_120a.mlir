// The f16 B-row example's PTX for sm_120a: PTX ISA 8.7, f16 m16n8k16 mma.sync, B's fragments through ldmatrix .trans (4 of 12), f32 output stored as pairs.
// RUN: %tilegen %examples/gemm_f16_brow_f32out_beta.mlir --target=sm_120a --emit=ptx -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=MMA
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=LDM
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=TRANS

// CHECK:      .version 8.7
// CHECK-NEXT: .target sm_120a
// CHECK:      .visible .entry gemm_f16_brow_f32out_beta(
// CHECK-DAG:  cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16,
// CHECK-DAG:  ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG:  ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-DAG:  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-DAG:  st.global.v2.b32
// CHECK:      cp.async.wait_group 1;
// CHECK-NEXT: bar.sync 0;

// MMA-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MMA-NOT:      mma.sync

// LDM-COUNT-12: ldmatrix.sync.aligned.m8n8.x4{{(.trans)?}}.shared.b16
// LDM-NOT:      ldmatrix

// TRANS-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// TRANS-NOT:     .trans
