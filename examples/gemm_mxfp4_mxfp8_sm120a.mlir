// MXFP8 x MXFP4 (OCP MX) on consumer Blackwell: mma.sync.aligned.m16n8k32.row.col
// .kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e2m1.f32.ue8m0 on the warp-specialised
// mma.sync pipeline, with an e4m3 A, an e2m1 B and one E8M0 scale per 32 elements of K of each
// row of A and column of B. The 4-bit B sits in 8-bit containers: the producer's TMA copies it
// with CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B (packed in global memory, 16 elements per 16 bytes
// in shared memory), the consumers load its fragments with ldmatrix.m8n16.x4.b8x16.b4x16_p64
// and move each value to bits 5..2. The scale atoms ride in each slot after B, read as for
// MXFP8. K must be a multiple of 128. sm_120a only. Assembled only: no RTX 50 GPU has run it.
tile.gemm @gemm_mxfp4_mxfp8_sm120a {
  a = f8E4M3FN row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32],
  tile = [128, 128, 128], stages = auto, mma = [16, 8, 32], warps = [4, 2],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
