// Blackwell CTA pair (cta_group = 2): a cluster of 2 CTAs on two SMs computes one 256 x 256 tile;
// each CTA loads its 128 rows of A and half of B, the leader issues tcgen05.mma.cta_group::2.
tile.gemm @gemm_bf16_sm100a_pair {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [256, 256, 64], stages = 4, accumulators = 2, cta_group = 2, cluster = [2, 1, 1],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
