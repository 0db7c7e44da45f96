// The tile.pipeline verifier checks a plan written by hand against the target and the MMA
// instruction table: one case per diagnostic, each a valid sm_90 mma.sync plan with one field changed.
// RUN: %tilegen-opt %s -split-input-file -verify-diagnostics

// An unknown target.
// expected-error @+1 {{'tile.pipeline' op unknown target 'sm_91'; known targets: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_103a, sm_120, sm_120a}}
tile.pipeline @p target "sm_91" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A block that is no whole number of warps.
// expected-error @+1 {{'tile.pipeline' op block = [100, 1, 1] must be [32 x warps, 1, 1] with 1 to 32 warps}}
tile.pipeline @p target "sm_90" block [100, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// More shared memory than the target has.
// expected-error @+1 {{'tile.pipeline' op smem = 300000 bytes; target sm_90 has 232448 per block}}
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 300000 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A role given twice.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
// expected-error @+1 {{'tile.role' op role 'producer' is given twice}}
  tile.role producer warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A role outside the block's warps.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
// expected-error @+1 {{'tile.role' op warps must be [first, count] within the block's 8 warps}}
  tile.role producer warps [4, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// An mma role without its instruction.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
// expected-error @+1 {{'tile.role' op the mma role, and only it, names its instruction ('issues #tile.mma<...>')}}
  tile.role mma warps [0, 8] layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// An instruction the table has no row for.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
// expected-error @+1 {{'tile.role' op no mma.sync instruction takes 'bf16' x 'f16' -> 'f32'}}
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x f16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// An instruction the target does not offer.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
// expected-error @+1 {{'tile.role' op wgmma.mma_async.sync.aligned.m64nNk16.f32 with 'bf16' x 'bf16' is not offered by target sm_90 (mma.sync)}}
  tile.role mma warps [0, 8] issues <wgmma [64, 128, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A shape the family does not issue.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
// expected-error @+1 {{'tile.role' op shape [16, 8, 32] is not issued: K must be 16}}
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 32] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// Per-block scales on a row whose lowering does not apply them.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 64 a [128, 64] f8E4M3FN row b [128, 64] f8E4M3FN col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
// expected-error @+1 {{'tile.role' op scale_a = #tile.scale<f32 [1, 128]> is not applied by the mma.sync lowering of mma.sync.aligned.m16n8k32.row.col.f32}}
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 32] f8E4M3FN x f8E4M3FN -> f32, scale_a = #tile.scale<f32 [1, 128]>> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 64 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// OCP MX block scales on the FP8 wgmma row, whose lowering applies f32 block scales only.
tile.pipeline @p target "sm_90a" block [384, 1, 1] cluster [1, 1, 1] smem 200000 attributes {description = "d"} {
  tile.ring slots 4 slice_k 128 a [128, 128] f8E4M3FN row b [128, 128] f8E4M3FN col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 32768 b_offset 16384 barriers 131072
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 4] layout [] regs 40
// expected-error @+1 {{'tile.role' op scale_a = #tile.scale<f8E8M0FNU [1, 32]> is not applied by the wgmma lowering of wgmma.mma_async.sync.aligned.m64nNk32.f32}}
  tile.role mma warps [4, 8] issues <wgmma [64, 128, 32] f8E4M3FN x f8E4M3FN -> f32, scale_a = #tile.scale<f8E8M0FNU [1, 32]>, scale_b = #tile.scale<f8E8M0FNU [1, 32]>> layout [2, 1] regs 232
  tile.role epilogue warps [4, 8] layout [2, 1] regs 232
  tile.schedule tiles [128, 128] slice_k 128 grid persistent raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 131072 bytes 32768
}

// -----

// A ring that carries other types than the instruction takes.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op carries 'f16' x 'f16' but the mma role issues 'bf16' x 'bf16'}}
  tile.ring slots 4 slice_k 32 a [128, 32] f16 row b [128, 32] f16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// An FP8 operand that is not K-major.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op mma.sync.aligned.m16n8k32.row.col.f32 with 'f8E4M3FN' takes K-major operands only (a = row, b = col)}}
  tile.ring slots 4 slice_k 64 a [128, 64] f8E4M3FN row b [64, 128] f8E4M3FN row sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 32] f8E4M3FN x f8E4M3FN -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 64 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A K-slice that is not a multiple of the instruction K.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op needs at least one slot and slice_k a multiple of the MMA K = 16}}
  tile.ring slots 4 slice_k 24 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 24 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A ring hand-off that does not match the family.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op sync = mbarrier_full_empty, swizzle = xor16x8 do not match mma.sync (TMA ring with mbarriers for wgmma and tcgen05, cp.async groups with the xor16x8 layout or a TMA ring for mma.sync)}}
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync mbarrier_full_empty swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A ring larger than the shared memory.
// expected-error @+1 {{'tile.pipeline' op the ring, its barriers and the epilogue buffers must lie within smem = 65536 bytes}}
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 5 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A ring whose size overflows.
// expected-error @+1 {{'tile.pipeline' op the ring, its barriers and the epilogue buffers must lie within smem = 65536 bytes}}
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 4611686018427387904 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// Accumulators where the family does not keep them.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
// expected-error @+1 {{'tile.accumulators' op accumulators in tmem do not match mma.sync (tmem for tcgen05, registers otherwise)}}
  tile.accumulators 1 x [128, 128] f32 in tmem
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A schedule whose K-slice differs from the ring's.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
// expected-error @+1 {{'tile.schedule' op needs a tile [M, N] and the ring's slice_k from 1 to 4096 and a swizzle from 1 to 65536}}
  tile.schedule tiles [128, 128] slice_k 64 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A raster group too large for the tile order's 32-bit arithmetic.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
// expected-error @+1 {{'tile.schedule' op needs a tile [M, N] and the ring's slice_k from 1 to 4096 and a swizzle from 1 to 65536}}
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8589934592
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// Ring slices that are not the tile's.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op slices must be the CTA's share of the tile [128, 128] by slice_k 32: a [128, 32], b [128, 32]}}
  tile.ring slots 4 slice_k 32 a [64, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A slot too small for A then B.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op slot of 16384 bytes with B at 4096 does not hold A (8192 bytes) then B (8192 bytes)}}
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 4096 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// Accumulators of another shape than the tile.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
// expected-error @+1 {{'tile.accumulators' op shape must be the CTA's share of the tile, [128, 128]}}
  tile.accumulators 1 x [128, 64] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A promotion interval on an instruction that does not promote (bf16 mma.sync).
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  // expected-error @+1 {{'tile.role' op promotion = 64 needs FP8 wgmma with promoted accumulation and no block scales, and a multiple of the ring's slice_k = 32}}
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32, promotion = 64> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// An MMA attribute whose CTA group would divide the tile by zero.
tile.pipeline @p target "sm_100a" block [192, 1, 1] cluster [1, 1, 1] smem 100000 attributes {description = "d"} {
  tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [128, 64] bf16 col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 32768 b_offset 16384 barriers 98304
  tile.accumulators 1 x [128, 128] f32 in tmem
  tile.role producer warps [0, 1] layout [] regs 0
// expected-error @+1 {{cta_group = 0 must be 1 or 2}}
  tile.role mma warps [1, 1] issues <tcgen05 [128, 128, 16] bf16 x bf16 -> f32, cta_group = 0> layout [1, 1] regs 0
  tile.role epilogue warps [2, 4] layout [1, 1] regs 0
  tile.schedule tiles [128, 128] slice_k 64 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 98304 bytes 16384
}

// -----

// An MMA shape beyond any instruction's.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
// expected-error @+1 {{an MMA shape [16, 8, 9223372036854775807] needs sizes from 1 to 1024}}
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 9223372036854775807] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A ring with no K-slice (the promotion rule divides by it).
tile.pipeline @p target "sm_90a" block [384, 1, 1] cluster [1, 1, 1] smem 200000 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op needs 1 to 16 slots and slice_k from 1 to 4096}}
  tile.ring slots 6 slice_k 0 a [128, 128] f8E4M3FN row b [256, 128] f8E4M3FN col sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 49152 b_offset 16384 barriers 196608
  tile.accumulators 1 x [128, 256] f32 in registers
  tile.role producer warps [0, 4] layout [] regs 40
  tile.role mma warps [4, 8] issues <wgmma [64, 256, 32] f8E4M3FN x f8E4M3FN -> f32, scale_a = #tile.scale<f32 tensor>, scale_b = #tile.scale<f32 tensor>, promotion = 512> layout [2, 1] regs 232
  tile.role epilogue warps [4, 8] layout [2, 1] regs 232
  tile.schedule tiles [128, 256] slice_k 128 grid persistent raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 196608 bytes 32768
}

// -----

// A ring whose copies would not be powers of two of at most 16 bytes.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op align must be [a, b] in elements: powers of two of at most 16 bytes each}}
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col align [3, 8] sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A TMA ring cannot take rows aligned to less than 16 bytes.
tile.pipeline @p target "sm_90a" block [384, 1, 1] cluster [1, 1, 1] smem 229504 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op align [2, 8] is narrower than 16 bytes: wgmma is fed by TMA, which needs 16-byte strides}}
  tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [256, 64] bf16 col align [2, 8] sync mbarrier_full_empty swizzle b128 offset 0 slot_bytes 49152 b_offset 16384 barriers 196608
  tile.accumulators 1 x [128, 256] f32 in registers
  tile.role producer warps [0, 4] layout [] regs 40
  tile.role mma warps [4, 8] issues <wgmma [64, 256, 16] bf16 x bf16 -> f32> layout [2, 1] regs 232
  tile.role epilogue warps [4, 8] layout [2, 1] regs 232
  tile.schedule tiles [128, 256] slice_k 64 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via smem_tma offset 196608 bytes 32768
}
