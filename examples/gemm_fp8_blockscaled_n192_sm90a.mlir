// Block-scaled FP8 (DeepSeek-style, as gemm_fp8_blockscaled_sm90a.mlir) on a 128 x 192 tile:
// one f32 scale per row of A and per 128 x 128 block of B, each over 128 elements of K. Three
// accumulator sets of 64 x 192 do not fit a consumer thread, so each consumer warpgroup holds
// two (the sum and one K block, 2 x 96 registers): it drains every K block's wgmmas and promotes
// them with one FMA per value, while the other consumer warpgroup's wgmmas keep the tensor core
// busy. A tile starts at a multiple of 192 columns, so it straddles two B blocks (boundary at
// column 128 or 64 of the tile): each n8 column fragment picks its block's scale.
tile.gemm @gemm_fp8_blockscaled_n192_sm90a {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f32 [1, 128], scale_b = f32 [128, 128],
  tile = [128, 192, 128], stages = auto, schedule = warp_specialized,
  grid = persistent, raster = row, swizzle = 16
}
