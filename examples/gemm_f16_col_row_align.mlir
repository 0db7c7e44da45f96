// Per-operand alignment with M- and N-contiguous operands: A column-major (M contiguous) with
// alignment 2 (M a multiple of 2: 4-byte cp.async), B row-major (N contiguous) with alignment 1
// (any N: single-element loads). Both are loaded into shared memory as they are stored and
// transposed by ldmatrix.trans. f32 output.
tile.gemm @gemm_f16_col_row_align {
  a = f16 col, b = f16 row, c = f32 row, accumulator = f32,
  tile = [128, 128, 32], stages = 3, schedule = multistage,
  alignment = [2, 1]
}
