//===- SM90.cpp - the wgmma lowering (sm_90a) -----------------------------===//
//
// TMA ring with full/empty mbarriers, a producer warpgroup, consumer warpgroups issuing
// wgmma.mma_async from shared-memory descriptors (issue 4). Until that lowering lands the
// pipeline is rejected with a clear diagnostic rather than lowered to wrong code.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace mlir;
using namespace tilegen;
using namespace tilegen::lowering;

LogicalResult lowering::lowerWgmma(PipelineView &view, ModuleOp module) {
  return view.op.emitOpError()
         << "not supported yet: the wgmma (warp-specialised) lowering for target "
         << view.target.name()
         << "; use schedule = multistage for the mma.sync lowering on this target";
}
