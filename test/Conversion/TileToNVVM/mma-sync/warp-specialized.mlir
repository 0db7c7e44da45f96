// The warp-specialised mma.sync kernel (gemm_bf16_sm120_ws on sm_120a): 8 consumer warps and a TMA producer warp (288 threads), a 2-slot ring with full (1 arrival) and empty (8, one per consumer warp) mbarriers, per K-slice 24 ldmatrix.x4 and 64 mma.sync m16n8k16 from the TMA-written slots, one empty-barrier arrival per warp, and a TMA-store epilogue through per-warp staging buffers; no cp.async.
// RUN: %tilegen %examples/gemm_bf16_sm120_ws.mlir --target=sm_120a --emit=nvvm-scf -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --implicit-check-not='{{^ *}}tile.' --implicit-check-not=nvvm.cp.async.shared.global --implicit-check-not=nvvm.cp.async.wait.group
// RUN: grep -c 'nvvm.mma.sync' %t.mlir | FileCheck %s --check-prefix=MMAS
// RUN: grep -c 'nvvm.ldmatrix' %t.mlir | FileCheck %s --check-prefix=LDMATRIX
// RUN: grep -c 'nvvm.cp.async.bulk.tensor.global.shared.cta' %t.mlir | FileCheck %s --check-prefix=STORES
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=ADDR
// MMAS: {{^64$}}
// LDMATRIX: {{^24$}}
// A 64 x 32 warp tile of bf16 goes out in 4 chunks of 16 rows x 64 bytes.
// STORES: {{^4$}}

// CHECK-LABEL: llvm.func @gemm_bf16_sm120_ws(
// CHECK-SAME:    nvvm.kernel, nvvm.maxntid = array<i32: 288, 1, 1>, nvvm.minctasm = 1 : i32
// CHECK-SAME:    {box = array<i64: 32, 16>, dims = ["N", "M"], elem = "bf16", kind = "tensormap", l2_promotion = 128 : i64, name = "tmap_D", oob_fill = "zero", swizzle = 64 : i64, tensor = "D"}
// CHECK-SAME:    tilegen.smem = 82048 : i64, tilegen.target = "sm_120a"
// The warp index, visibly uniform, picks the role.
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx
// Thread 0 prefetches the three tensor maps (A, B, D), then initialises the barriers.
// CHECK:         scf.if
// CHECK-NEXT:      nvvm.prefetch tensormap in_param_space, %arg0
// CHECK-NEXT:      nvvm.prefetch tensormap in_param_space, %arg1
// CHECK-NEXT:      nvvm.prefetch tensormap in_param_space, %arg2
// CHECK-NEXT:      nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK-NEXT:      nvvm.mbarrier.init %{{.*}}, %c8_i32
// CHECK:           nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK:           nvvm.mbarrier.init %{{.*}}, %c8_i32
// CHECK-NEXT:      nvvm.fence.mbarrier.init
// CHECK:         nvvm.barrier0
// CHECK:         %[[ISPROD:.*]] = arith.cmpi eq, %[[WARP]], %c8_i32
// CHECK:         scf.if %[[ISPROD]] {
// Producer: lane 0 waits for an empty slot, arms the full barrier with 32 KB, loads A and B.
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               nvvm.mbarrier.try_wait.parity
// CHECK:               nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// CHECK:               nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0,
// CHECK:               nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1,
// CHECK:         } else {
// Consumers: wait for the full slot, ldmatrix + mma.sync, release the slot.
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-6:       nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK-COUNT-16:      nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>
// The lanes' ldmatrix reads are ordered before lane 0's release of the slot.
// CHECK:               nvvm.bar.warp.sync %c-1_i32
// CHECK-NEXT:          llvm.getelementptr
// CHECK-NEXT:          scf.if
// CHECK-NEXT:            nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK:               scf.yield
// Epilogue, beta = 0: staging written, made visible to TMA, stored by lane 0.
// CHECK:             nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK:             nvvm.bar.warp.sync
// CHECK:             nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:        nvvm.bar.warp.sync
// CHECK:             nvvm.cp.async.bulk.tensor.global.shared.cta %arg2,
// CHECK-NEXT:        nvvm.cp.async.bulk.commit.group
// CHECK:           nvvm.cp.async.bulk.wait_group 0
// CHECK:         llvm.return

// Fragment addresses (Inputs/swizzle_addresses.py proves the arithmetic): per slice one register
// for A (the warp's rows: warp M x 64 rows x 128 bytes, then the lane's row and swizzled chunk),
// its m16 blocks 2048 bytes apart, each K step XOR-ed with 32 bytes more.
// ADDR:      nvvm.mbarrier.try_wait.parity
// ADDR:      arith.muli %{{.*}}, %c8192_i32 : i32
// ADDR:      %[[BASE:[0-9]+]] = llvm.ptrtoint %{{[0-9]+}} : !llvm.ptr<3> to i32
// ADDR:      %[[QA:[0-9]+]] = arith.addi %[[BASE]], %{{[0-9]+}} : i32
// ADDR:      llvm.inttoptr %[[QA]] : i32 to !llvm.ptr<3>
// ADDR-NEXT: nvvm.ldmatrix
// ADDR:      arith.addi %[[QA]], %c2048_i32 : i32
// ADDR:      arith.addi %[[QA]], %c4096_i32 : i32
// ADDR:      arith.addi %[[QA]], %c6144_i32 : i32
// ADDR:      %[[K1:[0-9]+]] = arith.xori %[[QA]], %c32_i32 : i32
// ADDR:      arith.addi %[[K1]], %c2048_i32 : i32
// ADDR:      arith.xori %[[QA]], %c64_i32 : i32
// ADDR:      arith.xori %[[QA]], %c96_i32 : i32
