// The sm_90a upcast of MXFP4 B at the NVVM level, by the converter role (c = f32, which the conversion in registers does not take): the ring carries B packed (slot = 16 KB of bf16 A + 4 KB of FP4 B, one expect_tx of 20480 bytes, B's tensor map of e2m1 without swizzle); warps 1-3 of the producer warpgroup (56 registers) convert each slice into a converted ring of three bf16 slices (scale bytes loaded before the barrier waits, 16-byte shared loads, prmt and two bf16x2 multiplies per output word, 16-byte stores, fence.proxy.async, one arrival per thread on a 96-count full barrier); the consumers (224 registers) wait on the converted slot, issue the bf16 wgmmas and release the ring slot and the converted slot together; the kernel takes scale_b after beta.
// RUN: %tilegen %s --target=sm_90a --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.' --implicit-check-not=tcgen05 --implicit-check-not=nvvm.mma.sync --implicit-check-not='nvvm.barrier id = %c4_i32'
// RUN: %tilegen %s --target=sm_90a --emit=pipeline | FileCheck %s --check-prefix=PLAN
// RUN: %tilegen explain %s --target=sm_90a | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tilegen %s --target=sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX

tile.gemm @mxfp4 {
  a = bf16 row, b = f4E2M1FN col, c = f32 row, scale_b = f8E8M0FNU [1, 32], upcast = bf16,
  tile = [128, 128, 64], stages = 4, schedule = warp_specialized, grid = persistent
}

// EXPLAIN: B slice   128 x 64 x 4 bits = 4 KB (packed; converted to bf16)
// EXPLAIN: barriers  128 B (full and empty per stage and per converted slice, two per accumulator)
// EXPLAIN: convert   48 KB (3 bf16 slices of B that warps 1-3 of the producer warpgroup convert into beside the MMAs; the conversion's time is not in the costs below)

// PLAN: tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [128, 64] f4E2M1FN col {{.*}} slot_bytes 20480 b_offset 16384 barriers 163840 {convert_offset = 114688 : i64, convert_slots = 3 : i64, upcast_scale_b = #tile.scale<f8E8M0FNU [1, 32]>}
// PLAN: tile.role producer warps [0, 4] layout [] regs 56
// PLAN: tile.role mma {{.*}} bf16 x bf16 {{.*}} regs 224

// CHECK-LABEL: llvm.func @mxfp4(
// CHECK-SAME:    %arg9: f32, %arg10: !llvm.ptr<1>)
// CHECK-SAME:    b_scale = {block = array<i64: 1, 32>, granularity = "block", type = "e8m0"}, b_type = "e2m1"
// CHECK-SAME:    upcast = "bf16"
// CHECK-SAME:    {box = array<i64: 64, 128>, dims = ["K", "N"], elem = "e2m1", kind = "tensormap", {{.*}} swizzle = 0 : i64, tensor = "B"}
// CHECK-SAME:    {kind = "ptr", name = "scale_b", tensor = "scale_b"}
// Four ring slots (full: 1, empty: 2 consumer warpgroups), then three converted slots (full: the
// converter's 96 threads, empty: 2 consumer warpgroups).
// CHECK-COUNT-4: nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK-COUNT-3: nvvm.mbarrier.init %{{.*}}, %c96_i32
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.setmaxregister decrease 56
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c20480_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
// The converter: three units per thread and slice (256 / 96); the first slice's scale bytes before
// the K loop, in it the next slice's (one slice ahead), then the waits.
// CHECK:         scf.for
// CHECK-COUNT-3: llvm.load {{.*}} : !llvm.ptr<1> -> i8
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i32, i8, i8, i8)
// CHECK-COUNT-3: llvm.load {{.*}} : !llvm.ptr<1> -> i8
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK:         nvvm.prmt <default> %c33920_i32
// CHECK:         arith.mulf {{.*}} : vector<2xbf16>
// CHECK-NEXT:    arith.mulf {{.*}} : vector<2xbf16>
// CHECK:         llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// The last step: only the threads with a unit left (row < 128).
// CHECK:         scf.if
// CHECK:         llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    llvm.getelementptr
// CHECK-NEXT:    nvvm.mbarrier.arrive
// CHECK:         scf.yield {{.*}} : i32, i8, i8, i8
// The consumers: converted slot full, then the ring slot's full (A), then the bf16 wgmmas.
// CHECK:         nvvm.setmaxregister increase 224
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-NEXT:    nvvm.wgmma.fence.aligned
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 1
// The K loop releases the previous slice's ring slot and converted slot.
// CHECK:         scf.for
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:         scf.if
// CHECK-NEXT:      remui
// CHECK:           nvvm.mbarrier.arrive
// CHECK:           nvvm.mbarrier.arrive

// The PTX (block order is LLVM's): the register split, the bit trick, the fence and arrival.
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 56;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 224;
// PTX-DAG: prmt.b32 {{.*}}, 0x8480U;
// PTX-DAG: prmt.b32 {{.*}}, 0x8783U;
// PTX-DAG: mul.lo.s32 {{.*}}, 4160;
// PTX-DAG: and.b32 {{.*}}, -2118090304;
// PTX-DAG: mul.rn.bf16x2
// PTX-DAG: fence.proxy.async.shared::cta;
// PTX-DAG: mbarrier.arrive.shared.b64
