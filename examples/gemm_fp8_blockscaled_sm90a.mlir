// Block-scaled FP8 (DeepSeek-style): E4M3 operands with one f32 scale per row of A and per
// 128 x 128 block of B, each over 128 elements of K:
// D = alpha * sum_kb sa(m, kb) sb(n, kb) (A x B)[K block kb] + beta * C, stored as bf16.
// sm_90a only: each consumer warpgroup issues a K block's wgmma ... .e4m3 into one of two
// further sets of f32 accumulators and, while the next K block's wgmmas run, promotes it into
// the sum with one FMA per value (so the tile's accumulators are held three times: 128 x 128
// with two consumers is 3 x 64 registers per thread). The scales' layout in memory is in
// docs/manifest.md.
tile.gemm @gemm_fp8_blockscaled_sm90a {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f32 [1, 128], scale_b = f32 [128, 128],
  tile = [128, 128, 128], stages = auto, schedule = warp_specialized,
  grid = persistent, raster = row, swizzle = 16
}
