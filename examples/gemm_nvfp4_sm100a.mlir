// NVFP4: packed E2M1 operands with one E4M3 scale per 16 elements of K and one f32 per operand:
// tcgen05.mma.kind::mxf4nvf4.block_scale.block16 (scale_vec::4X, one scale atom per
// instruction); the per-tensor factors are folded into alpha. Assembled only: no Blackwell GPU
// has run it.
tile.gemm @gemm_nvfp4_sm100a {
  a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E4M3FN [1, 16] * f32 tensor, scale_b = f8E4M3FN [1, 16] * f32 tensor,
  tile = [128, 128, 256], stages = 4, accumulators = 2,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
