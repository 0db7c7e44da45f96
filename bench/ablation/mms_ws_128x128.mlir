// mma.sync on sm_90, warp-specialised, 128x128x64 tiles, 8 consumer warps of 64x32, 4 stages
tile.gemm @mms_ws_128x128 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 64], stages = 4, schedule = warp_specialized, mma = [16, 8, 16],
  grid = persistent, raster = row, swizzle = 16, target = "sm_90"
}
