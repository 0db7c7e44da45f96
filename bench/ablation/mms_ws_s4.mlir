// mma.sync on sm_90, warp-specialised as mms_ws with 4 stages (192 KB of ring)
tile.gemm @mms_ws_s4 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = 4, schedule = warp_specialized, mma = [16, 8, 16],
  grid = persistent, raster = row, swizzle = 16, target = "sm_90"
}
