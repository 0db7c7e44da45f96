// A ring deeper than fits beside the usual epilogue: 128 x 144 tiles have 34 KB K-slices, so
// 128-byte staging columns (32 KB) leave room for 5 stages; asking for 6 narrows the staging to
// 32-byte columns (8 KB: a tile row of D, 288 bytes, in nine column chunks) and keeps one more
// K-slice of loads in flight, for problems whose loads wait on DRAM (small M, one wave).
// `tilegen tune` measures such a sibling (NAME_s6) beside the automatic ring.
tile.gemm @gemm_bf16_deep_ring_sm90a {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 144, 64], stages = 6,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 16
}
