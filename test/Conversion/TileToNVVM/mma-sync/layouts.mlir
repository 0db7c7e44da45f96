// Operand majorness picks ldmatrix's transpose: A row and B col load plain, A col and B row load with .trans (#nvvm.mma_layout<col>); mma.sync itself is always row.col.
// RUN: %tilegen-opt %s -split-input-file --tilegen-pipeline="target=sm_80 stop=nvvm-scf" | FileCheck %s --implicit-check-not='{{^ *}}tile.'

// Per k16 step of a 128x128 tile with warps [2, 4]: 4 ldmatrix.x4 for A (four m16 rows), then 2 for B (32 columns).
// CHECK-LABEL: llvm.func @a_row_b_col(
// CHECK:         scf.for %{{.*}} iter_args(
// CHECK-COUNT-4:   nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-COUNT-2:   nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK:           nvvm.mma.sync {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
tile.gemm @a_row_b_col { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], stages = 3, schedule = multistage }

// -----

// CHECK-LABEL: llvm.func @a_row_b_row(
// CHECK:         scf.for %{{.*}} iter_args(
// CHECK-COUNT-4:   nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-COUNT-2:   nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHECK:           nvvm.mma.sync {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
tile.gemm @a_row_b_row { a = bf16 row, b = bf16 row, c = bf16 row, tile = [128, 128, 32], stages = 3, schedule = multistage }

// -----

// CHECK-LABEL: llvm.func @a_col_b_col(
// CHECK:         scf.for %{{.*}} iter_args(
// CHECK-COUNT-4:   nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHECK-COUNT-2:   nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK:           nvvm.mma.sync {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
tile.gemm @a_col_b_col { a = bf16 col, b = bf16 col, c = bf16 row, tile = [128, 128, 32], stages = 3, schedule = multistage }

// -----

// CHECK-LABEL: llvm.func @a_col_b_row(
// CHECK:         scf.for %{{.*}} iter_args(
// CHECK-COUNT-4:   nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHECK-COUNT-2:   nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHECK:           nvvm.mma.sync {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
tile.gemm @a_col_b_row { a = bf16 col, b = bf16 row, c = bf16 row, tile = [128, 128, 32], stages = 3, schedule = multistage }
