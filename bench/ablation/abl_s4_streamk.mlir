// stages 4, grid = stream_k: with fewer tiles than CTAs their K-slices are split over all CTAs (partial tiles summed in shared memory after a bulk copy); otherwise whole tiles in the persistent order
tile.gemm @abl_s4_streamk {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32, target = "sm_90a",
  schedule = warp_specialized, tile = [128, 256, 64], stages = 4, accumulators = 1, grid = stream_k, swizzle = 16
}
