// FP8 x FP4 without block scales on datacenter Blackwell: tcgen05.mma.cta_group::1.kind::f8f6f4
// with an e4m3 A and an e2m1 B (instruction descriptor: atype 0, btype 5). The 4-bit B is read
// from shared memory in the padded form of the PTX ISA (16 elements per 16 bytes, 9.7.16.10.4.4),
// which the producer's TMA writes with CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, so its K-slice rows
// are 128 bytes like A's; both K-major. K must be a multiple of 128. sm_100a and sm_103a.
// Assembled only: no B200 has run it.
tile.gemm @gemm_fp8_fp4_sm100a {
  a = f8E4M3FN row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 128], stages = auto, accumulators = 2,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
