// cluster [2, 1, 1] with B multicast, with the default example's tile groups of 16
tile.gemm @abl_s4_c2_sw16 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 4, accumulators = 1, grid = persistent,
  cluster = [2, 1, 1], multicast = b, swizzle = 16
}
