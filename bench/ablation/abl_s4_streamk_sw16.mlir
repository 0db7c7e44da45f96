// grid = stream_k as abl_s4_streamk, with the default example's tile groups of 16
tile.gemm @abl_s4_streamk_sw16 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 4, accumulators = 1, grid = stream_k, swizzle = 16
}
