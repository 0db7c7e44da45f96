// MXFP4 weights x bf16 activations on Hopper: B is f4E2M1FN (two elements per byte, K-major)
// with one E8M0 scale per 32 elements of K of each column; A is bf16. The ring carries B
// packed (a quarter of the bf16 bytes) and the slice's scale codes; the consumer warpgroups
// convert their rows of B straight into wgmma's register operand, scale applied, and compute
// the tile transposed (B's 128 rows on wgmma's M side, 64 per consumer warpgroup; A's 256 rows
// as wgmma's N), so no converted slice goes through shared memory; the epilogue transposes
// back while staging D (docs/types.md). With raster = row the CTAs in flight share A's rows
// and walk along B, so A's loads ask L2 to keep their lines and B's to evict theirs first
// (cache_a, cache_b: 1.5-2% faster at four of five M >= 4096 shapes on an H100, 0.3% slower at
// the fifth, bench/RESULTS.md). sm_90a only (the sm_100a family and sm_120a apply block scales
// in the tensor core). With c = f32 the description takes the converter role.
tile.gemm @gemm_mxfp4_bf16_upcast {
  a = bf16 row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  scale_b = f8E8M0FNU [1, 32], upcast = bf16,
  tile = [256, 128, 64], stages = 4, schedule = warp_specialized,
  grid = persistent, raster = row, swizzle = 16, target = "sm_90a",
  cache_a = evict_last, cache_b = evict_first
}
