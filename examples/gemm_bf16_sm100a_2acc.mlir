// Blackwell, two TMEM accumulators (2 x 256 of the 512 columns): the epilogue drains tile t from
// one buffer while tcgen05.mma fills the other with tile t + 1; persistent grid over the tiles.
tile.gemm @gemm_bf16_sm100a_2acc {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = 4, accumulators = 2,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
