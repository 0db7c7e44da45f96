// The sm_90a upcast of MXFP4 B converted in registers (16-bit output, tile 256 x 128 x 64): no converter role and no converted ring (the ring op has no convert_offset or convert_slots; producer 40 registers, consumers 232); warp 1 of the producer warpgroup copies each slice's scale codes from global memory into the slot after B with cp.async (256 bytes: block q's 128 codes at byte 128 q, four bytes a copy, two copies a lane) and each lane arrives on the full barrier when its copies have landed (cp.async.mbarrier.arrive.noinc: 33 arrivals); the mma role issues m64n256k16 across the tile's M (the tile computed transposed). Each consumer thread loads its two rows of packed B (two 16-byte shared loads per row), gathers byte lane % 4 of each word with prmt, reads its rows' codes with one byte load per row and block, converts by the UpcastBits steps (prmt selectors 0x8480 ... 0x8783) ahead of the scales, then multiplies by the scale folded into one factor where the warp's codes are all at most 128 (a vote), pins the 16 registers before the wgmma fence and issues four wgmmas with A from registers (inline PTX: NVVM's op takes A by descriptor only). The K loop runs two slices per iteration, the registers of the batch in flight pinned after the wait that retires it and folded into the release's address; every consumer thread releases (empty barriers of 256 arrivals). The epilogue stages D through stmatrix .trans into 64 x 64 chunks (D's tensor map box [64, 64], 128-byte swizzle).
// RUN: %tilegen %s --target=sm_90a --emit=pipeline | FileCheck %s --check-prefix=PLAN
// RUN: %tilegen %s --target=sm_90a --emit=nvvm-scf | FileCheck %s --implicit-check-not='{{^ *}}tile.' --implicit-check-not=nvvm.wgmma.mma_async --implicit-check-not='llvm.store {{.*}} : vector<4xi32>, !llvm.ptr<3>'
// RUN: %tilegen explain %s --target=sm_90a | FileCheck %s --check-prefix=EXPLAIN

tile.gemm @mxfp4r {
  a = bf16 row, b = f4E2M1FN col, c = bf16 row, scale_b = f8E8M0FNU [1, 32], upcast = bf16,
  tile = [256, 128, 64], stages = 4, schedule = warp_specialized, grid = persistent
}

// PLAN: tile.ring slots 4 slice_k 64 a [256, 64] bf16 row b [128, 64] f4E2M1FN col {{.*}} slot_bytes 37888 b_offset 32768 barriers 184320 {upcast_scale_b = #tile.scale<f8E8M0FNU [1, 32]>}
// PLAN: tile.role producer warps [0, 4] layout [] regs 40
// PLAN: tile.role mma warps [4, 8] issues <wgmma [64, 256, 16] bf16 x bf16 -> f32> layout [2, 1] regs 232
// PLAN: tile.epilogue {{.*}} out bf16 row via smem_tma offset 151552 bytes 32768

// EXPLAIN: convert   none: the consumers convert their rows of B into wgmma's register operand

// CHECK-LABEL: llvm.func @mxfp4r(
// CHECK-SAME:    {box = array<i64: 64, 128>, dims = ["K", "N"], elem = "e2m1", kind = "tensormap", {{.*}} swizzle = 0 : i64, tensor = "B"}
// CHECK-SAME:    {box = array<i64: 64, 64>, dims = ["N", "M"], elem = "bf16", kind = "tensormap", {{.*}} swizzle = 128 : i64, tensor = "D"}
// CHECK-SAME:    {kind = "ptr", name = "scale_b", tensor = "scale_b"}
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c33_i32
// CHECK-NEXT:    nvvm.mbarrier.init %{{.*}}, %c256_i32
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.setmaxregister  decrease 40
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c36864_i32
// The code loader (warp 1): once the slot is released, a lane's two four-byte copies (chunks
// lane and lane + 32 of the slice's 64: block chunk / 32, column 4 (chunk % 32)) into the area
// after B (slot + 32768 + 4096), then its arrival when they have landed; after the last slice it
// waits for its copies before it leaves. No global load and no shared store in the loader.
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         llvm.getelementptr {{.*}}[32768]
// CHECK-NEXT:    llvm.getelementptr {{.*}}[4096]
// CHECK-NOT:     llvm.load
// CHECK:         nvvm.cp.async.shared.global {{.*}}, 4, cache =  ca
// CHECK-NOT:     llvm.load
// CHECK:         nvvm.cp.async.shared.global {{.*}}, 4, cache =  ca
// CHECK-NEXT:    llvm.getelementptr
// CHECK-NEXT:    nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true}
// CHECK:         nvvm.cp.async.commit.group
// CHECK-NEXT:    nvvm.cp.async.wait.group 0
// CHECK:         nvvm.setmaxregister  increase 232
// The first slice: the wait, the two rows' packed B from the slot, decoded (gather, then the
// UpcastBits steps up to the multiplies) ahead of the scale choice; the rows' codes; the warp
// votes whether any of its codes is above 128: if so the two multiplies (by 2^126, then by the
// scale), else one by the folded factor (code x 0x800080 + 0x3F003F00: 2^(code - 1) in both
// halves). The choice holds the multiplies alone.
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-4: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK:         nvvm.prmt <default> %c21520_i32
// CHECK:         nvvm.prmt <default> %c33920_i32
// CHECK-NEXT:    arith.muli {{.*}}, %c4160_i32
// CHECK-NEXT:    arith.andi
// CHECK-NEXT:    llvm.bitcast
// CHECK-NEXT:    nvvm.prmt <default> %c34177_i32
// CHECK-COUNT-2: llvm.load {{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK:         arith.cmpi ugt, {{.*}}, %c128_i32
// CHECK:         arith.addi {{.*}}, %c136_i32
// CHECK:         llvm.load {{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK:         nvvm.vote.sync  any %c-1_i32
// CHECK-NEXT:    scf.if
// CHECK-NOT:     nvvm.prmt
// CHECK:         arith.mulf {{.*}} : vector<2xbf16>
// CHECK-NEXT:    arith.mulf {{.*}} : vector<2xbf16>
// CHECK-NEXT:    llvm.bitcast
// CHECK-NOT:     nvvm.prmt
// CHECK:         } else {
// CHECK-NEXT:    arith.muli {{.*}}, %c8388736_i32
// CHECK-NEXT:    arith.addi {{.*}}, %c1056980736_i32
// CHECK-NOT:     nvvm.prmt
// CHECK:         arith.mulf {{.*}} : vector<2xbf16>
// CHECK-NEXT:    llvm.bitcast
// CHECK-NOT:     nvvm.prmt
// CHECK:         scf.yield
// CHECK:         llvm.inline_asm has_side_effects "", "=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
// CHECK-NEXT:    llvm.extractvalue
// One descriptor of A's slot per slice; K step s's adds 2 s to its start field, in 32 bits.
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK:         arith.andi {{.*}}, %c16383_i64
// CHECK:         wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {$0, {{.*}}}, {$256, $257, $258, $259}, $260, p, 1, 1, 0;
// CHECK:         arith.addi {{.*}}, %c2_i32
// CHECK:         wgmma.mma_async.sync.aligned.m64n256k16
// CHECK:         arith.addi {{.*}}, %c4_i32
// CHECK:         wgmma.mma_async.sync.aligned.m64n256k16
// CHECK:         arith.addi {{.*}}, %c6_i32
// CHECK:         wgmma.mma_async.sync.aligned.m64n256k16
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 1
// Two slices per iteration; each releases the slot of the slice before with an address that
// depends on that slice's pinned registers.
// CHECK:         scf.for {{.*}} step %c2_i32
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:         llvm.inline_asm has_side_effects "", "=r
// CHECK-COUNT-15: arith.xori
// CHECK:         arith.andi
// CHECK:         nvvm.mbarrier.arrive
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:         nvvm.mbarrier.arrive
// The odd slice, then the last batch retired and its slot released.
// CHECK:         scf.if
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:         nvvm.mbarrier.arrive
// Epilogue: beta != 0 element by element, else stmatrix .trans (layout col), four per 64-row chunk.
// CHECK:         llvm.load {{.*}} : !llvm.ptr<1> -> bf16
// CHECK:         llvm.store {{.*}} : bf16, !llvm.ptr<1>
// CHECK-COUNT-4: nvvm.stmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK:         nvvm.fence.proxy
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta
