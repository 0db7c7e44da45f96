// The Hopper kernel for small M (a few hundred tokens): 64-row tiles, so M = 256 makes four
// tile rows instead of two. One consumer warpgroup holds the whole 64 x 256 accumulator
// (one m64n256 wgmma per K step), beside the TMA producer warpgroup; persistent grid.
tile.gemm @gemm_bf16_64row_sm90a {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [64, 256, 64], stages = auto, accumulators = 1,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
