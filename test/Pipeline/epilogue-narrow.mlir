// An explicit ring depth that does not fit with 128-byte epilogue columns narrows them: the 256 x 128 MXFP4 upcast by the converter role (f32 output: the conversion in registers takes 16-bit outputs only) with 4 stages stages D in 64-byte columns (32 KB instead of 64 KB), the kernel's D tensor map has 16-column boxes with the 64-byte swizzle, and 5 stages, which no column width fits, are refused with the usual staging in the message.
// RUN: %tilegen %s --target=sm_90a --emit=pipeline | FileCheck %s --check-prefix=PLAN
// RUN: %tilegen explain %s --target=sm_90a | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tilegen %s --target=sm_90a --emit=nvvm | FileCheck %s --check-prefix=TMAP
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's/stages = 4/stages = 5/' %s > %t/five.mlir
// RUN: not %tilegen %t/five.mlir --target=sm_90a --emit=pipeline 2>&1 | FileCheck %s --check-prefix=FIVE

tile.gemm @narrow {
  a = bf16 row, b = f4E2M1FN col, c = f32 row, accumulator = f32,
  scale_b = f8E8M0FNU [1, 32], upcast = bf16,
  tile = [256, 128, 64], stages = 4, schedule = warp_specialized, grid = persistent
}

// PLAN: tile.ring slots 4
// PLAN: tile.epilogue alpha {{.*}} out f32 row via smem_tma offset 147456 bytes 32768

// EXPLAIN: epilogue  32 KB (C staging for the TMA store)
// EXPLAIN: total     224.1 KB of 227 KB: fits; at most 4 stages fit

// TMAP: {box = array<i64: 16, 128>, dims = ["N", "M"], elem = "f32", kind = "tensormap", l2_promotion = 128 : i64, name = "tmap_D", oob_fill = "zero", swizzle = 64 : i64, tensor = "D"}

// FIVE: error: 'tile.gemm' op the ring does not fit in shared memory on target sm_90a: 5 stages x 36 KB (A 32 KB + B 4 KB) + epilogue 64 KB + bf16 conversion 48 KB{{.*}} per block (nor with the epilogue's staging narrowed to 16 KB)
