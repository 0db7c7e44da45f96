//===- Input.h - reading what tilegen compiles ------------------*- C++ -*-===//
//
// The driver, `tilegen explain` and the fuzzer read their input through one function, so that
// every way in applies the same rules: a bound on bracket nesting (MLIR's parser recurses once
// per level), then the parser and the verifiers, then the rule that tilegen compiles
// descriptions (`tile.gemm`) and plans (`tile.pipeline`) only.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_CODEGEN_INPUT_H
#define TILEGEN_CODEGEN_INPUT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace tilegen {

/// The deepest bracket nesting accepted: descriptions and plans nest four levels deep; the
/// bound keeps the parser's recursion far from the stack's end.
inline constexpr unsigned kMaxInputNesting = 64;

/// The offset of the first bracket ((, [, {, <) of `text` that opens a level deeper than
/// `limit`, outside strings and comments; npos if there is none. MLIR's parser recurses per
/// level: a guard against input that would overflow its stack.
size_t findTooDeepNesting(llvm::StringRef text, unsigned limit);

/// Parses the main buffer of `sourceMgr` (diagnostics go to the context's handler, located in
/// the buffer). Fails on nesting deeper than kMaxInputNesting, on a parse or verifier error,
/// and on any top-level op other than tile.gemm and tile.pipeline.
mlir::OwningOpRef<mlir::ModuleOp> parseInput(llvm::SourceMgr &sourceMgr,
                                             mlir::MLIRContext *context);

} // namespace tilegen

#endif // TILEGEN_CODEGEN_INPUT_H
