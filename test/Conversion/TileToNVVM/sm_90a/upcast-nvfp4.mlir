// The sm_90a upcast of NVFP4 B at the NVVM level, by the converter role (c = f32, which the conversion in registers does not take): the MXFP4 pipeline with E4M3 block scales per 16 (two scale bytes per unit, from rows 2 kb and 2 kb + 1 of scale_b, each turned into a bf16x2 by prmt 0x8080, a shift of 4, a mask and a multiply by 2^120; output words 0, 1 of a load take the first, 2, 3 the second) and the per-tensor f32 (scale_b_tensor, after scale_b) multiplied into alpha once.
// RUN: %tilegen %s --target=sm_90a --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.' --implicit-check-not=tcgen05
// RUN: %tilegen %s --target=sm_90a --emit=pipeline | FileCheck %s --check-prefix=PLAN
// RUN: %tilegen %s --target=sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX

tile.gemm @nvfp4 {
  a = bf16 row, b = f4E2M1FN col, c = f32 row, scale_b = f8E4M3FN [1, 16] * f32 tensor,
  upcast = bf16, tile = [128, 128, 64], stages = 4, schedule = warp_specialized,
  grid = persistent
}

// PLAN: tile.ring slots 4 slice_k 64 a [128, 64] bf16 row b [128, 64] f4E2M1FN col {{.*}} {convert_offset = 114688 : i64, convert_slots = 3 : i64, upcast_scale_b = #tile.scale<f8E4M3FN [1, 16] * f32 tensor>}

// CHECK-LABEL: llvm.func @nvfp4(
// CHECK-SAME:    %arg9: f32, %arg10: !llvm.ptr<1>, %arg11: !llvm.ptr<1>)
// CHECK-SAME:    {dim = "K", multiple = 32 : i64, reason = "packed FP4 rows of B are K / 2 bytes, which TMA needs in multiples of 16, and the converter takes K in units of 32 (two E4M3 scale blocks of 16)"}
// CHECK-SAME:    b_scale = {block = array<i64: 1, 16>, granularity = "block", type = "e4m3"}, b_type = "e2m1"
// CHECK-SAME:    {kind = "ptr", name = "scale_b", tensor = "scale_b"}, {kind = "ptr", name = "scale_b_tensor", tensor = "scale_b_tensor"}
// The per-tensor f32 scales alpha at entry.
// CHECK:         %[[G:.*]] = llvm.load %arg11 {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    arith.mulf %arg8, %[[G]] : f32
// CHECK:         nvvm.setmaxregister decrease 56
// Six scale bytes per thread and slice (three units, two blocks of 16 each), one slice ahead.
// CHECK:         scf.for
// CHECK-COUNT-6: llvm.load {{.*}} : !llvm.ptr<1> -> i8
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i32, i8, i8, i8, i8, i8, i8)
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         nvvm.mbarrier.try_wait.parity
// The unit's two scales as bf16x2 values.
// CHECK:         nvvm.prmt <default> %c32896_i32
// CHECK-NEXT:    arith.shli %{{.*}}, %c4_i32
// CHECK-NEXT:    arith.andi %{{.*}}, %c-2014279696_i32
// CHECK:         arith.mulf {{.*}} : vector<2xbf16>
// CHECK:         nvvm.prmt <default> %c32896_i32
// The elements: 2^126, then the first block's scale (words 0, 1) ...
// CHECK:         llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK:         nvvm.prmt <default> %c33920_i32
// CHECK:         arith.mulf %{{.*}}, %[[T:[0-9]+]] : vector<2xbf16>
// CHECK-NEXT:    arith.mulf %{{.*}}, %[[S0:[0-9]+]] : vector<2xbf16>
// ... and the second block's (words 2, 3): eight products with the first scale, then others.
// CHECK-COUNT-7: arith.mulf %{{.*}}, %[[S0]] : vector<2xbf16>
// CHECK:         arith.mulf %{{.*}}, %[[T]] : vector<2xbf16>
// CHECK-NEXT:    arith.mulf %{{.*}}, %[[S1:[0-9]+]] : vector<2xbf16>
// CHECK-NOT:     arith.mulf %{{.*}}, %[[S0]] : vector<2xbf16>
// CHECK:         llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK:         llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK:         llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:         nvvm.setmaxregister increase 224

// PTX-DAG: prmt.b32 {{.*}}, 0, 0x8080U;
// PTX-DAG: prmt.b32 {{.*}}, 0x8480U;
// PTX-DAG: mul.rn.bf16x2
