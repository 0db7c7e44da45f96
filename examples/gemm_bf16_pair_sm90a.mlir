// The Hopper kernel on a CTA pair for mid-sized problems: a cluster of two CTAs along M computes
// two vertically adjacent 64 x 128 tiles; each loads its own A and half of the shared B slice,
// multicast into both CTAs' rings, so B is read from L2 once per pair. Two accumulator sets let
// one tile's epilogue overlap the next tile's main loop; persistent grid. sm_90a only.
tile.gemm @gemm_bf16_pair_sm90a {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [64, 128, 64], stages = auto, accumulators = 2,
  cluster = [2, 1, 1], multicast = b,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 16, target = "sm_90a"
}
