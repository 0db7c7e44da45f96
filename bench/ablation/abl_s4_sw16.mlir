// stages 4, tile groups of 16 along M for L2 reuse (the default example's choice)
tile.gemm @abl_s4_sw16 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 4, accumulators = 1, grid = persistent, swizzle = 16
}
