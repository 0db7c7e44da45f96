// An mma.sync bf16 GEMM (every warp loads and multiplies), ring depth auto.
tile.gemm @gemm_multistage {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 32], stages = auto, schedule = multistage
}
