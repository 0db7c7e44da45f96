//===- SM100.cpp - the tcgen05 lowering (sm_100a family) ------------------===//
//
// Single-thread tcgen05.mma into Tensor Memory (issue 5). Until that lowering lands the
// pipeline is rejected with a clear diagnostic rather than lowered to wrong code.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace mlir;
using namespace tilegen;
using namespace tilegen::lowering;

LogicalResult lowering::lowerTcgen05(PipelineView &view, ModuleOp module) {
  return view.op.emitOpError()
         << "not supported yet: the tcgen05 lowering for target " << view.target.name()
         << "; use schedule = multistage for the mma.sync lowering on this target";
}
