// The sm_90a upcast of MXFP4 B at the NVVM level: the ring carries B packed (slot = 16 KB of bf16 A + 4 KB of FP4 B, one expect_tx of 20480 bytes, B's tensor map of e2m1 without swizzle), the consumers load each row's E8M0 scale byte, write bf16 (16 bytes a store, four per thread for 128 rows over two warpgroups) into the conversion buffers, fence the async proxy and meet at named barrier 4 (256 threads) before the bf16 wgmmas; the kernel takes scale_b after beta.
// RUN: %tilegen %s --target=sm_90a --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.' --implicit-check-not=tcgen05 --implicit-check-not=nvvm.mma.sync
// RUN: %tilegen %s --target=sm_90a --emit=pipeline | FileCheck %s --check-prefix=PLAN
// RUN: %tilegen explain %s --target=sm_90a | FileCheck %s --check-prefix=EXPLAIN

tile.gemm @mxfp4 {
  a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E8M0FNU [1, 32], upcast = bf16,
  tile = [128, 128, 64], stages = 4, schedule = warp_specialized, grid = persistent
}

// EXPLAIN: B slice   128 x 64 x 4 bits = 4 KB (packed; converted to bf16)
// EXPLAIN: barriers  128 B
// EXPLAIN: convert   48 KB (three bf16 slices of B

// PLAN: tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [128, 64] f4E2M1FN col {{.*}} slot_bytes 20480 b_offset 16384 {{.*}}{convert_offset = 114688 : i64, upcast_scale_b = #tile.scale<f8E8M0FNU [1, 32]>}
// PLAN: tile.role mma {{.*}} bf16 x bf16

// CHECK-LABEL: llvm.func @mxfp4(
// CHECK-SAME:    %arg9: f32, %arg10: !llvm.ptr<1>)
// CHECK-SAME:    b_scale = {block = array<i64: 1, 32>, granularity = "block", type = "e8m0"}, b_type = "e2m1"
// CHECK-SAME:    upcast = "bf16"
// CHECK-SAME:    {box = array<i64: 64, 128>, dims = ["K", "N"], elem = "e2m1", kind = "tensormap", {{.*}} swizzle = 0 : i64, tensor = "B"}
// CHECK-SAME:    {kind = "ptr", name = "scale_b", tensor = "scale_b"}
// CHECK:         nvvm.setmaxregister decrease 40
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c20480_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK:         nvvm.setmaxregister increase 232
// The first slice of a tile: four rows per thread, each a scale byte and one 16-byte store.
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<1> -> i8
// CHECK:         llvm.store {{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    nvvm.barrier id = %c4_i32 number_of_threads = %c256_i32
// CHECK-NEXT:    nvvm.wgmma.fence.aligned
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 1
// The K loop's slices convert the same way.
// CHECK:         scf.for
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    nvvm.barrier id = %c4_i32 number_of_threads = %c256_i32
