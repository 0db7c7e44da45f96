// The sm_90a lowering at the NVVM level (no ptxas needed): warp roles (setmaxnreg down for the producer, up for the consumers), the ring's mbarriers, TMA loads with arrive.expect_tx of the slot's bytes, wgmma from shared-memory descriptors (one per operand and slice, K steps as offsets of its start field) with the MMA table's types and K (bf16: k16, 4 per 64-deep slice; e4m3 x e5m2: k32, 4 per 128-deep slice, the first with scale-d zero), and the TMA-store epilogue; the FP8 kernel takes the two scale pointers after beta.
// RUN: %tilegen %s --target=sm_90a --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.' --implicit-check-not=tcgen05 --implicit-check-not=nvvm.mma.sync

tile.gemm @bf16 {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], stages = 4,
  schedule = warp_specialized, grid = persistent
}

tile.gemm @fp8 {
  a = f8E4M3FN row, b = f8E5M2 col, c = f16 row, scale_a = f32 tensor, scale_b = f32 tensor,
  accumulation = fast,
  tile = [128, 128, 128], stages = 5, schedule = warp_specialized
}

// CHECK-LABEL: llvm.func @bf16(
// CHECK-SAME:    %arg8: f32, %arg9: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>
// CHECK-COUNT-8: nvvm.mbarrier.init
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.setmaxregister decrease 40
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES:.*]] :
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK:         nvvm.setmaxregister increase 232
// One descriptor per operand and slice (start address >> 4 in bits 0-13); each later K step's
// adds 2 (32 bytes) to the low 32 bits of both.
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK:         %[[B0:.*]] = arith.ori {{.*}}, %c4611686293305360384_i64 : i64
// CHECK:         %[[A0:.*]] = arith.ori {{.*}}, %c4611686293305360384_i64 : i64
// CHECK-NEXT:    nvvm.wgmma.mma_async %[[A0]], %[[B0]], {{.*}} <m = 64, n = 256, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NEXT:    %[[BLO:.*]] = arith.trunci %[[B0]] : i64 to i32
// CHECK:         arith.addi %[[BLO]], %c2_i32 : i32
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK:         arith.addi %[[BLO]], %c4_i32 : i32
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:         nvvm.stmatrix
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta

// CHECK-LABEL: llvm.func @fp8(
// CHECK-SAME:    %arg8: f32, %arg9: f32, %arg10: !llvm.ptr<1>, %arg11: !llvm.ptr<1>)
// CHECK-SAME:    tilegen.operands = {a_layout = "row", a_scale = {granularity = "tensor", type = "f32"}, a_type = "e4m3", accumulation = "fast", accumulator = "f32", alpha = 1.000000e+00 : f64, b_layout = "col", b_scale = {granularity = "tensor", type = "f32"}, b_type = "e5m2"
// CHECK:         %[[SA:.*]] = llvm.load %arg10 {{.*}} : !llvm.ptr<1> -> f32
// CHECK:         %[[ASA:.*]] = arith.mulf %arg8, %[[SA]]
// CHECK:         %[[SB:.*]] = llvm.load %arg11 {{.*}} : !llvm.ptr<1> -> f32
// CHECK:         arith.mulf %[[ASA]], %[[SB]]
// CHECK-COUNT-10: nvvm.mbarrier.init
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
