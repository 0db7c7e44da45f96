// stages 1: every load exposed (a one-slot ring retires each batch before releasing it)
tile.gemm @abl_s1 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 1, accumulators = 1, grid = persistent, swizzle = 8
}
