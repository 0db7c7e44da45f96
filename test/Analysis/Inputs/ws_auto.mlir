// A warp-specialised bf16 GEMM with a 128 x 256 x 64 tile and one accumulator (Hopper's
// cooperative schedule), the ring depth left to the model.
tile.gemm @gemm_ws_auto {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 256, 64], stages = auto, accumulators = 1
}
