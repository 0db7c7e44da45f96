//===- TileDialect.td - the tile dialect -------------------*- tablegen -*-===//
//
// The tile dialect describes a GEMM pipeline for NVIDIA tensor cores at two levels: the
// description a user writes (`tile.gemm`) and the target-independent pipeline plan it expands to
// (`tile.pipeline` and the ops inside it).
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_DIALECT_TILE_TILEDIALECT_TD
#define TILEGEN_DIALECT_TILE_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilegen::tile";
  let useDefaultAttributePrinterParser = 1;
  let summary = "GEMM pipeline descriptions for NVIDIA tensor cores";
  let description = [{
    `tile.gemm` is what a user writes: operand types and layouts, the CTA tile, the depth of the
    shared-memory ring, accumulator buffers, warp roles, cluster shape, `cta_group`, tile
    rasterisation and the epilogue. `tile-expand-pipeline` turns it into a `tile.pipeline`, the
    target-independent plan (roles, ring, accumulators, loops over tiles and K-slices) that the
    target lowerings (`tile-lower-to-nvvm`) consume.
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILEGEN_DIALECT_TILE_TILEDIALECT_TD
