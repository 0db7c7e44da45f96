// A cp.async kernel whose tile N (96) is no power of two: its shared-memory addresses divide
// by 12 chunks per row, which LLVM writes as 16-bit mul.hi.
tile.gemm @multistage_n96 {
  a = f16 col, b = f16 row, c = f32 row, accumulator = f32,
  tile = [64, 96, 32], stages = auto, schedule = multistage,
  alignment = [2, 1]
}
