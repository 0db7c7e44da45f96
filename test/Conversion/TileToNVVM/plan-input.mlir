// A plan given as input is lowered only if it is the plan tilegen builds for the description its choices make; each case below passes the plan verifier and is refused at the first difference.
// RUN: %tilegen-opt %s -split-input-file --tile-lower-to-nvvm -verify-diagnostics

// An MMA role with no warp layout (the description rule would derive [2, 4]).
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
// expected-error @+1 {{'tile.role' op differs from the plan tilegen builds for the same choices on target sm_90, which is: tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0}}
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A warp layout whose warp tiles the description rules refuse (128 rows over 16 warps: 8 rows each).
// expected-error @+3 {{'tile.gemm' op tile M = 128 does not split into warps = [16, 2] of a multiple of 16 rows}}
// expected-error @+2 {{'tile.pipeline' op is not a plan tilegen builds for target sm_90: its description breaks a rule above}}
// expected-note @+1 {{the plan's choices, as a description: tile.gemm @p {}}
tile.pipeline @p target "sm_90" block [1024, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 32] layout [] regs 0
  tile.role mma warps [0, 32] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [16, 2] regs 0
  tile.role epilogue warps [0, 32] layout [16, 2] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}

// -----

// A ring whose B slice is placed elsewhere in the slot than tilegen places it.
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 131072 attributes {description = "d"} {
// expected-error @+1 {{'tile.ring' op differs from the plan tilegen builds for the same choices on target sm_90, which is: tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536}}
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 32768 b_offset 16384 barriers 131072
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 131072 bytes 0
}

// -----

// Launch shape and shared memory other than tilegen's for the same choices.
// expected-error @+1 {{'tile.pipeline' op differs from the plan tilegen builds for the same choices: block [256, 1, 1], smem 65536 bytes}}
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 70000 attributes {description = "d"} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.000000e+00 beta 0.000000e+00 out bf16 row via direct offset 65536 bytes 0
}
