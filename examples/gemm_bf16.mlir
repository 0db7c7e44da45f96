// The default example: one description, lowered per target to the tensor-core instruction set
// the target has. schedule = auto picks mma.sync + ldmatrix + cp.async on sm_80 ... sm_120a,
// the TMA ring with warp-specialised wgmma on sm_90a, and tcgen05 with Tensor Memory on the
// sm_100a family; stages = auto picks the fewest ring stages that keep the tensor core fed
// within the target's shared memory (tilegen explain shows the reasoning).
tile.gemm @gemm_bf16 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = auto, schedule = auto,
  grid = persistent, raster = row, swizzle = 16
}
