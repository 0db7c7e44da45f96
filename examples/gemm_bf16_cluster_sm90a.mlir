// The Hopper kernel on a cluster of 2 x 2 CTAs: the two CTAs along M share B's slice and the two
// along N share A's, so each CTA loads half of its A box and half of its B box and multicasts
// them into the CTAs that share them. Every operand row is read from L2 once per cluster row or
// column instead of once per CTA: a K-slice reads 160 rows from L2 per CTA where a single CTA
// reads 320, meant for sizes whose rows sit off the 128-byte L2 lines (K not a multiple of 64
// bf16), where those reads cost most. Persistent grid of whole clusters, sm_90a only.
tile.gemm @gemm_bf16_cluster_sm90a {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 192, 64], stages = auto, accumulators = 1,
  cluster = [2, 2, 1], multicast = ab,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 16, target = "sm_90a"
}
