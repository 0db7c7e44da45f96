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
// PTX versions: mma.sync with .e4m3/.e5m2 needs PTX ISA 8.4, wgmma 8.0, tcgen05 8.6.
// Rates: Hopper and Blackwell tensor cores run dense 8-bit formats at twice the 16-bit rate
// (H100/H200 datasheets: 989 BF16 vs 1979 FP8 TFLOP/s; B200: 2.25 vs 4.5 PFLOP/s); Ada runs FP8
// mma.sync at twice its BF16 rate.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Target/MmaTable.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

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

static const ElemInfo kElems[] = {
    {Elem::BF16, "bf16", 16, false, MMATypes::bf16, WGMMATypes::bf16, MmaElem::BF16},
    {Elem::F16, "f16", 16, false, MMATypes::f16, WGMMATypes::f16, MmaElem::F16},
    {Elem::F32, "f32", 32, false, MMATypes::f32, WGMMATypes::f32, MmaElem::F32},
    {Elem::E4M3, "e4m3", 8, true, MMATypes::e4m3, WGMMATypes::e4m3, MmaElem::E4M3},
    {Elem::E5M2, "e5m2", 8, true, MMATypes::e5m2, WGMMATypes::e5m2, MmaElem::E5M2},
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

MmaInstr tcgen05(Elem a, Elem b) {
  bool f8 = elemInfo(a).fp8;
  return {MmaFamily::Tcgen05, f8 ? Tcgen05F8F6F4 : Tcgen05F16, a, b, Elem::F32, 0, 0,
          f8 ? 32u : 16u, /*mnMajor=*/true, kNoMma, kNoMma, kNoWgmma, kNoWgmma,
          f8 ? Tcgen05MMAKind::F8F6F4 : Tcgen05MMAKind::F16, elemInfo(a).tcgen05, elemInfo(b).tcgen05,
          f8 ? kTensorScales : kNoScales,
          f8 ? 2.0 : 1.0, 86u, f8 ? "tcgen05.mma.kind::f8f6f4" : "tcgen05.mma.kind::f16"};
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
  return rows;
}
} // namespace

llvm::ArrayRef<MmaInstr> tilegen::mmaTable() {
  static const std::vector<MmaInstr> rows = buildTable();
  return rows;
}

const MmaInstr *tilegen::findMma(MmaFamily family, Elem a, Elem b, Elem acc) {
  for (const MmaInstr &row : mmaTable())
    if (row.family == family && row.a == a && row.b == b && row.acc == acc)
      return &row;
  return nullptr;
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
