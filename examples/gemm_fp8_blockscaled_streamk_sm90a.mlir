// Block-scaled FP8 (as gemm_fp8_blockscaled_sm90a.mlir: one f32 scale per row of A and per
// 128 x 128 block of B, each over 128 elements of K) with grid = stream_k, for problems whose
// tiles leave the last wave short: the K-slices of those tiles are split over the CTAs, each
// CTA promotes its slices block by block (a split inside a scale block promotes its part of
// the block with that block's scales), and the CTA holding a tile's first slice adds the
// others' promoted f32 partial tiles before the epilogue. Tile K is 64, half a scale block, so
// that splits fall inside blocks as well as between them.
tile.gemm @gemm_fp8_blockscaled_streamk_sm90a {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f32 [1, 128], scale_b = f32 [128, 128],
  tile = [128, 128, 64], stages = auto, schedule = warp_specialized,
  grid = stream_k, raster = row, swizzle = 16
}
