tile.gemm @g {
  a = bf16 row,
  b = bfloat16 col, c = bf16 row, tile = [128, 128, 32]
}
