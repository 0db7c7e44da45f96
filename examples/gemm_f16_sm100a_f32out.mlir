// Blackwell, f16 in, f32 out, beta = 1 (D = A B + C): a 128 x 128 tile, 6-slot ring, one CTA per
// tile; beta != 0 reads C and stores D straight from the tcgen05.ld registers.
tile.gemm @gemm_f16_sm100a_f32out {
  a = f16 row, b = f16 col, c = f32 row, accumulator = f32, beta = 1.0,
  tile = [128, 128, 64], stages = 6, accumulators = 1,
  schedule = warp_specialized, grid = tiles
}
