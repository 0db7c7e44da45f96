tile.gemm @pair {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [256, 256, 64],
  cta_group = 2, cluster = [2, 1, 1], accumulators = 2, grid = persistent
}
