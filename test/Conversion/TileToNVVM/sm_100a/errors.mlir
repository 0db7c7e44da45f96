// The tcgen05 plan rejects, before any code generation, each description the sm_100a lowering cannot build (one case per diagnostic): what the ISA forbids, and what is not lowered yet.
// RUN: %tilegen-opt %s --tile-check-target -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.gemm' op not supported yet: tile M = 64 with cta_group = 1 on target sm_100a (the tcgen05 lowering takes 128 rows per CTA: tile M = 128 for cta_group = 1, 256 for cta_group = 2)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [64, 128, 64], target = "sm_100a" }

// -----

// expected-error @+1 {{'tile.gemm' op not supported yet: tile M = 128 with cta_group = 2 on target sm_100a (the tcgen05 lowering takes 128 rows per CTA: tile M = 128 for cta_group = 1, 256 for cta_group = 2)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], cta_group = 2, cluster = [2, 1, 1], target = "sm_100a" }

// -----

// The verifier's rule, reached before the plan.
// expected-error @+1 {{'tile.gemm' op cta_group = 2 needs the cluster's M extent (cluster[0]) to be even, got 1}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [256, 128, 64], cta_group = 2, cluster = [1, 2, 1], target = "sm_100a" }

// -----

// expected-error @+1 {{'tile.gemm' op not supported yet: cluster = [2, 1, 1] with cta_group = 1 on target sm_100a (the tcgen05 lowering takes cluster = [1, 1, 1]; TMA multicast is not lowered yet)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], cluster = [2, 1, 1], target = "sm_100a" }

// -----

// expected-error @+1 {{'tile.gemm' op tile K = 128 gives K-slice rows of 256 bytes; the tcgen05 lowering needs 32, 64 or 128 (one TMA swizzle span) on target sm_100a}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 128], stages = 2, target = "sm_100a" }

// -----

// expected-error @+1 {{'tile.gemm' op not supported yet: a = col, b = col with tcgen05 on target sm_103a (K-major operands only: a = row, b = col)}}
tile.gemm @g { a = bf16 col, b = bf16 col, c = bf16 row, tile = [128, 128, 64], target = "sm_103a" }

// -----

// expected-error @+1 {{'tile.gemm' op not supported yet: c = col with tcgen05 on target sm_100a (D is stored row-major; use c = row)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 col, tile = [128, 128, 64], target = "sm_100a" }

// -----

// expected-error @+1 {{'tile.gemm' op tile N = 32 of 'bf16' is not a whole number of 128-byte column chunks, which the TMA-store epilogue writes (target sm_100a)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 32, 64], target = "sm_100a" }

// -----

// expected-error @+1 {{'tile.gemm' op not supported yet: multicast = a with tcgen05 on target sm_100a (a CTA pair shares B through cta_group = 2; TMA multicast across clusters is not lowered yet)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [256, 256, 64], cta_group = 2, cluster = [2, 1, 1], multicast = a, target = "sm_100a" }
