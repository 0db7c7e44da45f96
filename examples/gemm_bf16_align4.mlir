// A bf16 GEMM whose K is a multiple of 4: alignment = 4 copies 8 bytes at a time
// (cp.async.ca ... 8). Runs on sm_80 ... sm_120a.
tile.gemm @gemm_bf16_align4 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 32], stages = 4, schedule = multistage,
  alignment = 4
}
