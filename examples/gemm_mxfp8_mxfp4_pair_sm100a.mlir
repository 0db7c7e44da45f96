// MXFP8 x MXFP4 on a CTA pair: tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale with M = 256,
// an e4m3 A and an e2m1 B (atype 0, btype 5), E8M0 scales per 32 of K. Each CTA loads its 128
// rows of A, its half of B in the padded form (CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B: one byte
// per 4-bit element in shared memory, K-major) and the scales of all 256 columns of B;
// tcgen05.cp.cta_group::2 copies each CTA's atoms into its own Tensor Memory. K must be a
// multiple of 128. sm_100a and sm_103a. Assembled only: no Blackwell GPU has run it.
tile.gemm @gemm_mxfp8_mxfp4_pair_sm100a {
  a = f8E4M3FN row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32],
  tile = [256, 256, 128], stages = 4, accumulators = 1, cta_group = 2, cluster = [2, 1, 1],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
