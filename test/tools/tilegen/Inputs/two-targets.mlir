// A bf16 GEMM for the mma.sync path: D = alpha * A x B + beta * C, A row-major (M x K),
// B column-major (K contiguous), bf16 out, f32 accumulation. Runs on sm_80 ... sm_120a.
tile.gemm @gemm_bf16_multistage {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 32], stages = 4,
  schedule = multistage, grid = tiles, raster = row, swizzle = 8
, target = "sm_120a" }
// A bf16 GEMM for the mma.sync path: D = alpha * A x B + beta * C, A row-major (M x K),
// B column-major (K contiguous), bf16 out, f32 accumulation. Runs on sm_80 ... sm_120a.
tile.gemm @other {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 32], stages = 4,
  schedule = multistage, grid = tiles, raster = row, swizzle = 8
, target = "sm_80" }
