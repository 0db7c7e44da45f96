// The Hopper kernel with grid = stream_k, for few output tiles (small M, as in LLM decode):
// with fewer 128x256 tiles than SMs the tiles' K-slices are split over all CTAs and the partial
// tiles summed (0.80x cuBLAS at 128x8192x8192 on the H200, against 0.56x for the persistent
// grid); with full waves it runs whole tiles, 4-7% slower than grid = persistent
// (bench/RESULTS.md), so the default example keeps the persistent grid.
tile.gemm @gemm_bf16_streamk_sm90a {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = 4, accumulators = 1,
  schedule = warp_specialized, grid = stream_k, raster = row, swizzle = 16
}
