//===- TileAttrs.td - tile dialect enums and attributes ----*- tablegen -*-===//
//
// Every enum-like field of the description and of the plan is one of these enums; the MMA role
// names its instruction with `#tile.mma`, a row of the MMA instruction table
// (include/tilegen/Target/MmaTable.h) plus the shape and scales the plan chose.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_DIALECT_TILE_TILEATTRS_TD
#define TILEGEN_DIALECT_TILE_TILEATTRS_TD

include "TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Tile_Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::tilegen::tile";
  let genSpecializedAttr = 0;
}

class Tile_EnumAttr<EnumAttrInfo enumInfo, string mnemonic>
    : EnumAttr<Tile_Dialect, enumInfo, mnemonic>;

def Tile_Layout : Tile_Enum<"Layout", "layout of a matrix in memory", [
  I32EnumAttrCase<"Row", 0, "row">,   // the second index is contiguous
  I32EnumAttrCase<"Col", 1, "col">    // the first index is contiguous
]>;
def Tile_LayoutAttr : Tile_EnumAttr<Tile_Layout, "layout">;

def Tile_Schedule : Tile_Enum<"Schedule", "warp roles of the kernel", [
  I32EnumAttrCase<"Auto", 0, "auto">,
  I32EnumAttrCase<"Multistage", 1, "multistage">,
  I32EnumAttrCase<"WarpSpecialized", 2, "warp_specialized">
]>;
def Tile_ScheduleAttr : Tile_EnumAttr<Tile_Schedule, "schedule">;

def Tile_Copy : Tile_Enum<"Copy", "global-to-shared copy engine", [
  I32EnumAttrCase<"Auto", 0, "auto">,
  I32EnumAttrCase<"CpAsync", 1, "cp_async">,
  I32EnumAttrCase<"Tma", 2, "tma">
]>;
def Tile_CopyAttr : Tile_EnumAttr<Tile_Copy, "copy">;

def Tile_Multicast : Tile_Enum<"Multicast", "operands multicast across a cluster", [
  I32EnumAttrCase<"None", 0, "none">,
  I32EnumAttrCase<"A", 1, "a">,
  I32EnumAttrCase<"B", 2, "b">,
  I32EnumAttrCase<"AB", 3, "ab">
]>;
def Tile_MulticastAttr : Tile_EnumAttr<Tile_Multicast, "multicast">;

def Tile_CacheHint : Tile_Enum<"CacheHint", "L2 eviction priority of an operand's loads", [
  I32EnumAttrCase<"Normal", 0, "normal">,          // no hint: the L2's default policy
  I32EnumAttrCase<"EvictFirst", 1, "evict_first">, // evicted before other lines
  I32EnumAttrCase<"EvictLast", 2, "evict_last">    // evicted after other lines
]>;
def Tile_CacheHintAttr : Tile_EnumAttr<Tile_CacheHint, "cache_hint">;

def Tile_Grid : Tile_Enum<"Grid", "how CTAs map to output tiles", [
  I32EnumAttrCase<"Tiles", 0, "tiles">,
  I32EnumAttrCase<"Persistent", 1, "persistent">,
  I32EnumAttrCase<"StreamK", 2, "stream_k">
]>;
def Tile_GridAttr : Tile_EnumAttr<Tile_Grid, "grid">;

def Tile_Raster : Tile_Enum<"Raster", "order of output tiles", [
  I32EnumAttrCase<"Row", 0, "row">,
  I32EnumAttrCase<"Col", 1, "col">
]>;
def Tile_RasterAttr : Tile_EnumAttr<Tile_Raster, "raster">;

def Tile_MmaFamily : Tile_Enum<"MmaFamily", "tensor-core instruction family", [
  I32EnumAttrCase<"MmaSync", 0, "mma_sync">,  // mma.sync + ldmatrix, issued by a warp
  I32EnumAttrCase<"Wgmma", 1, "wgmma">,       // wgmma.mma_async, issued by a warpgroup
  I32EnumAttrCase<"Tcgen05", 2, "tcgen05">    // tcgen05.mma, issued by one thread
]>;
def Tile_MmaFamilyAttr : Tile_EnumAttr<Tile_MmaFamily, "family">;

def Tile_RoleKind : Tile_Enum<"RoleKind", "what a warp role does", [
  I32EnumAttrCase<"Producer", 0, "producer">,  // fills ring slots
  I32EnumAttrCase<"Mma", 1, "mma">,            // multiplies full slots, releases them
  I32EnumAttrCase<"Epilogue", 2, "epilogue">   // drains accumulators into D
]>;
def Tile_RoleKindAttr : Tile_EnumAttr<Tile_RoleKind, "role">;

def Tile_RingSync : Tile_Enum<"RingSync", "how ring slots are handed over", [
  I32EnumAttrCase<"CpAsyncGroups", 0, "cp_async_groups">,     // commit groups + CTA barrier
  I32EnumAttrCase<"MbarrierFullEmpty", 1, "mbarrier_full_empty"> // full/empty mbarrier pair
]>;
def Tile_RingSyncAttr : Tile_EnumAttr<Tile_RingSync, "sync">;

def Tile_SmemSwizzle : Tile_Enum<"SmemSwizzle", "shared-memory swizzle of the ring", [
  I32EnumAttrCase<"Xor16x8", 0, "xor16x8">,  // 16-byte chunk c of row r at c ^ (r % 8)
  I32EnumAttrCase<"B32", 1, "b32">,          // TMA 32-byte swizzle
  I32EnumAttrCase<"B64", 2, "b64">,          // TMA 64-byte swizzle
  I32EnumAttrCase<"B128", 3, "b128">         // TMA 128-byte swizzle
]>;
def Tile_SmemSwizzleAttr : Tile_EnumAttr<Tile_SmemSwizzle, "swizzle">;

def Tile_Storage : Tile_Enum<"Storage", "where accumulators live", [
  I32EnumAttrCase<"Registers", 0, "registers">,
  I32EnumAttrCase<"Tmem", 1, "tmem">
]>;
def Tile_StorageAttr : Tile_EnumAttr<Tile_Storage, "storage">;

def Tile_EpiloguePath : Tile_Enum<"EpiloguePath", "how D leaves the CTA", [
  I32EnumAttrCase<"Direct", 0, "direct">,      // predicated stores from registers
  I32EnumAttrCase<"SmemTma", 1, "smem_tma">    // staged in shared memory, TMA store
]>;
def Tile_EpiloguePathAttr : Tile_EnumAttr<Tile_EpiloguePath, "path">;

def Tile_ScaleGranularity : Tile_Enum<"ScaleGranularity", "what one scale covers", [
  I32EnumAttrCase<"Tensor", 0, "tensor">,  // one scale for the whole operand
  I32EnumAttrCase<"Block", 1, "block">     // one scale per [outer, k] block
]>;

def Tile_Accumulation : Tile_Enum<"Accumulation", "how FP8 products reach the f32 accumulators", [
  // each K block is accumulated by the tensor core, then added to f32 accumulators in registers
  I32EnumAttrCase<"Promoted", 0, "promoted">,
  // the tensor core accumulates all of K (Hopper's FP8 wgmma: with reduced precision)
  I32EnumAttrCase<"Fast", 1, "fast">
]>;
def Tile_AccumulationAttr : Tile_EnumAttr<Tile_Accumulation, "accumulation">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_ScaleAttr : Tile_Attr<"Scale", "scale"> {
  let summary = "the scale of an operand: one value per tensor or per block";
  let description = [{
    `#tile.scale<f32 tensor>`: one f32 multiplies the whole operand.
    `#tile.scale<f32 [outer, k]>`: one f32 per block of `outer` rows (M for A, N for B) by
    `k` elements of K, given in the operand's own (M or N, K) coordinates. The scales are a
    kernel parameter (a device pointer); docs/manifest.md gives their layout in memory.

    Block-scaled formats (docs/types.md): `#tile.scale<f8E8M0FNU [1, 32]>`, one E8M0 (power
    of two) per 32 elements of K of each row (OCP MX: MXFP8, MXFP6, MXFP4);
    `#tile.scale<f8E4M3FN [1, 16] * f32 tensor>`, one E4M3 per 16 elements of K of each row
    times one f32 for the whole operand (NVFP4; the `* f32 tensor` factor may be left out,
    then it is 1).
  }];
  let parameters = (ins "::mlir::Type":$type,
                        EnumParameter<Tile_ScaleGranularity>:$granularity,
                        OptionalArrayRefParameter<"int64_t">:$block,
                        OptionalParameter<"::mlir::Type">:$tensor_type);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isTensor() const { return getGranularity() == ScaleGranularity::Tensor; }
    int64_t blockOuter() const { return getBlock().empty() ? 0 : getBlock()[0]; }
    int64_t blockK() const { return getBlock().empty() ? 0 : getBlock()[1]; }
    /// A block scale of a block-scaled format (E8M0 or E4M3 scales), applied by a
    /// block-scaled MMA or by the upcast path, not by the FP8 promotion of f32 scales.
    bool isMicroScaled() const { return !isTensor() && !getType().isF32(); }
  }];
}

def Tile_MmaInstrAttr : Tile_Attr<"MmaInstr", "mma"> {
  let summary = "the MMA instruction a role issues: a row of the instruction table";
  let description = [{
    Names one row of the MMA instruction table (family, A and B element types, accumulator
    type) with the shape the plan issues it at, the CTA group (tcgen05) and the operand scales
    the kernel applies, and for FP8 `accumulation = fast` (printed only then; the default is
    `promoted`): fast, wgmma accumulates all of K in the tensor core; promoted, the wgmma
    lowering adds each K block into f32 accumulators in registers. The `tile.pipeline` verifier checks it against the table and the
    pipeline's target.

    ```mlir
    #tile.mma<wgmma [64, 256, 32] f8E4M3FN x f8E4M3FN -> f32>
    #tile.mma<tcgen05 [256, 256, 16] bf16 x bf16 -> f32, cta_group = 2>
    #tile.mma<wgmma [64, 128, 32] f8E4M3FN x f8E4M3FN -> f32,
              scale_a = #tile.scale<f32 [1, 128]>,
              scale_b = #tile.scale<f32 [128, 128]>>
    ```
  }];
  let parameters = (ins EnumParameter<Tile_MmaFamily>:$family,
                        "int64_t":$m, "int64_t":$n, "int64_t":$k,
                        "::mlir::Type":$a_type, "::mlir::Type":$b_type,
                        "::mlir::Type":$acc_type,
                        DefaultValuedParameter<"int64_t", "1">:$cta_group,
                        OptionalParameter<"ScaleAttr">:$scale_a,
                        OptionalParameter<"ScaleAttr">:$scale_b,
                        DefaultValuedParameter<"Accumulation", "Accumulation::Promoted">:
                            $accumulation,
                        DefaultValuedParameter<"int64_t", "0">:$promotion);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TILEGEN_DIALECT_TILE_TILEATTRS_TD
