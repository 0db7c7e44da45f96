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

#include <cstdint>

namespace tilegen::tile {
/// Bounds on the description's numeric fields (checked by the tile.gemm verifier and listed in
/// its reference). They keep every product the resolver forms of them far from int64 overflow;
/// what a target can really run is narrower and checked per target.
inline constexpr int64_t kMaxTileSize = 4096;      ///< each of tile M, N, K
inline constexpr int64_t kMaxMmaSize = 1024;       ///< each of mma m, n, k
inline constexpr int64_t kMaxWarps = 32;           ///< each of warps WM, WN
inline constexpr int64_t kMaxClusterDim = 16;      ///< each of cluster X, Y, Z
inline constexpr int64_t kMaxStages = 16;          ///< ring depth
inline constexpr int64_t kMaxSwizzle = 65536;      ///< raster group, in tiles
inline constexpr size_t kMaxKernelNameLength = 1024;
} // namespace tilegen::tile

#define GET_ATTRDEF_CLASSES
#include "tilegen/Dialect/Tile/TileAttrs.h.inc"

#define GET_OP_CLASSES
#include "tilegen/Dialect/Tile/TileOps.h.inc"

namespace tilegen::tile {
/// Where field `field` of a description was written (`field = value`), so that a diagnostic
/// about it points at the field's line and column; the op's own location when the field was
/// left out (a default) or the op was built, not parsed. The parser keeps one location per field
/// in the op's location: a fused location whose first part is the op's and whose other parts
/// are named after the fields.
mlir::Location fieldLoc(mlir::Operation *op, llvm::StringRef field);

/// The location of the first of `fields` that was written, else the op's: for a rule between
/// fields, where one of them may have been left out.
mlir::Location fieldLoc(mlir::Operation *op, llvm::ArrayRef<llvm::StringRef> fields);

/// `op->emitOpError()` reported at `fieldLoc(op, field)`.
mlir::InFlightDiagnostic emitFieldError(mlir::Operation *op, llvm::StringRef field);

/// `op->emitOpError()` reported at the first written of `fields` (`fieldLoc`).
mlir::InFlightDiagnostic emitFieldError(mlir::Operation *op,
                                        llvm::ArrayRef<llvm::StringRef> fields);

/// The metadata that marks the parser's fused location of a description's fields.
inline constexpr llvm::StringLiteral kFieldLocsMarker = "tile.fields";
} // namespace tilegen::tile

#endif // TILEGEN_DIALECT_TILE_TILEDIALECT_H
