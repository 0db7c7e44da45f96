// FP8 on mma.sync (sm_89 and newer): ldmatrix.x4 of K-major 32-byte fragments feed m16n8k32, called through the LLVM intrinsic named by the A and B formats (NVVM's mma op has no e4m3/e5m2 m16n8k32 form), with the kernel marked for PTX 8.4; on sm_80 the description is refused.
// RUN: %tilegen %s --target=sm_89 --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.' --implicit-check-not=nvvm.mma.sync
// RUN: not %tilegen %s --target=sm_80 --emit=nvvm-scf 2>&1 | FileCheck %s --check-prefix=SM80

tile.gemm @fp8 {
  a = f8E5M2 row, b = f8E4M3FN col, c = f32 row, scale_b = f32 tensor,
  tile = [128, 128, 64], stages = 3, schedule = multistage
}

// CHECK-LABEL: llvm.func @fp8(
// CHECK-SAME:    %arg7: f32, %arg8: f32, %arg9: !llvm.ptr<1>) attributes
// CHECK-SAME:    tilegen.ptx_version = 84 : i32
// 64 K-elements of FP8 per slice: two m16n8k32 steps; warp tile 64 x 32: 4 A and 2 B ldmatrix.x4
// per step, 4 x 4 MMAs.
// CHECK:         %[[S:.*]] = llvm.load %arg9 {{.*}} -> f32
// CHECK:         arith.mulf %arg7, %[[S]]
// CHECK-COUNT-6: nvvm.ldmatrix
// CHECK-COUNT-16: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e5m2.e4m3.f32"({{.*}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-6: nvvm.ldmatrix
// CHECK-COUNT-16: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e5m2.e4m3.f32"

// SM80: error: 'tile.gemm' op a = 'f8E5M2', b = 'f8E4M3FN' has no mma.sync instruction on target sm_80 (mma.sync.aligned.m16n8k32.row.col.f32 needs sm_89 or newer); its mma.sync takes bf16, f16
