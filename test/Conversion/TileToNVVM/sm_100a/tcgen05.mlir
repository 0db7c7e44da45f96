// The sm_100a lowering of a 128x256x64 tile: warp roles, TMEM allocated by warp 1, tcgen05.mma from shared-memory descriptors into TMEM (4 per K-slice), commits on the ring's empty barrier and on the accumulator-full barrier, tcgen05.ld 32x32b in the epilogue, and nothing of the tile dialect or wgmma left.
// RUN: %tilegen %s --target=sm_100a --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.' --implicit-check-not=wgmma
// RUN: %tilegen %s --target=sm_103a --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.' --implicit-check-not=wgmma

tile.gemm @ws1 {
  a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 256, 64], stages = 4,
  accumulators = 1, schedule = warp_specialized, grid = tiles
}

// CHECK-LABEL: llvm.func @ws1(
// CHECK-SAME:    nvvm.grid_constant
// CHECK-SAME:    nvvm.maxntid = array<i32: 192, 1, 1>
// Set-up: barriers (4 full, 4 empty, 1 accFull, 1 accEmpty of 4 epilogue warps), TMEM alloc.
// CHECK-COUNT-10: nvvm.mbarrier.init
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.tcgen05.alloc %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK-NEXT:    nvvm.tcgen05.relinquish_alloc_permit
// CHECK:         nvvm.tcgen05.fence <before>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    nvvm.tcgen05.fence <after>
// CHECK:         llvm.load
// CHECK-NEXT:    nvvm.barrier0
// Producer: elected thread, one expect_tx of 48 KB per slot, two TMA loads.
// CHECK:         nvvm.elect.sync
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
// MMA: wait accEmpty, then per K-slice wait full and 4 x tcgen05.mma, commit to empty; then accFull.
// CHECK:         nvvm.elect.sync
// CHECK:         nvvm.tcgen05.fence <after>
// The instruction descriptor 138413200 = 0x08400490: f32 D, bf16 A and B, N >> 3 = 32, M >> 4 = 8.
// CHECK-COUNT-4: nvvm.tcgen05.mma {{.*}}, %c138413200_i32, {{.*}} {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
// CHECK-NOT:     nvvm.tcgen05.mma
// CHECK:         nvvm.tcgen05.commit
// CHECK:         nvvm.tcgen05.commit
// Epilogue: 4 column chunks of 64 bf16, each a tcgen05.ld + wait::ld.
// CHECK-COUNT-4: nvvm.tcgen05.ld {{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<64xi32>
// Teardown: dealloc by warp 1 after a CTA barrier.
// CHECK:         nvvm.barrier0
// CHECK:         nvvm.tcgen05.dealloc
// CHECK-NOT:     nvvm.tcgen05
