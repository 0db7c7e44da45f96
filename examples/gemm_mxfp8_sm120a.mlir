// MXFP8 on consumer Blackwell: the TMA-fed warp-specialised mma.sync pipeline with
// mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X ... .ue8m0. The
// scale atoms ride in each slot after B; every lane reads, with one ld.shared.b32 per m16 / n8
// block, the scale word of the row (column) the instruction takes from it (thread-id 0) and the
// byte-id steps through the word's four K blocks. sm_120a only. Assembled only: no RTX 50 GPU
// has run it.
tile.gemm @gemm_mxfp8_sm120a {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32],
  tile = [128, 128, 128], stages = auto, mma = [16, 8, 32], warps = [4, 2],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
