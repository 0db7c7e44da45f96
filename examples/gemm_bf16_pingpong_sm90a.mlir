// The Hopper kernel with ping-pong consumers (accumulators = 2): each consumer warpgroup takes
// whole 128x128 tiles in turn, so one's epilogue overlaps the other's MMAs; 5 ring stages.
// (724-752 TFLOP/s at 4096^3 on the H200, below the cooperative default's 790: bench/RESULTS.md.)
tile.gemm @gemm_bf16_pingpong_sm90a {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 64], stages = 5, accumulators = 2,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
