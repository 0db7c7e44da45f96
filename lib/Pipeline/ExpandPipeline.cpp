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
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
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

PipelineOp tilegen::buildPlan(OpBuilder &builder, GemmOp op, const GemmPlan &p) {
  OpBuilder::InsertionGuard guard(builder);
  OpBuilder &b = builder;
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

  bool mbarrierRing = p.tmaRing();
  SmemSwizzle swizzle = !mbarrierRing                 ? SmemSwizzle::Xor16x8
                        : p.swizzleBytes == 128        ? SmemSwizzle::B128
                        : p.swizzleBytes == 64         ? SmemSwizzle::B64
                                                       : SmemSwizzle::B32;
  // The converter role's ring of bf16 slices (not with the conversion in registers).
  bool convertRing = p.upcastB && !p.upcastRegisters;
  RingOp::create(b, loc, p.stages, p.tileK, op.getAType(), op.getALayout(),
                 sliceShape(op.getALayout(), true, p.tileM / ctaGroup, p.tileK),
                 op.getBType(), op.getBLayout(),
                 sliceShape(op.getBLayout(), false, p.tileN / ctaGroup, p.tileK),
                 p.smem.ringOffset, p.smem.slotBytes, p.smem.bOffset,
                 mbarrierRing ? RingSync::MbarrierFullEmpty : RingSync::CpAsyncGroups,
                 p.smem.barrierOffset, swizzle,
                 p.narrowAlignment ? b.getDenseI64ArrayAttr({p.alignA, p.alignB})
                                   : DenseI64ArrayAttr(),
                 p.upcastB ? op.getScaleBAttr() : ScaleAttr(),
                 convertRing ? b.getI64IntegerAttr(p.smem.convertOffset) : IntegerAttr(),
                 convertRing ? b.getI64IntegerAttr(p.smem.convertSlots) : IntegerAttr(),
                 p.upcastA ? op.getScaleAAttr() : ScaleAttr(), op.getCacheAAttr(),
                 op.getCacheBAttr());
  // Per CTA, like the ring's slices: a CTA pair (cta_group = 2) splits the tile's M, each CTA
  // holding its rows of the accumulator in its own TMEM.
  AccumulatorsOp::create(b, loc, p.accumulators, ArrayRef<int64_t>{p.tileM / ctaGroup, p.tileN},
                         op.getAccType(),
                         p.family == MmaFamily::Tcgen05 ? Storage::Tmem : Storage::Registers);

  int64_t warps = p.threads / 32;
  // The MMA role's instruction: the table row at the shape it is issued (tcgen05 with
  // cta_group::2: the pair's M, half of it in each CTA's TMEM), with the scales it applies.
  // The upcast issues bf16 x bf16; the block scales are applied by the conversion (the
  // ring's).
  auto instr = MmaInstrAttr::get(b.getContext(), p.family, p.mmaM, p.mmaN, p.mmaK,
                                 p.upcastA ? b.getBF16Type() : op.getAType(),
                                 p.upcastB ? b.getBF16Type() : op.getBType(),
                                 op.getAccType(), ctaGroup,
                                 p.upcastB ? ScaleAttr() : op.getScaleAAttr(),
                                 p.upcastB ? ScaleAttr() : op.getScaleBAttr(), p.accumulation,
                                 p.promotion);
  auto role = [&](RoleKind kind, int64_t first, int64_t count, ArrayRef<int64_t> layout,
                  int64_t regs) {
    RoleOp::create(b, loc, kind, b.getDenseI64ArrayAttr({first, count}),
                   kind == RoleKind::Mma ? instr : MmaInstrAttr(),
                   b.getDenseI64ArrayAttr(layout), regs);
  };
  switch (p.family) {
  case MmaFamily::MmaSync:
    if (p.schedule == Schedule::WarpSpecialized) {
      // Consumer warps first (one group, or two taking alternate tiles with accumulators = 2),
      // each multiplying and storing its warp tile; the last warp is the TMA producer.
      role(RoleKind::Producer, warps - 1, 1, {}, 0);
      role(RoleKind::Mma, 0, warps - 1, {p.warpsM, p.warpsN}, 0);
      role(RoleKind::Epilogue, 0, warps - 1, {p.warpsM, p.warpsN}, 0);
      break;
    }
    // Every warp copies, multiplies and stores: the ring is software-pipelined.
    role(RoleKind::Producer, 0, warps, {}, 0);
    role(RoleKind::Mma, 0, warps, {p.warpsM, p.warpsN}, 0);
    role(RoleKind::Epilogue, 0, warps, {p.warpsM, p.warpsN}, 0);
    break;
  case MmaFamily::Wgmma: {
    // setmaxnreg shares the 168 x 384 registers of the launch: 40 x 128 + 232 x 256. The
    // upcast's converter (warps 1 to 3 of the producer warpgroup) needs more than 40: 56 for
    // the producer warpgroup leaves 224 for the consumers (56 x 128 + 224 x 256, the same
    // total). The MXFP8 converter (both operands, twice the scale codes in flight) spills in
    // 56: 72 and 216 (72 x 128 + 216 x 256).
    // The upcast in registers has no converter: the bf16 kernel's split.
    int64_t producerRegs = p.upcastA ? 72 : p.upcastB && !p.upcastRegisters ? 56 : 40;
    int64_t consumerRegs = p.upcastA ? 216 : p.upcastB && !p.upcastRegisters ? 224 : 232;
    role(RoleKind::Producer, 0, 4, {}, producerRegs);
    role(RoleKind::Mma, 4, warps - 4, {p.warpsM, p.warpsN}, consumerRegs);
    role(RoleKind::Epilogue, 4, warps - 4, {p.warpsM, 1}, consumerRegs);
    break;
  }
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
                     p.tmaRing() ? EpiloguePath::SmemTma : EpiloguePath::Direct,
                     p.smem.epilogueOffset, p.smem.epilogueBytes);
  return pipeline;
}

/// The description a plan implements: every choice the plan records, written back as the
/// description's fields (with the choices the resolver would derive given explicitly).
static GemmOp descriptionOf(OpBuilder &b, PipelineOp plan) {
  Block &body = plan.getBody().front();
  RingOp ring = *body.getOps<RingOp>().begin();
  AccumulatorsOp accs = *body.getOps<AccumulatorsOp>().begin();
  ScheduleOp schedule = *body.getOps<ScheduleOp>().begin();
  EpilogueOp epilogue = *body.getOps<EpilogueOp>().begin();
  RoleOp mmaRole;
  for (RoleOp role : body.getOps<RoleOp>())
    if (role.getKind() == RoleKind::Mma)
      mmaRole = role;
  MmaInstrAttr mma = mmaRole.getInstrAttr();
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> cluster = plan.getCluster();
  bool clusters = cluster[0] * cluster[1] * cluster[2] != 1;
  bool fp8 = elemInfo(*elemOf(mma.getAType())).fp8;

  OperationState state(plan.getLoc(), GemmOp::getOperationName());
  auto &props = state.getOrAddProperties<GemmOp::Properties>();
  props.sym_name = b.getStringAttr(plan.getSymName());
  props.a_type = TypeAttr::get(ring.getAType());
  props.a_layout = LayoutAttr::get(ctx, ring.getALayout());
  props.b_type = TypeAttr::get(ring.getBType());
  props.b_layout = LayoutAttr::get(ctx, ring.getBLayout());
  props.c_type = TypeAttr::get(epilogue.getOutType());
  props.c_layout = LayoutAttr::get(ctx, epilogue.getOutLayout());
  props.acc_type = TypeAttr::get(accs.getType());
  props.scale_a = mma.getScaleA();
  props.scale_b = mma.getScaleB();
  // The upcast: the ring carries B's scales and the MMA's (bf16) type is the upcast target.
  if (ScaleAttr up = ring.getUpcastScaleBAttr()) {
    props.scale_b = up;
    props.upcast = TypeAttr::get(mma.getBType());
  }
  if (ScaleAttr up = ring.getUpcastScaleAAttr())
    props.scale_a = up;
  // Block-scaled MMAs (E8M0 / E4M3 scales) accumulate in f32: no accumulation field.
  bool micro = mma.getScaleA() && mma.getScaleA().isMicroScaled();
  if (fp8 && !micro)
    props.accumulation = AccumulationAttr::get(ctx, mma.getAccumulation());
  if (mma.getPromotion() != 0)
    props.promotion = b.getI64IntegerAttr(mma.getPromotion());
  if (ring.getAlign())
    props.alignment = ring.getAlignAttr();
  props.tile = b.getDenseI64ArrayAttr(
      {schedule.getTile()[0], schedule.getTile()[1], static_cast<int64_t>(ring.getSliceK())});
  props.stages = b.getI64IntegerAttr(ring.getSlots());
  props.accumulators = b.getI64IntegerAttr(accs.getCount());
  bool mmaSync = mma.getFamily() == MmaFamily::MmaSync;
  bool cpAsyncRing = ring.getSync() == RingSync::CpAsyncGroups;
  props.schedule = ScheduleAttr::get(
      ctx, mmaSync && cpAsyncRing ? Schedule::Multistage : Schedule::WarpSpecialized);
  props.copy = CopyAttr::get(ctx, ring.getSync() == RingSync::CpAsyncGroups ? Copy::CpAsync
                                                                            : Copy::Tma);
  props.warps = b.getDenseI64ArrayAttr(mmaRole.getLayout());
  props.mma = b.getDenseI64ArrayAttr({mma.getM(), mma.getN(), mma.getK()});
  props.cluster = b.getDenseI64ArrayAttr(cluster);
  // The wgmma lowering's clusters multicast B along M and A along N; tcgen05 pairs share B
  // through cta_group = 2.
  props.multicast = MulticastAttr::get(
      ctx, clusters && mma.getFamily() == MmaFamily::Wgmma ? wgmmaClusterMulticast(cluster)
                                                          : Multicast::None);
  props.cache_a = ring.getCacheAAttr();
  props.cache_b = ring.getCacheBAttr();
  props.cta_group = b.getI64IntegerAttr(mma.getCtaGroup());
  props.grid = GridAttr::get(ctx, schedule.getGrid());
  props.raster = RasterAttr::get(ctx, schedule.getRaster());
  props.swizzle = b.getI64IntegerAttr(schedule.getSwizzle());
  props.alpha = epilogue.getAlphaAttr();
  props.beta = epilogue.getBetaAttr();
  props.target = plan.getTargetAttr();
  return cast<GemmOp>(b.create(state));
}

/// The op's properties, without the pipeline's description text (free-form).
static DictionaryAttr propertiesOf(Operation *op) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute());
  if (!dict)
    return DictionaryAttr::get(op->getContext());
  NamedAttrList list(dict);
  list.erase("description");
  return list.getDictionary(op->getContext());
}

LogicalResult tilegen::checkPlanIsBuilt(PipelineOp plan) {
  // Built aside, in a module of its own.
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(plan.getLoc());
  OpBuilder b = OpBuilder::atBlockEnd(scratch->getBody());
  GemmOp desc = descriptionOf(b, plan);
  auto explain = [&](InFlightDiagnostic &&d) {
    std::string text;
    llvm::raw_string_ostream os(text);
    desc->print(os, OpPrintingFlags().assumeVerified());
    d.attachNote() << "the plan's choices, as a description: " << text;
    return failure();
  };
  if (failed(mlir::verify(desc)))
    return explain(plan.emitOpError()
                   << "is not a plan tilegen builds: its description breaks a rule above");
  std::optional<NVTarget> target = NVTarget::parse(plan.getTarget());
  FailureOr<GemmPlan> resolved = failure();
  if (target)
    resolved = resolveGemm(desc, *target);
  if (failed(resolved))
    return explain(plan.emitOpError() << "is not a plan tilegen builds for target "
                                      << plan.getTarget()
                                      << ": its description breaks a rule above");
  PipelineOp built = buildPlan(b, desc, *resolved);
  // Op by op, every field but the description text.
  auto given = plan.getBody().front().begin(), givenEnd = plan.getBody().front().end();
  auto want = built.getBody().front().begin(), wantEnd = built.getBody().front().end();
  auto printed = [](Operation &op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op.print(os, OpPrintingFlags().assumeVerified().useLocalScope());
    return text;
  };
  for (; given != givenEnd && want != wantEnd; ++given, ++want)
    if (given->getName() != want->getName() ||
        propertiesOf(&*given) != propertiesOf(&*want))
      return given->emitOpError() << "differs from the plan tilegen builds for the same choices "
                                     "on target "
                                  << plan.getTarget() << ", which is: " << printed(*want);
  if (given != givenEnd || want != wantEnd)
    return plan.emitOpError() << "has " << plan.getBody().front().getOperations().size()
                              << " ops; the plan tilegen builds has "
                              << built.getBody().front().getOperations().size();
  if (propertiesOf(plan) != propertiesOf(built))
    return plan.emitOpError() << "differs from the plan tilegen builds for the same choices: block "
                              << "[" << built.getBlock()[0] << ", 1, 1], smem "
                              << built.getSmemBytes() << " bytes";
  return success();
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
      OpBuilder b(op);
      buildPlan(b, op, *plan);
      op.erase();
    }
  }
};
} // namespace
