// stages 4, one CTA per output tile instead of a persistent grid
tile.gemm @abl_s4_tiles {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 4, accumulators = 1, grid = tiles, swizzle = 8
}
