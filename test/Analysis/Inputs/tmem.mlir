// A tcgen05 bf16 GEMM: two 128 x 256 accumulators in Tensor Memory, ring depth auto.
tile.gemm @gemm_tmem {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = auto, accumulators = 2, target = "sm_100a"
}
