// tile-check-target rejects each plain (unscaled) 6- and 4-bit description its target cannot build: no .kind::f8f6f4 mma.sync off sm_120a, none on wgmma, the cp.async schedule (which cannot write the 8-bit containers), a tcgen05 K-slice other than TMA's 128-element box of the padded form, and an MN-major 4-bit operand on tcgen05; each names field, value, target and reason.
// RUN: %tilegen-opt %s --tile-check-target -split-input-file -verify-diagnostics

// plain sm_120 (not sm_120a) has no 6- or 4-bit mma.sync
// expected-error @+1 {{'tile.gemm' op a = 'f6E3M2FN', b = 'f4E2M1FN' has no mma.sync instruction on target sm_120 (mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32 needs sm_120a (6- and 4-bit types; plain sm_120 has none)); its mma.sync takes bf16, f16, e4m3, e5m2}}
tile.gemm @g { a = f6E3M2FN row, b = f4E2M1FN col, c = bf16 row, tile = [128, 128, 128], target = "sm_120" }

// -----

// wgmma takes no 6- or 4-bit operand
// expected-error @+1 {{'tile.gemm' op a = 'f4E2M1FN', b = 'f4E2M1FN' has no wgmma instruction on target sm_90a; its wgmma takes bf16, f16, e4m3, e5m2}}
tile.gemm @g { a = f4E2M1FN row, b = f4E2M1FN col, c = bf16 row, tile = [128, 128, 128], schedule = warp_specialized, target = "sm_90a" }

// -----

// the cp.async ring copies bytes as they are; the 8-bit containers come from TMA
// expected-error @+1 {{'tile.gemm' op not supported yet: mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32 with e2m3 x e4m3 and schedule = multistage on target sm_120a (6- and 4-bit operands are read from 8-bit containers that TMA's 16U4_ALIGN16B / 16U6_ALIGN16B forms write; cp.async copies bytes as they are: use schedule = warp_specialized)}}
tile.gemm @g { a = f6E2M3FN row, b = f8E4M3FN col, c = bf16 row, tile = [128, 128, 128], schedule = multistage, target = "sm_120a" }

// -----

// tcgen05 with a 4-bit operand: TMA's padded box is 128 elements of K
// expected-error @+1 {{'tile.gemm' op tile K = 64 with e4m3 x e2m1 on target sm_100a: the 6- and 4-bit operands of tcgen05.mma.kind::f8f6f4 are loaded by TMA's 16U4_ALIGN16B / 16U6_ALIGN16B forms, whose box is 128 elements of K (tile K = 128)}}
tile.gemm @g { a = f8E4M3FN row, b = f4E2M1FN col, c = bf16 row, tile = [128, 256, 64], target = "sm_100a" }

// -----

// tcgen05 transposes only the 8-bit types of kind::f8f6f4
// expected-error @+1 {{'tile.gemm' op a = 'f8E4M3FN' row, b = 'f4E2M1FN' row: tcgen05.mma.kind::f8f6f4 takes 'f8E4M3FN' operands K-major only (a = row, b = col) on target sm_100a}}
tile.gemm @g { a = f8E4M3FN row, b = f4E2M1FN row, c = bf16 row, tile = [128, 256, 128], target = "sm_100a" }
