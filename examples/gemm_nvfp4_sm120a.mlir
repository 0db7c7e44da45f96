// NVFP4 on consumer Blackwell: mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale
// .scale_vec::4X ... .ue4m3 on the warp-specialised mma.sync pipeline; packed E2M1 operands (a
// K-slice of 256 elements is a 128-byte row, loaded with the same ldmatrix as 8-bit types), four
// E4M3 scales per word (byte-id 0). The per-tensor f32 factors are folded into alpha. sm_120a
// only. Assembled only: no RTX 50 GPU has run it.
tile.gemm @gemm_nvfp4_sm120a {
  a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E4M3FN [1, 16] * f32 tensor, scale_b = f8E4M3FN [1, 16] * f32 tensor,
  tile = [64, 128, 256], stages = auto, mma = [16, 8, 64], warps = [2, 2],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
