// Ping-pong on the warp-specialised mma.sync schedule (the consumer-Blackwell design of
// gemm_bf16_sm120_ws): two groups of four consumer warps (2 x 2, 64 x 64 each) take the CTA's
// output tiles in turn, so that one group's epilogue (TMA stores) overlaps the other group's
// ldmatrix + mma.sync; one TMA producer warp feeds both through the same mbarrier ring. Nine warps
// per CTA: 168 registers a thread, 128 of them accumulators. `mma = [16, 8, 16]` keeps mma.sync
// on sm_90a too.
tile.gemm @gemm_bf16_pingpong_sm120 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 64], stages = auto, accumulators = 2, mma = [16, 8, 16],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
