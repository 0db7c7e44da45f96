// Small M with a long K (M = 256, K in the tens of thousands): 64-row tiles with one consumer
// warpgroup, and stream-K, so that with fewer tiles than SMs the K-slices of the tiles are
// split over every SM and the partial tiles summed by the CTA that holds slice 0.
tile.gemm @gemm_bf16_64row_streamk_sm90a {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [64, 192, 64], stages = auto, accumulators = 1,
  schedule = warp_specialized, grid = stream_k, raster = row, swizzle = 8
}
