// Per-tensor FP8 promoted every 512 elements of K (four 128-deep K-slices) with grid =
// stream_k: a split inside a promotion interval promotes its part as an interval of its own.
tile.gemm @fp8_promoted512_streamk {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f32 tensor, scale_b = f32 tensor, promotion = 512,
  tile = [128, 128, 128], stages = auto, schedule = warp_specialized,
  grid = stream_k, raster = row, swizzle = 16, target = "sm_90a"
}
