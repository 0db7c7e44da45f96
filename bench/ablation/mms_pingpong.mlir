// mma.sync on sm_90, warp-specialised ping-pong: two groups of 4 warps, 128x128x64 tiles in turn
tile.gemm @mms_pingpong {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 64], stages = 4, accumulators = 2, schedule = warp_specialized,
  mma = [16, 8, 16], grid = persistent, raster = row, swizzle = 16, target = "sm_90"
}
