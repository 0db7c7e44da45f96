// A bf16 GEMM whose K is a multiple of 2 (not of 8): alignment = 2 copies 4 bytes at a time
// (cp.async.ca ... 4). schedule = auto: TMA needs 16-byte strides, so on sm_90a auto picks the
// mma.sync schedule too.
tile.gemm @gemm_bf16_align2 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 32], stages = 4, schedule = auto,
  alignment = 2
}
