// A bf16 GEMM for the mma.sync path: D = alpha * A x B + beta * C, A row-major (M x K),
// B column-major (K contiguous), bf16 out, f32 accumulation. Runs on sm_80 ... sm_120a.
tile.gemm @gemm_bf16_multistage {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 32], stages = 4,
  schedule = multistage, grid = tiles, raster = row, swizzle = 8
}
// An f16 GEMM that accumulates into an existing f32 matrix: D = A x B + 1.0 * C, with B row-major
// (N contiguous, so B's fragments are loaded with ldmatrix.trans), f32 output, f32 accumulation.
// beta = 1.0 is the default the manifest records; the kernel takes alpha and beta at run time.
tile.gemm @gemm_f16_brow_f32out_beta {
  a = f16 row, b = f16 row, c = f32 row, accumulator = f32,
  tile = [128, 128, 32], stages = 3,
  schedule = multistage, alpha = 1.0, beta = 1.0
}
