// A tile width between the powers of two: 128 x 160 tiles cover N = 10240 in 64 columns of
// tiles, so M = 256 makes 128 tiles, one wave on 132 SMs (128 x 128 tiles make 160: 1.2
// waves). A tile row of D is 320 bytes, so the TMA-store epilogue writes it in five 64-byte
// column chunks with the 64-byte swizzle; `tilegen tune` tries such widths per shape.
tile.gemm @gemm_bf16_n160_sm90a {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 160, 64], stages = auto,
  schedule = warp_specialized, grid = persistent, raster = row, swizzle = 8
}
