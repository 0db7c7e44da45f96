//===- Passes.h - tilegen passes --------------------------------*- C++ -*-===//

#ifndef TILEGEN_DIALECT_TILE_PASSES_H
#define TILEGEN_DIALECT_TILE_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilegen {
namespace tile {

#define GEN_PASS_DECL
#include "tilegen/Dialect/Tile/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilegen/Dialect/Tile/Passes.h.inc"

} // namespace tile
} // namespace tilegen

#endif // TILEGEN_DIALECT_TILE_PASSES_H
