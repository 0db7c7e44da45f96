//===- TileDialect.h - the tile dialect -------------------------*- C++ -*-===//

#ifndef TILEGEN_DIALECT_TILE_TILEDIALECT_H
#define TILEGEN_DIALECT_TILE_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "tilegen/Dialect/Tile/TileDialect.h.inc"
#include "tilegen/Dialect/Tile/TileEnums.h"

#define GET_ATTRDEF_CLASSES
#include "tilegen/Dialect/Tile/TileAttrs.h.inc"

#define GET_OP_CLASSES
#include "tilegen/Dialect/Tile/TileOps.h.inc"

#endif // TILEGEN_DIALECT_TILE_TILEDIALECT_H
