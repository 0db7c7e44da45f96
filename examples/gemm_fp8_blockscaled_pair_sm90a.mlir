// Block-scaled FP8 (scales per 1 x 128 of A and per 128 x 128 of B, as in
// gemm_fp8_blockscaled_sm90a.mlir) on a CTA pair: a cluster of two CTAs along M computes two
// vertically adjacent 128 x 128 tiles; each loads its own A and half of the shared B slice,
// multicast into both CTAs' rings, so B is read from L2 once per pair. The promotion of each K
// block is the one-CTA kernel's (three accumulator sets). sm_90a only.
tile.gemm @gemm_fp8_blockscaled_pair_sm90a {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f32 [1, 128], scale_b = f32 [128, 128],
  tile = [128, 128, 128], stages = auto, schedule = warp_specialized,
  cluster = [2, 1, 1], multicast = b,
  grid = persistent, raster = row, swizzle = 16, target = "sm_90a"
}
