// tile-check-target rejects, before any code generation, each description its target cannot build, naming field, value, target and reason.
// Each case names its own target in the `target` field (the pass option is empty, so the field is used); target-option.mlir covers --tile-check-target=target=.
// RUN: %tilegen-opt %s --tile-check-target -split-input-file -verify-diagnostics
//
// Not covered because resolveGemm cannot reach them today (all are kept as guards):
// the TMEM-column rule (accumulators <= 2 and N <= 256 keep columns <= 512), the 32-byte
// K-slice rule (K is a multiple of the 32-byte instruction K of every accepted type by then)
// and the f32-operand rule (the tile.gemm verifier rejects f32 operands on every target:
// Dialect/Tile/invalid.mlir).

// an MMA shape no target has
// expected-error @+1 {{'tile.gemm' op mma = [16, 8, 8] is no tensor-core instruction shape on target sm_90a (mma.sync, wgmma); 'bf16' shapes are m16n8k16 (mma.sync), m64nNk16 with N a multiple of 8 from 8 to 256 (wgmma), M = 64 or 128 (cta_group 1) or 128 or 256 (cta_group 2) x nN x k16 (tcgen05)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], mma = [16, 8, 8], target = "sm_90a" }

// -----

// M = 64 but N and K fit no wgmma (N a multiple of 8, K = 16)
// expected-error @+1 {{'tile.gemm' op mma = [64, 7, 3] is no tensor-core instruction shape on target sm_90a (mma.sync, wgmma); 'bf16' shapes are m16n8k16 (mma.sync), m64nNk16 with N a multiple of 8 from 8 to 256 (wgmma), M = 64 or 128 (cta_group 1) or 128 or 256 (cta_group 2) x nN x k16 (tcgen05)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], mma = [64, 7, 3], target = "sm_90a" }

// -----

// a tcgen05 shape (M = 128) on sm_90a, whose wgmma is M = 64
// expected-error @+1 {{'tile.gemm' op mma = [128, 128, 16] is a tcgen05.mma shape (M = 128), which needs tcgen05 (sm_100a family); target sm_90a has mma.sync, wgmma, whose wgmma is m64nNk16 (M = 64)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], mma = [128, 128, 16], target = "sm_90a" }

// -----

// a tcgen05 shape on sm_90 (no wgmma either)
// expected-error @+1 {{'tile.gemm' op mma = [128, 128, 16] is a tcgen05.mma shape (M = 128), which needs tcgen05 (sm_100a family); target sm_90 has mma.sync}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], mma = [128, 128, 16], target = "sm_90" }

// -----

// a wgmma N other than the tile's N (the lowering issues one wgmma across the tile's N)
// expected-error @+1 {{'tile.gemm' op not supported yet: mma = [64, 64, 16] with tile N = 128 on target sm_90a: the wgmma lowering issues one m64nNk16 across the tile's N, so N = tile N (mma = [64, 128, 16])}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], mma = [64, 64, 16], target = "sm_90a" }

// -----

// M = 64 is no tcgen05.mma with cta_group = 2
// expected-error @+1 {{'tile.gemm' op mma = [64, 128, 16] is no tcgen05.mma shape with cta_group = 2 on target sm_100a (mma.sync, tcgen05); 'bf16' shapes are m16n8k16 (mma.sync) and, for tcgen05, M = 64 or 128 (cta_group 1) or 128 or 256 (cta_group 2), N a multiple of 8 from 8 to 256, K = 16}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [256, 128, 64], mma = [64, 128, 16], cta_group = 2, cluster = [2, 1, 1], target = "sm_100a" }

// -----

// a tcgen05 shape other than the tile's (the lowering issues one tcgen05.mma over the whole tile)
// expected-error @+1 {{'tile.gemm' op not supported yet: mma = [128, 64, 16] with tile = [128, 128, 64] on target sm_100a: the tcgen05 lowering issues one tcgen05.mma over the whole tile, so M = tile M and N = tile N (mma = [128, 128, 16])}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], mma = [128, 64, 16], target = "sm_100a" }

// -----

// a wgmma shape on sm_90 (no `a`: no wgmma)
// expected-error @+1 {{'tile.gemm' op mma = [64, 128, 16] is a wgmma shape (m64nNk16); target sm_90 has mma.sync: wgmma exists only on sm_90a (ptxas would reject every wgmma instruction)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], mma = [64, 128, 16], target = "sm_90" }

// -----

// a wgmma shape on sm_120
// expected-error @+1 {{'tile.gemm' op mma = [64, 128, 16] is a wgmma shape (m64nNk16); target sm_120 has mma.sync: wgmma exists only on sm_90a (ptxas would reject every wgmma instruction)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], mma = [64, 128, 16], target = "sm_120" }

// -----

// warp_specialized with mma.sync needs TMA for its producer warp (sm_86 has cp.async only)
// expected-error @+1 {{'tile.gemm' op schedule = warp_specialized with mma.sync needs TMA (cp.async.bulk.tensor, sm_90 and newer) for its producer warp; target sm_86 has cp.async only: use schedule = multistage}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], schedule = warp_specialized, target = "sm_86" }

// -----

// warp_specialized mma.sync on sm_120 with K-slice rows that are not one 128-byte swizzle span
// expected-error @+1 {{'tile.gemm' op not supported yet: tile K = 32 gives K-slice rows of 64 bytes; the warp-specialised mma.sync lowering needs 128 (one 128-byte TMA swizzle span, the layout its ldmatrix reads: tile K = 64) on target sm_120}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], schedule = warp_specialized, target = "sm_120" }

// -----

// warp_specialized with an explicit mma.sync shape on sm_90a and an MN-major operand
// expected-error @+1 {{'tile.gemm' op not supported yet: a = col, b = col with schedule = warp_specialized and mma.sync on target sm_90a (K-major operands only: a = row, b = col; use schedule = multistage)}}
tile.gemm @g { a = bf16 col, b = bf16 col, c = bf16 row, tile = [128, 128, 64], schedule = warp_specialized, mma = [16, 8, 16], target = "sm_90a" }

// -----

// cta_group = 2 on sm_90a
// expected-error @+1 {{'tile.gemm' op cta_group = 2 needs tcgen05 (sm_100a family); target sm_90a has mma.sync, wgmma}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [256, 128, 64], cta_group = 2, cluster = [2, 1, 1], target = "sm_90a" }

// -----

// cta_group = 2 on sm_120
// expected-error @+1 {{'tile.gemm' op cta_group = 2 needs tcgen05 (sm_100a family); target sm_120 has mma.sync}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [256, 128, 64], cta_group = 2, cluster = [2, 1, 1], target = "sm_120" }

// -----

// cluster multicast on sm_120 (the multicast is reported, not the cluster it needs)
// expected-error @+1 {{'tile.gemm' op multicast = b needs TMA multicast across a cluster; target sm_120 has no multicast hardware (GeForce Blackwell: clusters are pinned to 1x1x1)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], cluster = [2, 1, 1], multicast = b, target = "sm_120" }

// -----

// cluster multicast on sm_80
// expected-error @+1 {{'tile.gemm' op multicast = a needs TMA multicast across a cluster; target sm_80 has no multicast hardware (no TMA or thread-block clusters before sm_90)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], cluster = [1, 2, 1], multicast = a, target = "sm_80" }

// -----

// a cluster without multicast on sm_120
// expected-error @+1 {{'tile.gemm' op cluster = [2, 1, 1] has 2 CTAs; target sm_120 allows at most 1 (GeForce Blackwell has no TMA multicast: clusters are pinned to 1x1x1)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], cluster = [2, 1, 1], target = "sm_120" }

// -----

// a cluster on sm_89 (no clusters before sm_90)
// expected-error @+1 {{'tile.gemm' op cluster = [2, 1, 1] has 2 CTAs; target sm_89 allows at most 1 (no thread-block clusters before sm_90)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], cluster = [2, 1, 1], target = "sm_89" }

// -----

// a cluster over the portable size
// expected-error @+1 {{'tile.gemm' op cluster = [4, 4, 1] has 16 CTAs; target sm_90a allows at most 8 (portable cluster size)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], cluster = [4, 4, 1], target = "sm_90a" }

// -----

// a wgmma cluster of more than 2 x 2 CTAs (not yet)
// expected-error @+1 {{'tile.gemm' op not supported yet: cluster = [4, 1, 1] with wgmma on target sm_90a (the lowering takes clusters of [2, 1, 1], [1, 2, 1] or [2, 2, 1])}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], cluster = [4, 1, 1], multicast = b, target = "sm_90a" }

// -----

// a wgmma cluster whose multicast shares the wrong operand
// expected-error @+1 {{'tile.gemm' op multicast = b does not match cluster = [2, 2, 1] on target sm_90a: the lowering shares B along the cluster's M extent and A along its N extent, so this cluster takes multicast = ab}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], cluster = [2, 2, 1], multicast = b, target = "sm_90a" }

// -----

// a wgmma cluster along N without multicast
// expected-error @+1 {{'tile.gemm' op multicast = none does not match cluster = [1, 2, 1] on target sm_90a: the lowering shares B along the cluster's M extent and A along its N extent, so this cluster takes multicast = a}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], cluster = [1, 2, 1], target = "sm_90a" }

// -----

// TMA copies before sm_90
// expected-error @+1 {{'tile.gemm' op copy = tma needs cp.async.bulk.tensor (sm_90+); target sm_80 has cp.async only}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], copy = tma, target = "sm_80" }

// -----

// cp.async feeding a warp-specialised wgmma kernel
// expected-error @+1 {{'tile.gemm' op copy = cp_async with wgmma: the warp-specialised schedule is fed by TMA; use copy = tma}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], copy = cp_async, schedule = warp_specialized, target = "sm_90a" }

// -----

// two accumulators with the multistage schedule
// expected-error @+1 {{'tile.gemm' op accumulators = 2 needs a warp-specialised schedule; schedule = multistage keeps one accumulator set in the MMA warps' registers (target sm_90)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], accumulators = 2, schedule = multistage, target = "sm_90" }

// -----

// a cluster with the multistage schedule (not yet)
// expected-error @+1 {{'tile.gemm' op not supported yet: cluster = [2, 1, 1] with schedule = multistage (mma.sync kernels run without clusters)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], cluster = [2, 1, 1], schedule = multistage, target = "sm_90" }

// -----

// TMA with the multistage schedule (not yet)
// expected-error @+1 {{'tile.gemm' op not supported yet: copy = tma with schedule = multistage on target sm_90; use copy = cp_async}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], copy = tma, schedule = multistage, target = "sm_90" }

// -----

// mma.sync: tile M does not split into warps of 16 rows
// expected-error @+1 {{'tile.gemm' op tile M = 128 does not split into warps = [3, 4] of a multiple of 16 rows (mma.sync m16n8k16 on target sm_90)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], schedule = multistage, warps = [3, 4], target = "sm_90" }

// -----

// mma.sync: tile N does not split into warps of 16 columns
// expected-error @+1 {{'tile.gemm' op tile N = 120 does not split into warps = [2, 4] of a multiple of 16 columns (ldmatrix.x4 feeds two m16n8k16 columns; target sm_90)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 120, 32], schedule = multistage, warps = [2, 4], target = "sm_90" }

// -----

// mma.sync: more than 32 warps
// expected-error @+1 {{'tile.gemm' op warps = [8, 8] is 64 warps; a CTA has at most 32}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [512, 512, 32], schedule = multistage, warps = [8, 8], target = "sm_90" }

// -----

// mma.sync: a warp tile with too many accumulator registers
// expected-error @+1 {{'tile.gemm' op a warp tile of 128x128 needs 512 accumulator registers per thread; at most 128 leave room for the fragments (use more warps or a smaller tile)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [256, 256, 32], schedule = multistage, warps = [2, 2], target = "sm_90" }

// -----

// wgmma: tile N over 256
// expected-error @+1 {{'tile.gemm' op tile N = 512 is no wgmma N on target sm_90a: wgmma m64nNk16 needs N a multiple of 8 from 8 to 256}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 512, 64], schedule = warp_specialized, target = "sm_90a" }

// -----

// wgmma: a tile row of D (24 bf16, 48 bytes) that is no whole number of 32-byte chunks
// expected-error @+1 {{'tile.gemm' op tile N = 24 of 'bf16' is not a whole number of 32-byte column chunks, which the TMA-store epilogue writes (target sm_90a)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 24, 64], schedule = warp_specialized, target = "sm_90a" }

// -----

// wgmma: fewer than 64 rows per consumer warpgroup (two consumers asked for)
// expected-error @+1 {{'tile.gemm' op tile M = 64 gives each consumer warpgroup 32 rows; wgmma needs a multiple of 64 (target sm_90a)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [64, 128, 64], warps = [2, 1], schedule = warp_specialized, target = "sm_90a" }

// -----

// wgmma: tile M not a multiple of 64
// expected-error @+1 {{'tile.gemm' op tile M = 96 is no multiple of 64, the M of wgmma (one m64 block per consumer warpgroup and step; target sm_90a)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [96, 128, 64], schedule = warp_specialized, target = "sm_90a" }

// -----

// wgmma: a consumer layout the lowering does not take
// expected-error @+1 {{'tile.gemm' op not supported yet: warps = [1, 2] with wgmma and accumulators = 1 on target sm_90a (the wgmma lowering takes warps = [c, 1] naming c consumer warpgroups: 1 or 2 with accumulators = 1, 2 with accumulators = 2)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], warps = [1, 2], schedule = warp_specialized, target = "sm_90a" }

// -----

// wgmma: one consumer warpgroup with 192 x 256 accumulators
// expected-error @+1 {{'tile.gemm' op tile [192, 256] with accumulators = 1 gives each consumer warpgroup 192x256 accumulators = 384 registers per thread; at most 128 fit (target sm_90a)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [192, 256, 64], schedule = warp_specialized, target = "sm_90a" }

// -----

// tcgen05 cta_group::1: M neither 64 nor 128
// expected-error @+1 {{'tile.gemm' op tile M = 192 is no tcgen05.mma cta_group::1 M on target sm_100a: M must be 64 or 128}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [192, 128, 64], schedule = warp_specialized, target = "sm_100a" }

// -----

// tcgen05 cta_group::2: M neither 128 nor 256
// expected-error @+1 {{'tile.gemm' op tile M = 64 is no tcgen05.mma cta_group::2 M on target sm_100a: M must be 128 or 256 (the pair's rows)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [64, 128, 64], cta_group = 2, cluster = [2, 1, 1], target = "sm_100a" }

// -----

// tcgen05: N over 256
// expected-error @+1 {{'tile.gemm' op tile N = 264 is no tcgen05.mma N for M = 128 on target sm_100a: N must be a multiple of 16 from 16 to 256}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 264, 64], target = "sm_100a" }

// -----

// tile K not a multiple of the MMA K
// expected-error @+1 {{'tile.gemm' op tile K = 24 is not a multiple of the MMA K = 16 (mma.sync with 'bf16' on target sm_90)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 24], schedule = multistage, target = "sm_90" }

// -----

// one stage cannot overlap copy and MMA
// expected-error @+1 {{'tile.gemm' op stages = 1: the multistage schedule needs at least 2 stages (one filling while one is multiplied)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], schedule = multistage, stages = 1, target = "sm_90" }

// -----

// a ring that does not fit the 99 KB of sm_120
// expected-error @+1 {{'tile.gemm' op the ring does not fit in shared memory on target sm_120: 4 stages x 48 KB (A 16 KB + B 32 KB) = 192 KB > 99 KB per block}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], schedule = multistage, stages = 4, target = "sm_120" }

// -----

// a ring plus epilogue staging that does not fit the 227 KB of sm_90a
// expected-error @+1 {{'tile.gemm' op the ring does not fit in shared memory on target sm_90a: 5 stages x 48 KB (A 16 KB + B 32 KB) + epilogue 32 KB + barriers 128 B = 272.1 KB > 227 KB per block (nor with the epilogue's staging narrowed to 8 KB)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], schedule = warp_specialized, stages = 5, target = "sm_90a" }

// -----

// stages = auto when not even two stages fit
// expected-error @+1 {{'tile.gemm' op stages = auto: not even 2 stages fit on target sm_120: 2 stages x 128 KB (A 64 KB + B 64 KB) = 256 KB > 99 KB per block}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [256, 256, 128], schedule = multistage, warps = [4, 8], target = "sm_120" }

// -----

// an unknown target
// expected-error @+1 {{'tile.gemm' op unknown target 'sm_91'; known targets: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_103a, sm_120, sm_120a}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], target = "sm_91" }

// -----

// a warp layout the wgmma lowering does not use
// expected-error @+1 {{'tile.gemm' op not supported yet: warps = [4, 2] with wgmma and accumulators = 1 on target sm_90a (the wgmma lowering takes warps = [c, 1] naming c consumer warpgroups: 1 or 2 with accumulators = 1, 2 with accumulators = 2)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], schedule = warp_specialized, warps = [4, 2], target = "sm_90a" }

// -----

// stream-K off the cooperative wgmma schedule
// expected-error @+1 {{'tile.gemm' op not supported yet: grid = stream_k with wgmma, accumulators = 2, cluster = [1, 1, 1] on target sm_90a (stream-K is lowered for the cooperative wgmma schedule without clusters)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64], schedule = warp_specialized, accumulators = 2, grid = stream_k, target = "sm_90a" }

// -----

// stream-K with mma.sync
// expected-error @+1 {{'tile.gemm' op not supported yet: grid = stream_k with mma.sync, accumulators = 1, cluster = [1, 1, 1] on target sm_90 (stream-K is lowered for the cooperative wgmma schedule without clusters)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 32], grid = stream_k, target = "sm_90" }

// -----

// stream-K whose ring cannot hold a peer's f32 partial tile
// expected-error @+1 {{'tile.gemm' op not supported yet: grid = stream_k with a ring of 2 x 48 KB = 96 KB on target sm_90a (the ring holds a peer's f32 partial tile of 128 x 256 x 4 B = 128 KB while a tile is finished; use more stages)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], stages = 2, schedule = warp_specialized, grid = stream_k, target = "sm_90a" }

// -----

// FP8 on a target whose mma.sync has no FP8 shape (sm_86)
// expected-error @+1 {{'tile.gemm' op a = 'f8E4M3FN', b = 'f8E4M3FN' has no mma.sync instruction on target sm_86 (mma.sync.aligned.m16n8k32.row.col.f32 needs sm_89 or newer); its mma.sync takes bf16, f16}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, tile = [128, 128, 64], target = "sm_86" }

// -----

// FP8 with a non-K-major operand on wgmma
// expected-error @+1 {{'tile.gemm' op a = 'f8E4M3FN' row, b = 'f8E4M3FN' row: wgmma.mma_async.sync.aligned.m64nNk32.f32 takes 'f8E4M3FN' operands K-major only (a = row, b = col) on target sm_90a}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN row, c = bf16 row, tile = [128, 128, 128], target = "sm_90a" }

// -----

// FP8 with a non-K-major operand on mma.sync
// expected-error @+1 {{'tile.gemm' op a = 'f8E5M2' col, b = 'f8E4M3FN' col: mma.sync.aligned.m16n8k32.row.col.f32 takes 'f8E5M2' operands K-major only (a = row, b = col) on target sm_90}}
tile.gemm @g { a = f8E5M2 col, b = f8E4M3FN col, c = bf16 row, tile = [128, 128, 64], target = "sm_90" }

// -----

// An FP8 tile K that is no multiple of the instruction K = 32
// expected-error @+1 {{'tile.gemm' op tile K = 48 is not a multiple of the MMA K = 32 (mma.sync with 'f8E4M3FN' on target sm_90)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, tile = [128, 128, 48], schedule = multistage, target = "sm_90" }

// -----

// Block scales on a family whose lowering does not apply them
// expected-error @+1 {{'tile.gemm' op not supported yet: scale_a = block scales with tcgen05 on target sm_100a (block scales are applied by the wgmma lowering, sm_90a; use per-tensor scales here)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [1, 128], scale_b = f32 [128, 128], tile = [128, 128, 128], target = "sm_100a" }

// -----

// A per-tensor scale with a block scale
// expected-error @+1 {{'tile.gemm' op not supported yet: scale_a and scale_b of different granularities (block scales are applied per K block to both operands; give both as blocks, or both per tensor)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 tensor, scale_b = f32 [128, 128], tile = [128, 128, 128], target = "sm_90a" }

// -----

// Block scales whose K block is no multiple of the tile's K-slice
// expected-error @+1 {{'tile.gemm' op scale_a = f32 [1, 64]: the K block (64) must be a multiple of the tile's K-slice (128) so that every slice lies in one K block (target sm_90a)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [1, 64], scale_b = f32 [128, 64], tile = [128, 128, 128], target = "sm_90a" }

// -----

// Block scales of A and B over different K blocks
// expected-error @+1 {{'tile.gemm' op scale_a blocks of K = 128 and scale_b blocks of K = 256 differ: one K block scales both operands}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [1, 128], scale_b = f32 [128, 256], tile = [128, 128, 128], target = "sm_90a" }

// -----

// B blocks not aligned to the N tile: tiles of 128 columns at multiples of 128 cross blocks of
// 80 at column 16 of a tile (gcd 16), so a tile can straddle three of them
// expected-error @+1 {{'tile.gemm' op scale_b = f32 [80, 128]: B blocks of 80 columns are not aligned to the tile's N = 128 (a multiple of tile N, a multiple of 8 that divides it, or blocks that no tile straddles more than two of, with boundaries at multiples of 8 columns; target sm_90a)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [1, 128], scale_b = f32 [80, 128], tile = [128, 128, 128], target = "sm_90a" }

// -----

// B blocks whose boundaries fall inside an n8 column fragment: blocks of 12 columns
// expected-error @+1 {{'tile.gemm' op scale_b = f32 [12, 128]: B blocks of 12 columns are not aligned to the tile's N = 128 (a multiple of tile N, a multiple of 8 that divides it, or blocks that no tile straddles more than two of, with boundaries at multiples of 8 columns; target sm_90a)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [1, 128], scale_b = f32 [12, 128], tile = [128, 128, 128], target = "sm_90a" }

// -----

// Block scales that need more accumulator registers than a thread has (two sets of 64 x 208)
// expected-error @+1 {{'tile.gemm' op block scales with tile [128, 208] and accumulators = 1: each consumer warpgroup holds 64x208 accumulators at least twice (the sum and a K block's wgmma results), 208 registers per thread; at most 192 fit (use tile N <= 192, target sm_90a)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [1, 128], scale_b = f32 [208, 128], tile = [128, 208, 128], target = "sm_90a" }

// -----

// accumulation given for non-FP8 operands
// expected-error @+1 {{'tile.gemm' op field 'accumulation' = fast is given for 'bf16' operands on target sm_90a: only FP8 products have a choice of accumulation (leave the field out)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, accumulation = fast, tile = [128, 128, 64], target = "sm_90a" }

// -----

// fast accumulation with block scales (applied at promotion)
// expected-error @+1 {{'tile.gemm' op accumulation = fast with block scales on target sm_90a: block scales are applied as each K block is promoted into the f32 accumulators; use accumulation = promoted (the default)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [1, 128], scale_b = f32 [128, 128], accumulation = fast, tile = [128, 128, 128], target = "sm_90a" }

// -----

// promoted per-tensor FP8 whose two accumulator sets do not fit
// expected-error @+1 {{'tile.gemm' op accumulation = promoted with tile [128, 256] and accumulators = 1: each consumer warpgroup holds 64x256 accumulators at least twice (the sum and a K block's wgmma results), 256 registers per thread; at most 192 fit (use tile N <= 192 or accumulation = fast, target sm_90a)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 tensor, scale_b = f32 tensor, tile = [128, 256, 128], target = "sm_90a" }

// -----

// fast accumulation on mma.sync, which accumulates FP8 products in f32: a warning, recorded as promoted
// expected-warning @+1 {{accumulation = fast has no effect with mma.sync on target sm_90: mma.sync.aligned.m16n8k32.row.col.f32 accumulates FP8 products in f32; recorded as promoted}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulation = fast, tile = [128, 128, 64], target = "sm_90" }

// -----

// fast accumulation on tcgen05: likewise
// expected-warning @+1 {{accumulation = fast has no effect with tcgen05 on target sm_100a: tcgen05.mma.kind::f8f6f4 accumulates FP8 products in f32; recorded as promoted}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulation = fast, tile = [128, 128, 128], target = "sm_100a" }

// -----

// A promotion interval that is no multiple of the tile's K
// expected-error @+1 {{'tile.gemm' op field 'promotion' = 192 is not a multiple of the tile's K = 128 (promotion happens between K-slices; target sm_90a)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 tensor, scale_b = f32 tensor, promotion = 192, tile = [128, 128, 128], target = "sm_90a" }

// -----

// A promotion interval with block scales
// expected-error @+1 {{'tile.gemm' op field 'promotion' = 256 on target sm_90a: it sets how often FP8 wgmma results are promoted with per-tensor scales and accumulation = promoted (block scales are promoted once per scale block)}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, scale_a = f32 [1, 128], scale_b = f32 [128, 128], promotion = 256, tile = [128, 128, 128], target = "sm_90a" }

// -----

// A promotion interval with fast accumulation
// expected-error @+1 {{'tile.gemm' op field 'promotion' = 256 on target sm_90a: it sets how often FP8 wgmma results are promoted with per-tensor scales and accumulation = promoted}}
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulation = fast, promotion = 256, tile = [128, 256, 128], target = "sm_90a" }

// -----

// rows aligned to less than 16 bytes with the TMA-fed warp-specialised schedule
// expected-error @+1 {{'tile.gemm' op not supported yet: alignment = 2 with schedule = warp_specialized on target sm_90a: TMA needs 16-byte strides; use schedule = multistage}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], schedule = warp_specialized, alignment = 2, target = "sm_90a" }

// -----

// rows aligned to less than 16 bytes with TMA copies
// expected-error @+1 {{'tile.gemm' op not supported yet: alignment = 4 with copy = tma on target sm_90a: TMA needs 16-byte strides; use copy = cp_async}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], copy = tma, alignment = 4, target = "sm_90a" }

// -----

// rows aligned to less than 16 bytes with a wgmma shape
// expected-error @+1 {{'tile.gemm' op not supported yet: alignment = [1, 8] with mma = [64, 256, 16] (wgmma) on target sm_90a: TMA needs 16-byte strides; use schedule = multistage}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], mma = [64, 256, 16], alignment = [1, 8], target = "sm_90a" }

// -----

// a rule between fields where one was left out is reported at the one written: multicast
// missing, at the cluster field
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 row, tile = [64, 256, 64],
  schedule = warp_specialized,
  // expected-error @+1 {{'tile.gemm' op multicast = none does not match cluster = [1, 2, 1] on target sm_90a: the lowering shares B along the cluster's M extent and A along its N extent, so this cluster takes multicast = a}}
  cluster = [1, 2, 1], target = "sm_90a" }

// -----

// scale_a missing, scale_b given as blocks: at scale_b
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row,
  // expected-error @+1 {{'tile.gemm' op not supported yet: scale_a and scale_b of different granularities (block scales are applied per K block to both operands; give both as blocks, or both per tensor)}}
  scale_b = f32 [128, 128],
  tile = [128, 128, 128], target = "sm_90a" }

// -----

// block-scaled FP4 on the mma.sync schedule of a tcgen05 target, at the schedule field
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row,
  scale_a = f8E4M3FN [1, 16] * f32 tensor, scale_b = f8E4M3FN [1, 16] * f32 tensor,
  tile = [128, 128, 256], stages = 4,
  // expected-error @+1 {{'tile.gemm' op block-scaled formats take tcgen05.mma.kind::mxf4nvf4.block_scale.scale_vec::4X on target sm_100a, not mma.sync (field 'schedule' = multistage selects mma.sync; leave it out or use warp_specialized)}}
  schedule = multistage, target = "sm_100a" }

// -----

// the fast-accumulation warning at the accumulation field
tile.gemm @g { a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row,
  // expected-warning @+1 {{accumulation = fast has no effect with mma.sync on target sm_89}}
  scale_a = f32 tensor, scale_b = f32 tensor, accumulation = fast,
  tile = [128, 128, 64], schedule = multistage, target = "sm_89" }

// -----

// column-major D on the multistage mma.sync lowering, at the c field
tile.gemm @g { a = f16 row, b = f16 row,
  // expected-error @+1 {{'tile.gemm' op not supported yet: c = col with mma.sync on target sm_80 (D is stored row-major; use c = row)}}
  c = bf16 col,
  tile = [128, 128, 32], stages = 3, schedule = multistage, target = "sm_80" }

// -----

// column-major D on wgmma
// expected-error @+1 {{'tile.gemm' op not supported yet: c = col with wgmma on target sm_90a (D is stored row-major; use c = row)}}
tile.gemm @g { a = bf16 row, b = bf16 col, c = bf16 col, tile = [128, 128, 64], target = "sm_90a" }
