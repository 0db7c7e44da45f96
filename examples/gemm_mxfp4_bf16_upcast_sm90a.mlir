// MXFP4 weights x bf16 activations on Hopper: B is f4E2M1FN (two elements per byte, K-major)
// with one E8M0 scale per 32 elements of K of each column; A is bf16. The ring carries B
// packed (a quarter of the bf16 bytes); three warps of the producer warpgroup convert each
// K-slice of it, scale applied, into a second ring of bf16 slices laid out as the bf16
// kernel's B, while the consumer warpgroups multiply the previous slices with the bf16 wgmma.
// The tile is 256 x 128 (the bf16 kernel's 128 x 256 turned around): the converters produce
// half of B's bf16 per MMA of the 128 x 256 tile. Four ring stages fit because the epilogue
// stages D in 64-byte columns (32 KB); with three the loads bound the speed (the 4-stage
// kernel ran 1.11x the 3-stage one on the H200, bench/RESULTS.md). sm_90a only (the sm_100a
// family and sm_120a apply block scales in the tensor core).
tile.gemm @gemm_mxfp4_bf16_upcast {
  a = bf16 row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  scale_b = f8E8M0FNU [1, 32], upcast = bf16,
  tile = [256, 128, 64], stages = 4, schedule = warp_specialized,
  grid = persistent, raster = row, swizzle = 16, target = "sm_90a"
}
