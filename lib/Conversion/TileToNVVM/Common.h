//===- Common.h - shared pieces of the tile-to-NVVM lowerings ---*- C++ -*-===//

#ifndef TILEGEN_LIB_CONVERSION_TILETONVVM_COMMON_H
#define TILEGEN_LIB_CONVERSION_TILETONVVM_COMMON_H

#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/Target/MmaTable.h"
#include "tilegen/Target/NVTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace tilegen::lowering {

/// A tile.pipeline and the plan ops in its body, read once.
struct PipelineView {
  tile::PipelineOp op;
  tile::RingOp ring;
  tile::AccumulatorsOp accumulators;
  tile::RoleOp producer, mma, epilogue;
  tile::ScheduleOp schedule;
  tile::EpilogueOp epilogueOp;
  NVTarget target;
  tile::MmaInstrAttr instr; ///< what the mma role issues
  const MmaInstr *row;      ///< its row of the instruction table

  bool blockScales() {
    return instr.getScaleA() && !instr.getScaleA().isTensor();
  }

  static mlir::FailureOr<PipelineView> get(tile::PipelineOp op);
  int64_t tileM() { return schedule.getTile()[0]; }
  int64_t tileN() { return schedule.getTile()[1]; }
  int64_t sliceK() { return schedule.getSliceK(); }
  int64_t threads() { return op.getBlock()[0]; }
};

/// ImplicitLocOpBuilder with the integer and pointer arithmetic kernels need.
class KernelBuilder : public mlir::ImplicitLocOpBuilder {
public:
  using ImplicitLocOpBuilder::ImplicitLocOpBuilder;

  mlir::Type i1() { return getI1Type(); }
  mlir::Type i32() { return getI32Type(); }
  mlir::Type i64() { return getI64Type(); }
  mlir::Type f32() { return getF32Type(); }
  mlir::Type ptr(unsigned addrSpace) {
    return mlir::LLVM::LLVMPointerType::get(getContext(), addrSpace);
  }

  mlir::Value c32(int64_t v);
  mlir::Value c64(int64_t v);
  mlir::Value f32c(double v);
  mlir::Value add(mlir::Value a, mlir::Value b);
  mlir::Value add(mlir::Value a, int64_t b);
  mlir::Value sub(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, int64_t b);
  mlir::Value divu(mlir::Value a, int64_t b);
  mlir::Value divu(mlir::Value a, mlir::Value b);
  mlir::Value remu(mlir::Value a, int64_t b);
  mlir::Value remu(mlir::Value a, mlir::Value b);
  mlir::Value xori(mlir::Value a, mlir::Value b);
  mlir::Value andi(mlir::Value a, mlir::Value b);
  mlir::Value minu(mlir::Value a, mlir::Value b);
  mlir::Value maxu(mlir::Value a, mlir::Value b);
  mlir::Value ult(mlir::Value a, mlir::Value b);
  mlir::Value ult(mlir::Value a, int64_t b);
  mlir::Value eq(mlir::Value a, int64_t b);
  mlir::Value select(mlir::Value c, mlir::Value t, mlir::Value f);
  mlir::Value zext64(mlir::Value v);
  /// ceil(a / b) for unsigned a.
  mlir::Value ceilDiv(mlir::Value a, int64_t b);
  /// `base + byteOffset` (any integer offset type) in `base`'s address space.
  mlir::Value gep(mlir::Value base, mlir::Value byteOffset);
};

/// The kernel parameters of one lowering, recorded on the llvm.func for the manifest.
struct KernelParam {
  std::string name, kind, tensor, value;
  mlir::Type llvmType;
  /// More manifest fields (a tensor map's dims, box, swizzle ...).
  llvm::SmallVector<mlir::NamedAttribute> extra = {};
  /// A CUtensorMap passed by value: `ptr byval([128 x i8]) align 64` with nvvm.grid_constant.
  bool tensorMap = false;
};

/// Creates the kernel `llvm.func` with `nvvm.kernel`, `nvvm.maxntid` and the manifest
/// attributes (`tilegen.*`), and an entry block. The parameters become the function's arguments
/// in order.
mlir::LLVM::LLVMFuncOp createKernel(KernelBuilder &b, PipelineView &view,
                                    llvm::ArrayRef<KernelParam> params);

/// The tensor-map boxes of a TMA kernel (elements; innermost first as TMA wants): A and B are
/// K-major slices of `kSlice` x rows, D is stored in chunks of `dCols` x `dRows`.
struct TmaBoxes {
  int64_t kSlice, aRows, bRows, dCols, dRows;
};
/// The parameters of the TMA kernels (sm_90a, sm_100a), in order: tensor maps of A, B and D
/// (by value), pointers C and D, M, N, K, alpha, beta.
llvm::SmallVector<KernelParam> tmaKernelParams(KernelBuilder &b, PipelineView &v,
                                               const TmaBoxes &boxes);
/// The operand-scale parameters (`scale_a`, `scale_b`: device pointers to f32, see
/// docs/manifest.md for the layout of block scales), appended for the scales the MMA role's
/// instruction names; returns how many were appended.
unsigned appendScaleParams(KernelBuilder &b, PipelineView &v,
                           llvm::SmallVectorImpl<KernelParam> &params);
/// The parameters of block-scaled kernels (E8M0 / E4M3 scales applied by the MMA), appended
/// instead of appendScaleParams's: `tmap_scale_a`, `tmap_scale_b`, 3-D tensor maps over the
/// scale tensors in their atom layout (docs/sm100a.md: 16-byte rows, 32 rows per atom times the
/// atoms along K, then the atoms of 128 rows along M or N), boxes of `atomsK` atoms along K by
/// `atomsA` (`atomsB`) atoms along M (N); then, for NVFP4, `scale_a_tensor` / `scale_b_tensor`
/// (device pointers to one f32). Returns how many were appended.
unsigned appendBlockScaleParams(KernelBuilder &b, PipelineView &v,
                                llvm::SmallVectorImpl<KernelParam> &params, int64_t atomsK,
                                int64_t atomsA, int64_t atomsB);
/// alpha x scale_a x scale_b with per-tensor scales (one f32 each, loaded at `scales`, in the
/// order appendScaleParams gave them); alpha itself without scales.
mlir::Value perTensorAlpha(KernelBuilder &b, PipelineView &v, mlir::Value alpha,
                           mlir::ValueRange scales);
/// The `scaleParams` scale arguments of a TMA kernel, after beta (argument 10 on), and alpha
/// with what multiplies the product folded in (D = (alpha sa sb) (A x B) + beta C): with
/// `blockScales`, the two scale-atom tensor maps (appendBlockScaleParams; returned in tmapA and
/// tmapB) and NVFP4's per-tensor f32 factors after them; else the per-tensor scales
/// (perTensorAlpha).
mlir::Value scaleArguments(KernelBuilder &b, PipelineView &v, mlir::Block &entry,
                           mlir::Value alpha, unsigned scaleParams, bool blockScales,
                           mlir::Value &tmapA, mlir::Value &tmapB);

/// A shared-memory matrix descriptor (wgmma or tcgen05): `high` holds every field but the start
/// address, which is (shared address >> 4) in bits 0-13, known only at run time.
mlir::Value smemDescriptor(KernelBuilder &b, mlir::Value ptr, uint64_t high);

/// The descriptor `desc` (smemDescriptor) moved `byteOffset` bytes further (a multiple of 16):
/// its start field plus byteOffset / 16, added in the low 32 bits only. Exact for every
/// address inside shared memory: a start address below 2^18 bytes (the largest shared memory
/// is 228 KB) has its field below 2^14, so the sum neither leaves the 14-bit field nor carries.
mlir::Value smemDescriptorAt(KernelBuilder &b, mlir::Value desc, int64_t byteOffset);

/// Whether any of `preds` (i1) holds in any lane of the warp (vote.sync.any over the full
/// warp, which must be converged here): a warp-uniform choice between two paths.
mlir::Value warpAny(KernelBuilder &b, llvm::ArrayRef<mlir::Value> preds);

/// An f32 value rounded to the output type (a no-op for f32).
mlir::Value convertOut(KernelBuilder &b, mlir::Type outType, mlir::Value x);

/// The constraints of kernels that load A and B (K-major) and store D with TMA: elements of
/// `elemBits` and `outBits` bits; `paddedSubByte`: A or B is a 6- or 4-bit operand loaded into
/// 8-bit containers (K a multiple of 128).
void addTmaConstraints(mlir::LLVM::LLVMFuncOp func, int64_t elemBits, int64_t outBits,
                       bool paddedSubByte = false);

/// The dynamic shared-memory base of the module (declares the extern array once).
mlir::Value dynamicSmemBase(KernelBuilder &b, mlir::ModuleOp module);

/// Records the run-time constraints on M, N, K for the manifest.
void addConstraint(mlir::LLVM::LLVMFuncOp func, llvm::StringRef dim, int64_t multiple,
                   llvm::StringRef reason);

/// The output-tile order of the schedule: tile index -> (tile row, tile column), with groups of
/// `swizzle` tiles along the raster's minor axis.
std::pair<mlir::Value, mlir::Value> rasterTile(KernelBuilder &b, PipelineView &view,
                                               mlir::Value tile, mlir::Value tilesM,
                                               mlir::Value tilesN);

/// mbarrier and TMA helpers shared by the sm_90a and sm_100a rings.
struct Barriers {
  mlir::Value base; ///< shared address of the first barrier
  mlir::Value at(KernelBuilder &b, mlir::Value index) const; ///< base + 8 * index
  mlir::Value at(KernelBuilder &b, int64_t index) const;
};
/// Slice g of the CTA's sequence in an S-slot ring: its slot (g mod S), the parity of the full
/// barrier's phase a consumer waits for ((g / S) & 1), and the empty barrier's a producer waits
/// for (the opposite: a fresh barrier counts as having completed the phase before phase 0).
struct RingPosition {
  mlir::Value slot, fullParity, emptyParity;
};
RingPosition ringPosition(KernelBuilder &b, mlir::Value g, int64_t stages);

/// Spins on `bar` until the phase with parity `parity` has completed.
void waitBarrier(KernelBuilder &b, mlir::Value bar, mlir::Value parity);
/// The address of an mbarrier or shared buffer as the 32-bit shared-window offset.
mlir::Value sharedOffset(KernelBuilder &b, mlir::Value ptr);

/// The address of `ptr` (shared::cta) in the shared memory of CTA `rank` of the cluster (mapa),
/// as a shared::cluster pointer.
mlir::Value clusterAddress(KernelBuilder &b, mlir::Value ptr, mlir::Value rank);

//===----------------------------------------------------------------------===//
// Protocols of the TMA kernels (sm_90a, sm_100a), written once
//===----------------------------------------------------------------------===//

/// One kind of mbarrier to initialise: barrier `index` of `bars`, completing a phase after
/// `arrivals` arrivals (plus, for a barrier armed with expect_tx, the transaction bytes).
struct BarrierInit {
  Barriers bars;
  int64_t index, arrivals;
};
/// Barrier set-up: thread 0 (`tid` == 0) initialises every barrier of `inits`, in order, and
/// makes the initialisations visible to the async proxy and the cluster with
/// fence.mbarrier.init; `beforeSync` (may be empty) emits what the kernel does between that
/// and the barrier (sm_100a: the TMEM allocation); then every thread of the CTA meets, or of
/// the cluster when `cluster` (the peer CTA arrives on, and TMA-multicasts into, this CTA's
/// barriers: both must be initialised before either CTA uses them). Thread 0 first prefetches
/// each of `tensorMaps` (prefetch.tensormap), so that the TMA unit fetches the descriptors
/// while the CTA sets up, not at the first copy.
void setupBarriers(KernelBuilder &b, mlir::Value tid, llvm::ArrayRef<BarrierInit> inits,
                   bool cluster, llvm::function_ref<void()> beforeSync = {},
                   mlir::ValueRange tensorMaps = {});
/// Every thread of the CTA meets (bar.sync 0), or of the cluster when `cluster`
/// (barrier.cluster.arrive + wait; with `relaxed`, barrier.cluster.arrive.relaxed, which
/// orders none of the thread's earlier memory accesses).
void syncCtaOrCluster(KernelBuilder &b, bool cluster, bool relaxed = false);

/// The K-slices of one unit of producer work: slices [kb, ke) of the output tile whose A rows
/// start at m0 and B rows (D columns) at n0.
struct ProducerUnit {
  mlir::Value kb, ke, m0, n0;
};
/// How the CTAs of a cluster share the ring's loads.
enum class TmaPairing {
  None,
  /// sm_90a clusters [X, Y, 1] with X, Y in {1, 2} (rank r = x + X y): the CTAs of a cluster
  /// row (same x) share A, those of a cluster column (same y) share B. Each CTA loads part y of
  /// its A box (aRows / Y rows) and part x of its B box (bRows / X rows), multicast into the same
  /// slot offset of every CTA that shares the operand; each copy completes bytes on the full
  /// barrier of its destination CTA, and each CTA arms its own full barrier with the whole slot.
  Multicast,
  /// sm_100a cta_group::2: each CTA loads its own A and B rows into its own shared memory, and
  /// both CTAs' copies complete on the LEADER's (rank 0) full barrier
  /// (cp.async.bulk.tensor .cta_group::2 with the leader's shared::cluster barrier address);
  /// only the leader's producer arms it, with both CTAs' bytes.
  CtaGroup2,
};
/// The TMA ring producer. Slice g of the CTA's sequence (counted over all its units) lives in
/// slot g mod S. For each unit in [first, end) step `step` and each of its K-slices k, the
/// issuing thread (`issuer`) waits on empty[slot] with the producer's parity (ringPosition),
/// arms full[slot] with arrive.expect_tx of `expectBytes` and issues one TMA load of A (box
/// K-slice x A rows, at (k x sliceK, m0)) into the slot and one of B (at (k x sliceK, n0)) at
/// `bOffset` after it; the loads complete the transaction on the full barrier. The consumer
/// side (wait full with the opposite parity, release empty) is each target's.
struct TmaProducer {
  mlir::Value issuer;          ///< i1: the thread that issues (the others skip the loop)
  mlir::Value first, end, step; ///< the units of this CTA
  /// Unit u's slices and tile origin (called inside the unit loop).
  llvm::function_ref<ProducerUnit(mlir::Value u)> unit;
  Barriers full, empty;
  int64_t stages;
  mlir::Value ring; ///< slot s at ring + s x slotBytes: A, then B at bOffset
  int64_t slotBytes, bOffset;
  mlir::Value tmapA, tmapB;
  int64_t sliceK;      ///< K elements per slice
  int64_t rowBytes;    ///< bytes of one row of a slice (sliceK elements)
  int64_t expectBytes; ///< the transaction bytes one slice brings to the armed full barrier
  TmaPairing pairing = TmaPairing::None;
  mlir::Value rank;  ///< the CTA's rank in its cluster (pairing != None)
  /// Multicast: the cluster's extent along M (X: CTAs sharing B) and N (Y: CTAs sharing A), and
  /// the rows of A and B in a slot, split into Y and X parts.
  int64_t clusterX = 1, clusterY = 1;
  int64_t aRows = 0, bRows = 0;
  /// B's tensor map counts K in units of this many elements (2: packed FP4 as bytes).
  int64_t bKDivisor = 1;
  /// The L2 eviction priority of A's and B's loads (the ring's cache_a, cache_b): a policy
  /// made by createpolicy beside each load, passed as its .L2::cache_hint operand.
  std::optional<tile::CacheHint> cacheA, cacheB;
  /// Wait until the consumers have released every slot before returning, so that no release
  /// (a multicast commit in a cluster) arrives on this CTA's barriers after it exits.
  bool drain = false;
  /// More copies of the same slice into the slot (block scales), issued after A and B on the
  /// same full barrier (`tmaBar`: the leader's with cta_group 2, whose group `tmaGroup` the
  /// copies must carry); their bytes are part of expectBytes. Arguments: the slot's base, the
  /// slice index within the unit, the unit, tmaBar, tmaGroup (null without a pair).
  llvm::function_ref<void(mlir::Value, mlir::Value, const ProducerUnit &, mlir::Value,
                          mlir::NVVM::CTAGroupKindAttr)>
      extraLoads = nullptr;
};
void emitTmaProducer(KernelBuilder &b, const TmaProducer &p);

/// One column chunk of a TMA-store epilogue: the threads that hold the values write them into
/// a staging buffer laid out (swizzled) as D's tensor map wants it, and one thread stores the
/// buffer to D with cp.async.bulk.tensor. Buffers are used in turn and a bulk store reads its
/// buffer asynchronously: before refilling one, the leader waits until at most `buffers - 1`
/// stores are still reading theirs (cp.async.bulk.wait_group.read), and the named barrier
/// tells the writers. After `write`, fence.proxy.async.shared::cta orders the generic-proxy
/// writes before the TMA engine's (async proxy) read, a second barrier gathers every writer's,
/// and the leader issues the store (coordinates from `coords`, called in its branch) and
/// commits it as one bulk group.
struct TmaStoreChunk {
  mlir::Value tmapD;
  mlir::Value buffer;           ///< this chunk's staging buffer
  mlir::Value leader;           ///< i1: the thread that waits and issues the store
  /// Named barrier of the writing threads; null when the writers are one warp (bar.warp.sync).
  mlir::Value barrierId, threads;
  int64_t buffers;              ///< staging buffers used in turn
};
void storeChunkThroughShared(
    KernelBuilder &b, const TmaStoreChunk &chunk, llvm::function_ref<void()> write,
    llvm::function_ref<llvm::SmallVector<mlir::Value, 2>()> coords);
/// The end of a TMA-store epilogue: the leader waits for all its bulk stores, which read
/// shared memory that must outlive them.
void drainTmaStores(KernelBuilder &b, mlir::Value leader);

/// Predicated stores of accumulator fragments in the m16n8 register layout shared by
/// mma.sync and wgmma: D = alpha * acc + beta * C (C read only when beta != 0), converted to
/// `outType`, row-major D and C with leading dimension N.
struct FragmentStore {
  mlir::Value C, D, M, N, alpha, beta;
  mlir::Type outType;
  mlir::Value rowBase, colBase; ///< this thread's first row and column
  mlir::Value tileRowEnd, tileColEnd; ///< one past the CTA tile's last row and column
  int64_t blocksM = 1, rowStride = 16, blocksN = 1;
  /// The caller has already branched on beta != 0: emit only the (checked) stores that read C.
  bool betaNonZero = false;
  /// Fragments of a row whose C values are loaded together, ahead of their stores (more loads
  /// in flight, more registers held beside the accumulators); 0: each C value is loaded at its
  /// store, inside the store's guards.
  int64_t cGroup = 0;
};
/// `acc` holds blocksM x blocksN fragments of four values, fragment-major.
void storeFragments(KernelBuilder &b, const FragmentStore &store, mlir::ValueRange acc);

/// `x` (i32) as lane 0 of the warp has it: visibly warp-uniform to ptxas.
mlir::Value warpUniform(KernelBuilder &b, mlir::Value x);

/// The lowerings, one per family (MmaSync.cpp, SM90.cpp, SM100.cpp).
mlir::LogicalResult lowerMmaSync(PipelineView &view, mlir::ModuleOp module);
mlir::LogicalResult lowerWgmma(PipelineView &view, mlir::ModuleOp module);
mlir::LogicalResult lowerTcgen05(PipelineView &view, mlir::ModuleOp module);

} // namespace tilegen::lowering

#endif // TILEGEN_LIB_CONVERSION_TILETONVVM_COMMON_H
