// MXFP6 x MXFP8 (OCP MX) on datacenter Blackwell: tcgen05.mma.cta_group::1.kind::mxf8f6f4
// .block_scale.scale_vec::1X with an e2m3 A and an e4m3 B, one E8M0 scale per 32 elements of K
// of each row of A and column of B (instruction descriptor: atype 3, btype 0, scale type
// UE8M0). The 6-bit A is read from shared memory in the padded form (16 elements per 16 bytes),
// which the producer's TMA writes with CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, so its K-slice
// rows are 128 bytes like B's; both K-major (6-bit operands have no transpose). The scale
// atoms ride in each slot after B and reach Tensor Memory by tcgen05.cp, as for MXFP8.
// K must be a multiple of 128. sm_100a and sm_103a. Assembled only: no Blackwell GPU has run it.
tile.gemm @gemm_mxfp6_mxfp8_sm100a {
  a = f6E2M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32],
  tile = [128, 256, 128], stages = 4, accumulators = 1,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
