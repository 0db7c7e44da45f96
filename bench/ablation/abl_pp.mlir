// accumulators 2 (ping-pong): each consumer warpgroup takes whole 128 x 128 tiles in turn
tile.gemm @abl_pp {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 128, 64], stages = 4, accumulators = 2, grid = persistent, swizzle = 8
}
