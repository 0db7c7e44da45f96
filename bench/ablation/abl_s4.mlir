// stages 4 (the most that fit with the 32 KB epilogue buffers); the reference variant
tile.gemm @abl_s4 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 4, accumulators = 1, grid = persistent, swizzle = 8
}
