// FP8 (E4M3) with one f32 scale per tensor and promoted accumulation on sm_90a: each consumer
// warpgroup issues a K-slice's wgmma ... .e4m3 into one of two further sets of f32 accumulators
// and, while the next slice's wgmmas run, adds it into the sum in registers (Hopper's FP8 wgmma
// accumulates with reduced precision; this keeps the sum in full f32, as cuBLASLt does without
// fast accumulation). The scales stay folded into alpha: no scale is loaded in the K loop.
// Three sets of 64 x 128 / 128 threads = 64 registers each per consumer thread.
tile.gemm @gemm_fp8_promoted_sm90a {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f32 tensor, scale_b = f32 tensor, accumulation = promoted,
  tile = [128, 128, 128], stages = auto, schedule = warp_specialized,
  grid = persistent, raster = row, swizzle = 16
}
