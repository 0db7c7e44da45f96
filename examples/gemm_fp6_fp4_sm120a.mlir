// FP6 x FP4 without block scales on consumer Blackwell: mma.sync.aligned.m16n8k32.row.col
// .kind::f8f6f4.f32.e3m2.e2m1.f32 on the warp-specialised mma.sync pipeline (sm_120a only; plain
// sm_120 has no 6- or 4-bit mma.sync). Each 6- or 4-bit element sits in an 8-bit container: the
// producer's TMA copies A with CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B and B with 16U4_ALIGN16B
// (packed in global memory, 16 elements per 16 bytes in shared memory), so a K-slice of 128
// elements is one 128-byte swizzle span; the consumers load the fragments with
// ldmatrix.m8n16.x4 .b8x16.b6x16_p32 / .b8x16.b4x16_p64 and move each e2m1 value to bits 5..2.
// K must be a multiple of 128. Assembled only: no RTX 50 GPU has run it.
tile.gemm @gemm_fp6_fp4_sm120a {
  a = f6E3M2FN row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 128], stages = auto, mma = [16, 8, 32], warps = [4, 2],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
