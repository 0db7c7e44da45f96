//===- Manifest.h - the JSON manifest beside a cubin ------------*- C++ -*-===//
//
// Format: docs/manifest.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_CODEGEN_MANIFEST_H
#define TILEGEN_CODEGEN_MANIFEST_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/Error.h"

namespace tilegen {

/// The kernels of a lowered module (llvm.func ops carrying `tilegen.params`).
llvm::SmallVector<mlir::LLVM::LLVMFuncOp> findKernels(mlir::ModuleOp module);

/// The manifest of `kernel` as JSON text; `cubinName` is the cubin's file name.
std::string manifestJSON(mlir::LLVM::LLVMFuncOp kernel, llvm::StringRef cubinName);

} // namespace tilegen

#endif // TILEGEN_CODEGEN_MANIFEST_H
