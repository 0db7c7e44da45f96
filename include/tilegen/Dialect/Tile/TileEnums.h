//===- TileEnums.h - enums of the tile dialect ------------------*- C++ -*-===//
//
// The generated enums (dialects/Tile/TileAttrs.td) on their own, for code that names a family
// or a layout without the rest of the dialect (the target and instruction tables).
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_DIALECT_TILE_TILEENUMS_H
#define TILEGEN_DIALECT_TILE_TILEENUMS_H

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

#include "tilegen/Dialect/Tile/TileEnums.h.inc"

#endif // TILEGEN_DIALECT_TILE_TILEENUMS_H
