// tile-check-target rejects each block-scaled description its target cannot build (no block-scaled kind, no kind for the pair or the scales, an operand major the kind cannot read, a 6- or 4-bit operand of .kind::mxf8f6f4 that is MN-major, e2m1 x e2m1 given the K of .kind::mxf8f6f4, upcast where it does not apply), naming field, value, target and reason; what the native lowerings do not take yet (an MN-major 8-bit operand beside a 6- or 4-bit one, the cp.async schedule, partial scale atoms, scale columns beyond Tensor Memory) and the upcast combinations and schedules the sm_90a pipeline does not take stop with "not supported yet" or the budget.
// RUN: %tilegen-opt %s --tile-check-target -split-input-file -verify-diagnostics
//
// Not covered because the tile.gemm verifier stops such descriptions first (kept as a guard,
// the verifier's cases are in Dialect/Tile/block-scaled-invalid.mlir): a target with
// block-scaled kinds but none for the operand pair and scales (every narrow pair has a
// .kind::mxf8f6f4 row with E8M0 scales per 32, and E4M3 scales per 16 are accepted for
// f4E2M1FN x f4E2M1FN only).

// MXFP4 on sm_90a without the upcast path: wgmma takes no block scales
// expected-error @+1 {{'tile.gemm' op block-scaled formats (a = e2m1, b = e2m1 with e8m0 scales per 32) have no MMA on target sm_90a (mma.sync, wgmma: no block-scaled kind); add upcast = bf16 to convert the operands in the pipeline and multiply with bf16 wgmma}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128], target = "sm_90a" }

// -----

// MXFP8 on sm_80: no block-scaled kind and no upcast path
// expected-error @+1 {{'tile.gemm' op block-scaled formats (a = e4m3, b = e4m3 with e8m0 scales per 32) have no MMA on target sm_80 (mma.sync: no block-scaled kind); block-scaled kinds: tcgen05 on sm_100a, sm_103a, mma.sync on sm_120a; upcast to bf16 on sm_90a}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128], target = "sm_80" }

// -----

// plain sm_120 (not sm_120a) has no block-scaled mma.sync
// expected-error @+1 {{'tile.gemm' op block-scaled formats (a = e2m1, b = e2m1 with e4m3 scales per 16) have no MMA on target sm_120 (mma.sync: no block-scaled kind); block-scaled kinds: tcgen05 on sm_100a, sm_103a, mma.sync on sm_120a; upcast to bf16 on sm_90a}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E4M3FN [1, 16], scale_b = f8E4M3FN [1, 16] * f32 tensor, tile = [128, 128, 128], target = "sm_120" }

// -----

// FP4 MN-major on tcgen05's .kind::mxf4: no transpose
// expected-error @+1 {{'tile.gemm' op b = 'f4E2M1FN' row: tcgen05.mma.kind::mxf4.block_scale.scale_vec::2X reads its operands K-major only (a = row, b = col) on target sm_100a (the FP4 kinds have no transpose, PTX ISA Table 49)}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN row, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128], target = "sm_100a" }

// -----

// FP4 MN-major on sm_120a's mma.sync: .row.col only
// expected-error @+1 {{'tile.gemm' op a = 'f4E2M1FN' col: mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 reads its operands K-major only (a = row, b = col) on target sm_120a (.row.col)}}
tile.gemm @g { a = f4E2M1FN col, b = f4E2M1FN col, c = bf16 row, scale_a = f8E4M3FN [1, 16], scale_b = f8E4M3FN [1, 16], tile = [128, 128, 128], target = "sm_120a" }

// -----

// upcast on a target with native block-scaled kinds
// expected-error @+1 {{'tile.gemm' op upcast = 'bf16' converts block-scaled operands for wgmma (sm_90a); target sm_100a has mma.sync, tcgen05, whose block-scaled kinds apply the scales in the tensor core: leave upcast out}}
tile.gemm @g { a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E8M0FNU [1, 32], upcast = bf16, tile = [128, 128, 64], target = "sm_100a" }

// -----

// MXFP8 x MXFP8 with upcast on sm_90a and A MN-major: the converter reads K-major rows only
// expected-error @+1 {{'tile.gemm' op not supported yet: upcast = 'bf16' (a = e4m3, b = e4m3 with e8m0 scales per 32, a = col, b = col) on target sm_90a: the converting wgmma pipeline takes a = bf16 row, b = f4E2M1FN col with scale_b = f8E8M0FNU [1, 32] (MXFP4) or f8E4M3FN [1, 16] (NVFP4), and a, b = f8E4M3FN or f8E5M2 (row, col) with scale_a, scale_b = f8E8M0FNU [1, 32] (MXFP8)}}
tile.gemm @g { a = f8E4M3FN col, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], upcast = bf16, tile = [128, 128, 64], target = "sm_90a" }

// -----

// MXFP4 upcast with a K-slice other than 64
// expected-error @+1 {{'tile.gemm' op not supported yet: upcast = bf16 with tile [128, 128, 32], accumulators = 1, cluster = [1, 1, 1], grid = tiles on target sm_90a (the converting pipeline takes tile K = 64, tile N a multiple of 32, accumulators = 1, cluster = [1, 1, 1] and no stream-K)}}
tile.gemm @g { a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E8M0FNU [1, 32], upcast = bf16, tile = [128, 128, 32], target = "sm_90a" }

// -----

// MXFP4 upcast with mma = [64, tile M, 16] (the conversion in registers) but an f32 output, which
// only the converter role takes
// expected-error @+1 {{'tile.gemm' op mma = [64, 256, 16] issues wgmma across tile M = 256, which only the upcast of FP4 B in registers does; this description is outside its rules (tile K = 64, tile M a multiple of 64 up to 256, tile N 64 per consumer warpgroup, accumulators = 1, no cluster or stream-K, a 16-bit c = row) on target sm_90a: give mma = [64, 128, 16] or leave mma out}}
tile.gemm @g { a = bf16 row, b = f4E2M1FN col, c = f32 row, scale_b = f8E8M0FNU [1, 32], upcast = bf16, tile = [256, 128, 64], mma = [64, 256, 16], target = "sm_90a" }

// -----

// upcast on sm_80: no wgmma, no upcast pipeline
// expected-error @+1 {{'tile.gemm' op upcast = 'bf16' converts block-scaled operands for wgmma (sm_90a); target sm_80 has mma.sync and no upcast pipeline}}
tile.gemm @g { a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E8M0FNU [1, 32], upcast = bf16, tile = [128, 128, 64], target = "sm_80" }

// -----

// MXFP8 upcast with schedule = multistage: the cp.async mma.sync kernel has no conversion
// expected-error @+1 {{'tile.gemm' op not supported yet: upcast = 'bf16' with mma.sync (schedule = multistage) on target sm_90a: the upcast converts the block-scaled operands in the warp-specialised wgmma pipeline; use schedule = warp_specialized (or auto) and leave mma and alignment out}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], upcast = bf16, tile = [128, 128, 64], schedule = multistage, target = "sm_90a" }

// -----

// MXFP4 upcast with an mma.sync shape: the warp-specialised mma.sync kernel has no conversion
// expected-error @+1 {{'tile.gemm' op not supported yet: upcast = 'bf16' with mma.sync (mma = [16, 8, 16]) on target sm_90a: the upcast converts the block-scaled operands in the warp-specialised wgmma pipeline; use schedule = warp_specialized (or auto) and leave mma and alignment out}}
tile.gemm @g { a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E8M0FNU [1, 32], upcast = bf16, tile = [128, 128, 64], schedule = warp_specialized, mma = [16, 8, 16], target = "sm_90a" }

// -----

// NVFP4 upcast with a narrow alignment, which schedule = auto would build with cp.async mma.sync
// expected-error @+1 {{'tile.gemm' op not supported yet: upcast = 'bf16' with mma.sync (alignment below 16 bytes, which TMA cannot load) on target sm_90a: the upcast converts the block-scaled operands in the warp-specialised wgmma pipeline; use schedule = warp_specialized (or auto) and leave mma and alignment out}}
tile.gemm @g { a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E4M3FN [1, 16], upcast = bf16, tile = [128, 128, 64], alignment = 4, target = "sm_90a" }

// -----

// MXFP6 MN-major on tcgen05's .kind::mxf8f6f4: only 8-bit operands transpose
// expected-error @+1 {{'tile.gemm' op a = 'f6E2M3FN' col: tcgen05.mma.kind::mxf8f6f4.block_scale.scale_vec::1X reads its operands K-major only (a = row, b = col) on target sm_100a (6- and 4-bit operands have no transpose, PTX ISA 9.7.16.10.3 Table 54: only 8-bit A and B may be MN-major)}}
tile.gemm @g { a = f6E2M3FN col, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128], target = "sm_100a" }

// -----

// An MN-major MXFP8 A beside an MXFP6 B: legal in the ISA, not lowered
// expected-error @+1 {{'tile.gemm' op not supported yet: a = 'f8E4M3FN' col beside the 6- or 4-bit b of tcgen05.mma.kind::mxf8f6f4.block_scale.scale_vec::1X on target sm_100a (the ISA transposes an 8-bit operand there; the tcgen05 lowering takes K-major operands only: a = row, b = col)}}
tile.gemm @g { a = f8E4M3FN col, b = f6E2M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128], target = "sm_100a" }

// -----

// MXFP4 x MXFP4 with the K of .kind::mxf8f6f4: e2m1 x e2m1 takes the packed FP4 kinds
// expected-error @+1 {{'tile.gemm' op mma = [16, 8, 32] has the K of .kind::mxf8f6f4 (32); e2m1 x e2m1 with e8m0 scales per 32 takes mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0 (packed FP4, K = 64) on target sm_120a: give K = 64 or leave mma out}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 256], mma = [16, 8, 32], target = "sm_120a" }

// -----

// Block-scaled mma.sync on the cp.async schedule: the scales ride the TMA ring only
// expected-error @+1 {{'tile.gemm' op not supported yet: mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.ue8m0 with schedule = multistage on target sm_120a (the scales are loaded by TMA into the warp-specialised ring: use schedule = warp_specialized)}}
tile.gemm @g { a = f8E5M2 row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128], schedule = multistage, target = "sm_120a" }

// -----

// schedule = auto with block-scaled mma.sync reports the warp-specialised rules (MXFP4: a
// 128-element K-slice is 64 bytes)
// expected-error @+1 {{'tile.gemm' op not supported yet: tile K = 128 gives K-slice rows of 64 bytes; the warp-specialised mma.sync lowering needs 128 (one 128-byte TMA swizzle span, the layout its ldmatrix reads: tile K = 256) on target sm_120a}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128], target = "sm_120a" }

// -----

// tcgen05 with block scales and tile N = 64: half a scale atom
// expected-error @+1 {{'tile.gemm' op not supported yet: tile N = 64 with tcgen05.mma.kind::mxf8f6f4.block_scale.scale_vec::1X on target sm_100a (a scale atom covers 128 columns of B; the tcgen05 lowering takes tile N = 128 or 256)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 64, 128], target = "sm_100a" }

// -----

// A K-slice of 64 MXFP8 elements holds half a scale atom (4 scales of 32)
// expected-error @+1 {{'tile.gemm' op tile K = 64 is not a multiple of 128 (4 scale blocks of 32: the scale atoms are loaded whole) with tcgen05.mma.kind::mxf8f6f4.block_scale.scale_vec::1X on target sm_100a}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 64], target = "sm_100a" }

// -----

// Tensor Memory: 2 accumulators of N = 256 fill all 512 columns; 4 stages of scales do not fit
// expected-error @+1 {{'tile.gemm' op Tensor Memory does not hold 2 accumulator(s) x N = 256 and 4 stages x 12 scale columns = 560 columns on target sm_100a (512); use fewer stages or accumulators}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 256, 128], stages = 4, accumulators = 2, target = "sm_100a" }

// -----

// ... and with stages = auto no stage count is left
// expected-error @+1 {{'tile.gemm' op stages = auto: 2 accumulator(s) x N = 256 leave room in Tensor Memory for 0 stage(s) of 12 scale columns on target sm_100a; at least 2 are needed (use accumulators = 1 or a smaller tile N)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 256, 128], stages = auto, accumulators = 2, target = "sm_100a" }
