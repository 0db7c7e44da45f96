// The Hopper kernel: TMA ring + warp-specialised wgmma (sm_90a). Cooperative: two consumer
// warpgroups split each 128x256 tile; persistent grid over the output tiles.
tile.gemm @gemm_bf16_sm90a_ws {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = 4, accumulators = 1,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
