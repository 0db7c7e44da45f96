//===- InitAll.h - register tilegen's dialects and passes -------*- C++ -*-===//

#ifndef TILEGEN_INITALL_H
#define TILEGEN_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace tilegen {

/// The tile dialect and the upstream dialects the lowerings produce.
void registerAllDialects(mlir::DialectRegistry &registry);
/// tilegen's passes, the upstream passes the pipeline uses, and `tilegen-pipeline`.
void registerAllPasses();
/// LLVM IR translations of the dialects in the pipeline's output.
void registerAllTranslations(mlir::DialectRegistry &registry);

} // namespace tilegen

#endif // TILEGEN_INITALL_H
