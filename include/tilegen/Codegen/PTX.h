//===- PTX.h - LLVM dialect -> LLVM IR -> PTX -------------------*- C++ -*-===//

#ifndef TILEGEN_CODEGEN_PTX_H
#define TILEGEN_CODEGEN_PTX_H

#include "tilegen/Target/NVTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tilegen {

/// Translates a module in the LLVM/NVVM dialects to LLVM IR for `target` and runs LLVM's O3
/// pipeline on it.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(mlir::ModuleOp module, const NVTarget &target, llvm::LLVMContext &ctx);

/// Runs the NVPTX backend on `module` and returns the PTX text.
llvm::Expected<std::string> emitPTX(llvm::Module &module, const NVTarget &target);

} // namespace tilegen

#endif // TILEGEN_CODEGEN_PTX_H
