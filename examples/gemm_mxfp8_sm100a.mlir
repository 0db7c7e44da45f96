// MXFP8 (OCP MX): E4M3 operands with one E8M0 scale per 32 elements of K of each row of A and
// column of B, applied by the tensor core: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.
// The scales travel with their K-slice through the ring (TMA, in the 128 x 4 atom layout of
// docs/sm100a.md) and reach Tensor Memory by tcgen05.cp before the slice's MMAs. Assembled only:
// no Blackwell GPU has run it.
tile.gemm @gemm_mxfp8_sm100a {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32],
  tile = [128, 256, 128], stages = 4, accumulators = 1,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
