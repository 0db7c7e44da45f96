// In the PTX, A col and B row become ldmatrix .trans and A row and B col plain ldmatrix: of the 12 ldmatrix.x4 per K-slice, 8 are A's and 4 are B's.
// RUN: %tilegen %S/Inputs/a_row_b_row.mlir --target=sm_80 --emit=ptx | FileCheck %s --check-prefix=TRANS4
// RUN: %tilegen %S/Inputs/a_col_b_col.mlir --target=sm_80 --emit=ptx | FileCheck %s --check-prefix=TRANS8
// RUN: %tilegen %S/Inputs/a_col_b_row.mlir --target=sm_80 --emit=ptx | FileCheck %s --check-prefix=TRANS12
// RUN: %tilegen %examples/gemm_bf16_multistage.mlir --target=sm_80 --emit=ptx | FileCheck %s --check-prefix=TRANS0

// TRANS0-NOT: .trans

// TRANS4-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// TRANS4-NOT:     .trans

// TRANS8-COUNT-8: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// TRANS8-NOT:     .trans

// TRANS12-COUNT-12: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// TRANS12-NOT:      ldmatrix
