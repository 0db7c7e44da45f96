// MXFP8 x MXFP8 on Hopper: A and B are f8E4M3FN (K-major), each with one E8M0 scale per 32
// elements of K of each row (A) or column (B). Hopper has no block-scaled MMA: three warps of
// the producer warpgroup convert each K-slice of both operands, scales applied, into a second
// ring of bf16 slices laid out as the bf16 kernel's A and B (exact: an E4M3 value times a
// power of two is a bf16 value while it stays in bf16's range, docs/types.md), while the
// consumer warpgroups multiply the previous slices with the bf16 wgmma. The converters bind
// the speed: per K-slice they convert (128 + 128) rows where the MXFP4 upcast converts 128 for
// twice the MMA work. f8E5M2 and mixed E4M3 x E5M2 take the same pipeline. sm_90a only (the
// sm_100a family and sm_120a apply block scales in the tensor core).
tile.gemm @gemm_mxfp8_upcast {
  a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row, accumulator = f32,
  scale_a = f8E8M0FNU [1, 32], scale_b = f8E8M0FNU [1, 32], upcast = bf16,
  tile = [128, 128, 64], stages = 4, schedule = warp_specialized,
  grid = persistent, raster = row, swizzle = 16, target = "sm_90a"
}
