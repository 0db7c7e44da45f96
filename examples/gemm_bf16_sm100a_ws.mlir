// The Blackwell kernel (sm_100a, sm_103a): TMA ring + one thread issuing tcgen05.mma into Tensor
// Memory; producer warp, MMA warp, epilogue warpgroup; one 128 x 256 accumulator; one CTA per tile.
tile.gemm @gemm_bf16_sm100a_ws {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = 4, accumulators = 1,
  schedule = warp_specialized, grid = tiles, raster = row, swizzle = 8
}
