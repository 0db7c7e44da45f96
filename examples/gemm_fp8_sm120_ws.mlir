// FP8 (E4M3) on the warp-specialised mma.sync schedule: the TMA producer warp and mbarrier ring
// of gemm_bf16_sm120_ws, with consumer warps issuing mma.sync.aligned.m16n8k32 ... .e4m3.e4m3
// (K-major operands; a K-slice of 128 FP8 elements is one 128-byte swizzle span). Per-tensor f32
// scales are folded into alpha. Runs on sm_90 (the H200 proxy, where ptxas unpacks e4m3 to f16
// for HMMA) and sm_120(a) (native FP8 mma.sync); sm_89 has no TMA: use schedule = multistage
// there. Eight consumer warps of 32 x 64 each (warps = [4, 2]) fit the 168 registers a thread
// has with nine warps per CTA, without spills on sm_90. FP8 mma.sync accumulates in f32.
tile.gemm @gemm_fp8_sm120_ws {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f32 tensor, scale_b = f32 tensor,
  tile = [128, 128, 128], stages = auto, mma = [16, 8, 32], warps = [4, 2],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
