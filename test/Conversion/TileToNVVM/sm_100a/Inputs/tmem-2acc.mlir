// A description that asks for two accumulator buffers (TMEM on sm_100a), target left to --target.
tile.gemm @tmem_2acc {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], stages = 4,
  accumulators = 2, grid = persistent
}
