// mma.sync on sm_90, multistage: every warp copies with cp.async (128x256x64, 3 stages, 8 warps)
tile.gemm @mms_multistage {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = 3, schedule = multistage,
  grid = persistent, raster = row, swizzle = 16, target = "sm_90"
}
