// The sm_90a upcast of NVFP4 B converted in registers, f16 output, tile 128 x 128 (wgmma m64n128k16 across the tile's M): per slice and row four E4M3 scale codes (blocks of 16: bytes (4 k + q) x N + n of scale_b), which warps 1 and 2 of the producer warpgroup load (two rows per lane, 65 arrivals on each full barrier) and turn into bf16x2 factors, each by prmt 0x8080, a shift, a mask and two multiplies by 2^119 (the scale x 2^118, folded with 2^126 x 2^-8), stored after B in the slot as one 16-byte word per row; each consumer thread reads a row's four factors with one 16-byte shared load and multiplies each register once; the per-tensor f32 (scale_b_tensor) and 2^8 multiply alpha once; D staged by stmatrix .trans.
// RUN: %tilegen %s --target=sm_90a --emit=pipeline | FileCheck %s --check-prefix=PLAN
// RUN: %tilegen %s --target=sm_90a --emit=nvvm-scf | FileCheck %s --implicit-check-not=nvvm.wgmma.mma_async --implicit-check-not=%c2122350208_i32

tile.gemm @nvfp4r {
  a = bf16 row, b = f4E2M1FN col, c = f16 row, scale_b = f8E4M3FN [1, 16] * f32 tensor,
  upcast = bf16, tile = [128, 128, 64], stages = 4, schedule = warp_specialized,
  grid = persistent
}

// PLAN: tile.ring {{.*}} {upcast_scale_b = #tile.scale<f8E4M3FN [1, 16] * f32 tensor>}
// PLAN: tile.role mma warps [4, 8] issues <wgmma [64, 128, 16] bf16 x bf16 -> f32> layout [2, 1] regs 232

// CHECK-LABEL: llvm.func @nvfp4r(
// CHECK-SAME:    %arg10: !llvm.ptr<1>, %arg11: !llvm.ptr<1>)
// CHECK-SAME:    {kind = "ptr", name = "scale_b", tensor = "scale_b"}, {kind = "ptr", name = "scale_b_tensor", tensor = "scale_b_tensor"}
// CHECK:         %[[TS:.*]] = llvm.load %arg11 {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK:         %[[ALPHA:.*]] = arith.mulf %arg8, %[[TS]] : f32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c65_i32
// The factor writers: a lane's two rows' four codes, each a factor, one 16-byte store per row.
// CHECK:         nvvm.setmaxregister  decrease 40
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<1> -> i8
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         nvvm.prmt <default> %c32896_i32
// CHECK-NEXT:    arith.shli
// CHECK-NEXT:    arith.andi
// CHECK-NEXT:    llvm.bitcast
// CHECK-NEXT:    %[[TWO119:.*]] = llvm.bitcast %c2063629056_i32 : i32 to vector<2xbf16>
// CHECK-NEXT:    %[[HALF:.*]] = arith.mulf {{.*}}, %[[TWO119]] : vector<2xbf16>
// CHECK-NEXT:    arith.mulf %[[HALF]], %[[TWO119]] : vector<2xbf16>
// CHECK:         llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK:         llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK:         nvvm.mbarrier.arrive
// CHECK:         nvvm.setmaxregister  increase 232
// The consumers: a row's factors with one 16-byte shared load each, loaded first (each
// row's gather selector takes its first factor word & (K >> 31)); no decode of codes, no prmt
// after the registers' decode: one multiply per register.
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         arith.muli %{{.*}}, %c16_i32
// CHECK-NEXT:    llvm.getelementptr
// CHECK-NEXT:    %[[W:.*]] = llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NEXT:    arith.muli %{{.*}}, %c16_i32
// CHECK-NEXT:    llvm.getelementptr
// CHECK-NEXT:    llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NEXT:    arith.muli %{{.*}}, %c32_i32
// CHECK:         %[[W0:.*]] = llvm.extractelement %[[W]][%c0_i32 : i32] : vector<4xi32>
// CHECK-NEXT:    arith.andi %[[W0]]
// CHECK:         %[[FACTOR:.*]] = llvm.bitcast %[[W0]] : i32 to vector<2xbf16>
// CHECK-NOT:     nvvm.prmt
// CHECK:         arith.mulf %{{[0-9]+}}, %[[FACTOR]] : vector<2xbf16>
// CHECK-NEXT:    llvm.bitcast
// CHECK-NOT:     nvvm.prmt
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK:         scf.for {{.*}} step %c2_i32
// The epilogue: alpha x scale_b_tensor x 2^8.
// CHECK:         arith.mulf %[[ALPHA]], %cst : f32
// CHECK:         arith.truncf {{.*}} : f32 to f16
// CHECK:         nvvm.stmatrix {{.*}} layout = #nvvm.mma_layout<col>
