// NVFP4 on a CTA pair: tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.block16, M = 256.
// Assembled only: no Blackwell GPU has run it.
tile.gemm @gemm_nvfp4_pair_sm100a {
  a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E4M3FN [1, 16] * f32 tensor, scale_b = f8E4M3FN [1, 16] * f32 tensor,
  tile = [256, 256, 256], stages = 4, accumulators = 1, cta_group = 2, cluster = [2, 1, 1],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
