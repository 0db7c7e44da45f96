//===- MmaTable.cpp - the tensor-core instruction table -------------------===//
//
// Sources (PTX ISA 9.0, CUDA 13.0 documentation):
// - mma.sync: "Matrix shape" and "Matrix Data-types" of the warp-level mma: m16n8k16 takes
//   .bf16/.f16 multiplicands (sm_80+); m16n8k32 takes .e4m3/.e5m2 (sm_89+), f32 accumulator.
//   The 8-bit shapes have only the .row.col form: A and B are K-major.
// - wgmma.mma_async: m64nNk16 for .f16/.bf16 (N a multiple of 8 up to 256; the transpose
//   immediates make MN-major operands legal), m64nNk32 for .e4m3/.e5m2 with any mix of the two
//   and an f32 or f16 accumulator; for the 8-bit types both operands from shared memory must be
//   K-major (imm-trans is only for .f16/.bf16).
// - tcgen05.mma: .kind::f16 (K = 16) and .kind::f8f6f4 (K = 32 for the 8-bit types), shapes by
//   cta_group in the "Matrix shape" table (dense: cta_group::1 M 64 or 128, cta_group::2 M 128
//   or 256).
// - Block-scaled kinds (PTX ISA 9.0, 9.7.16.10.9 "tcgen05.mma" with .block_scale, Table 39
//   "MMA-Kinds", and 9.7.14.5.14 "mma" with .block_scale): tcgen05 .kind::mxf8f6f4 takes any
//   of .e4m3/.e5m2/.e2m3/.e3m2/.e2m1 for A and for B, K = 32, one .ue8m0 scale per 32 elements
//   (.scale_vec::1X); .kind::mxf4 takes .e2m1 only, K = 64, .ue8m0 per 32 (.scale_vec::2X);
//   .kind::mxf4nvf4 takes .e2m1 only, K = 64, .ue8m0 per 32 (2X) or .ue4m3 per 16 (4X).
//   Transposes (MN-major operands) exist for .kind::mxf8f6f4, not for .kind::mxf4 and
//   .kind::mxf4nvf4 (9.7.16.10.1, Table 49). mma.sync on sm_120a: m16n8k32
//   .kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0 with the same five types, m16n8k64
//   .kind::mxf4nvf4.block_scale with .e2m1 and .scale_vec::2X.ue8m0 or .scale_vec::4X.ue4m3;
//   .row.col only. The same combinations are the ones LLVM 22's NVVM dialect accepts
//   (NVVM_MMA_BLOCK_SCALE_SUPPORTED in NVVMOps.td), a second source. PTX ISA 8.7 introduced
//   the block-scaled mma.sync (sm_120a); tcgen05's are in PTX ISA 8.6 with tcgen05 itself.
// - mma.sync .kind::f8f6f4 (PTX ISA 9.0, 9.7.14.5.14 "mma", Target ISA notes): m16n8k32
//   .row.col with A and B each any of .e4m3/.e5m2/.e3m2/.e2m3/.e2m1 and an f32 or f16
//   accumulator; the .e3m2/.e2m3/.e2m1 types need sm_120a (sm_120f from PTX ISA 8.8; plain
//   sm_120 has none) and PTX ISA 8.7. Each 6- or 4-bit element sits in an 8-bit container:
//   .e2m1 in bits 5..2, .e3m2/.e2m3 in bits 5..0. The fragments are the 8-bit ones (9.7.14.5.10,
//   "Matrix Fragments for mma.m16n8k32"). e4m3/e5m2 pairs keep the plain form (sm_89+), which
//   ptxas maps to the same QMMA.16832 on sm_120a.
// - tcgen05.mma .kind::f8f6f4 with 6- and 4-bit A or B (9.7.16.10.9, Table 39): K = 32; the
//   operands are read from shared memory in the padded form of 9.7.16.10.4.4 (16 elements per
//   16 bytes) and K-major only (9.7.16.10.3, transposes only for the 8-bit types).
// - TMA (CUDA driver API 13.x, cuTensorMapEncodeTiled): CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B
//   (14) copies 16 packed 4-bit values into 16 bytes of shared memory (8 bytes of gap),
//   16U6_ALIGN16B (15) 16 packed 6-bit values into 16 bytes (4 bytes of gap); both need a
//   32-byte-aligned global address, globalDim[0] a multiple of 128, strides multiples of 32
//   bytes, boxDim[0] = 128 and swizzle none, 128B or 128B_ATOM_32B (16U4_ALIGN16B: loads only).
//   The transaction bytes of such a copy are the packed (global) bytes: CUTLASS's sm120 and
//   sm100 collectives count sizeof_bits of the 4-/6-bit element, not the 8-bit container.
// PTX versions: mma.sync with .e4m3/.e5m2 needs PTX ISA 8.4, wgmma 8.0, tcgen05 8.6,
// mma.sync .kind::f8f6f4 8.7.
// Rates: Hopper and Blackwell tensor cores run dense 8-bit formats at twice the 16-bit rate
// (H100/H200 datasheets: 989 BF16 vs 1979 FP8 TFLOP/s; B200: 2.25 vs 4.5 PFLOP/s); Ada runs FP8
// mma.sync at twice its BF16 rate.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Target/MmaTable.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace tilegen;
using mlir::NVVM::MMATypes;
using mlir::NVVM::Tcgen05MMAKind;
using mlir::NVVM::WGMMATypes;

llvm::StringRef tilegen::familyName(MmaFamily family) {
  switch (family) {
  case MmaFamily::MmaSync:
    return "mma.sync";
  case MmaFamily::Wgmma:
    return "wgmma";
  case MmaFamily::Tcgen05:
    return "tcgen05";
  }
  return "unknown";
}

// The 6- and 4-bit formats have no wgmma spelling (wgmma takes none of them) and E8M0 no
// spelling at all (it is a scale): those entries hold placeholders no row reads.
static const ElemInfo kElems[] = {
    // elem       manifest bits fp8   narrow scaleOnly mma.sync        wgmma             tcgen05
    {Elem::BF16, "bf16", 16, false, false, false, MMATypes::bf16, WGMMATypes::bf16, MmaElem::BF16},
    {Elem::F16, "f16", 16, false, false, false, MMATypes::f16, WGMMATypes::f16, MmaElem::F16},
    {Elem::F32, "f32", 32, false, false, false, MMATypes::f32, WGMMATypes::f32, MmaElem::F32},
    {Elem::E4M3, "e4m3", 8, true, true, false, MMATypes::e4m3, WGMMATypes::e4m3, MmaElem::E4M3},
    {Elem::E5M2, "e5m2", 8, true, true, false, MMATypes::e5m2, WGMMATypes::e5m2, MmaElem::E5M2},
    {Elem::E2M3, "e2m3", 6, false, true, false, MMATypes::e2m3, WGMMATypes::f16, MmaElem::E2M3},
    {Elem::E3M2, "e3m2", 6, false, true, false, MMATypes::e3m2, WGMMATypes::f16, MmaElem::E3M2},
    {Elem::E2M1, "e2m1", 4, false, true, false, MMATypes::e2m1, WGMMATypes::f16, MmaElem::E2M1},
    {Elem::E8M0, "e8m0", 8, false, false, true, MMATypes::f16, WGMMATypes::f16, MmaElem::F32},
};

const ElemInfo &tilegen::elemInfo(Elem e) { return kElems[static_cast<unsigned>(e)]; }

std::optional<Elem> tilegen::elemOf(mlir::Type type) {
  if (!type)
    return std::nullopt;
  if (type.isBF16())
    return Elem::BF16;
  if (type.isF16())
    return Elem::F16;
  if (type.isF32())
    return Elem::F32;
  if (llvm::isa<mlir::Float8E4M3FNType>(type))
    return Elem::E4M3;
  if (llvm::isa<mlir::Float8E5M2Type>(type))
    return Elem::E5M2;
  if (llvm::isa<mlir::Float6E2M3FNType>(type))
    return Elem::E2M3;
  if (llvm::isa<mlir::Float6E3M2FNType>(type))
    return Elem::E3M2;
  if (llvm::isa<mlir::Float4E2M1FNType>(type))
    return Elem::E2M1;
  if (llvm::isa<mlir::Float8E8M0FNUType>(type))
    return Elem::E8M0;
  return std::nullopt;
}

llvm::StringRef tilegen::manifestName(mlir::Type type) {
  std::optional<Elem> e = elemOf(type);
  return e ? elemInfo(*e).manifest : "";
}

unsigned tilegen::elemBits(mlir::Type type) {
  std::optional<Elem> e = elemOf(type);
  return e ? elemInfo(*e).bits : 0;
}

std::optional<int64_t> tilegen::elemBytes(int64_t elems, mlir::Type type) {
  std::optional<Elem> e = elemOf(type);
  if (!e || elems < 0)
    return std::nullopt;
  // 6-bit elements are stored one per byte (the f8f6f4 kinds' unpacked form in memory).
  int64_t bits = elemInfo(*e).bits == 6 ? 8 : elemInfo(*e).bits;
  int64_t total;
  if (llvm::MulOverflow(elems, bits, total))
    return std::nullopt;
  return total / 8 + (total % 8 != 0);
}

bool tilegen::isNarrowFloat(mlir::Type type) {
  std::optional<Elem> e = elemOf(type);
  return e && elemInfo(*e).narrow;
}

bool tilegen::isSubByteFloat(mlir::Type type) {
  std::optional<Elem> e = elemOf(type);
  return e && elemInfo(*e).narrow && elemInfo(*e).bits < 8;
}

llvm::StringRef tilegen::blockKindName(mlir::NVVM::MMABlockScaleKind kind) {
  switch (kind) {
  case mlir::NVVM::MMABlockScaleKind::MXF8F6F4:
    return ".kind::mxf8f6f4";
  case mlir::NVVM::MMABlockScaleKind::MXF4:
    return ".kind::mxf4";
  case mlir::NVVM::MMABlockScaleKind::MXF4NVF4:
    return ".kind::mxf4nvf4";
  }
  return ".kind::?";
}

namespace {
constexpr ScaleSupport kNoScales{false, false};
// FP8 rows: per-tensor scales everywhere (folded into alpha); per-block scales where the
// lowering promotes in registers (wgmma).
constexpr ScaleSupport kTensorScales{true, false};
constexpr ScaleSupport kAllScales{true, true};

constexpr MMATypes kNoMma = MMATypes::f16;
constexpr WGMMATypes kNoWgmma = WGMMATypes::f16;
constexpr Tcgen05MMAKind kNoTc = Tcgen05MMAKind::F16;

MmaInstr mmaSync(Elem a, Elem b) {
  bool f8 = elemInfo(a).fp8;
  return {MmaFamily::MmaSync, f8 ? MmaSyncF8 : MmaSyncF16, a, b, Elem::F32, 16, 8,
          f8 ? 32u : 16u, /*mnMajor=*/!f8, elemInfo(a).mmaSync, elemInfo(b).mmaSync,
          kNoWgmma, kNoWgmma, kNoTc, MmaElem::F32, MmaElem::F32,
          f8 ? kTensorScales : kNoScales, f8 ? 2.0 : 1.0, f8 ? 84u : 70u,
          f8 ? "mma.sync.aligned.m16n8k32.row.col.f32"
             : "mma.sync.aligned.m16n8k16.row.col.f32"};
}

MmaInstr wgmma(Elem a, Elem b) {
  bool f8 = elemInfo(a).fp8;
  return {MmaFamily::Wgmma, f8 ? WgmmaF8 : WgmmaF16, a, b, Elem::F32, 64, 0, f8 ? 32u : 16u,
          /*mnMajor=*/!f8, kNoMma, kNoMma, elemInfo(a).wgmma, elemInfo(b).wgmma, kNoTc,
          MmaElem::F32, MmaElem::F32, f8 ? kAllScales : kNoScales, f8 ? 2.0 : 1.0, 80u,
          f8 ? "wgmma.mma_async.sync.aligned.m64nNk32.f32"
             : "wgmma.mma_async.sync.aligned.m64nNk16.f32"};
}

/// mma.sync .kind::f8f6f4 with a 6- or 4-bit operand (sm_120a): the 8-bit fragments, each
/// sub-byte element in an 8-bit container; per-tensor scales of an FP8 operand fold into alpha.
MmaInstr mmaSyncF8F6F4(Elem a, Elem b) {
  return {MmaFamily::MmaSync, MmaSyncF8F6F4, a, b, Elem::F32, 16, 8, 32, /*mnMajor=*/false,
          elemInfo(a).mmaSync, elemInfo(b).mmaSync, kNoWgmma, kNoWgmma, kNoTc, MmaElem::F32,
          MmaElem::F32, kTensorScales, 2.0, 87u,
          "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32"};
}

MmaInstr tcgen05(Elem a, Elem b) {
  bool f8 = elemInfo(a).narrow;
  // 6- and 4-bit operands of kind::f8f6f4 are K-major only (no transpose, Table 54).
  bool subByte = elemInfo(a).bits < 8 || elemInfo(b).bits < 8;
  return {MmaFamily::Tcgen05, f8 ? Tcgen05F8F6F4 : Tcgen05F16, a, b, Elem::F32, 0, 0,
          f8 ? 32u : 16u, /*mnMajor=*/!subByte, kNoMma, kNoMma, kNoWgmma, kNoWgmma,
          f8 ? Tcgen05MMAKind::F8F6F4 : Tcgen05MMAKind::F16, elemInfo(a).tcgen05, elemInfo(b).tcgen05,
          f8 ? kTensorScales : kNoScales,
          f8 ? 2.0 : 1.0, 86u, f8 ? "tcgen05.mma.kind::f8f6f4" : "tcgen05.mma.kind::f16"};
}

using mlir::NVVM::MMABlockScaleKind;

/// A block-scaled row: `kind` with `scale` scales per `block` elements of K.
MmaInstr blockScaled(MmaFamily family, InstrSet set, MMABlockScaleKind kind, Elem a, Elem b,
                     Elem scale, unsigned block, const char *ptx) {
  bool fp4Kind = kind != MMABlockScaleKind::MXF8F6F4;
  unsigned k = fp4Kind ? 64 : 32;
  bool mmaSyncRow = family == MmaFamily::MmaSync;
  bool subByte = elemInfo(a).bits < 8 || elemInfo(b).bits < 8;
  MmaInstr row{family, set, a, b, Elem::F32, mmaSyncRow ? 16u : 0u, mmaSyncRow ? 8u : 0u, k,
               // MN-major operands: tcgen05 transposes .kind::mxf8f6f4 only (Table 49), and
               // there only 8-bit A and B (a 6- or 4-bit operand is K-major, Table 54, as for
               // .kind::f8f6f4); mma.sync is .row.col.
               /*mnMajor=*/!mmaSyncRow && !fp4Kind && !subByte, elemInfo(a).mmaSync,
               elemInfo(b).mmaSync,
               kNoWgmma, kNoWgmma, Tcgen05MMAKind::F8F6F4, elemInfo(a).tcgen05,
               elemInfo(b).tcgen05, kNoScales,
               // Dense rates relative to BF16 (B200 datasheet: FP8/FP6 2x, FP4 4x; RTX 50: FP4
               // at twice FP8).
               // PTX ISA: the block-scaled kinds arrive in 8.6 (tcgen05) and 8.7 (mma.sync);
               // LLVM 22 spells tcgen05's scale vectors with the .block16 / .block32 aliases,
               // which need 8.8 (ptxas 13.0 rejects them below).
               fp4Kind ? 4.0 : 2.0, mmaSyncRow ? 87u : 88u, ptx};
  row.blockScaled = true;
  row.blockKind = kind;
  row.scaleElem = scale;
  row.scaleBlock = block;
  row.scaleVec = k / block;
  return row;
}

std::vector<MmaInstr> buildTable() {
  std::vector<MmaInstr> rows;
  const Elem f16s[] = {Elem::BF16, Elem::F16};
  const Elem f8s[] = {Elem::E4M3, Elem::E5M2};
  for (auto make : {mmaSync, wgmma, tcgen05}) {
    for (Elem e : f16s)
      rows.push_back(make(e, e));
    for (Elem a : f8s)
      for (Elem b : f8s)
        rows.push_back(make(a, b));
  }
  // kind::f8f6f4 with a 6- or 4-bit operand: mma.sync on sm_120a, tcgen05 on the sm_100a
  // family (the e4m3/e5m2 pairs are above).
  const Elem narrow[] = {Elem::E4M3, Elem::E5M2, Elem::E2M3, Elem::E3M2, Elem::E2M1};
  for (Elem a : narrow)
    for (Elem b : narrow)
      if (elemInfo(a).bits < 8 || elemInfo(b).bits < 8) {
        rows.push_back(mmaSyncF8F6F4(a, b));
        rows.push_back(tcgen05(a, b));
      }
  // Block-scaled kinds. The FP4 kinds come first: E2M1 x E2M1 with E8M0 scales resolves to the
  // packed .kind::mxf4 (K = 64) rather than .kind::mxf8f6f4 (K = 32, one FP4 per byte).
  rows.push_back(blockScaled(MmaFamily::Tcgen05, Tcgen05MxF4, MMABlockScaleKind::MXF4,
                             Elem::E2M1, Elem::E2M1, Elem::E8M0, 32,
                             "tcgen05.mma.kind::mxf4.block_scale.scale_vec::2X"));
  rows.push_back(blockScaled(MmaFamily::Tcgen05, Tcgen05MxF4NvF4, MMABlockScaleKind::MXF4NVF4,
                             Elem::E2M1, Elem::E2M1, Elem::E4M3, 16,
                             "tcgen05.mma.kind::mxf4nvf4.block_scale.scale_vec::4X"));
  rows.push_back(blockScaled(MmaFamily::MmaSync, MmaSyncMxF4NvF4, MMABlockScaleKind::MXF4NVF4,
                             Elem::E2M1, Elem::E2M1, Elem::E8M0, 32,
                             "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale."
                             "scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0"));
  rows.push_back(blockScaled(MmaFamily::MmaSync, MmaSyncMxF4NvF4, MMABlockScaleKind::MXF4NVF4,
                             Elem::E2M1, Elem::E2M1, Elem::E4M3, 16,
                             "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale."
                             "scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3"));
  const Elem f8f6f4[] = {Elem::E4M3, Elem::E5M2, Elem::E2M3, Elem::E3M2, Elem::E2M1};
  for (Elem a : f8f6f4)
    for (Elem b : f8f6f4) {
      rows.push_back(blockScaled(MmaFamily::Tcgen05, Tcgen05MxF8F6F4, MMABlockScaleKind::MXF8F6F4,
                                 a, b, Elem::E8M0, 32,
                                 "tcgen05.mma.kind::mxf8f6f4.block_scale.scale_vec::1X"));
      rows.push_back(blockScaled(MmaFamily::MmaSync, MmaSyncMxF8F6F4, MMABlockScaleKind::MXF8F6F4,
                                 a, b, Elem::E8M0, 32,
                                 "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale."
                                 "scale_vec::1X.f32.ue8m0"));
    }
  return rows;
}
} // namespace

bool tilegen::paddedSubByte(const MmaInstr &row, Elem e) {
  bool f8f6f4Kind = row.blockScaled ? row.blockKind == mlir::NVVM::MMABlockScaleKind::MXF8F6F4
                                    : row.set == MmaSyncF8F6F4 || row.set == Tcgen05F8F6F4;
  return f8f6f4Kind && elemInfo(e).narrow && elemInfo(e).bits < 8;
}

unsigned tilegen::smemElemBits(const MmaInstr &row, Elem e) {
  return paddedSubByte(row, e) ? 8 : elemInfo(e).bits;
}

TmaDataType tilegen::tmaDataType(const MmaInstr &row, Elem e) {
  if (paddedSubByte(row, e))
    return elemInfo(e).bits == 4 ? TmaDataType::Padded16U4Align16B
                                 : TmaDataType::Padded16U6Align16B;
  switch (e) {
  case Elem::BF16:
    return TmaDataType::BFloat16;
  case Elem::F16:
    return TmaDataType::Float16;
  case Elem::F32:
    return TmaDataType::Float32;
  default:
    return TmaDataType::Uint8;
  }
}

llvm::StringRef tilegen::tmaPaddedFormName(TmaDataType t) {
  switch (t) {
  case TmaDataType::Padded16U4Align16B:
    return "16u4_align16b";
  case TmaDataType::Padded16U6Align16B:
    return "16u6_align16b";
  default:
    return "";
  }
}

llvm::ArrayRef<MmaInstr> tilegen::mmaTable() {
  static const std::vector<MmaInstr> rows = buildTable();
  return rows;
}

const MmaInstr *tilegen::findMma(MmaFamily family, Elem a, Elem b, Elem acc) {
  for (const MmaInstr &row : mmaTable())
    if (!row.blockScaled && row.family == family && row.a == a && row.b == b && row.acc == acc)
      return &row;
  return nullptr;
}

const MmaInstr *tilegen::findBlockScaledMma(MmaFamily family, Elem a, Elem b, Elem acc,
                                            Elem scale, unsigned scaleBlock) {
  for (const MmaInstr &row : mmaTable())
    if (row.blockScaled && row.family == family && row.a == a && row.b == b &&
        row.acc == acc && row.scaleElem == scale && row.scaleBlock == scaleBlock)
      return &row;
  return nullptr;
}

llvm::SmallVector<const MmaInstr *> tilegen::blockScaledRows(MmaFamily family, Elem a, Elem b) {
  llvm::SmallVector<const MmaInstr *> rows;
  for (const MmaInstr &row : mmaTable())
    if (row.blockScaled && row.family == family && row.a == a && row.b == b)
      rows.push_back(&row);
  return rows;
}

bool tilegen::validShape(const MmaInstr &row, int64_t m, int64_t n, int64_t ctaGroup,
                         std::string *why) {
  auto fail = [&](std::string rule) {
    if (why)
      *why = std::move(rule);
    return false;
  };
  switch (row.family) {
  case MmaFamily::MmaSync:
    if (m != row.m || n != row.n)
      return fail(llvm::formatv("mma.sync takes m16n8k{0}", row.k).str());
    return true;
  case MmaFamily::Wgmma:
    if (m != 64 || n % 8 != 0 || n < 8 || n > 256)
      return fail(llvm::formatv("wgmma takes m64nNk{0} with N a multiple of 8 from 8 to 256",
                                row.k)
                      .str());
    return true;
  case MmaFamily::Tcgen05: {
    bool mOk = ctaGroup == 1 ? (m == 64 || m == 128) : (m == 128 || m == 256);
    int64_t ctaM = m / ctaGroup;
    int64_t step = ctaM == 64 ? 8 : 16;
    if (ctaGroup != 1 && ctaGroup != 2)
      return fail("tcgen05 takes cta_group 1 or 2");
    if (!mOk || n % step != 0 || n < step || n > 256)
      return fail(llvm::formatv("tcgen05.mma with cta_group::{0} takes M = {1} and N a multiple "
                                "of {2} from {2} to 256, K = {3}",
                                ctaGroup, ctaGroup == 1 ? "64 or 128" : "128 or 256", step,
                                row.k)
                      .str());
    return true;
  }
  }
  return fail("unknown family");
}
