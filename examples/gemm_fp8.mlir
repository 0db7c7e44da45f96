// FP8 (E4M3) operands with one f32 scale per tensor: D = alpha * (sa A) x (sb B) + beta * C,
// accumulated in f32 and stored as bf16. The same description lowers to wgmma ... .e4m3 on
// sm_90a, mma.sync.m16n8k32 ... .e4m3 on sm_89 / sm_90 / sm_120(a) and tcgen05.mma
// .kind::f8f6f4 on the sm_100a family. FP8 operands are K-major (a = row, b = col). A K-slice
// of 128 FP8 elements is 128 bytes, one TMA swizzle span, as 64 BF16 elements are.
// accumulation = fast: on sm_90a the tensor core accumulates all of K (Hopper's FP8 wgmma adds
// with reduced precision, so the error grows with K; gemm_fp8_promoted_sm90a promotes instead,
// which the 128x256 tile has no registers for). mma.sync and tcgen05 accumulate FP8 products in
// f32: there tilegen warns that the field has no effect and records promoted.
tile.gemm @gemm_fp8 {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f32 tensor, scale_b = f32 tensor, accumulation = fast,
  tile = [128, 256, 128], stages = auto, schedule = auto,
  grid = persistent, raster = row, swizzle = 16
}
