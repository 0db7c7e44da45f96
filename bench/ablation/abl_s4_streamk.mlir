// stages 4, grid = stream_k: whole tiles in data-parallel waves, the last partial wave split by K-slices over all CTAs (partials summed through a workspace)
tile.gemm @abl_s4_streamk {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 4, accumulators = 1, grid = stream_k, swizzle = 16
}
