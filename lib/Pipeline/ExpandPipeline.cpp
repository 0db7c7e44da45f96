//===- ExpandPipeline.cpp - tile-expand-pipeline --------------------------===//
//
// tile.gemm -> tile.pipeline: the roles, the ring and its barriers, the accumulator buffers, the
// loops over tiles and K-slices, the epilogue, with shared-memory offsets and the launch shape.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Dialect/Tile/Passes.h"
#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/Pipeline/GemmPlan.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "tile-expand-pipeline"

namespace tilegen::tile {
#define GEN_PASS_DEF_TILEEXPANDPIPELINE
#include "tilegen/Dialect/Tile/Passes.h.inc"
} // namespace tilegen::tile

using namespace mlir;
using namespace tilegen;
using namespace tilegen::tile;

/// Rows x contiguous elements of one operand's K-slice in shared memory.
static SmallVector<int64_t> sliceShape(StringRef layout, bool isA, int64_t mn, int64_t k) {
  // A row / B col keep K contiguous: rows are M (N); A col / B row keep M (N) contiguous.
  bool kContiguous = isA ? layout == "row" : layout == "col";
  return kContiguous ? SmallVector<int64_t>{mn, k} : SmallVector<int64_t>{k, mn};
}

static void expand(GemmOp op, const GemmPlan &p) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);

  int64_t ctaGroup = op.getCtaGroup();
  SmallVector<int64_t> block{p.threads, 1, 1};
  auto pipeline = PipelineOp::create(b, loc, op.getSymName(), p.target.name(),
                                     b.getDenseI64ArrayAttr(block), op.getClusterAttr(),
                                     p.smem.total, text);
  Block *body = new Block();
  pipeline.getBody().push_back(body);
  b.setInsertionPointToStart(body);

  bool mbarrierRing = p.family != MmaFamily::MmaSync;
  std::string swizzle = p.family == MmaFamily::MmaSync
                            ? "xor16x8"
                            : std::to_string(p.swizzleBytes) + "B";
  RingOp::create(b, loc, p.stages, p.tileK, op.getAType(), op.getALayout(),
                 sliceShape(op.getALayout(), true, p.tileM / ctaGroup, p.tileK),
                 op.getBType(), op.getBLayout(),
                 sliceShape(op.getBLayout(), false, p.tileN / ctaGroup, p.tileK),
                 p.smem.ringOffset, p.smem.slotBytes, p.smem.slotBytes - p.smem.bSliceBytes,
                 mbarrierRing ? "mbarrier.full_empty" : "cp.async.groups",
                 p.smem.barrierOffset, swizzle);
  // Per CTA, like the ring's slices: a CTA pair (cta_group = 2) splits the tile's M, each CTA
  // holding its rows of the accumulator in its own TMEM.
  AccumulatorsOp::create(b, loc, p.accumulators, ArrayRef<int64_t>{p.tileM / ctaGroup, p.tileN},
                         op.getAccType(),
                         p.family == MmaFamily::Tcgen05 ? "tmem" : "registers");

  int64_t warps = p.threads / 32;
  std::string mmaInstr;
  switch (p.family) {
  case MmaFamily::MmaSync:
    mmaInstr = "mma.sync.m16n8k16+ldmatrix";
    break;
  case MmaFamily::Wgmma:
    mmaInstr = "wgmma.m64n" + std::to_string(p.mmaN) + "k16";
    break;
  case MmaFamily::Tcgen05:
    // The instruction's shape as its descriptor encodes it: with cta_group::2, M is the pair's
    // (128 or 256), half of it in each CTA's TMEM.
    mmaInstr = "tcgen05.mma.cta_group::" + std::to_string(ctaGroup) + ".m" +
               std::to_string(p.mmaM) + "n" + std::to_string(p.mmaN) + "k16";
    break;
  }
  auto role = [&](StringRef name, int64_t first, int64_t count, StringRef instr,
                  ArrayRef<int64_t> layout, int64_t regs) {
    RoleOp::create(b, loc, name, b.getDenseI64ArrayAttr({first, count}), instr,
                   b.getDenseI64ArrayAttr(layout), regs);
  };
  switch (p.family) {
  case MmaFamily::MmaSync:
    // Every warp copies, multiplies and stores: the ring is software-pipelined.
    role("producer", 0, warps, "cp.async.cg.16B", {}, 0);
    role("mma", 0, warps, mmaInstr, {p.warpsM, p.warpsN}, 0);
    role("epilogue", 0, warps, "st.global", {p.warpsM, p.warpsN}, 0);
    break;
  case MmaFamily::Wgmma:
    role("producer", 0, 4, "cp.async.bulk.tensor.2d", {}, 40);
    role("mma", 4, warps - 4, mmaInstr, {p.warpsM, p.warpsN}, 232);
    // 16-bit results go to shared memory with stmatrix, f32 ones with st.shared.
    role("epilogue", 4, warps - 4,
         op.getCType().getIntOrFloatBitWidth() == 16 ? "stmatrix+cp.async.bulk.tensor.store"
                                                     : "st.shared+cp.async.bulk.tensor.store",
         {p.warpsM, 1}, 232);
    break;
  case MmaFamily::Tcgen05:
    role("producer", 0, 1, "cp.async.bulk.tensor.2d", {}, 0);
    role("mma", 1, 1, mmaInstr, {1, 1}, 0);
    role("epilogue", 2, 4, "tcgen05.ld+cp.async.bulk.tensor.store", {1, 1}, 0);
    break;
  }
  ScheduleOp::create(b, loc, b.getDenseI64ArrayAttr({p.tileM, p.tileN}), p.tileK, op.getGrid(),
                     op.getRaster(), op.getSwizzle());
  EpilogueOp::create(b, loc, op.getAlphaAttr().getValue(), op.getBetaAttr().getValue(),
                     op.getCType(), op.getCLayout(), p.family == MmaFamily::MmaSync ? "direct" : "smem_tma",
                     p.smem.epilogueOffset, p.smem.epilogueBytes);
  op.erase();
}

namespace {
struct TileExpandPipelinePass : tile::impl::TileExpandPipelineBase<TileExpandPipelinePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<GemmOp> gemms(getOperation().getOps<GemmOp>());
    for (GemmOp op : gemms) {
      FailureOr<NVTarget> target = targetFor(op, "");
      if (failed(target))
        return signalPassFailure();
      FailureOr<GemmPlan> plan = resolveGemm(op, *target);
      if (failed(plan))
        return signalPassFailure();
      expand(op, *plan);
    }
  }
};
} // namespace
