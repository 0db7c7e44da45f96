// A wide bf16 GEMM for the mma.sync path: a 128x256 CTA tile with 64-deep K-slices in a 3-slot
// cp.async ring (3 x 48 KB = 144 KB of shared memory), 8 warps as 2 x 4, each warp a 64x64 tile.
// The shape of CUTLASS's Ampere-style 128x256x64 kernel. Fits sm_80 and sm_90 (163 / 227 KB per
// block); sm_86/89/120 have 99 KB per block and reject it (use stages = 2 or a smaller tile there).
tile.gemm @gemm_bf16_128x256x64_3stage {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = 3, warps = [2, 4],
  schedule = multistage, grid = tiles, raster = row, swizzle = 8
}
