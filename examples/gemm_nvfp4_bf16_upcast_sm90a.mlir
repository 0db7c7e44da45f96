// NVFP4 weights x bf16 activations on Hopper: B is f4E2M1FN (two elements per byte, K-major)
// with one E4M3 scale per 16 elements of K of each column, times one f32 for the whole tensor
// (`* f32 tensor`, a kernel parameter of its own); A is bf16. As the MXFP4 upcast, the
// consumers convert their rows of B in registers into wgmma's register operand, here with the
// E4M3 block scales (an E2M1 value times an E4M3 value is exactly a bf16 value); the per-tensor
// f32 multiplies alpha once, in the epilogue. sm_90a only.
tile.gemm @gemm_nvfp4_bf16_upcast {
  a = bf16 row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  scale_b = f8E4M3FN [1, 16] * f32 tensor, upcast = bf16,
  tile = [256, 128, 64], stages = 4, schedule = warp_specialized,
  grid = persistent, raster = row, swizzle = 16, target = "sm_90a"
}
