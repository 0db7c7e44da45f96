// ping-pong with cluster [2, 1, 1]
tile.gemm @abl_pp_c2 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 128, 64], stages = 4, accumulators = 2, grid = persistent, swizzle = 8, cluster = [2, 1, 1], multicast = b
}
