// tile-check-target rejects what the warp-specialised mma.sync schedule (a TMA producer warp feeding ldmatrix + mma.sync consumers) cannot build, naming field, value, target and reason: one case per message.
// RUN: %tilegen-opt %s --tile-check-target -split-input-file -verify-diagnostics

// multicast on sm_120a (the multicast is reported, not the cluster it needs)
// expected-error @+1 {{'tile.gemm' op multicast = b needs TMA multicast across a cluster; target sm_120a has no multicast hardware (GeForce Blackwell: clusters are pinned to 1x1x1)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], schedule = warp_specialized, multicast = b, cluster = [2, 1, 1], target = "sm_120a" }

// -----

// a cluster wider than 1 on sm_120a
// expected-error @+1 {{'tile.gemm' op cluster = [2, 1, 1] has 2 CTAs; target sm_120a allows at most 1 (GeForce Blackwell has no TMA multicast: clusters are pinned to 1x1x1)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], schedule = warp_specialized, cluster = [2, 1, 1], target = "sm_120a" }

// -----

// a cluster on sm_90: the warp-specialised mma.sync producer loads without multicast
// expected-error @+1 {{'tile.gemm' op not supported yet: cluster = [2, 1, 1] with schedule = warp_specialized and mma.sync on target sm_90 (its producer loads without multicast: one CTA per cluster)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], schedule = warp_specialized, cluster = [2, 1, 1], target = "sm_90" }

// -----

// a ring that does not fit the 99 KB of sm_120a, with the byte counts
// expected-error @+1 {{'tile.gemm' op the ring does not fit in shared memory on target sm_120a: 2 stages x 48 KB (A 16 KB + B 32 KB) + epilogue 32 KB + barriers 128 B = 128.1 KB > 99 KB per block}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], stages = 2, schedule = warp_specialized, target = "sm_120a" }

// -----

// stages = auto on sm_120 when not even 2 stages of the TMA ring fit
// expected-error @+1 {{'tile.gemm' op stages = auto: not even 2 stages fit on target sm_120: 2 stages x 48 KB (A 16 KB + B 32 KB) + epilogue 32 KB + barriers 128 B = 128.1 KB > 99 KB per block}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], stages = auto, schedule = warp_specialized, target = "sm_120" }

// -----

// block scales on a target whose mma.sync lowering does not apply them
// expected-error @+1 {{'tile.gemm' op not supported yet: scale_a = block scales with mma.sync on target sm_120a (block scales are applied by the wgmma lowering, sm_90a; use per-tensor scales here)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [1, 128], scale_b = f32 [128, 128], tile = [128, 128, 128], schedule = warp_specialized, target = "sm_120a" }

// -----

// ping-pong with a tile the consumer warps cannot split: a 64x128 warp tile per group of 4
// expected-error @+1 {{'tile.gemm' op a warp tile of 64x128 needs 256 accumulator registers per thread; at most 128 leave room for the fragments (use more warps or a smaller tile) (accumulators = 2, ping-pong: each of the two consumer groups of 4 warps takes whole tiles)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], accumulators = 2, schedule = warp_specialized, target = "sm_90" }

// -----

// ping-pong whose two groups of 8 warps leave each thread too few registers
// expected-error @+1 {{'tile.gemm' op tile [128, 256] with warps = [2, 4] (accumulators = 2, ping-pong: each of the two consumer groups of 8 warps takes whole tiles) gives each consumer thread 128 accumulator registers and at least 40 more = 168; with 17 warps per CTA (the producer warp included) a thread has 96 (65536 registers in 4 sub-partitions of 5 warps; target sm_90)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], accumulators = 2, warps = [2, 4], schedule = warp_specialized, target = "sm_90" }

// -----

// ping-pong with a tile M the group's warps do not divide into m16 blocks
// expected-error @+1 {{'tile.gemm' op tile M = 96 does not split into warps = [4, 2] of a multiple of 16 rows (mma.sync m16n8k16 on target sm_90) (accumulators = 2, ping-pong: each of the two consumer groups of 8 warps takes whole tiles)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [96, 128, 64], accumulators = 2, warps = [4, 2], schedule = warp_specialized, target = "sm_90" }

// -----

// cp.async asked for the TMA-fed schedule
// expected-error @+1 {{'tile.gemm' op copy = cp_async with schedule = warp_specialized and mma.sync on target sm_90: the warp-specialised schedule is fed by TMA; use copy = tma, or schedule = multistage for cp.async}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], copy = cp_async, schedule = warp_specialized, target = "sm_90" }

// -----

// rows aligned to less than 16 bytes: TMA needs 16-byte strides
// expected-error @+1 {{'tile.gemm' op not supported yet: alignment = 2 with schedule = warp_specialized on target sm_90: TMA needs 16-byte strides; use schedule = multistage}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], alignment = 2, schedule = warp_specialized, target = "sm_90" }

// -----

// column-major D on mma.sync (either schedule)
// expected-error @+1 {{'tile.gemm' op not supported yet: c = col with mma.sync on target sm_90 (D is stored row-major; use c = row)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 col, tile = [128, 128, 64], schedule = warp_specialized, target = "sm_90" }

// -----

// a tile wider than a TMA box (256 rows)
// expected-error @+1 {{'tile.gemm' op tile [16, 512] has more than 256 rows in a TMA box (A: tile M, B: tile N) on target sm_90}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [16, 512, 64], schedule = warp_specialized, target = "sm_90" }

// -----

// a warp tile row that the TMA-store epilogue cannot cut into swizzled chunks
// expected-error @+1 {{'tile.gemm' op not supported yet: a warp tile of 48 columns of 'bf16' is 96 bytes per row, which the TMA-store epilogue cannot cut into 32-, 64- or 128-byte swizzled chunks (target sm_90)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 192, 64], schedule = warp_specialized, target = "sm_90" }

// -----

// more warps than a CTA has
// expected-error @+1 {{'tile.gemm' op warps = [4, 4] in each of two consumer groups and the producer warp is 33 warps; a CTA has at most 32 (accumulators = 2, ping-pong: each of the two consumer groups of 16 warps takes whole tiles)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], accumulators = 2, warps = [4, 4], schedule = warp_specialized, target = "sm_90" }
