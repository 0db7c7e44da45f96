// A description that asks for the sm_100a family: two TMEM accumulators and a CTA pair, target left to --target.
tile.gemm @tmem_pair {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [256, 256, 64], stages = 4,
  accumulators = 2, cta_group = 2, cluster = [2, 1, 1], grid = persistent
}
