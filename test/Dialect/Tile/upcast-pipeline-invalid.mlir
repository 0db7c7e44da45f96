// The tile.pipeline verifier checks the sm_90a upcast's converted ring written by hand: one case per diagnostic, each the planned MXFP4 or MXFP8 pipeline with one field changed.
// RUN: %tilegen-opt %s -split-input-file -verify-diagnostics

// The ring converts B (upcast_scale_b) but names no converted ring depth.
tile.pipeline @p target "sm_90a" block [384, 1, 1] cluster [1, 1, 1] smem 163968 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op upcast_scale_b needs a narrow ring B type, a bf16 mma role without scales, and convert_offset with convert_slots (the converter role's ring), or neither with packed FP4 B beside bf16 A (converted in registers)}}
  tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [128, 64] f4E2M1FN col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 20480 b_offset 16384 barriers 163840 {convert_offset = 114688 : i64, upcast_scale_b = #tile.scale<f8E8M0FNU [1, 32]>}
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 4] layout [] regs 56
  tile.role mma warps [4, 8] issues <wgmma [64, 128, 16] bf16 x bf16 -> f32> layout [2, 1] regs 224
  tile.role epilogue warps [4, 8] layout [2, 1] regs 224
  tile.schedule tiles [128, 128] slice_k 64 grid persistent raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 81920 bytes 32768
}

// -----

// Four converted slices of 16 KB from 114688 run into the barriers at 163840.
tile.pipeline @p target "sm_90a" block [384, 1, 1] cluster [1, 1, 1] smem 163968 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op convert_offset 114688 must be 1024-byte aligned and leave convert_slots = 4 (1 to 8) bf16 slices of B before the barriers at 163840}}
  tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [128, 64] f4E2M1FN col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 20480 b_offset 16384 barriers 163840 {convert_offset = 114688 : i64, convert_slots = 4 : i64, upcast_scale_b = #tile.scale<f8E8M0FNU [1, 32]>}
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 4] layout [] regs 56
  tile.role mma warps [4, 8] issues <wgmma [64, 128, 16] bf16 x bf16 -> f32> layout [2, 1] regs 224
  tile.role epilogue warps [4, 8] layout [2, 1] regs 224
  tile.schedule tiles [128, 128] slice_k 64 grid persistent raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 81920 bytes 32768
}

// -----

// MXFP8: the ring converts A (upcast_scale_a) but carries it as bf16, not a narrow type (the
// planned MXFP8 pipeline with a = bf16).
tile.pipeline @p target "sm_90a" block [384, 1, 1] cluster [1, 1, 1] smem 196736 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op upcast_scale_a needs upcast_scale_b, a narrow ring A type and a bf16 mma role}}
  tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [128, 64] f8E4M3FN col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 16384 b_offset 8192 barriers 196608 {convert_offset = 98304 : i64, convert_slots = 3 : i64, upcast_scale_a = #tile.scale<f8E8M0FNU [1, 32]>, upcast_scale_b = #tile.scale<f8E8M0FNU [1, 32]>}
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 4] layout [] regs 72
  tile.role mma warps [4, 8] issues <wgmma [64, 128, 16] bf16 x bf16 -> f32> layout [2, 1] regs 216
  tile.role epilogue warps [4, 8] layout [2, 1] regs 216
  tile.schedule tiles [128, 128] slice_k 64 grid persistent raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 65536 bytes 32768
}

// -----

// MXFP8: three converted slots of A and B (32 KB each) from 131072 run into the barriers at
// 196608 (the planned pipeline's converted ring starts at 98304).
tile.pipeline @p target "sm_90a" block [384, 1, 1] cluster [1, 1, 1] smem 229504 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op convert_offset 131072 must be 1024-byte aligned and leave convert_slots = 3 (1 to 8) bf16 slices of A and B before the barriers at 196608}}
  tile.ring slots 4 slice_k 64 a [128, 64] f8E4M3FN row b [128, 64] f8E4M3FN col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 16384 b_offset 8192 barriers 196608 {convert_offset = 131072 : i64, convert_slots = 3 : i64, upcast_scale_a = #tile.scale<f8E8M0FNU [1, 32]>, upcast_scale_b = #tile.scale<f8E8M0FNU [1, 32]>}
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 4] layout [] regs 72
  tile.role mma warps [4, 8] issues <wgmma [64, 128, 16] bf16 x bf16 -> f32> layout [2, 1] regs 216
  tile.role epilogue warps [4, 8] layout [2, 1] regs 216
  tile.schedule tiles [128, 128] slice_k 64 grid persistent raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 65536 bytes 32768
}

// -----

// No converted ring (the conversion in registers), but B is FP8: only packed FP4 B converts in registers.
tile.pipeline @p target "sm_90a" block [384, 1, 1] cluster [1, 1, 1] smem 163968 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op upcast_scale_b needs a narrow ring B type, a bf16 mma role without scales, and convert_offset with convert_slots (the converter role's ring), or neither with packed FP4 B beside bf16 A (converted in registers)}}
  tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [128, 64] f8E4M3FN col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 20480 b_offset 16384 barriers 163840 {upcast_scale_b = #tile.scale<f8E8M0FNU [1, 32]>}
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 4] layout [] regs 56
  tile.role mma warps [4, 8] issues <wgmma [64, 128, 16] bf16 x bf16 -> f32> layout [2, 1] regs 224
  tile.role epilogue warps [4, 8] layout [2, 1] regs 224
  tile.schedule tiles [128, 128] slice_k 64 grid persistent raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 81920 bytes 32768
}

// -----

// The planned MXFP4 converter ring beside an mma.sync role: only the wgmma lowering converts.
tile.pipeline @p target "sm_90a" block [384, 1, 1] cluster [1, 1, 1] smem 163968 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op upcast_scale_b is converted by the wgmma lowering only; the mma role issues mma.sync}}
  tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [128, 64] f4E2M1FN col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 20480 b_offset 16384 barriers 163840 {convert_offset = 114688 : i64, convert_slots = 3 : i64, upcast_scale_b = #tile.scale<f8E8M0FNU [1, 32]>}
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 4] layout [] regs 56
  tile.role mma warps [4, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 1] regs 224
  tile.role epilogue warps [4, 8] layout [2, 1] regs 224
  tile.schedule tiles [128, 128] slice_k 64 grid persistent raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 81920 bytes 32768
}
