// A bf16 GEMM of any M, N and K (K odd included): alignment = 1 promises only that rows of A and
// B start on a 2-byte element, so the copies into the shared-memory ring are single elements
// (predicated ld.global.b16 + st.shared.b16) instead of 16-byte cp.async. Runs on sm_80 ...
// sm_120a; the manifest has no constraint on M, N or K.
tile.gemm @gemm_bf16_align1 {
  a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
  tile = [128, 128, 32], stages = 4, schedule = multistage,
  alignment = 1
}
