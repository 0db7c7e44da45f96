//===- CheckTarget.cpp - tile-check-target --------------------------------===//
//
// Rejects, before any code generation, what the chosen target cannot do, and records the
// choices that `auto` fields resolve to.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Dialect/Tile/Passes.h"
#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/Pipeline/GemmPlan.h"

#define DEBUG_TYPE "tile-check-target"

namespace tilegen::tile {
#define GEN_PASS_DEF_TILECHECKTARGET
#include "tilegen/Dialect/Tile/Passes.h.inc"
} // namespace tilegen::tile

using namespace mlir;
using namespace tilegen;
using namespace tilegen::tile;

namespace {
struct TileCheckTargetPass : tile::impl::TileCheckTargetBase<TileCheckTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](GemmOp op) {
      FailureOr<NVTarget> target = targetFor(op, this->target);
      if (::mlir::failed(target)) {
        failed = true;
        return;
      }
      FailureOr<GemmPlan> plan = resolveGemm(op, *target);
      if (::mlir::failed(plan)) {
        failed = true;
        return;
      }
      recordPlan(op, *plan);
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
