// ping-pong (accumulators 2) on 128 x 128 tiles with 5 stages (the most that fit beside its 64 KB of epilogue buffers)
tile.gemm @abl_pp_s5 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 128, 64], stages = 5, accumulators = 2, grid = persistent, swizzle = 8
}
