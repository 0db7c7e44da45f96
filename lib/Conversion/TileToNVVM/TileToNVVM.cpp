//===- TileToNVVM.cpp - tile-lower-to-nvvm --------------------------------===//
//
// The one place that dispatches on the target: each tile.pipeline goes to the lowering of its
// MMA family and is replaced by an llvm.func kernel.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "tilegen/Dialect/Tile/Passes.h"
#include "tilegen/Pipeline/GemmPlan.h"

#define DEBUG_TYPE "tile-lower-to-nvvm"

namespace tilegen::tile {
#define GEN_PASS_DEF_TILELOWERTONVVM
#include "tilegen/Dialect/Tile/Passes.h.inc"
} // namespace tilegen::tile

using namespace mlir;
using namespace tilegen;
using namespace tilegen::lowering;

namespace {
struct TileLowerToNVVMPass : tile::impl::TileLowerToNVVMBase<TileLowerToNVVMPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<tile::PipelineOp> pipelines(module.getOps<tile::PipelineOp>());
    for (tile::PipelineOp op : pipelines) {
      if (failed(checkPlanIsBuilt(op)))
        return signalPassFailure();
      FailureOr<PipelineView> view = PipelineView::get(op);
      if (failed(view))
        return signalPassFailure();
      LogicalResult result = failure();
      switch (view->instr.getFamily()) {
      case MmaFamily::MmaSync:
        result = lowerMmaSync(*view, module);
        break;
      case MmaFamily::Wgmma:
        result = lowerWgmma(*view, module);
        break;
      case MmaFamily::Tcgen05:
        result = lowerTcgen05(*view, module);
        break;
      }
      if (failed(result))
        return signalPassFailure();
      op.erase();
    }
    module->walk([&](Operation *op) {
      if (isa<tile::GemmOp>(op)) {
        op->emitOpError() << "was not expanded; run tile-expand-pipeline first";
        signalPassFailure();
      }
    });
  }
};
} // namespace
