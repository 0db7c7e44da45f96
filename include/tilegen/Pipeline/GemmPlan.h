//===- GemmPlan.h - a tile.gemm resolved for one target ---------*- C++ -*-===//
//
// The one place that turns a description plus a target into concrete choices: the MMA
// instruction (a row of the instruction table, MmaTable.h) and its shape, warp layout, schedule,
// copy engine, scales and accumulation, ring depth and the shared-memory map. A compile resolves
// a description once: `tile-expand-pipeline` resolves it and builds the plan ops from the result
// (`tile-check-target` runs the same resolution when a run stops at the checked description);
// `tilegen explain` resolves it to report budgets.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_PIPELINE_GEMMPLAN_H
#define TILEGEN_PIPELINE_GEMMPLAN_H

#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/Target/NVTarget.h"

#include "mlir/Support/LLVM.h"

namespace tilegen {

/// Bytes of shared memory by purpose, for budget reports.
struct SmemMap {
  int64_t aSliceBytes = 0;   ///< one K-slice of A
  int64_t bSliceBytes = 0;   ///< one K-slice of B
  int64_t bOffset = 0;       ///< B's offset in a slot: aSliceBytes rounded to the alignment
  int64_t scaleBytes = 0;    ///< block-scaled kinds: the slice's scale atoms, after B
  int64_t slotBytes = 0;     ///< A, B and the scales, rounded to the slot alignment
  int64_t ringOffset = 0;
  int64_t barrierOffset = 0; ///< mbarriers (8 bytes each)
  int64_t barrierBytes = 0;
  int64_t epilogueOffset = 0;
  int64_t epilogueBytes = 0;
  /// The upcast's converted ring (convertSlots bf16 slices of B, each laid out as a bf16 ring
  /// slot's B), after the epilogue's; its full and empty barriers follow the ring's.
  int64_t convertOffset = 0;
  int64_t convertBytes = 0;
  int64_t convertSlots = 0;
  int64_t total = 0;         ///< dynamic shared memory the kernel asks for
};

/// The accumulator sets of a wgmma consumer thread that promotes FP8 K blocks, for `accRegs`
/// f32 accumulators per set (one set: rows per consumer / 64 x tile N / 2), within 192 of the
/// consumers' registers. Three (the sum and two K blocks, one promoted while the next block's
/// wgmmas run in the same warpgroup) when they fit; else two (the sum and one block: each block
/// is drained with wait_group 0 and promoted while the other consumer warpgroup's wgmmas keep
/// the tensor core busy), which admits tiles up to 96 accumulators per set (64 x 192); 0 when
/// not even two fit. The plan (legality) and the lowering (SM90.cpp) both ask this.
inline int64_t promotedAccumulatorSets(int64_t accRegs) {
  return 3 * accRegs <= 192 ? 3 : 2 * accRegs <= 192 ? 2 : 0;
}

struct GemmPlan {
  NVTarget target;
  MmaFamily family = MmaFamily::MmaSync;
  const MmaInstr *instr = nullptr; ///< the instruction-table row the MMA role issues
  tile::Schedule schedule = tile::Schedule::Multistage; ///< never auto
  tile::Copy copy = tile::Copy::CpAsync;                ///< never auto
  bool blockScales = false;  ///< per-block operand scales, applied per K block
  /// sm_90a upcast: B (packed FP4 with E8M0 block scales) is converted to bf16 in shared
  /// memory, its scales applied, and multiplied by the bf16 wgmma; blockScales stays false.
  bool upcastB = false;
  /// MXFP8 x MXFP8 upcast: A (FP8 with E8M0 block scales) is converted as well (upcastB is
  /// set with it).
  bool upcastA = false;
  /// The upcast of FP4 B in registers (upcastB set with it): the consumers convert their rows
  /// of B straight into wgmma's register operand and compute the tile transposed, D^T = B^T
  /// A^T (B's tile N rows on wgmma's M side, A's tile M rows its N), so that no converted
  /// slice goes through shared memory; no converted ring.
  bool upcastRegisters = false;
  int64_t scaleBlockK = 0;   ///< K extent of one scale block
  /// Block-scaled kinds (E8M0 / E4M3 scales applied by the MMA; `instr` is their row): the
  /// scale atoms ride in the ring (SmemMap::scaleBytes).
  bool microScales = false;
  /// tcgen05 block-scaled kinds: Tensor Memory columns of one stage's scales.
  int64_t scaleTmemColumnsPerStage = 0;
  /// FP8: how products reach the f32 accumulators (promoted unless the description says fast
  /// on wgmma; mma.sync and tcgen05 accumulate in f32, recorded as promoted).
  tile::Accumulation accumulation = tile::Accumulation::Promoted;
  /// The wgmma lowering promotes K blocks into a second (double-buffered) accumulator set:
  /// FP8 on wgmma with promoted accumulation (block scales always).
  bool promotes = false;
  /// Per-tensor promoted accumulation: K elements between promotions (0: one K-slice).
  int64_t promotion = 0;
  /// Promoted accumulation: how many accumulator sets a consumer thread holds
  /// (promotedAccumulatorSets); 0 when the kernel does not promote.
  int64_t promotedSets = 0;
  /// Alignment of A and B rows in global memory, in elements (the description's `alignment`,
  /// 16 bytes' worth when absent); sets the width of each copy into the ring.
  int64_t alignA = 0, alignB = 0;
  /// Whether A or B rows are aligned to less than 16 bytes (mma.sync with narrower copies).
  bool narrowAlignment = false;
  int64_t tileM = 0, tileN = 0, tileK = 0;
  int64_t stages = 0;        ///< resolved (never 0)
  bool stagesWereAuto = false;
  int64_t accumulators = 1;
  int64_t warpsM = 0, warpsN = 0; ///< MMA warp layout
  int64_t mmaM = 0, mmaN = 0, mmaK = 0;
  int64_t threads = 0;       ///< threads per CTA
  /// Registers per thread the MMA role may hold: the register file shared by the CTA's
  /// threads at one CTA per SM (warp-specialised mma.sync; 0 where the lowering does not
  /// budget them).
  int64_t mmaRegs = 0;
  int64_t swizzleBytes = 0;  ///< shared-memory swizzle span of the ring (128: 128-byte XOR)
  SmemMap smem;

  /// Bytes a ring of `s` stages plus the rest needs (for `stages = auto` and reports).
  int64_t smemFor(int64_t s) const;
  /// Whether TMA fills the ring, guarded by full/empty mbarriers (every warp-specialised
  /// schedule); otherwise cp.async groups (mma.sync, multistage).
  bool tmaRing() const { return copy == tile::Copy::Tma; }
};

/// Resolves `op` for `target`. Reports the first rule the description breaks on `op` (naming
/// the field, the value, the target and the reason) and fails.
mlir::FailureOr<GemmPlan> resolveGemm(tile::GemmOp op, const NVTarget &target);

/// The target a description is compiled for: `override` if non-empty, else the op's `target`
/// attribute. Reports and fails if neither names a known target.
mlir::FailureOr<NVTarget> targetFor(tile::GemmOp op, llvm::StringRef override);

/// Writes the resolved choices (stages, schedule, copy, warps, mma, target) back onto `op` so
/// that the checked description prints what will be built.
void recordPlan(tile::GemmOp op, const GemmPlan &plan);

/// Builds the tile.pipeline plan of `op` resolved as `plan`, at the builder's insertion point.
tile::PipelineOp buildPlan(mlir::OpBuilder &b, tile::GemmOp op, const GemmPlan &plan);

/// A plan given as input (written by hand, or by another tilegen) is lowered only if it is the
/// plan tilegen builds for the description its choices make: that description passes every
/// rule a description must pass on the plan's target, and building its plan gives the same ops
/// with the same fields (the description text aside). Reports the first difference and fails.
mlir::LogicalResult checkPlanIsBuilt(tile::PipelineOp plan);

/// "227 KB", "1.5 KB" or "128 B", as diagnostics and reports print sizes.
std::string formatBytes(int64_t bytes);

/// The width in bytes of the column chunks a wgmma kernel's TMA-store epilogue writes for a tile
/// row of `tileN` elements of `outBits` bits: 128 (one 128-byte swizzle span) when the row is a
/// whole number of them, else 64 or 32 (the narrower TMA swizzles); 0 when none divides it.
int64_t tmaStoreChunkBytes(int64_t tileN, int64_t outBits);

/// The operands a wgmma cluster `cluster` ([X, Y, Z]) multicasts: B along M (X > 1), A along N
/// (Y > 1), both for X, Y > 1; none for a single CTA.
tile::Multicast wgmmaClusterMulticast(llvm::ArrayRef<int64_t> cluster);

/// Bytes taken by `elems` elements of `type` (the caller keeps elems x bits a multiple of 8).
int64_t sizeInBytes(int64_t elems, mlir::Type type);

} // namespace tilegen

#endif // TILEGEN_PIPELINE_GEMMPLAN_H
