//===- MmaTable.h - the tensor-core instruction table -----------*- C++ -*-===//
//
// One row per MMA instruction family x A type x B type x accumulator type: what tilegen can
// emit, with the NVVM enums to emit it by, its shape, its operand widths in bits, which operand
// majors it takes, how scales apply, its name in manifests and its rate relative to BF16. The
// target table (NVTarget.h) lists which rows each target offers; legality, the plan verifier,
// the emitters and the pipeline model all read this table. docs/types.md says how to add a
// type. Sources per row in lib/Target/MmaTable.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_TARGET_MMATABLE_H
#define TILEGEN_TARGET_MMATABLE_H

#include "tilegen/Dialect/Tile/TileEnums.h"
#include "tilegen/Target/Descriptors.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace tilegen {

using tile::MmaFamily;

/// "mma.sync", "wgmma" or "tcgen05", as diagnostics name a family.
llvm::StringRef familyName(MmaFamily family);

/// The element types tilegen knows, as operands, accumulators, outputs or scales: the 16- and
/// 32-bit floats, the OCP 8-bit floats (E4M3 is also NVFP4's block-scale type), the OCP MX 6-
/// and 4-bit floats (operands of the block-scaled kinds) and E8M0, the MX block-scale type
/// (a power of two; never an operand).
enum class Elem : uint8_t { BF16, F16, F32, E4M3, E5M2, E2M3, E3M2, E2M1, E8M0 };

struct ElemInfo {
  Elem elem;
  const char *manifest; ///< name in the manifest ("bf16", "e4m3", "e2m1", "e8m0")
  unsigned bits;        ///< width of one element in bits (4 for E2M1: never use bytes)
  bool fp8;             ///< an 8-bit float operand format (needs scales to be useful)
  bool narrow;          ///< an 8-, 6- or 4-bit float operand format (block scales apply)
  bool scaleOnly;       ///< a scale type only (E8M0): no instruction takes it as an operand
  // How each instruction family spells the type.
  mlir::NVVM::MMATypes mmaSync;
  mlir::NVVM::WGMMATypes wgmma;
  MmaElem tcgen05; ///< instruction-descriptor type field (Descriptors.h)
};

const ElemInfo &elemInfo(Elem e);
/// The element of an MLIR type (f8E4M3FN -> E4M3); std::nullopt for types tilegen has no row
/// for.
std::optional<Elem> elemOf(mlir::Type type);
/// The manifest name of an MLIR type ("bf16", "e4m3"); "" if tilegen has no row for it.
llvm::StringRef manifestName(mlir::Type type);
/// Bits of one element of `type` (for the manifest and size arithmetic; 0 if not a known
/// element).
unsigned elemBits(mlir::Type type);
/// Bytes of `elems` elements of `type`, rounded up to whole bytes (two 4-bit elements per byte;
/// 6-bit elements, as the tensor cores read them from memory, one per byte); std::nullopt on
/// overflow or an unknown type.
std::optional<int64_t> elemBytes(int64_t elems, mlir::Type type);
/// Whether `type` is an operand type of the block-scaled formats (FP8, FP6, FP4).
bool isNarrowFloat(mlir::Type type);
/// Whether `type` is a 6- or 4-bit float (only block-scaled kinds or the upcast path take it).
bool isSubByteFloat(mlir::Type type);

/// Groups of table rows a target offers (a target row's `instructions` is a mask of these).
enum InstrSet : unsigned {
  MmaSyncF16 = 1u << 0,   ///< mma.sync m16n8k16 bf16/f16 (sm_80+)
  MmaSyncF8 = 1u << 1,    ///< mma.sync m16n8k32 e4m3/e5m2 (sm_89+)
  WgmmaF16 = 1u << 2,     ///< wgmma m64nNk16 bf16/f16 (sm_90a)
  WgmmaF8 = 1u << 3,      ///< wgmma m64nNk32 e4m3/e5m2 (sm_90a)
  Tcgen05F16 = 1u << 4,   ///< tcgen05.mma kind::f16 (sm_100a family)
  Tcgen05F8F6F4 = 1u << 5, ///< tcgen05.mma kind::f8f6f4 with e4m3/e5m2 (sm_100a family)
  /// tcgen05.mma .kind::mxf8f6f4.block_scale: E8M0 scales per 32 (sm_100a, sm_103a)
  Tcgen05MxF8F6F4 = 1u << 6,
  /// tcgen05.mma .kind::mxf4.block_scale: E2M1, E8M0 scales per 32 (sm_100a, sm_103a)
  Tcgen05MxF4 = 1u << 7,
  /// tcgen05.mma .kind::mxf4nvf4.block_scale: E2M1, E4M3 scales per 16 (sm_100a, sm_103a)
  Tcgen05MxF4NvF4 = 1u << 8,
  /// mma.sync m16n8k32 kind::mxf8f6f4.block_scale: E8M0 scales per 32 (sm_120a)
  MmaSyncMxF8F6F4 = 1u << 9,
  /// mma.sync m16n8k64 kind::mxf4nvf4.block_scale: E2M1, E8M0 per 32 or E4M3 per 16 (sm_120a)
  MmaSyncMxF4NvF4 = 1u << 10,
  /// mma.sync m16n8k32 kind::f8f6f4 with a 6- or 4-bit operand (e2m3, e3m2, e2m1 beside any
  /// of the five; sm_120a)
  MmaSyncF8F6F4 = 1u << 11
};

/// How the kernel applies operand scales for a row.
struct ScaleSupport {
  bool tensor = false; ///< one f32 per operand, folded into alpha in the epilogue
  bool block = false;  ///< f32 per [outer, k] block, applied in registers per K block
};

struct MmaInstr {
  MmaFamily family;
  InstrSet set;          ///< the group a target must offer
  Elem a, b, acc;
  /// Instruction shape. mma.sync: m16 n8 k; wgmma: m64, N from 8 to 256 in steps of 8;
  /// tcgen05: M and N from the cta_group rules (validShape), `m`/`n` 0 here.
  unsigned m, n, k;
  bool mnMajor;          ///< operands may be MN-major in shared memory (else K-major only)
  mlir::NVVM::MMATypes mmaSyncA, mmaSyncB;      ///< mma.sync multiplicand types
  mlir::NVVM::WGMMATypes wgmmaA, wgmmaB;        ///< wgmma multiplicand types
  mlir::NVVM::Tcgen05MMAKind tcgen05Kind;       ///< tcgen05 kind
  MmaElem tcgen05A, tcgen05B; ///< tcgen05 instruction-descriptor types (Descriptors.h)
  ScaleSupport scales;
  double rate;           ///< dense rate relative to the family's BF16 instruction
  unsigned minPtx;       ///< first PTX ISA version (times 10) with the instruction
  const char *ptx;       ///< the instruction as PTX spells it, for diagnostics and docs
  /// Block-scaled kinds only: the tensor core applies one `scaleElem` scale per `scaleBlock`
  /// elements of K to each row of A and each column of B; one instruction (K = `k`) reads
  /// `scaleVec` = k / scaleBlock scales per row (the ISA's .scale_vec::1X/2X/4X).
  bool blockScaled = false;
  mlir::NVVM::MMABlockScaleKind blockKind = mlir::NVVM::MMABlockScaleKind::MXF8F6F4;
  Elem scaleElem = Elem::E8M0;
  unsigned scaleBlock = 0;
  unsigned scaleVec = 0;
};

/// Bits one element of operand type `e` takes in shared memory and in the registers when
/// `row` reads it: 8 for a 6- or 4-bit operand of .kind::f8f6f4 / .kind::mxf8f6f4 (one element
/// per byte: the padded 16U6_ALIGN16B / 16U4_ALIGN16B form TMA writes, PTX ISA 9.7.16.10.4.4,
/// read by tcgen05 as it is and by ldmatrix's .b8x16 forms, 9.7.14.5.15), else the type's own
/// width (packed FP4 of the FP4 kinds: 4).
unsigned smemElemBits(const MmaInstr &row, Elem e);
/// Whether `row` reads operand type `e` from the padded 8-bit containers (smemElemBits 8 for a
/// 6- or 4-bit type).
bool paddedSubByte(const MmaInstr &row, Elem e);

/// The CUtensorMapDataType a tensor map of operand type `e` uses when `row` reads it (CUDA
/// driver API, cuTensorMapEncodeTiled): UINT8 for the 8-bit types and packed FP4 (moved as
/// bytes), 16U4_ALIGN16B / 16U6_ALIGN16B for the padded 6- and 4-bit form (16 packed elements
/// in global memory, 16 bytes in shared memory, 8 / 4 bytes of them padding); the 16-bit and
/// 32-bit types their own. Values of the driver's enum.
enum class TmaDataType : unsigned {
  Uint8 = 0,
  Float16 = 6,
  Float32 = 7,
  BFloat16 = 9,
  Packed16U4Align8B = 13,
  Padded16U4Align16B = 14,
  Padded16U6Align16B = 15,
};
TmaDataType tmaDataType(const MmaInstr &row, Elem e);
/// The manifest's name of a padded form ("16u4_align16b", "16u6_align16b"), "" for the others.
llvm::StringRef tmaPaddedFormName(TmaDataType t);

/// Every row, in table order.
llvm::ArrayRef<MmaInstr> mmaTable();

/// The row for (family, a, b, acc), whatever the target; nullptr if there is none. Block-scaled
/// rows are not returned (findBlockScaledMma).
const MmaInstr *findMma(MmaFamily family, Elem a, Elem b, Elem acc);
/// The block-scaled row for (family, a, b, acc) with `scale` scales over blocks of
/// `scaleBlock` K elements, whatever the target; nullptr if there is none. For E2M1 x E2M1
/// with E8M0 scales, tcgen05's .kind::mxf4 (packed FP4, K = 64) is preferred to
/// .kind::mxf8f6f4.
const MmaInstr *findBlockScaledMma(MmaFamily family, Elem a, Elem b, Elem acc, Elem scale,
                                   unsigned scaleBlock);
/// Every block-scaled row of `family` for operands (a, b), whatever the scales: for
/// diagnostics that say which scales the instruction takes.
llvm::SmallVector<const MmaInstr *> blockScaledRows(MmaFamily family, Elem a, Elem b);
/// ".kind::mxf4nvf4", as diagnostics name a block-scaled kind.
llvm::StringRef blockKindName(mlir::NVVM::MMABlockScaleKind kind);

/// Whether `m` x `n` is a shape the row's family issues (cta_group for tcgen05); `why` gets
/// the rule when it is not.
bool validShape(const MmaInstr &row, int64_t m, int64_t n, int64_t ctaGroup, std::string *why);

} // namespace tilegen

#endif // TILEGEN_TARGET_MMATABLE_H
