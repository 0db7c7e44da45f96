// Every parser and verifier diagnostic of tile.gemm and tile.pipeline fires, once, on its own case.
// RUN: %tilegen-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown field 'tiles'; expected a, b, c, accumulator, scale_a, scale_b, upcast, accumulation, promotion, tile, stages, accumulators, schedule, copy, warps, mma, cluster, multicast, cache_a, cache_b, cta_group, grid, raster, swizzle, alpha, beta, alignment, target}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tiles = [128, 128, 32] }

// -----

// expected-error @+1 {{field 'stages' given twice}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], stages = 3, stages = 4 }

// -----

// expected-error @+1 {{missing required field 'tile'}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row }

// -----

// expected-error @+1 {{missing required field 'c'}}
tile.gemm @g { a = bf16 row, b = bf16 col, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{layout must be 'row' or 'col', got 'diagonal'}}
tile.gemm @g { a = bf16 diagonal, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// The enum fields are typed: the generic form cannot carry a string where an enum belongs.
// expected-error @+2 {{expected ::tilegen::tile::Layout to be one of: row, col}}
// expected-error @+1 {{failed to parse Tile_LayoutAttr parameter 'value'}}
"tile.gemm"() <{a_layout = #tile.layout diag, a_type = bf16, acc_type = f32, accumulators = 1 : i64, alpha = 1.000000e+00 : f64, b_layout = #tile.layout col, b_type = bf16, beta = 0.000000e+00 : f64, c_layout = #tile.layout row, c_type = bf16, cluster = array<i64: 1, 1, 1>, copy = #tile.copy auto, cta_group = 1 : i64, grid = #tile.grid tiles, mma = array<i64>, multicast = #tile.multicast none, raster = #tile.raster row, schedule = #tile.schedule multistage, stages = 4 : i64, swizzle = 8 : i64, sym_name = "g", tile = array<i64: 128, 128, 32>, warps = array<i64>}> : () -> ()

// -----

// expected-error @+1 {{field 'schedule' must be one of auto, multistage, warp_specialized, got 'pingpong'}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], schedule = pingpong }

// -----

// expected-error @+1 {{field 'copy' must be one of auto, cp_async, tma, got 'ldg'}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], copy = ldg }

// -----

// expected-error @+1 {{field 'multicast' must be one of none, a, b, ab, got 'c'}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], multicast = c }

// -----

// expected-error @+1 {{field 'grid' must be one of tiles, persistent, stream_k, got 'split_k'}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], grid = split_k }

// -----

// expected-error @+1 {{field 'raster' must be one of row, col, got 'hilbert'}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], raster = hilbert }

// -----

// expected-error @+1 {{field 'stages' must be 'auto' or at least 1, got 0}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], stages = 0 }

// -----

// expected-error @+1 {{'tile.gemm' op field 'stages' = 17 must be auto or 1 to 16}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], stages = 17 }

// -----

// A word that names no type: the types the field accepts, and the one meant.
// expected-error @+1 {{field 'a': unknown type 'bfloat16'; accepted: bf16, f16, f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN; did you mean 'bf16'?}}
tile.gemm @g { a = bfloat16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// The output and the accumulator accept fewer types; a near miss is suggested by spelling.
// expected-error @+1 {{field 'accumulator': unknown type 'f33'; accepted: f32; did you mean 'f32'?}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f33, tile = [128, 128, 32] }

// -----

// No suggestion when nothing is close.
// expected-error @+1 {{field 'c': unknown type 'matrix'; accepted: bf16, f16, f32}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = matrix row, tile = [128, 128, 32] }

// -----

// f32 operands: no target has a TF32 MMA in tilegen, so the verifier refuses them.
// expected-error @+1 {{'tile.gemm' op field 'a' is f32: f32 operands need a TF32 MMA, which tilegen does not support yet; use bf16, f16 or an FP8 format}}
tile.gemm @g { a = f32 row, b = f32 col, c = f32 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'a' has element type 'i8'; expected bf16, f16, f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN or f4E2M1FN}}
tile.gemm @g { a = i8 row, b = i8 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op fields 'a' and 'b' must have one element type (or two narrow formats: FP8, FP6, FP4), got 'bf16' and 'f16'}}
tile.gemm @g { a = bf16 row, b = f16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'c' has element type 'i32'; expected bf16, f16 or f32}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = i32 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'accumulator' is 'f16'; only f32 accumulation is supported}}
tile.gemm @g { a = f16 row, b = f16 col, c = f16 row, accumulator = f16, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'tile' = [128, 128] must be 3 sizes [M, N, K], each from 1 to 4096}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'tile' = [128, 0, 32] must be 3 sizes [M, N, K], each from 1 to 4096}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 0, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'accumulators' = 3 must be 1 or 2}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], accumulators = 3 }

// -----

// expected-error @+1 {{'tile.gemm' op field 'cta_group' = 4 must be 1 or 2}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], cta_group = 4 }

// -----

// negative counts are echoed as written
// expected-error @+1 {{'tile.gemm' op field 'accumulators' = -1 must be 1 or 2}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], accumulators = -1 }

// -----

// expected-error @+1 {{'tile.gemm' op field 'cta_group' = -2 must be 1 or 2}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], cta_group = -2 }

// -----

// expected-error @+1 {{'tile.gemm' op field 'swizzle' = -3 must be from 1 to}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], swizzle = -3 }

// -----

// expected-error @+1 {{custom op 'tile.gemm' field 'alpha' must be a number (an integer, or a float such as 1.5 or 2.0e-3), got 'inf'}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alpha = inf }

// -----

// expected-error @+1 {{custom op 'tile.gemm' field 'beta': an exponent needs a decimal point before it, as in 1.0e-3}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], beta = 1e-3 }

// -----

// expected-error @+1 {{custom op 'tile.gemm' field 'alpha': unexpected 'x' after the number}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alpha = 2 x }

// -----

// expected-error @+1 {{custom op 'tile.gemm' field 'alpha' has two signs}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alpha = - -1.5 }

// -----

// expected-error @+1 {{custom op 'tile.gemm' field 'stages' must be 'auto' or at least 1, got -5}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], stages = -5 }

// -----

// expected-error @+1 {{'tile.gemm' op field 'warps' = [2, 2, 2] must be 2 sizes [WM, WN], each from 1 to 32}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], warps = [2, 2, 2] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'mma' = [16, 8] must be 3 sizes [m, n, k], each from 1 to 1024}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], mma = [16, 8] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'cluster' = [2, 0, 1] must be 3 sizes [X, Y, Z], each from 1 to 16}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], cluster = [2, 0, 1] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'swizzle' = 0 must be from 1 to 65536}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], swizzle = 0 }

// -----

// expected-error @+1 {{'tile.gemm' op field 'multicast' = b needs a cluster of more than one CTA, got cluster [1, 1, 1]}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], multicast = b }

// -----

// expected-error @+1 {{'tile.gemm' op cta_group = 2 needs the cluster's M extent (cluster[0]) to be even, got 1}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [256, 128, 64], cta_group = 2, cluster = [1, 2, 1] }

// -----

// expected-error @+1 {{'tile.pipeline' op needs exactly one tile.ring, tile.accumulators, tile.schedule and tile.epilogue}}
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 0 attributes {description = ""} {
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.0 beta 0.0 out bf16 row via direct offset 0 bytes 0
}

// -----

// expected-error @+1 {{'tile.pipeline' op has no 'producer' role}}
tile.pipeline @p target "sm_90" block [256, 1, 1] cluster [1, 1, 1] smem 65536 attributes {description = ""} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.0 beta 0.0 out bf16 row via direct offset 65536 bytes 0
}

// -----

// expected-error @+1 {{'tile.pipeline' op block and cluster must have three dimensions}}
tile.pipeline @p target "sm_90" block [256, 1] cluster [1, 1, 1] smem 65536 attributes {description = ""} {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
  tile.accumulators 1 x [128, 128] f32 in registers
  tile.role producer warps [0, 8] layout [] regs 0
  tile.role mma warps [0, 8] issues <mma_sync [16, 8, 16] bf16 x bf16 -> f32> layout [2, 4] regs 0
  tile.role epilogue warps [0, 8] layout [2, 4] regs 0
  tile.schedule tiles [128, 128] slice_k 32 grid tiles raster row swizzle 8
  tile.epilogue alpha 1.0 beta 0.0 out bf16 row via direct offset 65536 bytes 0
}

// -----

// expected-error @+2 {{'tile.ring' op expects parent op 'tile.pipeline'}}
module {
  tile.ring slots 4 slice_k 32 a [128, 32] bf16 row b [128, 32] bf16 col sync cp_async_groups swizzle xor16x8 offset 0 slot_bytes 16384 b_offset 8192 barriers 65536
}

// -----

// expected-error @+1 {{'tile.gemm' op field 'scale_a' is given for an operand of type 'bf16': scales apply to narrow operands (f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN) only}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, scale_a = f32 tensor, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{field 'scale_b': scale type 'bf16' is not supported: scales are f32 (FP8 operands), f8E8M0FNU (OCP MX block scales) or f8E4M3FN (NVFP4 block scales)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_b = bf16 tensor, tile = [128, 128, 128] }

// -----

// expected-error @+1 {{field 'scale_a': a block scale needs two sizes [outer, k] from 1 to 2147483647; got [1, 0]}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [1, 0], tile = [128, 128, 128] }

// -----

// expected-error @+1 {{a scale is 'TYPE tensor', 'TYPE [outer, k]' or 'TYPE [outer, k] * f32 tensor'}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 blocks, tile = [128, 128, 128] }

// -----

// expected-error @+1 {{field 'scale_a': a block scale needs two sizes [outer, k] from 1 to 2147483647; got [4294967296, 128]}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [4294967296, 128], tile = [128, 128, 128] }

// -----

// expected-error @+1 {{field 'promotion' must be from 1 to 2147483647 K elements, got 0}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, promotion = 0, tile = [128, 128, 128] }


// -----

// Sizes are bounded before any product of them is formed.
// expected-error @+1 {{'tile.gemm' op field 'tile' = [128, 4294967296, 32] must be 3 sizes [M, N, K], each from 1 to 4096}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 4294967296, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'warps' = [2, 9223372036854775807] must be 2 sizes [WM, WN], each from 1 to 32}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], warps = [2, 9223372036854775807] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'mma' = [16, 8, 2048] must be 3 sizes [m, n, k], each from 1 to 1024}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], mma = [16, 8, 2048] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'cluster' = [2, 1, 65536] must be 3 sizes [X, Y, Z], each from 1 to 16}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], cluster = [2, 1, 65536] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'swizzle' = 4294967296 must be from 1 to 65536}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], swizzle = 4294967296 }

// -----

// The generic form skips the custom parser's range check; the verifier repeats it.
// expected-error @+1 {{'tile.gemm' op field 'promotion' = -128 must be from 1 to 2147483647 K elements}}
"tile.gemm"() <{a_layout = #tile<layout row>, a_type = f8E4M3FN, acc_type = f32, accumulators = 1 : i64, alpha = 1.000000e+00 : f64, b_layout = #tile<layout col>, b_type = f8E4M3FN, beta = 0.000000e+00 : f64, c_layout = #tile<layout row>, c_type = bf16, cluster = array<i64: 1, 1, 1>, copy = #tile<copy auto>, cta_group = 1 : i64, grid = #tile<grid tiles>, mma = array<i64>, multicast = #tile<multicast none>, promotion = -128 : i64, raster = #tile<raster row>, schedule = #tile<schedule auto>, stages = 0 : i64, swizzle = 8 : i64, sym_name = "g", tile = array<i64: 128, 128, 128>, warps = array<i64>}> : () -> ()

// -----

// expected-error @+1 {{'tile.gemm' op field 'alpha' = inf must be a finite number that fits f32, |x| <= 3.4028235e38 (the epilogue computes in f32)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alpha = 1.0e309 }

// -----

// expected-error @+1 {{'tile.gemm' op field 'beta' = 1e+39 must be a finite number that fits f32, |x| <= 3.4028235e38 (the epilogue computes in f32)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], beta = 1.0e39 }

// -----

// expected-error @+1 {{'tile.gemm' op field 'alpha' = nan must be a finite number that fits f32, |x| <= 3.4028235e38 (the epilogue computes in f32)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alpha = 0x7FF8000000000000 }

// -----

// Kernel names must be PTX identifiers.
// expected-error @+1 {{'tile.gemm' op kernel name 'my-gemm' is not a PTX identifier: '-' is not allowed in a PTX identifier (letters, digits, '_' and '$')}}
tile.gemm @"my-gemm" { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op kernel name 'gemm.v2' is not a PTX identifier: '.' is not allowed in a PTX identifier (letters, digits, '_' and '$')}}
tile.gemm @gemm.v2 { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op kernel name '_' is not a PTX identifier: a PTX identifier that starts with '_' or '$' needs at least one more character}}
tile.gemm @_ { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op kernel name '' is not a PTX identifier: the name is empty}}
tile.gemm @"" { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op kernel name '9lives' is not a PTX identifier: a PTX identifier starts with a letter, '_' or '$'}}
tile.gemm @"9lives" { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op kernel name 'café' is not a PTX identifier: byte 0xC3 is not allowed in a PTX identifier (letters, digits, '_' and '$')}}
tile.gemm @"café" { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op kernel name '__tilegen_smem' is not a PTX identifier: names starting with '__tilegen' are reserved for tilegen's own symbols}}
tile.gemm @__tilegen_smem { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op kernel name 'gggggggggggggggggggggggggggggggg...' is not a PTX identifier: it has 1025 characters; at most 1024}}
tile.gemm @ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op kernel name 'WARP_SZ' is not a PTX identifier: WARP_SZ is a predefined PTX identifier}}
tile.gemm @WARP_SZ { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// expected-error @+1 {{'tile.gemm' op kernel name '__cudaX' is not a PTX identifier: names starting with '__cuda' are the CUDA toolchain's own (ptxas reports nothing about such entries)}}
tile.gemm @__cudaX { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32] }

// -----

// A misspelt field or keyword gets the closest name.
// expected-error @+1 {{unknown field 'stagse'; expected a, b, c, accumulator, scale_a, scale_b, upcast, accumulation, promotion, tile, stages, accumulators, schedule, copy, warps, mma, cluster, multicast, cache_a, cache_b, cta_group, grid, raster, swizzle, alpha, beta, alignment, target; did you mean 'stages'?}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], stagse = 3 }

// -----

// expected-error @+1 {{field 'schedule' must be one of auto, multistage, warp_specialized, got 'warp_specialised'; did you mean 'warp_specialized'?}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], schedule = warp_specialised }

// -----

// expected-error @+1 {{field 'alignment' must be one value or [a, b] (elements of A and of B), got 3 values}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alignment = [1, 2, 4] }

// -----

// expected-error @+1 {{'tile.gemm' op field 'alignment' = 16 for a = 'bf16' must be a power of two from 1 to 8 elements (copies of at most 16 bytes)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], alignment = 16 }

// -----

// The generic form can carry any number of values; the verifier wants two.
// expected-error @+1 {{'tile.gemm' op field 'alignment' has 1 values; expected one value or [a, b]}}
"tile.gemm"() <{a_layout = #tile<layout row>, a_type = bf16, acc_type = f32, accumulators = 1 : i64, alignment = array<i64: 2>, alpha = 1.000000e+00 : f64, b_layout = #tile<layout col>, b_type = bf16, beta = 0.000000e+00 : f64, c_layout = #tile<layout row>, c_type = bf16, cluster = array<i64: 1, 1, 1>, copy = #tile<copy auto>, cta_group = 1 : i64, grid = #tile<grid tiles>, mma = array<i64>, multicast = #tile<multicast none>, raster = #tile<raster row>, schedule = #tile<schedule auto>, stages = 0 : i64, swizzle = 8 : i64, sym_name = "g", tile = array<i64: 128, 128, 32>, warps = array<i64>}> : () -> ()
