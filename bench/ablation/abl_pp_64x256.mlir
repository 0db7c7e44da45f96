// ping-pong (accumulators 2) on 64 x 256 tiles: one m64n256 accumulator per consumer warpgroup, 4 stages
tile.gemm @abl_pp_64x256 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [64, 256, 64], stages = 4, accumulators = 2, grid = persistent, swizzle = 16
}
