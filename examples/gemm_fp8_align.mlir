// FP8 (E4M3) operands of any K: alignment is in elements, here 1 byte for A (single-byte
// ld.global.b8 + st.shared.b8) and 4 bytes for B (cp.async.ca ... 4, K a multiple of 4). One f32
// scale per tensor. FP8 mma.sync (m16n8k32) needs sm_89 or newer; on sm_90a and the sm_100a
// family schedule = auto picks mma.sync, since TMA needs 16-byte strides.
tile.gemm @gemm_fp8_align {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f32 tensor, scale_b = f32 tensor,
  tile = [128, 128, 64], stages = 4, schedule = auto,
  alignment = [1, 4]
}
