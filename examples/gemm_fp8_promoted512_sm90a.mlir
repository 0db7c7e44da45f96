// The promoted per-tensor FP8 kernel of gemm_fp8_promoted_sm90a, promoting every 512 K-elements
// (4 K-slices) instead of every slice: the tensor core accumulates four slices' wgmmas before
// their sum is added into the f32 accumulators in registers, so the consumers pay for a promotion
// a quarter as often. With bf16 output its measured error matched the per-slice promotion at K up
// to 16384 (bench/RESULTS.md); the partial sums the tensor core keeps are 512 deep instead of 128.
tile.gemm @gemm_fp8_promoted512_sm90a {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f32 tensor, scale_b = f32 tensor, accumulation = promoted, promotion = 512,
  tile = [128, 128, 128], stages = auto, schedule = warp_specialized,
  grid = persistent, raster = row, swizzle = 16
}
