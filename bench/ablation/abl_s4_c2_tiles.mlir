// cluster [2, 1, 1], one CTA pair per pair of tiles
tile.gemm @abl_s4_c2_tiles {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 4, accumulators = 1, grid = tiles, swizzle = 8, cluster = [2, 1, 1], multicast = b
}
