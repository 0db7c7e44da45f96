//===- Input.cpp - reading what tilegen compiles --------------------------===//

#include "tilegen/Codegen/Input.h"
#include "tilegen/Dialect/Tile/TileDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace tilegen;

/// Counts (, [, { and <, closed by ), ], } and > (the `>` of `->` closes nothing).
size_t tilegen::findTooDeepNesting(StringRef text, unsigned limit) {
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        return StringRef::npos;
      continue;
    }
    if (c == '"') {
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > limit)
        return i;
    } else if ((c == ')' || c == ']' || c == '}' || (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return StringRef::npos;
}

OwningOpRef<ModuleOp> tilegen::parseInput(llvm::SourceMgr &sourceMgr, MLIRContext *context) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  if (size_t at = findTooDeepNesting(text, kMaxInputNesting); at != StringRef::npos) {
    auto [line, col] = sourceMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(text.data() + at));
    emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(), line, col))
        << "brackets nested more than " << kMaxInputNesting
        << " levels deep; tilegen's input nests a few levels (is this a description?)";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, context);
  if (!module)
    return nullptr;
  for (Operation &op : module->getBody()->getOperations())
    if (!isa<tile::GemmOp, tile::PipelineOp>(op)) {
      op.emitError() << "tilegen compiles tile.gemm descriptions and tile.pipeline plans; '"
                     << op.getName() << "' is not one (lower other IR with tilegen-opt and "
                                        "mlir-translate)";
      return nullptr;
    }
  return module;
}
