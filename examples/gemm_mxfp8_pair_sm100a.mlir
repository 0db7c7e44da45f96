// MXFP8 on a CTA pair: tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale with M = 256. Each
// CTA loads its 128 rows of A with their scales and its half of B, but the scales of all 256
// columns of B (each CTA's half of D spans every column); tcgen05.cp.cta_group::2 copies each
// CTA's atoms into its own Tensor Memory. Assembled only: no Blackwell GPU has run it.
tile.gemm @gemm_mxfp8_pair_sm100a {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32],
  tile = [256, 256, 128], stages = 4, accumulators = 1, cta_group = 2, cluster = [2, 1, 1],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
