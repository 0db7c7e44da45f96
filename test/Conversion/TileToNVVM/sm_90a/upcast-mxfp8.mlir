// The sm_90a upcast of MXFP8 x MXFP8 (E4M3 A, E5M2 B) at the NVVM level: the ring carries both operands as FP8 (slot = 8 KB of A + 8 KB of B, one expect_tx of 16384 bytes, both tensor maps with the 64-byte swizzle of their 64-byte rows); warps 1-3 of the producer warpgroup (72 registers) convert A and B of each slice into a converted ring of three slots of bf16 A then B (the scale bytes of six units per thread, A's from scale_a and B's from scale_b, the straddling step choosing by a select; per 16-byte load, prmt with the sign-extending selectors, a shift of 4 for E4M3 and of 5 for E5M2, one bf16x2 multiply per output word by the folded scale where the warp's codes allow it, else two); the consumers (216 registers) read A and B from the converted slot; the kernel takes scale_a and scale_b after beta.
// RUN: %tilegen %s --target=sm_90a --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.' --implicit-check-not=tcgen05 --implicit-check-not=nvvm.mma.sync
// RUN: %tilegen %s --target=sm_90a --emit=pipeline | FileCheck %s --check-prefix=PLAN
// RUN: %tilegen explain %s --target=sm_90a | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tilegen %s --target=sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX

tile.gemm @mxfp8 {
  a = f8E4M3FN row, b = f8E5M2 col, c = bf16 row, scale_a = f8E8M0FNU [1, 32],
  scale_b = f8E8M0FNU [1, 32], upcast = bf16,
  tile = [128, 128, 64], stages = 4, schedule = warp_specialized, grid = persistent
}

// EXPLAIN: A slice   128 x 64 x 8 bits = 8 KB (converted to bf16)
// EXPLAIN: B slice   128 x 64 x 8 bits = 8 KB (converted to bf16)
// EXPLAIN: convert   96 KB (3 bf16 slices of A and B that warps 1-3

// PLAN: tile.ring slots 4 slice_k 64 a [128, 64] f8E4M3FN row b [128, 64] f8E5M2 col {{.*}} slot_bytes 16384 b_offset 8192 barriers 196608 {convert_offset = 98304 : i64, convert_slots = 3 : i64, upcast_scale_a = #tile.scale<f8E8M0FNU [1, 32]>, upcast_scale_b = #tile.scale<f8E8M0FNU [1, 32]>}
// PLAN: tile.role producer warps [0, 4] layout [] regs 72
// PLAN: tile.role mma {{.*}} bf16 x bf16 {{.*}} regs 216

// CHECK-LABEL: llvm.func @mxfp8(
// CHECK-SAME:    %arg9: f32, %arg10: !llvm.ptr<1>, %arg11: !llvm.ptr<1>)
// CHECK-SAME:    a_scale = {block = array<i64: 1, 32>, granularity = "block", type = "e8m0"}, a_type = "e4m3"
// CHECK-SAME:    b_scale = {block = array<i64: 1, 32>, granularity = "block", type = "e8m0"}, b_type = "e5m2"
// CHECK-SAME:    upcast = "bf16"
// CHECK-SAME:    {box = array<i64: 64, 128>, dims = ["K", "M"], elem = "e4m3", kind = "tensormap", {{.*}} swizzle = 64 : i64, tensor = "A"}
// CHECK-SAME:    {box = array<i64: 64, 128>, dims = ["K", "N"], elem = "e5m2", kind = "tensormap", {{.*}} swizzle = 64 : i64, tensor = "B"}
// CHECK-SAME:    {kind = "ptr", name = "scale_a", tensor = "scale_a"}, {kind = "ptr", name = "scale_b", tensor = "scale_b"}
// CHECK-COUNT-4: nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK-COUNT-3: nvvm.mbarrier.init %{{.*}}, %c96_i32
// CHECK:         nvvm.setmaxregister decrease 72
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// The converter: six units per thread and slice (512 / 96); steps 0 and 1 are A's rows, step 2
// straddles A and B (a select of the scale's address), steps 3 to 5 are B's.
// CHECK:         scf.for
// CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<1> -> i8
// CHECK:         arith.select {{.*}} : !llvm.ptr<1>
// CHECK-NEXT:    llvm.load {{.*}} : !llvm.ptr<1> -> i8
// CHECK-COUNT-3: llvm.load {{.*}} : !llvm.ptr<1> -> i8
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i32, i8, i8, i8, i8, i8, i8)
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         nvvm.mbarrier.try_wait.parity
// The warp votes whether any of its six codes is above 134 (E4M3's fold limit, the lower of
// the two formats'): if so each output word takes two multiplies, by 2^(127 - bias) and by the
// scale, else one by the folded factor 2^(code - bias) (code x 0x800080 + 120 x 0x800080 for
// E4M3).
// CHECK:         arith.cmpi ugt, {{.*}}, %c134_i32
// CHECK:         nvvm.vote.sync  any %c-1_i32
// CHECK-NEXT:    scf.if
// Step 0 (A, E4M3): two 16-byte loads, each word through prmt 0x9180 / 0xb3a2, shift 4.
// CHECK:         llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK:         nvvm.prmt <default> %c37248_i32
// CHECK-NEXT:    arith.shli %{{.*}}, %c4_i32
// CHECK:         arith.mulf {{.*}} : vector<2xbf16>
// CHECK-NEXT:    arith.mulf {{.*}} : vector<2xbf16>
// CHECK:         nvvm.prmt <default> %c45986_i32
// CHECK:         llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK:         } else {
// CHECK-NEXT:    arith.muli {{.*}}, %c8388736_i32
// CHECK-NEXT:    arith.addi {{.*}}, %c1006648320_i32
// CHECK:         nvvm.prmt <default> %c37248_i32
// CHECK-NEXT:    arith.shli %{{.*}}, %c4_i32
// CHECK-NEXT:    arith.andi
// CHECK-NEXT:    llvm.bitcast
// CHECK-NEXT:    arith.mulf {{.*}} : vector<2xbf16>
// CHECK-NEXT:    llvm.bitcast
// CHECK:         llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// Step 2 straddles: the shift is chosen per warp.
// CHECK:         arith.shli %{{.*}}, %{{[0-9]+}} : i32
// Steps 3 to 5 (B, E5M2): shift 5; the last step only for the rows that exist.
// CHECK:         arith.shli %{{.*}}, %c5_i32
// CHECK:         scf.if
// CHECK:         arith.shli %{{.*}}, %c5_i32
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    llvm.getelementptr
// CHECK-NEXT:    nvvm.mbarrier.arrive
// CHECK:         scf.yield {{.*}} : i32, i8, i8, i8, i8, i8, i8
// The consumers: A and B descriptors into the converted slot (B 16 KB after A).
// CHECK:         nvvm.setmaxregister increase 216
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         llvm.getelementptr {{.*}}[16384]
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-NEXT:    nvvm.wgmma.fence.aligned
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]

// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 72;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 216;
// PTX-DAG: prmt.b32 {{.*}}, 0, 0x9180U;
// PTX-DAG: prmt.b32 {{.*}}, 0, 0xb3a2U;
// PTX-DAG: and.b32 {{.*}}, -2014279696;
// PTX-DAG: and.b32 {{.*}}, -1881108512;
// PTX-DAG: mul.rn.bf16x2
// PTX-DAG: fence.proxy.async.shared::cta;
