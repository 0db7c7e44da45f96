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
static SmallVector<int64_t> sliceShape(Layout layout, bool isA, int64_t mn, int64_t k) {
  // A row / B col keep K contiguous: rows are M (N); A col / B row keep M (N) contiguous.
  bool kContiguous = isA ? layout == Layout::Row : layout == Layout::Col;
  return kContiguous ? SmallVector<int64_t>{mn, k} : SmallVector<int64_t>{k, mn};
}

static void expand(GemmOp op, const GemmPlan &p) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  std::string text;
  llvm::raw_string_ostream os(text);
  // Printed from a copy in a module of its own: printing the op in place makes the printer
  // verify and number the whole enclosing module for each op, quadratic in the number of ops.
  {
    OwningOpRef<ModuleOp> alone = ModuleOp::create(op.getLoc());
    alone->getBody()->push_back(op->clone());
    alone->getBody()->front().print(os, OpPrintingFlags().assumeVerified());
  }

  int64_t ctaGroup = op.getCtaGroup();
  SmallVector<int64_t> block{p.threads, 1, 1};
  auto pipeline = PipelineOp::create(b, loc, op.getSymName(), p.target.name(),
                                     b.getDenseI64ArrayAttr(block), op.getClusterAttr(),
                                     p.smem.total, text);
  Block *body = new Block();
  pipeline.getBody().push_back(body);
  b.setInsertionPointToStart(body);

  bool mbarrierRing = p.family != MmaFamily::MmaSync;
  SmemSwizzle swizzle = p.family == MmaFamily::MmaSync ? SmemSwizzle::Xor16x8
                        : p.swizzleBytes == 128        ? SmemSwizzle::B128
                        : p.swizzleBytes == 64         ? SmemSwizzle::B64
                                                       : SmemSwizzle::B32;
  RingOp::create(b, loc, p.stages, p.tileK, op.getAType(), op.getALayout(),
                 sliceShape(op.getALayout(), true, p.tileM / ctaGroup, p.tileK),
                 op.getBType(), op.getBLayout(),
                 sliceShape(op.getBLayout(), false, p.tileN / ctaGroup, p.tileK),
                 p.smem.ringOffset, p.smem.slotBytes, p.smem.slotBytes - p.smem.bSliceBytes,
                 mbarrierRing ? RingSync::MbarrierFullEmpty : RingSync::CpAsyncGroups,
                 p.smem.barrierOffset, swizzle);
  // Per CTA, like the ring's slices: a CTA pair (cta_group = 2) splits the tile's M, each CTA
  // holding its rows of the accumulator in its own TMEM.
  AccumulatorsOp::create(b, loc, p.accumulators, ArrayRef<int64_t>{p.tileM / ctaGroup, p.tileN},
                         op.getAccType(),
                         p.family == MmaFamily::Tcgen05 ? Storage::Tmem : Storage::Registers);

  int64_t warps = p.threads / 32;
  // The MMA role's instruction: the table row at the shape it is issued (tcgen05 with
  // cta_group::2: the pair's M, half of it in each CTA's TMEM), with the scales it applies.
  auto instr = MmaInstrAttr::get(b.getContext(), p.family, p.mmaM, p.mmaN, p.mmaK,
                                 op.getAType(), op.getBType(), op.getAccType(), ctaGroup,
                                 op.getScaleAAttr(), op.getScaleBAttr(), p.accumulation,
                                 p.promotion);
  auto role = [&](RoleKind kind, int64_t first, int64_t count, ArrayRef<int64_t> layout,
                  int64_t regs) {
    RoleOp::create(b, loc, kind, b.getDenseI64ArrayAttr({first, count}),
                   kind == RoleKind::Mma ? instr : MmaInstrAttr(),
                   b.getDenseI64ArrayAttr(layout), regs);
  };
  switch (p.family) {
  case MmaFamily::MmaSync:
    // Every warp copies, multiplies and stores: the ring is software-pipelined.
    role(RoleKind::Producer, 0, warps, {}, 0);
    role(RoleKind::Mma, 0, warps, {p.warpsM, p.warpsN}, 0);
    role(RoleKind::Epilogue, 0, warps, {p.warpsM, p.warpsN}, 0);
    break;
  case MmaFamily::Wgmma:
    role(RoleKind::Producer, 0, 4, {}, 40);
    role(RoleKind::Mma, 4, warps - 4, {p.warpsM, p.warpsN}, 232);
    role(RoleKind::Epilogue, 4, warps - 4, {p.warpsM, 1}, 232);
    break;
  case MmaFamily::Tcgen05:
    role(RoleKind::Producer, 0, 1, {}, 0);
    role(RoleKind::Mma, 1, 1, {1, 1}, 0);
    role(RoleKind::Epilogue, 2, 4, {1, 1}, 0);
    break;
  }
  ScheduleOp::create(b, loc, b.getDenseI64ArrayAttr({p.tileM, p.tileN}), p.tileK, op.getGrid(),
                     op.getRaster(), op.getSwizzle());
  EpilogueOp::create(b, loc, op.getAlphaAttr().getValue(), op.getBetaAttr().getValue(),
                     op.getCType(), op.getCLayout(),
                     p.family == MmaFamily::MmaSync ? EpiloguePath::Direct : EpiloguePath::SmemTma,
                     p.smem.epilogueOffset, p.smem.epilogueBytes);
  op.erase();
}

namespace {
struct TileExpandPipelinePass : tile::impl::TileExpandPipelineBase<TileExpandPipelinePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<GemmOp> gemms(getOperation().getOps<GemmOp>());
    for (GemmOp op : gemms) {
      FailureOr<NVTarget> target = targetFor(op, this->target);
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
