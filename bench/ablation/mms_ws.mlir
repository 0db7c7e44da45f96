// mma.sync on sm_90, warp-specialised: TMA producer warp + 8 consumer warps (128x256x64, 3 stages)
tile.gemm @mms_ws {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = 3, schedule = warp_specialized, mma = [16, 8, 16],
  grid = persistent, raster = row, swizzle = 16, target = "sm_90"
}
