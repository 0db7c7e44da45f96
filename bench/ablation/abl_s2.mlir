// stages 2
tile.gemm @abl_s2 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 2, accumulators = 1, grid = persistent, swizzle = 8
}
