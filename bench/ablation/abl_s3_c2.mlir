// cluster [2, 1, 1], 3 stages
tile.gemm @abl_s3_c2 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 3, accumulators = 1, grid = persistent, swizzle = 8, cluster = [2, 1, 1], multicast = b
}
