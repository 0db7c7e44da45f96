// The tile.gemm verifier reports a field's error on the line of that field, not on the op's.
// RUN: %tilegen-opt %s -split-input-file -verify-diagnostics

tile.gemm @g {
  a = bf16 row, b = bf16 col, c = bf16 row,
  tile = [128, 128, 32],
  // expected-error @+1 {{'tile.gemm' op field 'stages' = 17 must be auto or 1 to 16}}
  stages = 17
}

// -----

tile.gemm @g {
  a = bf16 row, b = bf16 col, c = bf16 row,
  // expected-error @+1 {{'tile.gemm' op field 'tile' = [128, 0, 32] must be 3 sizes [M, N, K], each from 1 to 4096}}
  tile = [128, 0, 32]
}

// -----

tile.gemm @g {
  a = bf16 row,
  // expected-error @+1 {{'tile.gemm' op fields 'a' and 'b' must have one element type (or two narrow formats: FP8, FP6, FP4), got 'bf16' and 'f16'}}
  b = f16 col,
  c = bf16 row, tile = [128, 128, 32]
}

// -----

tile.gemm @g {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32],
  // expected-error @+1 {{'tile.gemm' op field 'multicast' = b needs a cluster of more than one CTA, got cluster [1, 1, 1]}}
  multicast = b
}

// -----

tile.gemm @g {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32],
  // expected-error @+1 {{'tile.gemm' op field 'alignment' = 3 for a = 'bf16' must be a power of two from 1 to 8 elements (copies of at most 16 bytes)}}
  alignment = 3
}

// -----

// A field's type that names no type is a parse error at the word itself.
tile.gemm @g {
  // expected-error @+1 {{field 'a': unknown type 'bfloat16'; accepted: bf16, f16, f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN; did you mean 'bf16'?}}
  a = bfloat16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32]
}
