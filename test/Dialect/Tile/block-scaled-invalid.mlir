// Every target-independent diagnostic of the block-scaled formats (operand types, scale types, block sizes, tile K, upcast) fires, once, on its own case.
// RUN: %tilegen-opt %s -split-input-file -verify-diagnostics

// E8M0 is a scale type, not an operand
// expected-error @+1 {{'tile.gemm' op field 'a' is f8E8M0FNU, a scale type (a power of two, no mantissa): it goes in scale_a = f8E8M0FNU [1, 32]}}
tile.gemm @g { a = f8E8M0FNU row, b = f8E4M3FN col, c = bf16 row, tile = [128, 128, 128] }

// -----

// a 16-bit operand beside a narrow one without upcast
// expected-error @+1 {{'tile.gemm' op fields 'a' = 'bf16' and 'b' = 'f4E2M1FN' mix a 16-bit and a narrow format: no tensor-core instruction takes that pair; the upcast path converts the narrow operand (add upcast = 'bf16')}}
tile.gemm @g { a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 64] }

// -----

// upcast to a type other than the 16-bit operand's
// expected-error @+1 {{'tile.gemm' op field 'upcast' = 'bf16' differs from field 'a' = 'f16': the converted operand is multiplied with the other one, so both have the upcast type}}
tile.gemm @g { a = f16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E8M0FNU [1, 32], upcast = bf16, tile = [128, 128, 64] }

// -----

// block scales given for a bf16 operand
// expected-error @+1 {{'tile.gemm' op field 'scale_a' is given for an operand of type 'bf16': scales apply to narrow operands (f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN) only}}
tile.gemm @g { a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], upcast = bf16, tile = [128, 128, 64] }

// -----

// f32 scales on an FP6 operand
// expected-error @+1 {{'tile.gemm' op field 'scale_a' = f32 scales for 'f6E2M3FN' operands: FP6 and FP4 take block scales, f8E8M0FNU [1, 32] (OCP MX)}}
tile.gemm @g { a = f6E2M3FN row, b = f6E2M3FN col, c = bf16 row, scale_a = f32 tensor, scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128] }

// -----

// E4M3 block scales on an FP8 operand (NVFP4's scales are for FP4)
// expected-error @+1 {{'tile.gemm' op field 'scale_a' = f8E4M3FN block scales for 'f8E4M3FN' operands: E4M3 block scales are NVFP4's, for f4E2M1FN operands only; MX formats take f8E8M0FNU [1, 32]}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E4M3FN [1, 16], scale_b = f8E4M3FN [1, 16], tile = [128, 128, 128] }

// -----

// E8M0 scales per 16 elements: no kind has them
// expected-error @+1 {{'tile.gemm' op field 'scale_a' = 'f8E8M0FNU' [1, 16]: OCP MX block scales cover 32 elements of K of one row, [1, 32] (E8M0 scales per 16 are no kind's)}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 16], scale_b = f8E8M0FNU [1, 16], tile = [128, 128, 128] }

// -----

// MXFP6 with E8M0 scales per 64: .kind::mxf8f6f4 takes one scale per 32 (scale_vec::1X)
// expected-error @+1 {{'tile.gemm' op field 'scale_b' = 'f8E8M0FNU' [1, 64]: OCP MX block scales cover 32 elements of K of one row, [1, 32] (E8M0 scales per 64 are no kind's)}}
tile.gemm @g { a = f8E4M3FN row, b = f6E3M2FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 64], tile = [128, 128, 128] }

// -----

// NVFP4 scales per 32 elements: no kind has them
// expected-error @+1 {{'tile.gemm' op field 'scale_b' = 'f8E4M3FN' [1, 32]: NVFP4 block scales cover 16 elements of K of one row, [1, 16] (E4M3 scales per 32 are no kind's)}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E4M3FN [1, 16], scale_b = f8E4M3FN [1, 32], tile = [128, 128, 128] }

// -----

// the tile's K-slice does not hold whole scale blocks
// expected-error @+1 {{'tile.gemm' op tile K = 48 is not a multiple of the scale_a block (32 elements of K): every K-slice must hold whole scale blocks}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 48] }

// -----

// f32 scales on one operand, E8M0 block scales on the other
// expected-error @+1 {{'tile.gemm' op scale_a = 'f32' and scale_b = 'f8E8M0FNU' mix f32 scales with block-scaled formats: give both operands block scales of one format}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 tensor, scale_b = f8E8M0FNU [1, 32], tile = [128, 128, 128] }

// -----

// two block-scale formats in one MMA
// expected-error @+1 {{'tile.gemm' op scale_a = 'f8E8M0FNU' and scale_b = 'f8E4M3FN' mix two block-scale formats; no block-scaled kind takes that (one scale type per instruction)}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E4M3FN [1, 16], tile = [128, 128, 128] }

// -----

// MXFP8 with a scale on one operand only
// expected-error @+1 {{'tile.gemm' op field 'scale_b' is missing: with 'f8E8M0FNU' block scales on one narrow operand, the other narrow operand needs its own}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], tile = [128, 128, 128] }

// -----

// upcast to FP8: not written
// expected-error @+1 {{'tile.gemm' op field 'upcast' = 'f8E4M3FN' is not supported yet: the upcast path converts to bf16 only}}
tile.gemm @g { a = f8E4M3FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], upcast = f8E4M3FN, tile = [128, 128, 128] }

// -----

// upcast with nothing block-scaled
// expected-error @+1 {{'tile.gemm' op field 'upcast' = 'bf16' is given without block-scaled operands (f8E8M0FNU or f8E4M3FN block scales): there is nothing to convert}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, upcast = bf16, tile = [128, 128, 64] }

// -----

// accumulation is an FP8-with-f32-scales choice
// expected-error @+1 {{'tile.gemm' op field 'accumulation' is given with block-scaled formats: it chooses how FP8 products with f32 scales are accumulated; block-scaled MMAs accumulate in f32}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], accumulation = fast, tile = [128, 128, 128] }

// -----

// a block-scale type given per tensor
// expected-error @+1 {{field 'scale_a': scale type 'f8E8M0FNU' is a block-scale type: give its block, e.g. f8E8M0FNU [1, 32]}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f8E8M0FNU tensor, tile = [128, 128, 128] }

// -----

// a per-tensor factor on MX scales
// expected-error @+1 {{field 'scale_a': '* 'f32' tensor' is given with 'f8E8M0FNU' block scales: the per-tensor factor belongs to NVFP4's f8E4M3FN block scales only}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E8M0FNU [1, 32] * f32 tensor, tile = [128, 128, 128] }

// -----

// a per-tensor factor that is not f32
// expected-error @+1 {{field 'scale_a': the per-tensor factor of NVFP4 block scales is f32, got 'bf16'}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E4M3FN [1, 16] * bf16 tensor, tile = [128, 128, 128] }

// -----

// upcast names no type
// expected-error @+1 {{field 'upcast': unknown type 'bfloat16'; accepted: bf16; did you mean 'bf16'?}}
tile.gemm @g { a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E8M0FNU [1, 32], upcast = bfloat16, tile = [128, 128, 64] }

// -----

// an FP4 operand under a near-miss name
// expected-error @+1 {{field 'b': unknown type 'mxfp4'; accepted: bf16, f16, f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN; did you mean 'f4E2M1FN'?}}
tile.gemm @g { a = f4E2M1FN row, b = mxfp4 col, c = bf16 row, tile = [128, 128, 64] }

// -----

// An empty tile beside block scales: the tile is checked before the scale blocks, which divide
// its K.
// expected-error @+1 {{'tile.gemm' op field 'tile' = [] must be 3 sizes [M, N, K], each from 1 to 4096}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, scale_a = f8E4M3FN [1, 16] * f32 tensor, scale_b = f8E4M3FN [1, 16] * f32 tensor, tile = [] }
