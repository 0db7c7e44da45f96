// MXFP4: packed E2M1 operands (two per byte) with E8M0 scales per 32 elements of K:
// tcgen05.mma.kind::mxf4.block_scale.block32 (K = 64 per instruction, scale_vec::2X: the
// instruction descriptor's scale IDs pick the low or high half of each scale word). A K-slice of
// 256 elements is one 128-byte swizzle row. Assembled only: no Blackwell GPU has run it.
tile.gemm @gemm_mxfp4_sm100a {
  a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32],
  tile = [128, 256, 256], stages = 4, accumulators = 1,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
