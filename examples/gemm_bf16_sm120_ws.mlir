// The consumer-Blackwell (sm_120, sm_120a) design for mma.sync: a TMA producer warp fills a ring
// of 128-byte-swizzled K-slices guarded by full/empty mbarriers, and eight consumer warps (2 x 4,
// 64 x 32 each) load fragments with ldmatrix from the slots TMA wrote and multiply with
// mma.sync; a persistent grid in row raster order and a TMA-store epilogue. No cluster and no
// multicast (GeForce Blackwell pins clusters to 1x1x1). The tile fits sm_120's 99 KB per block
// (2 stages of 32 KB + 16 KB of epilogue staging); on sm_90, where it runs on the H200 as the
// proxy, the 227 KB per block give it more stages. `mma = [16, 8, 16]` keeps mma.sync on
// sm_90a too, where the newest family (wgmma) would otherwise be chosen.
tile.gemm @gemm_bf16_sm120_ws {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 64], stages = auto, mma = [16, 8, 16],
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
