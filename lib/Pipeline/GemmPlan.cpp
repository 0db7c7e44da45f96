//===- GemmPlan.cpp - a tile.gemm resolved for one target -----------------===//

#include "tilegen/Pipeline/GemmPlan.h"
#include "tilegen/Analysis/PipelineCosts.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace mlir;
using namespace tilegen;
using namespace tilegen::tile;

int64_t tilegen::sizeInBytes(int64_t elems, Type type) {
  // Rounded up to whole bytes (a 4-bit element alone takes one), never 0 for a known type.
  std::optional<int64_t> bytes = elemBytes(elems, type);
  assert(bytes && "sizeInBytes of an unknown type or an overflowing count");
  return bytes ? *bytes : 0;
}

static int64_t alignTo(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

/// Block-scaled formats (E8M0 or E4M3 block scales, GemmOp::isBlockScaled): which instruction
/// of the target applies them, or which rule stops the description. The description verifier
/// has already checked the scales against the operand types (block sizes, tile K). Returns the
/// block-scaled row the lowerings emit (tcgen05 on the sm_100a family, mma.sync on sm_120a), or
/// null for the sm_90a upcast (upcastSupported), which converts B and multiplies with bf16
/// wgmma; what is not written yet fails here, with the reason.
/// The upcast combinations the sm_90a lowering converts (docs/types.md), all K-major (a =
/// row, b = col): MXFP4 weights (B = f4E2M1FN with f8E8M0FNU [1, 32] scales) or NVFP4 weights
/// (B = f4E2M1FN with f8E4M3FN [1, 16] scales, optionally times an f32 per tensor) beside bf16
/// activations (A, no scales); MXFP8 x MXFP8 (A and B f8E4M3FN or f8E5M2, each with
/// f8E8M0FNU [1, 32] scales).
static bool upcastSupported(GemmOp op) {
  std::optional<Type> upcast = op.getUpcast();
  ScaleAttr sa = op.getScaleAAttr(), sb = op.getScaleBAttr();
  if (!upcast || !upcast->isBF16() || op.getALayout() != Layout::Row ||
      op.getBLayout() != Layout::Col)
    return false;
  auto mx = [](ScaleAttr s) {
    return s && s.isMicroScaled() && isa<Float8E8M0FNUType>(s.getType()) &&
           s.blockOuter() == 1 && s.blockK() == 32 && !s.getTensorType();
  };
  auto nvfp4 = [](ScaleAttr s) {
    return s && s.isMicroScaled() && isa<Float8E4M3FNType>(s.getType()) &&
           s.blockOuter() == 1 && s.blockK() == 16 &&
           (!s.getTensorType() || s.getTensorType().isF32());
  };
  if (op.getAType().isBF16() && isa<Float4E2M1FNType>(op.getBType()))
    return !sa && (mx(sb) || nvfp4(sb));
  bool fp8A = elemInfo(*elemOf(op.getAType())).fp8, fp8B = elemInfo(*elemOf(op.getBType())).fp8;
  return fp8A && fp8B && mx(sa) && mx(sb);
}

static FailureOr<const MmaInstr *> resolveBlockScaled(GemmOp op, const NVTarget &target) {
  StringRef tname = target.name();
  auto fail = [&](StringRef field = {}) -> InFlightDiagnostic {
    return field.empty() ? op.emitOpError() : emitFieldError(op, field);
  };
  Elem a = *elemOf(op.getAType()), b = *elemOf(op.getBType());
  ScaleAttr scale = op.getScaleBAttr() && op.getScaleBAttr().isMicroScaled() ? op.getScaleBAttr()
                                                                             : op.getScaleAAttr();
  Elem scaleElem = *elemOf(scale.getType());
  unsigned block = static_cast<unsigned>(scale.blockK());
  std::string formats = llvm::formatv("a = {0}, b = {1} with {2} scales per {3}",
                                      elemInfo(a).manifest, elemInfo(b).manifest,
                                      elemInfo(scaleElem).manifest, block)
                            .str();
  bool anyKind = llvm::any_of(mmaTable(), [&](const MmaInstr &r) {
    return r.blockScaled && target.offers(r);
  });

  // The upcast path: sm_90a converts in the pipeline, then issues bf16 wgmma.
  if (std::optional<Type> upcast = op.getUpcast()) {
    if (!target.hasWgmma())
      return fail("upcast") << "upcast = " << *upcast << " converts block-scaled operands for "
                            << "wgmma (sm_90a); target " << tname << " has "
                            << target.familiesString()
                            << (anyKind ? ", whose block-scaled kinds apply the scales in the "
                                          "tensor core: leave upcast out"
                                        : " and no upcast pipeline");
    if (upcastSupported(op))
      return static_cast<const MmaInstr *>(nullptr);
    return fail("upcast") << "not supported yet: upcast = " << *upcast << " (" << formats
                          << ", a = " << stringifyLayout(op.getALayout()) << ", b = "
                          << stringifyLayout(op.getBLayout()) << ") on target " << tname
                          << ": the converting wgmma pipeline takes a = bf16 row, b = f4E2M1FN "
                             "col with scale_b = f8E8M0FNU [1, 32] (MXFP4) or f8E4M3FN [1, 16] "
                             "(NVFP4), and a, b = f8E4M3FN or f8E5M2 (row, col) with scale_a, "
                             "scale_b = f8E8M0FNU [1, 32] (MXFP8)";
  }

  // Native block-scaled kinds: tcgen05 (sm_100a family) or mma.sync (sm_120a).
  MmaFamily family = target.preferredFamily();
  ArrayRef<int64_t> mma = op.getMma();
  if (!mma.empty() && mma[0] == 16 && target.hasMmaSync())
    family = MmaFamily::MmaSync;
  const MmaInstr *row = findBlockScaledMma(family, a, b, Elem::F32, scaleElem, block);
  if (!row || !target.offers(*row)) {
    if (!anyKind) {
      auto d = fail(op.getScaleAAttr() && op.getScaleAAttr().isMicroScaled() ? "scale_a"
                                                                             : "scale_b");
      d << "block-scaled formats (" << formats << ") have no MMA on target " << tname << " ("
        << target.familiesString() << ": no block-scaled kind)";
      if (target.hasWgmma())
        return d << "; add upcast = bf16 to convert the operands in the pipeline and multiply "
                    "with bf16 wgmma";
      return d << "; block-scaled kinds: tcgen05 on sm_100a, sm_103a, mma.sync on sm_120a; "
                  "upcast to bf16 on sm_90a";
    }
    // The target has block-scaled kinds, but none for this combination: say what the
    // operand pair takes, or which types the kinds take.
    auto d = fail("b");
    d << formats << " is no block-scaled " << familyName(family) << " kind on target " << tname;
    llvm::SmallVector<const MmaInstr *> rows = blockScaledRows(family, a, b);
    llvm::erase_if(rows, [&](const MmaInstr *r) { return !target.offers(*r); });
    if (!rows.empty()) {
      d << "; " << elemInfo(a).manifest << " x " << elemInfo(b).manifest << " takes ";
      for (size_t i = 0; i < rows.size(); ++i)
        d << (i ? ", " : "") << elemInfo(rows[i]->scaleElem).manifest << " scales per "
          << rows[i]->scaleBlock << " (" << blockKindName(rows[i]->blockKind) << ")";
      return d;
    }
    return d << " (" << (elemInfo(a).bits == 4 || elemInfo(b).bits == 4
                             ? ".kind::mxf4 and .kind::mxf4nvf4 take e2m1 x e2m1 only; "
                             : "")
             << ".kind::mxf8f6f4 takes e4m3, e5m2, e2m3, e3m2, e2m1 for each operand with e8m0 "
                "scales per 32)";
  }
  // Operand majors: MN-major (a = col, b = row) only where the kind transposes. tcgen05's
  // .kind::mxf8f6f4 transposes its 8-bit operands only (PTX ISA 9.7.16.10.3, Table 54): an
  // MN-major 6- or 4-bit operand is illegal, an MN-major 8-bit one beside it is not lowered.
  bool aMN = op.getALayout() != Layout::Row, bMN = op.getBLayout() != Layout::Col;
  if (!row->mnMajor && (aMN || bMN)) {
    bool narrowKind = row->family == MmaFamily::Tcgen05 &&
                      row->blockKind == mlir::NVVM::MMABlockScaleKind::MXF8F6F4;
    bool subA = elemInfo(a).bits < 8, subB = elemInfo(b).bits < 8;
    if (narrowKind && !(aMN && subA) && !(bMN && subB))
      return fail(aMN ? "a" : "b")
             << "not supported yet: " << (aMN ? "a = " : "b = ")
             << (aMN ? op.getAType() : op.getBType()) << " "
             << stringifyLayout(aMN ? op.getALayout() : op.getBLayout()) << " beside the "
             << (subA ? "6- or 4-bit a" : "6- or 4-bit b") << " of " << row->ptx
             << " on target " << tname
             << " (the ISA transposes an 8-bit operand there; the tcgen05 lowering takes "
                "K-major operands only: a = row, b = col)";
    bool aBad = narrowKind ? aMN && subA : aMN;
    const char *why = row->family != MmaFamily::Tcgen05 ? " (.row.col)"
                      : narrowKind ? " (6- and 4-bit operands have no transpose, PTX ISA "
                                     "9.7.16.10.3 Table 54: only 8-bit A and B may be MN-major)"
                                   : " (the FP4 kinds have no transpose, PTX ISA Table 49)";
    return fail(aBad ? "a" : "b")
           << (aBad ? "a = " : "b = ") << (aBad ? op.getAType() : op.getBType()) << " "
           << stringifyLayout(aBad ? op.getALayout() : op.getBLayout()) << ": " << row->ptx
           << " reads its operands K-major only (a = row, b = col) on target " << tname << why;
  }
  // .kind::mxf8f6f4 reads 6- and 4-bit operands in 8-bit containers (paddedSubByte): the
  // padded 16U6_ALIGN16B / 16U4_ALIGN16B forms TMA writes into shared memory, read as they are
  // by tcgen05 and widened by ldmatrix's .b8x16 forms for mma.sync; the ring's rules for them
  // (TMA-fed, tile K = 128) are those of .kind::f8f6f4 below.
  return row;
}

static std::string listString(ArrayRef<int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

tile::Multicast tilegen::wgmmaClusterMulticast(ArrayRef<int64_t> cluster) {
  bool alongM = cluster[0] > 1, alongN = cluster[1] > 1;
  return alongM && alongN ? Multicast::AB
         : alongN         ? Multicast::A
         : alongM         ? Multicast::B
                          : Multicast::None;
}

int64_t tilegen::tmaStoreChunkBytes(int64_t tileN, int64_t outBits) {
  if (tileN <= 0 || outBits <= 0 || tileN * outBits % 8 != 0)
    return 0;
  const int64_t rowBytes = tileN * outBits / 8;
  for (int64_t chunk : {128, 64, 32})
    if (rowBytes % chunk == 0)
      return chunk;
  return 0;
}

std::string tilegen::formatBytes(int64_t bytes) {
  if (bytes < 1024)
    return std::to_string(bytes) + " B";
  if (bytes % 1024 == 0)
    return std::to_string(bytes / 1024) + " KB";
  return llvm::formatv("{0:F1} KB", bytes / 1024.0).str();
}

FailureOr<NVTarget> tilegen::targetFor(GemmOp op, StringRef override) {
  std::string name = override.str();
  if (name.empty() && op.getTarget())
    name = op.getTarget()->str();
  if (name.empty())
    return op.emitOpError() << "no target: pass --target=<" << NVTarget::knownNames()
                            << "> or give the description a target field";
  std::optional<NVTarget> t = NVTarget::parse(name);
  if (!t)
    return (override.empty() ? emitFieldError(op, "target") : op.emitOpError())
           << "unknown target '" << name << "'; known targets: "
                            << NVTarget::knownNames() << NVTarget::suggest(name);
  return *t;
}

int64_t GemmPlan::smemFor(int64_t s) const {
  return smem.ringOffset + s * smem.slotBytes + smem.epilogueBytes + smem.convertBytes +
         (tmaRing() ? alignTo(2 * s * 8 + 2 * accumulators * 8 + 2 * smem.convertSlots * 8, 128)
                    : 0);
}

/// Resolves `op` for `target`. `autoWarpSpecialized`: `schedule = auto` with the mma.sync
/// family resolves to the warp-specialised (TMA-fed) schedule instead of multistage.
static FailureOr<GemmPlan> resolveWith(GemmOp op, const NVTarget &target,
                                       bool autoWarpSpecialized) {
  GemmPlan p{target};
  StringRef tname = target.name();
  // Each rule reports at the field it names first (the op when that field was not written).
  auto fail = [&](StringRef field = {}) -> InFlightDiagnostic {
    return field.empty() ? op.emitOpError() : emitFieldError(op, field);
  };

  // Operand types the tensor cores can take.
  if (op.getAType().isF32())
    return fail("a") << "field 'a' is f32: f32 operands need a TF32 MMA, which tilegen does not "
                     "support yet; use bf16, f16 or an FP8 format (target "
                  << tname << ")";
  const MmaInstr *scaledRow = nullptr;
  if (op.isBlockScaled()) {
    FailureOr<const MmaInstr *> row = resolveBlockScaled(op, target);
    if (failed(row))
      return failure();
    if (*row) {
      scaledRow = *row;
      p.microScales = true;
    } else {
      // The upcast: B (and with MXFP8 A) is converted to bf16 in shared memory and multiplied
      // by the bf16 wgmma.
      p.upcastB = true;
      p.upcastA = elemInfo(*elemOf(op.getAType())).narrow;
    }
  }
  Elem elemA = p.upcastA ? Elem::BF16 : *elemOf(op.getAType());
  Elem elemB = p.upcastB ? Elem::BF16 : *elemOf(op.getBType());
  bool fp8 = elemInfo(elemA).fp8;
  // The instruction K: 32 bytes of K per instruction for every type tilegen takes (64 packed
  // FP4 elements for the block-scaled FP4 kinds; 32 elements in 8-bit containers for the 6-
  // and 4-bit operands of .kind::f8f6f4).
  bool narrowOperands = elemInfo(elemA).narrow || elemInfo(elemB).narrow;
  int64_t instrK = scaledRow ? scaledRow->k : narrowOperands ? 32 : 16;

  p.tileM = op.getTileM();
  p.tileN = op.getTileN();
  p.tileK = op.getTileK();
  p.accumulators = op.getAccumulators();
  ArrayRef<int64_t> cluster = op.getCluster();
  int64_t clusterSize = cluster[0] * cluster[1] * cluster[2];

  // Which tensor-core family: an explicit MMA shape or schedule decides, else the target's
  // newest. An explicit shape must be one instruction of a family the target has, and the one
  // the lowering issues.
  ArrayRef<int64_t> mma = op.getMma();
  Schedule schedule = op.getSchedule();
  if (!mma.empty()) {
    int64_t m = mma[0], n = mma[1], k = mma[2], ctaGroup = op.getCtaGroup();
    std::string shape = listString(mma);
    // K = 32 is .kind::mxf8f6f4's, whose e2m1 operands sit one per byte; e2m1 x e2m1 always
    // takes the packed FP4 kinds (K = 64), the rule findBlockScaledMma follows.
    if (scaledRow && k == 32 && k != instrK &&
        scaledRow->blockKind != mlir::NVVM::MMABlockScaleKind::MXF8F6F4)
      return fail("mma") << "mma = " << shape << " has the K of .kind::mxf8f6f4 (32); "
                         << "e2m1 x e2m1 with " << elemInfo(scaledRow->scaleElem).manifest
                         << " scales per " << scaledRow->scaleBlock << " takes "
                         << scaledRow->ptx << " (packed FP4, K = " << instrK
                         << ") on target " << tname << ": give K = " << instrK
                         << " or leave mma out";
    bool mmaSyncShape = m == 16 && n == 8 && k == instrK;
    bool nInRange = n % 8 == 0 && n >= 8 && n <= 256;
    bool wgmmaShape = m == 64 && k == instrK && nInRange;
    bool tcgen05Shape = k == instrK && nInRange &&
                        (ctaGroup == 1 ? (m == 64 || m == 128) : (m == 128 || m == 256));
    if (mmaSyncShape && target.hasMmaSync())
      p.family = MmaFamily::MmaSync;
    else if (tcgen05Shape && target.hasTcgen05())
      p.family = MmaFamily::Tcgen05;
    else if (wgmmaShape && target.hasWgmma())
      p.family = MmaFamily::Wgmma;
    else if (target.hasTcgen05())
      return fail("mma") << "mma = " << shape << " is no tcgen05.mma shape with cta_group = "
                    << ctaGroup << " on target " << tname << " (" << target.familiesString()
                    << "); " << op.getAType() << " shapes are m16n8k" << instrK
                    << " (mma.sync) and, for tcgen05, M = 64 or 128 (cta_group 1) or 128 or 256 "
                       "(cta_group 2), N a multiple of 8 from 8 to 256, K = "
                    << instrK;
    else if (wgmmaShape)
      return fail("mma")
             << "mma = " << shape << " is a wgmma shape (m64nNk" << instrK << "); target "
                    << tname
                    << " has " << target.familiesString()
                    << ": wgmma exists only on sm_90a (ptxas would reject every wgmma "
                       "instruction)";
    else if (tcgen05Shape)
      return fail("mma") << "mma = " << shape << " is a tcgen05.mma shape (M = " << m
                    << "), which needs tcgen05 (sm_100a family); target " << tname << " has "
                    << target.familiesString()
                    << (target.hasWgmma() ? ", whose wgmma is m64nNk16 (M = 64)" : "");
    else
      return fail("mma") << "mma = " << shape << " is no tensor-core instruction shape on target "
                    << tname << " (" << target.familiesString()
                    << "); " << op.getAType() << " shapes are m16n8k" << instrK
                    << " (mma.sync), m64nNk" << instrK
                    << " with N a multiple of 8 from 8 to 256 (wgmma), M = 64 or 128 (cta_group "
                       "1) or 128 or 256 (cta_group 2) x nN x k"
                    << instrK << " (tcgen05)";
    // The lowerings issue one instruction across the tile's N (wgmma) or the whole tile
    // (tcgen05).
    // (The upcast of FP4 B in registers issues its wgmmas across the tile's M, recorded as
    // mma = [64, tile M, 16]; checked with the rest of its rules below.)
    bool transposedUpcast = p.upcastB && !p.upcastA && n == p.tileM &&
                            elemInfo(*elemOf(op.getBType())).bits == 4;
    if (p.family == MmaFamily::Wgmma && n != p.tileN && !transposedUpcast)
      return fail("mma") << "not supported yet: mma = " << shape << " with tile N = " << p.tileN
                    << " on target " << tname
                    << ": the wgmma lowering issues one m64nNk16 across the tile's N, so N = "
                       "tile N (mma = [64, "
                    << p.tileN << ", " << instrK << "])";
    if (p.family == MmaFamily::Tcgen05 && (m != p.tileM || n != p.tileN))
      return fail("mma") << "not supported yet: mma = " << shape << " with tile = "
                    << listString(op.getTile()) << " on target " << tname
                    << ": the tcgen05 lowering issues one tcgen05.mma over the whole tile, so M "
                       "= tile M and N = tile N (mma = ["
                    << p.tileM << ", " << p.tileN << ", " << instrK << "])";
  } else if (schedule == Schedule::Multistage) {
    p.family = MmaFamily::MmaSync;
  } else {
    p.family = target.preferredFamily();
  }
  // Operand alignment: below 16 bytes only the cp.async ring takes narrower copies; TMA (wgmma,
  // tcgen05) needs 16-byte strides, so `schedule = auto` falls back to mma.sync.
  p.alignA = op.getAlignmentA();
  p.alignB = op.getAlignmentB();
  // (6-bit elements count 8 bits, as the description's default alignment does: 16 of them.)
  auto alignBits = [](Elem e) { return elemInfo(e).bits == 6 ? 8 : elemInfo(e).bits; };
  p.narrowAlignment = p.alignA * alignBits(elemA) < 128 || p.alignB * alignBits(elemB) < 128;
  if (p.narrowAlignment) {
    std::string alignment = p.alignA == p.alignB ? std::to_string(p.alignA)
                                                 : listString({p.alignA, p.alignB});
    if (op.getCopy() == Copy::Tma)
      return fail("alignment") << "not supported yet: alignment = " << alignment
                    << " with copy = tma on target " << tname
                    << ": TMA needs 16-byte strides; use copy = cp_async";
    if (p.family != MmaFamily::MmaSync) {
      if (!mma.empty())
        return fail("alignment") << "not supported yet: alignment = " << alignment << " with mma = "
                      << listString(mma) << " (" << familyName(p.family) << ") on target "
                      << tname << ": TMA needs 16-byte strides; use schedule = multistage";
      if (schedule == Schedule::WarpSpecialized)
        return fail("alignment") << "not supported yet: alignment = " << alignment
                      << " with schedule = warp_specialized on target " << tname
                      << ": TMA needs 16-byte strides; use schedule = multistage";
      p.family = MmaFamily::MmaSync;
    }
  }
  // mma.sync runs either schedule: multistage (cp.async, every warp copies) or warp-specialised
  // (a TMA producer warp and mbarriers, sm_90 and newer).
  if (schedule == Schedule::WarpSpecialized && p.family == MmaFamily::MmaSync) {
    if (!target.hasTma())
      return fail("schedule") << "schedule = warp_specialized with mma.sync needs TMA "
                    << "(cp.async.bulk.tensor, sm_90 and newer) for its producer warp; target "
                    << tname << " has cp.async only: use schedule = multistage";
    if (p.narrowAlignment)
      return fail("alignment") << "not supported yet: alignment = "
                    << (p.alignA == p.alignB ? std::to_string(p.alignA)
                                             : listString({p.alignA, p.alignB}))
                    << " with schedule = warp_specialized on target " << tname
                    << ": TMA needs 16-byte strides; use schedule = multistage";
  }
  if (p.family != MmaFamily::MmaSync || schedule == Schedule::WarpSpecialized ||
      (schedule == Schedule::Auto && autoWarpSpecialized && !p.narrowAlignment))
    p.schedule = Schedule::WarpSpecialized;
  else
    p.schedule = Schedule::Multistage;

  // Every lowering's epilogue stores D row-major.
  if (op.getCLayout() != Layout::Row)
    return fail("c") << "not supported yet: c = col with " << familyName(p.family)
                     << " on target " << tname << " (D is stored row-major; use c = row)";

  // The instruction: the table's row for the family and the operand types, offered by the
  // target, taking the operands' layouts.
  if (scaledRow && scaledRow->family != p.family)
    return emitFieldError(op, {"mma", "schedule"})
           << "block-scaled formats take " << scaledRow->ptx << " on target " << tname
           << ", not " << familyName(p.family)
           << (schedule == Schedule::Multistage
                   ? " (field 'schedule' = multistage selects mma.sync; leave it out or use "
                     "warp_specialized)"
                   : "");
  p.instr = scaledRow ? scaledRow : findMma(p.family, elemA, elemB, Elem::F32);
  if (!p.instr || !target.offers(*p.instr)) {
    auto d = fail("a");
    d << "a = " << op.getAType() << ", b = " << op.getBType() << " has no "
      << familyName(p.family) << " instruction on target " << tname;
    if (p.instr)
      d << " (" << p.instr->ptx << " needs "
        << (p.instr->set == MmaSyncF8F6F4 ? "sm_120a (6- and 4-bit types; plain sm_120 has none)"
            : p.family == MmaFamily::MmaSync ? "sm_89 or newer"
            : p.family == MmaFamily::Wgmma   ? "sm_90a"
                                             : "the sm_100a family")
        << ")";
    return d << "; its " << familyName(p.family) << " takes " << target.typesString(p.family);
  }
  if (!p.instr->mnMajor && (op.getALayout() != Layout::Row || op.getBLayout() != Layout::Col))
    return fail("a") << "a = " << op.getAType() << " " << stringifyLayout(op.getALayout())
                  << ", b = " << op.getBType() << " " << stringifyLayout(op.getBLayout())
                  << ": " << p.instr->ptx << " takes " << op.getAType()
                  << " operands K-major only (a = row, b = col) on target " << tname;
  // Scales: what the row's lowering applies, in blocks it can apply.
  ScaleAttr scaleA = op.getScaleAAttr(), scaleB = op.getScaleBAttr();
  if (p.upcastB)
    p.scaleBlockK = scaleB.blockK(); // applied in the conversion, not by the MMA's lowering
  // Block-scaled kinds apply their E8M0 / E4M3 scales in the tensor core (resolveBlockScaled).
  else if (!scaledRow && (scaleA || scaleB)) {
    for (auto [field, scale] :
         {std::pair<StringRef, ScaleAttr>{"scale_a", scaleA}, {"scale_b", scaleB}}) {
      if (!scale)
        continue;
      if (scale.isTensor() ? !p.instr->scales.tensor : !p.instr->scales.block)
        return fail(field) << "not supported yet: " << field << " = "
                      << (scale.isTensor() ? "tensor" : "block") << " scales with "
                      << familyName(p.family) << " on target " << tname
                      << (scale.isTensor() ? ""
                                           : " (block scales are applied by the wgmma lowering, "
                                             "sm_90a; use per-tensor scales here)");
    }
    bool blockA = scaleA && !scaleA.isTensor(), blockB = scaleB && !scaleB.isTensor();
    if (blockA != blockB)
      return emitFieldError(op, {"scale_a", "scale_b"})
             << "not supported yet: scale_a and scale_b of different granularities "
                       "(block scales are applied per K block to both operands; give both as "
                       "blocks, or both per tensor)";
    if (blockA) {
      p.blockScales = true;
      if (scaleA.blockK() != scaleB.blockK())
        return fail("scale_a")
               << "scale_a blocks of K = " << scaleA.blockK() << " and scale_b blocks of K = "
                      << scaleB.blockK() << " differ: one K block scales both operands";
      p.scaleBlockK = scaleA.blockK();
      if (p.scaleBlockK % p.tileK != 0)
        return fail("scale_a") << "scale_a = f32 [" << scaleA.blockOuter() << ", " << p.scaleBlockK
                      << "]: the K block (" << p.scaleBlockK
                      << ") must be a multiple of the tile's K-slice (" << p.tileK
                      << ") so that every slice lies in one K block (target " << tname << ")";
      // The promotion multiplies each n8 column fragment of the tile by one B scale: a B block
      // boundary must fall between fragments in every tile. Tiles start at multiples of tile N,
      // so a boundary lies at a multiple of gcd(tile N, B block) within a tile: B blocks that
      // are a multiple of the tile N (one scale per tile), or a multiple of 8 that divides it
      // (fixed scales per fragment), or else tiles that straddle at most two B blocks (tile N
      // + block - gcd <= 2 x block) with a gcd that is a multiple of 8: the fragments pick one
      // of two scales at run time (e.g. tile N 192 or 160 with blocks of 128).
      int64_t bOuter = scaleB.blockOuter();
      int64_t common = std::gcd(bOuter, p.tileN);
      bool straddlesTwo = common % 8 == 0 && p.tileN + bOuter - common <= 2 * bOuter;
      if (!(bOuter % p.tileN == 0 || (p.tileN % bOuter == 0 && bOuter % 8 == 0) || straddlesTwo))
        return fail("scale_b")
               << "scale_b = f32 [" << bOuter << ", " << scaleB.blockK() << "]: B blocks of "
               << bOuter << " columns are not aligned to the tile's N = " << p.tileN
               << " (a multiple of tile N, a multiple of 8 that divides it, or blocks that "
                  "no tile straddles more than two of, with boundaries at multiples of 8 "
                  "columns; target "
               << tname << ")";
    }
  }

  // Accumulation of FP8 products.
  if (std::optional<Accumulation> acc = op.getAccumulation()) {
    if (!fp8)
      return fail("accumulation") << "field 'accumulation' = " << stringifyAccumulation(*acc)
                    << " is given for " << op.getAType() << " operands on target " << tname
                    << ": only FP8 products have a choice of accumulation (leave the field out)";
    if (*acc == Accumulation::Fast && p.blockScales)
      return fail("accumulation") << "accumulation = fast with block scales on target " << tname
                    << ": block scales are applied as each K block is promoted into the f32 "
                       "accumulators; use accumulation = promoted (the default)";
    if (*acc == Accumulation::Fast && p.family != MmaFamily::Wgmma)
      mlir::emitWarning(fieldLoc(op, "accumulation"))
          << "accumulation = fast has no effect with " << familyName(p.family) << " on target "
          << tname << ": " << p.instr->ptx
          << " accumulates FP8 products in f32; recorded as promoted";
    else
      p.accumulation = *acc;
  }
  p.promotes = fp8 && p.family == MmaFamily::Wgmma && p.accumulation == Accumulation::Promoted;
  if (std::optional<uint64_t> every = op.getPromotion()) {
    int64_t k = static_cast<int64_t>(*every);
    if (!p.promotes || p.blockScales)
      return fail("promotion") << "field 'promotion' = " << k << " on target " << tname
                    << ": it sets how often FP8 wgmma results are promoted with per-tensor "
                       "scales and accumulation = promoted"
                    << (p.blockScales ? " (block scales are promoted once per scale block)"
                                      : "");
    if (k % p.tileK != 0)
      return fail("promotion")
             << "field 'promotion' = " << k << " is not a multiple of the tile's K = "
                    << p.tileK << " (promotion happens between K-slices; target " << tname
                    << ")";
    p.promotion = k == p.tileK ? 0 : k;
  }

  // Features the description asks for.
  if (op.getCtaGroup() == 2 && !target.hasCtaGroup2())
    return fail("cta_group") << "cta_group = 2 needs tcgen05 (sm_100a family); target " << tname
                  << " has " << target.familiesString();
  // Multicast first: it needs a cluster, so on a target pinned to 1x1x1 clusters the cluster
  // rule would otherwise hide the reason.
  if (op.getMulticast() != Multicast::None && !target.hasTmaMulticast())
    return fail("multicast") << "multicast = " << stringifyMulticast(op.getMulticast())
                  << " needs TMA multicast across a cluster; target " << tname
                  << " has no multicast hardware"
                  << (target.major() < 9 ? " (no TMA or thread-block clusters before sm_90)"
                                         : " (GeForce Blackwell: clusters are pinned to 1x1x1)");
  if (clusterSize > target.maxClusterSize())
    return fail("cluster") << "cluster = " << listString(cluster) << " has " << clusterSize
                  << " CTAs; target " << tname << " allows at most " << target.maxClusterSize()
                  << (target.maxClusterSize() > 1 ? " (portable cluster size)"
                      : target.major() < 9
                          ? " (no thread-block clusters before sm_90)"
                          : " (GeForce Blackwell has no TMA multicast: clusters are pinned to "
                            "1x1x1)");
  Copy copy = op.getCopy();
  if (copy == Copy::Tma && !target.hasTma())
    return fail("copy") << "copy = tma needs cp.async.bulk.tensor (sm_90+); target " << tname
                  << " has cp.async only";
  if (copy == Copy::Auto)
    p.copy = p.schedule == Schedule::WarpSpecialized ? Copy::Tma : Copy::CpAsync;
  else
    p.copy = copy;
  if (p.schedule == Schedule::WarpSpecialized && p.copy == Copy::CpAsync) {
    if (p.family == MmaFamily::MmaSync)
      return fail("copy") << "copy = cp_async with schedule = warp_specialized and mma.sync on "
                    << "target " << tname << ": the warp-specialised schedule is fed by TMA; "
                    << "use copy = tma, or schedule = multistage for cp.async";
    return fail("copy") << "copy = cp_async with " << familyName(p.family)
                  << ": the warp-specialised schedule is fed by TMA; use copy = tma";
  }
  // The L2 hints ride the TMA loads (cp.async.bulk.tensor ... .L2::cache_hint).
  for (auto [field, hint] : {std::pair{StringRef("cache_a"), op.getCacheA()},
                             std::pair{StringRef("cache_b"), op.getCacheB()}})
    if (hint && p.copy != Copy::Tma)
      return fail(field) << "not supported yet: " << field << " = " << stringifyCacheHint(*hint)
                         << " on target " << tname << " with cp.async copies (the hint is "
                         << "carried by the TMA loads: "
                         << (target.hasTma() ? "schedule = warp_specialized uses them"
                                             : "TMA needs sm_90 or later")
                         << ")";

  // The upcast converts in the warp-specialised wgmma pipeline only; a field that picks another
  // family for it (schedule = multistage, an mma.sync shape, a narrow alignment) is refused here,
  // before a lowering that knows nothing of the conversion sees narrow operands as bf16.
  if (p.upcastB && p.family != MmaFamily::Wgmma) {
    StringRef field = schedule == Schedule::Multistage ? "schedule"
                      : !mma.empty()                   ? "mma"
                      : p.narrowAlignment              ? "alignment"
                                                       : "upcast";
    return fail(field) << "not supported yet: upcast = " << *op.getUpcast() << " with "
                       << familyName(p.family)
                       << (field == "schedule" ? " (schedule = multistage)"
                           : field == "mma"    ? " (mma = " + listString(mma) + ")"
                           : field == "alignment"
                               ? " (alignment below 16 bytes, which TMA cannot load)"
                               : std::string())
                       << " on target " << tname
                       << ": the upcast converts the block-scaled operands in the "
                          "warp-specialised wgmma pipeline; use schedule = warp_specialized "
                          "(or auto) and leave mma and alignment out";
  }

  // The MMA instruction shape and warp layout. K-slice rows are counted in the bits an element
  // takes in shared memory: 8 for the padded 6- and 4-bit operands of .kind::f8f6f4 (A and B
  // alike; mixed pairs of narrow types are all 8 bits there).
  int64_t elemBits = smemElemBits(*p.instr, elemA);
  bool paddedOperands = paddedSubByte(*p.instr, elemA) || paddedSubByte(*p.instr, elemB);
  int64_t outBits = tilegen::elemBits(op.getCType());
  int64_t rowBytes = p.tileK * elemBits / 8; // one K-slice row of A or B
  switch (p.family) {
  case MmaFamily::MmaSync: {
    p.mmaM = 16, p.mmaN = 8, p.mmaK = p.instr->k;
    bool ws = p.schedule == Schedule::WarpSpecialized;
    // Ping-pong (warp-specialised, accumulators = 2): two consumer groups take alternate
    // tiles, each group's warps splitting a whole tile.
    bool pingPong = ws && p.accumulators == 2;
    int64_t groups = pingPong ? 2 : 1;
    if (!ws && op.getAccumulators() != 1)
      return fail("accumulators")
             << "accumulators = 2 needs a warp-specialised schedule; schedule = "
                       "multistage keeps one accumulator set in the MMA warps' registers "
                       "(target "
                    << tname << ")";
    if (clusterSize != 1 && !ws)
      return fail("cluster") << "not supported yet: cluster = " << listString(cluster)
                    << " with schedule = multistage (mma.sync kernels run without clusters)";
    if (clusterSize != 1)
      return fail("cluster") << "not supported yet: cluster = " << listString(cluster)
                    << " with schedule = warp_specialized and mma.sync on target " << tname
                    << " (its producer loads without multicast: one CTA per cluster)";
    if (!ws && p.copy == Copy::Tma)
      return fail("copy") << "not supported yet: copy = tma with schedule = multistage on target "
                    << tname << "; use copy = cp_async";
    if (!ws && paddedOperands)
      return fail("schedule") << "not supported yet: " << p.instr->ptx << " with "
                    << elemInfo(elemA).manifest << " x " << elemInfo(elemB).manifest
                    << " and schedule = multistage on target " << tname
                    << " (6- and 4-bit operands are read from 8-bit containers that TMA's "
                       "16U4_ALIGN16B / 16U6_ALIGN16B forms write; cp.async copies bytes as "
                       "they are: use schedule = warp_specialized)";
    ArrayRef<int64_t> warps = op.getWarps();
    if (!warps.empty()) {
      p.warpsM = warps[0], p.warpsN = warps[1];
    } else {
      int64_t n = p.tileM * p.tileN >= 128 * 128 && !pingPong ? 8 : 4;
      p.warpsM = 2, p.warpsN = n / 2;
      while (p.warpsN > 1 && p.tileN / p.warpsN < 16)
        p.warpsN /= 2, p.warpsM *= 2;
      while (p.warpsM > 1 && p.tileM / p.warpsM < 16)
        p.warpsM /= 2;
    }
    int64_t warpTileM = p.tileM / p.warpsM, warpTileN = p.tileN / p.warpsN;
    StringRef warpsField = warps.empty() ? "tile" : "warps";
    // Ping-pong's rules name the split they break: each group's warps take whole tiles.
    std::string split =
        pingPong ? llvm::formatv(" (accumulators = 2, ping-pong: each of the two consumer "
                                 "groups of {0} warps takes whole tiles)",
                                 p.warpsM * p.warpsN)
                       .str()
                 : std::string();
    if (p.tileM % (p.warpsM * 16) != 0)
      return fail(warpsField) << "tile M = " << p.tileM << " does not split into warps = ["
                    << p.warpsM << ", " << p.warpsN << "] of a multiple of 16 rows (mma.sync "
                       "m16n8k16 on target "
                    << tname << ")" << split;
    if (p.tileN % (p.warpsN * 16) != 0)
      return fail(warpsField) << "tile N = " << p.tileN << " does not split into warps = ["
                    << p.warpsM << ", " << p.warpsN
                    << "] of a multiple of 16 columns (ldmatrix.x4 feeds two m16n8k"
                    << p.mmaK << " columns; target "
                    << tname << ")" << split;
    int64_t consumerWarps = p.warpsM * p.warpsN * groups;
    int64_t ctaWarps = consumerWarps + (ws ? 1 : 0); // + the producer warp
    if (ctaWarps > 32)
      return fail("warps") << "warps = [" << p.warpsM << ", " << p.warpsN << "]"
                    << (pingPong ? " in each of two consumer groups" : "")
                    << (ws ? " and the producer warp" : "") << " is " << ctaWarps
                    << " warps; a CTA has at most 32" << split;
    int64_t accRegs = warpTileM * warpTileN / 32;
    if (accRegs > 128)
      return fail(warpsField) << "a warp tile of " << warpTileM << "x" << warpTileN << " needs "
                    << accRegs
                    << " accumulator registers per thread; at most 128 leave room for the "
                       "fragments (use more warps or a smaller tile)"
                    << split;
    if (ws) {
      // One CTA per SM, and no setmaxnreg (sm_90 and sm_120 have none): every warp gets the
      // same registers, and each of an SM's four sub-partitions holds a quarter of the register
      // file for ceil(warps / 4) of the CTA's warps (ptxas's limit at maxntid and one CTA per
      // SM). A consumer thread holds its accumulators and at least 40 more registers for
      // fragments, addresses and loop state; 88 with FP8 where mma.sync has no FP8 datapath
      // (sm_90: ptxas unpacks each e4m3/e5m2 fragment into twice the registers of f16).
      int64_t regsPerSM = target.info().regsPerSM;
      int64_t warpsPerQuarter = (ctaWarps + 3) / 4;
      p.mmaRegs = std::min<int64_t>(255, regsPerSM / 4 / (warpsPerQuarter * 32) / 8 * 8);
      int64_t more = fp8 && !target.info().mmaSyncF8Native ? 88 : 40;
      int64_t need = accRegs + more;
      if (need > p.mmaRegs)
        return fail(warpsField) << "tile [" << p.tileM << ", " << p.tileN << "] with warps = ["
                      << p.warpsM << ", " << p.warpsN << "]" << split << " gives each consumer "
                      << "thread " << accRegs << " accumulator registers and at least " << more
                      << " more" << (more > 40 ? " (FP8 fragments unpacked to f16)" : "")
                      << " = " << need << "; with " << ctaWarps
                      << " warps per CTA (the producer warp included) a thread has "
                      << p.mmaRegs << " (" << regsPerSM
                      << " registers in 4 sub-partitions of " << warpsPerQuarter
                      << " warps; target " << tname << ")";
      // What the lowering (MmaSync.cpp) takes: TMA boxes of K-major slices whose rows are one
      // 128-byte swizzle span, the layout ldmatrix reads; D stored row-major by TMA.
      if (op.getALayout() != Layout::Row || op.getBLayout() != Layout::Col)
        return fail("a") << "not supported yet: a = " << stringifyLayout(op.getALayout())
                      << ", b = " << stringifyLayout(op.getBLayout())
                      << " with schedule = warp_specialized and mma.sync on target " << tname
                      << " (K-major operands only: a = row, b = col; use schedule = multistage)";
      if (rowBytes != 128)
        return fail("tile") << "not supported yet: tile K = " << p.tileK << " gives K-slice rows "
                      << "of " << rowBytes << " bytes; the warp-specialised mma.sync lowering "
                      << "needs 128 (one 128-byte TMA swizzle span, the layout its ldmatrix "
                      << "reads: tile K = " << 1024 / elemBits << ") on target " << tname;
      if (p.tileM > 256 || p.tileN > 256)
        return fail("tile") << "tile [" << p.tileM << ", " << p.tileN << "] has more than 256 "
                      << "rows in a TMA box (A: tile M, B: tile N) on target " << tname;
      int64_t warpRowBytes = warpTileN * outBits / 8;
      int64_t span = std::min<int64_t>(128, warpRowBytes);
      if ((span != 32 && span != 64 && span != 128) || warpRowBytes % span != 0)
        return fail(warpsField) << "not supported yet: a warp tile of " << warpTileN
                      << " columns of " << op.getCType() << " is " << warpRowBytes
                      << " bytes per row, which the "
                      << "TMA-store epilogue cannot cut into 32-, 64- or 128-byte swizzled chunks "
                      << "(target " << tname << ")";
      p.threads = ctaWarps * 32;
    } else {
      p.threads = p.warpsM * p.warpsN * 32;
    }
    p.swizzleBytes = 128;
    break;
  }
  case MmaFamily::Wgmma: {
    // Consumer warpgroups: cooperative (accumulators = 1) split the tile's M, two of them
    // when each gets a multiple of 64 rows, else one (a 64-row tile: one m64 warpgroup);
    // ping-pong (2) take alternate tiles, each whole. `warps = [c, 1]` asks for c consumers.
    p.mmaM = 64, p.mmaK = p.instr->k;
    // The upcast of FP4 weights (B) beside bf16 A, converted in registers: the consumers load
    // their rows of packed B from the slot, convert them into wgmma's register operand and
    // multiply by A's slice read from shared memory as wgmma's B, computing the tile
    // transposed (D^T = B^T A^T: tile N rows of B split over the consumers on wgmma's M side,
    // tile M rows of A as wgmma's N); the epilogue transposes back while staging D. No
    // converted slice goes through shared memory (SM90.cpp, consumerRegisters). Taken whenever
    // the description is within its rules; otherwise the converter role (below) converts.
    if (p.upcastB && !p.upcastA && elemInfo(*elemOf(op.getBType())).bits == 4 &&
        p.tileK == 64 && p.accumulators == 1 && clusterSize == 1 &&
        op.getGrid() != Grid::StreamK && outBits == 16 && op.getCLayout() == Layout::Row &&
        p.tileM % 64 == 0 && p.tileM <= 256 && p.tileN % 64 == 0 &&
        (mma.empty() || mma[1] == p.tileM)) {
      ArrayRef<int64_t> warps = op.getWarps();
      int64_t c = !warps.empty() ? warps[0] : (p.tileN / 2) % 64 == 0 ? 2 : 1;
      bool warpsOk = warps.empty() || (warps[1] == 1 && (warps[0] == 1 || warps[0] == 2));
      int64_t rowsB = p.tileN / c;
      // One m64 block per consumer: per thread the accumulators (tile M / 2, at most 128) and
      // two sets of 16 converted registers (the slice in flight and the next); two blocks
      // (2 x (tile M / 2 + 32)) spill in the 232 registers a consumer has.
      if (warpsOk && rowsB == 64) {
        p.upcastRegisters = true;
        p.mmaN = p.tileM;
        p.warpsM = c, p.warpsN = 1;
        p.threads = (c + 1) * 128;
        p.swizzleBytes = rowBytes;
        break;
      }
    }
    if (!mma.empty() && mma[1] != p.tileN)
      return fail("mma") << "mma = " << listString(mma) << " issues wgmma across tile M = "
                    << p.tileM << ", which only the upcast of FP4 B in registers does; this "
                    << "description is outside its rules (tile K = 64, tile M a multiple of 64 "
                    << "up to 256, tile N 64 per consumer warpgroup, accumulators "
                    << "= 1, no cluster or stream-K, a 16-bit c = row) on target " << tname
                    << ": give mma = [64, " << p.tileN << ", " << p.instr->k
                    << "] or leave mma out";
    int64_t consumers = p.accumulators == 2 || (p.tileM / 2) % 64 == 0 ? 2 : 1;
    if (ArrayRef<int64_t> warps = op.getWarps(); !warps.empty()) {
      if (warps[1] != 1 || warps[0] < 1 || warps[0] > 2 ||
          (p.accumulators == 2 && warps[0] != 2))
        return fail("warps") << "not supported yet: warps = " << listString(warps)
                      << " with wgmma and accumulators = " << p.accumulators << " on target "
                      << tname << " (the wgmma lowering takes warps = [c, 1] naming c consumer "
                      << "warpgroups: 1 or 2 with accumulators = 1, 2 with accumulators = 2)";
      consumers = warps[0];
    }
    int64_t rowsPerConsumer = p.accumulators == 1 ? p.tileM / consumers : p.tileM;
    p.mmaN = p.tileN;
    if (p.tileN % 8 != 0 || p.tileN > 256 || p.tileN < 8)
      return fail("tile") << "tile N = " << p.tileN << " is no wgmma N on target " << tname
                    << ": wgmma m64nNk" << p.mmaK << " needs N a multiple of 8 from 8 to 256";
    if (p.tileM % 64 != 0)
      return fail("tile") << "tile M = " << p.tileM << " is no multiple of 64, the M of wgmma "
                    << "(one m64 block per consumer warpgroup and step; target " << tname << ")";
    if (rowsPerConsumer % 64 != 0)
      return fail("tile") << "tile M = " << p.tileM << " gives each consumer warpgroup "
                    << rowsPerConsumer << " rows; wgmma needs a multiple of 64 (target "
                    << tname << ")";
    int64_t accRegs = rowsPerConsumer / 64 * p.tileN / 2;
    if (accRegs > 128)
      return fail("tile") << "tile [" << p.tileM << ", " << p.tileN << "] with accumulators = "
                    << p.accumulators << " gives each consumer warpgroup " << rowsPerConsumer
                    << "x" << p.tileN << " accumulators = " << accRegs
                    << " registers per thread; at most 128 fit (target " << tname << ")";
    // Promotion holds the accumulators two or three times, within 192 of the consumers' 232
    // registers: three sets (a second K block in flight while one is promoted) when they fit,
    // else two (promotedAccumulatorSets; SM90.cpp, promotedSlices).
    if (p.promotes) {
      p.promotedSets = promotedAccumulatorSets(accRegs);
      if (p.promotedSets == 0)
        return fail("tile") << (p.blockScales ? "block scales" : "accumulation = promoted")
                      << " with tile [" << p.tileM << ", " << p.tileN
                      << "] and accumulators = " << p.accumulators
                      << ": each consumer warpgroup holds " << rowsPerConsumer << "x" << p.tileN
                      << " accumulators at least twice (the sum and a K block's wgmma results), "
                      << 2 * accRegs << " registers per thread; at most 192 fit (use tile N <= "
                      << 192 * 64 / rowsPerConsumer
                      << (p.blockScales ? "" : " or accumulation = fast") << ", target " << tname
                      << ")";
    }
    if (rowBytes != 32 && rowBytes != 64 && rowBytes != 128)
      return fail("tile") << "tile K = " << p.tileK << " gives K-slice rows of " << rowBytes
                    << " bytes; the wgmma lowering needs 32, 64 or 128 (one TMA swizzle span) "
                       "on target "
                    << tname;
    if (op.getALayout() != Layout::Row || op.getBLayout() != Layout::Col)
      return fail("a") << "not supported yet: a = " << stringifyLayout(op.getALayout()) << ", b = "
                    << stringifyLayout(op.getBLayout()) << " with wgmma on target " << tname
                    << " (K-major operands only: a = row, b = col)";
    if (tmaStoreChunkBytes(p.tileN, outBits) == 0)
      return fail("tile") << "tile N = " << p.tileN << " of " << op.getCType()
                    << " is not a whole number of 32-byte column chunks, which the TMA-store "
                       "epilogue writes (target "
                    << tname << ")";
    // Clusters of up to 2 x 2 CTAs: the CTAs along M (cluster[0]) share B, those along N
    // (cluster[1]) share A; each loads its part of the shared operands' slice and multicasts
    // it to the CTAs that share it.
    if (clusterSize != 1) {
      bool shape = cluster[0] <= 2 && cluster[1] <= 2 && cluster[2] == 1;
      if (!shape)
        return fail("cluster") << "not supported yet: cluster = " << listString(cluster)
                      << " with wgmma on target " << tname
                      << " (the lowering takes clusters of [2, 1, 1], [1, 2, 1] or [2, 2, 1])";
      Multicast want = wgmmaClusterMulticast(cluster);
      if (op.getMulticast() != want)
        return emitFieldError(op, {"multicast", "cluster"})
               << "multicast = " << stringifyMulticast(op.getMulticast())
                      << " does not match cluster = " << listString(cluster) << " on target "
                      << tname << ": the lowering shares B along the cluster's M extent and A "
                      << "along its N extent, so this cluster takes multicast = "
                      << stringifyMulticast(want);
    }
    if (cluster[0] == 2 && p.tileN % 16 != 0)
      return fail("tile") << "tile N = " << p.tileN << " cannot be split into two halves of a "
                    << "multiple of 8 rows for the B multicast (target " << tname << ")";
    // The upcast: warps 1 to 3 of the producer warpgroup convert each K-slice of B (64
    // elements of K: one 128-byte swizzled bf16 row per column) into the converted ring that
    // the consumers read in turn; the consumers' cooperative K loop is the bf16 kernel's.
    if (p.upcastB && (p.tileK != 64 || p.accumulators != 1 || clusterSize != 1 ||
                      op.getGrid() == Grid::StreamK || p.tileN % (16 * consumers) != 0))
      return fail("upcast") << "not supported yet: upcast = bf16 with tile " << listString(
                                   {p.tileM, p.tileN, p.tileK})
                    << ", accumulators = " << p.accumulators << ", cluster = "
                    << listString(cluster) << ", grid = " << stringifyGrid(op.getGrid())
                    << " on target " << tname
                    << " (the converting pipeline takes tile K = 64, tile N a multiple of "
                    << 16 * consumers << ", accumulators = 1, cluster = [1, 1, 1] and no "
                       "stream-K)";
    p.warpsM = consumers, p.warpsN = 1;
    p.threads = (consumers + 1) * 128;
    p.swizzleBytes = rowBytes;
    break;
  }
  case MmaFamily::Tcgen05: {
    int64_t ctaM = p.tileM / op.getCtaGroup();
    p.mmaM = p.tileM, p.mmaN = p.tileN, p.mmaK = p.instr->k;
    if (op.getCtaGroup() == 1 && ctaM != 64 && ctaM != 128)
      return fail("tile")
             << "tile M = " << p.tileM << " is no tcgen05.mma cta_group::1 M on target "
                    << tname << ": M must be 64 or 128";
    if (op.getCtaGroup() == 2 && p.tileM != 128 && p.tileM != 256)
      return fail("tile")
             << "tile M = " << p.tileM << " is no tcgen05.mma cta_group::2 M on target "
                    << tname << ": M must be 128 or 256 (the pair's rows)";
    int64_t nStep = ctaM == 64 ? 8 : 16;
    if (p.tileN % nStep != 0 || p.tileN < nStep || p.tileN > 256)
      return fail("tile") << "tile N = " << p.tileN << " is no tcgen05.mma N for M = " << ctaM
                    << " on target " << tname << ": N must be a multiple of " << nStep
                    << " from " << nStep << " to 256";
    // A guard: unreachable while accumulators <= 2 and N <= 256 (at most 512 columns); it
    // fires if a wider N is ever allowed.
    int64_t columns = p.accumulators * p.tileN;
    if (columns > (int64_t)target.tmemColumns())
      return fail("accumulators")
             << "accumulators = " << p.accumulators << " x tile N = " << p.tileN
                    << " needs " << columns << " TMEM columns; target " << tname << " has "
                    << target.tmemColumns();
    // What the lowering (SM100.cpp) takes: 128 rows of A per CTA (a pair: cluster [2, 1, 1],
    // M = 256), K-major operands, one swizzle span per K-slice row, whole 128-byte D chunks.
    // (An even cluster M for cta_group = 2 is the verifier's rule.)
    if (ctaM != 128)
      return fail("tile") << "not supported yet: tile M = " << p.tileM << " with cta_group = "
                    << op.getCtaGroup() << " on target " << tname
                    << " (the tcgen05 lowering takes 128 rows per CTA: tile M = 128 for "
                       "cta_group = 1, 256 for cta_group = 2)";
    if (cluster[0] != op.getCtaGroup() || cluster[1] != 1 || cluster[2] != 1)
      return fail("cluster") << "not supported yet: cluster = " << listString(cluster)
                    << " with cta_group = " << op.getCtaGroup() << " on target " << tname
                    << " (the tcgen05 lowering takes cluster = [" << op.getCtaGroup()
                    << ", 1, 1]; TMA multicast is not lowered yet)";
    if (op.getMulticast() != Multicast::None)
      return fail("multicast")
             << "not supported yet: multicast = " << stringifyMulticast(op.getMulticast())
                    << " with tcgen05 on target " << tname
                    << " (a CTA pair shares B through cta_group = 2; TMA multicast across "
                       "clusters is not lowered yet)";
    if (rowBytes != 32 && rowBytes != 64 && rowBytes != 128)
      return fail("tile") << "tile K = " << p.tileK << " gives K-slice rows of " << rowBytes
                    << " bytes; the tcgen05 lowering needs 32, 64 or 128 (one TMA swizzle "
                       "span) on target "
                    << tname;
    if (paddedOperands && p.tileK != 128)
      return fail("tile") << "tile K = " << p.tileK << " with "
                    << elemInfo(elemA).manifest << " x " << elemInfo(elemB).manifest
                    << " on target " << tname
                    << ": the 6- and 4-bit operands of " << p.instr->ptx
                    << " are loaded by TMA's 16U4_ALIGN16B / 16U6_ALIGN16B forms, whose box is "
                       "128 elements of K (tile K = 128)";
    if (op.getALayout() != Layout::Row || op.getBLayout() != Layout::Col)
      return fail("a") << "not supported yet: a = " << stringifyLayout(op.getALayout()) << ", b = "
                    << stringifyLayout(op.getBLayout()) << " with tcgen05 on target " << tname
                    << " (K-major operands only: a = row, b = col)";
    if (p.tileN * outBits / 8 % 128 != 0)
      return fail("tile") << "tile N = " << p.tileN << " of " << op.getCType()
                    << " is not a whole number of 128-byte column chunks, which the TMA-store "
                       "epilogue writes (target "
                    << tname << ")";
    p.warpsM = 1, p.warpsN = 1;
    p.threads = 6 * 32; // producer warp, MMA warp, one epilogue warpgroup
    p.swizzleBytes = rowBytes;
    break;
  }
  }
  if (op.getGrid() == Grid::StreamK &&
      (p.family != MmaFamily::Wgmma || p.accumulators != 1 || clusterSize != 1))
    return fail("grid") << "not supported yet: grid = stream_k with "
                  << familyName(p.family) << ", accumulators = " << p.accumulators
                  << ", cluster = " << listString(cluster) << " on target " << tname
                  << " (stream-K is lowered for the cooperative wgmma schedule without "
                     "clusters)";
  // The warp-specialised lowerings fix their warp layout; a different request is an error, not
  // something to ignore.
  if (ArrayRef<int64_t> warps = op.getWarps();
      !warps.empty() && (warps[0] != p.warpsM || warps[1] != p.warpsN))
    return fail("warps") << "not supported yet: warps = " << listString(warps) << " with "
                  << familyName(p.family) << " on target " << tname << " (the "
                  << familyName(p.family) << " lowering uses warps = ["
                  << p.warpsM << ", " << p.warpsN << "]; leave the field out)";
  if (p.tileK % p.mmaK != 0)
    return fail("tile") << "tile K = " << p.tileK << " is not a multiple of the MMA K = " << p.mmaK
                  << " (" << familyName(p.family) << " with " << op.getAType() << " on target "
                  << tname << ")";
  // A guard: K is a multiple of the 32-byte instruction K by now.
  if (rowBytes % 32 != 0)
    return fail("tile") << "tile K = " << p.tileK << " gives K-slices of " << rowBytes
                  << " bytes per row; tilegen needs a multiple of 32 bytes";

  // Shared memory.
  int64_t slotAlign = p.tmaRing() ? 1024 : 128;
  SmemMap &m = p.smem;
  m.aSliceBytes = p.tileM / op.getCtaGroup() * rowBytes;
  m.bSliceBytes = p.tileN / op.getCtaGroup() * rowBytes;
  if (p.microScales) {
    // The slice's scale atoms (128 rows x 4 scale blocks, 512 bytes) ride in the slot after B:
    // tcgen05 loads the CTA's 128 rows of A and the tile's whole N of B (each CTA of a pair
    // multiplies every column); mma.sync the tile's rows and columns.
    int64_t atomK = 4 * p.instr->scaleBlock;
    if (p.tileK % atomK != 0)
      return fail("tile") << "tile K = " << p.tileK << " is not a multiple of " << atomK
                    << " (4 scale blocks of " << p.instr->scaleBlock
                    << ": the scale atoms are loaded whole) with " << p.instr->ptx
                    << " on target " << tname;
    if (p.family == MmaFamily::MmaSync && p.schedule != Schedule::WarpSpecialized)
      return fail("schedule") << "not supported yet: " << p.instr->ptx
                    << " with schedule = multistage on target " << tname
                    << " (the scales are loaded by TMA into the warp-specialised ring: use "
                       "schedule = warp_specialized)";
    if (p.family == MmaFamily::Tcgen05 && p.tileN % 128 != 0)
      return fail("tile") << "not supported yet: tile N = " << p.tileN << " with "
                    << p.instr->ptx << " on target " << tname
                    << " (a scale atom covers 128 columns of B; the tcgen05 lowering takes "
                       "tile N = 128 or 256)";
    for (int64_t t : {p.tileM, p.tileN})
      if (t % 128 != 0 && 128 % t != 0)
        return fail("tile") << "not supported yet: tile = " << listString(op.getTile())
                      << " with " << p.instr->ptx << " on target " << tname
                      << " (tile M and N must divide, or be multiples of, the 128 rows of a "
                         "scale atom)";
    int64_t atomsK = p.tileK / atomK;
    int64_t atomsA = std::max<int64_t>(1, p.tileM / op.getCtaGroup() / 128);
    int64_t atomsB = std::max<int64_t>(1, (p.tileN + 127) / 128);
    m.scaleBytes = 512 * atomsK * (atomsA + atomsB);
    p.scaleTmemColumnsPerStage = p.family == MmaFamily::Tcgen05 ? 4 * atomsK * (atomsA + atomsB)
                                                                : 0;
  }
  if (p.blockScales && p.family == MmaFamily::Wgmma && p.promotedSets == 2) {
    // Block scales on wgmma with two accumulator sets: a warp of the producer warpgroup copies
    // the scales of each slice's K block into its slot after B (SM90.cpp, scaleLoader): one
    // f32 per row of the tile (scale_a) and the tile's B blocks (one, tile N / block, or two
    // for a tile that straddles a boundary). Three-set tiles load them from global memory.
    int64_t bOuter = op.getScaleBAttr().blockOuter();
    int64_t bScales = bOuter % p.tileN == 0 ? 1 : p.tileN % bOuter == 0 ? p.tileN / bOuter : 2;
    m.scaleBytes = alignTo((p.tileM + bScales) * 4, 16);
  }
  if (p.upcastRegisters) {
    // Packed FP4 B in the ring, converted in registers: no converted ring. The slice's block
    // scales follow B in the slot (SM90.cpp, codeLoader): per block of 32 the tile's N E8M0
    // codes, or per row of B the consumers' bf16x2 factors of its four E4M3 codes (blocks of
    // 16).
    int64_t blocks = p.tileK / op.getScaleBAttr().blockK();
    bool e8m0 = isa<Float8E8M0FNUType>(op.getScaleBAttr().getType());
    m.bSliceBytes = p.tileN * p.tileK * elemInfo(*elemOf(op.getBType())).bits / 8;
    m.scaleBytes = alignTo(p.tileN * blocks * (e8m0 ? 1 : 4), 16);
  } else if (p.upcastB) {
    // The narrow slice of B in the ring (packed FP4: two elements per byte; FP8), and the
    // converted ring: three bf16 slices of B (SM90.cpp's converter says why three), each
    // 1024-byte aligned for the 128-byte swizzle (tile N is a multiple of 32, so each is).
    // MXFP8: A is narrow in the ring too, and each converted slot holds its bf16 A slice
    // before B.
    m.bSliceBytes = p.tileN * p.tileK * elemInfo(*elemOf(op.getBType())).bits / 8;
    if (p.upcastA)
      m.aSliceBytes = p.tileM * p.tileK * elemInfo(*elemOf(op.getAType())).bits / 8;
    m.convertSlots = 3;
    m.convertBytes = m.convertSlots * (p.tileN + (p.upcastA ? p.tileM : 0)) * rowBytes;
  }
  m.slotBytes =
      alignTo(alignTo(m.aSliceBytes, slotAlign) + m.bSliceBytes + m.scaleBytes, slotAlign);
  // B ends the slot, or is followed by the scales.
  m.bOffset = m.scaleBytes ? alignTo(m.aSliceBytes, slotAlign) : m.slotBytes - m.bSliceBytes;
  // mma.sync stores D straight from registers. wgmma stages D through shared memory for a TMA
  // store: two 128-byte-wide column buffers per consumer warpgroup. The tcgen05 plan stages one
  // 128-byte-wide chunk of the tile.
  // A wgmma description whose explicit stage count does not fit with 128-byte columns
  // narrows them (64, then 32 bytes, within the widest that divides a row of D: more, smaller
  // TMA stores, once per tile) when that makes the ring fit; the lowering reads the column
  // width back from the staging size (SM90.cpp, epilogueChunkBytes).
  int64_t wgmmaRows = 0;
  if (p.family == MmaFamily::Wgmma) {
    wgmmaRows = p.accumulators == 1 ? p.tileM / p.warpsM : p.tileM;
    m.epilogueBytes = p.warpsM * 2 * wgmmaRows * 128;
    // Transposed tiles (the upcast in registers): each consumer stages chunks of 64 rows of D
    // by its 64 columns (128 bytes of 16-bit output), two buffers in turn.
    if (p.upcastRegisters)
      wgmmaRows = 64, m.epilogueBytes = p.warpsM * 2 * 64 * 128;
  } else if (p.family == MmaFamily::Tcgen05) {
    m.epilogueBytes = p.tileM / op.getCtaGroup() * 128;
  } else if (p.tmaRing()) {
    // Warp-specialised mma.sync: two buffers per consumer warp of 16 rows (one m16 block) by
    // up to 128 bytes of the warp tile's columns.
    int64_t warpRowBytes = p.tileN / p.warpsN * outBits / 8;
    int64_t consumerWarps = p.warpsM * p.warpsN * p.accumulators;
    m.epilogueBytes = consumerWarps * 2 * 16 * std::min<int64_t>(128, warpRowBytes);
  } else {
    m.epilogueBytes = 0;
  }
  int64_t budget = target.smemPerBlock();
  // The narrowest staging an explicit wgmma stage count tried before giving up (reported).
  int64_t narrowestTried = 0;
  if (p.family == MmaFamily::Wgmma && !op.hasAutoStages() && !p.upcastRegisters &&
      p.smemFor(op.getStages()) > budget) {
    const int64_t widest = tmaStoreChunkBytes(p.tileN, outBits);
    const int64_t wide = m.epilogueBytes;
    for (int64_t chunk : {64, 32}) {
      if (chunk > widest)
        continue;
      m.epilogueBytes = p.warpsM * 2 * wgmmaRows * chunk;
      narrowestTried = m.epilogueBytes;
      if (p.smemFor(op.getStages()) <= budget)
        break;
    }
    if (p.smemFor(op.getStages()) > budget)
      m.epilogueBytes = wide; // the error below reports the usual staging
  }
  if (op.hasAutoStages()) {
    p.stagesWereAuto = true;
    // The fewest stages that keep the tensor core fed (the same costs tilegen explain
    // reports), limited by what fits.
    int64_t want = std::max(2, fewestStagesToFeed(costsFor(op, p)));
    int64_t fit = stagesThatFit(p);
    if (fit < 2)
      return fail("stages") << "stages = auto: not even 2 stages fit on target " << tname << ": "
                    << "2 stages x " << formatBytes(m.slotBytes) << " (A "
                    << formatBytes(m.aSliceBytes) << " + B " << formatBytes(m.bSliceBytes) << ")"
                    << (m.epilogueBytes ? " + epilogue " + formatBytes(m.epilogueBytes) : "")
                    << (m.convertBytes ? " + bf16 conversion " + formatBytes(m.convertBytes)
                                       : "")
                    << (p.tmaRing()
                            ? " + barriers " + formatBytes(p.smemFor(2) - m.ringOffset -
                                                           2 * m.slotBytes - m.epilogueBytes -
                                                           m.convertBytes)
                            : "")
                    << " = " << formatBytes(p.smemFor(2)) << " > " << formatBytes(budget)
                    << " per block";
    p.stages = std::min(want, fit);
    // Tensor Memory holds the accumulators and every stage's scale columns.
    if (p.scaleTmemColumnsPerStage) {
      int64_t room = ((int64_t)target.tmemColumns() - p.accumulators * p.tileN) /
                     p.scaleTmemColumnsPerStage;
      if (room < 2)
        return fail("accumulators")
               << "stages = auto: " << p.accumulators << " accumulator(s) x N = " << p.tileN
               << " leave room in Tensor Memory for " << room << " stage(s) of "
               << p.scaleTmemColumnsPerStage << " scale columns on target " << tname
               << "; at least 2 are needed (use accumulators = 1 or a smaller tile N)";
      p.stages = std::min(p.stages, room);
    }
  } else {
    p.stages = op.getStages();
  }
  if (p.scaleTmemColumnsPerStage) {
    int64_t columns = p.accumulators * p.tileN + p.stages * p.scaleTmemColumnsPerStage;
    if (columns > (int64_t)target.tmemColumns())
      return fail("stages") << "Tensor Memory does not hold " << p.accumulators
                    << " accumulator(s) x N = " << p.tileN << " and " << p.stages
                    << " stages x " << p.scaleTmemColumnsPerStage << " scale columns = "
                    << columns << " columns on target " << tname << " ("
                    << target.tmemColumns() << "); use fewer stages or accumulators";
  }
  if (p.stages < 2 && p.schedule == Schedule::Multistage)
    return fail("stages") << "stages = 1: the multistage schedule needs at least 2 stages (one "
                     "filling while one is multiplied)";
  int64_t need = p.smemFor(p.stages);
  if (need > budget)
    return fail("stages") << "the ring does not fit in shared memory on target " << tname << ": "
                  << p.stages << " stages x " << formatBytes(m.slotBytes) << " (A "
                  << formatBytes(m.aSliceBytes) << " + B " << formatBytes(m.bSliceBytes) << ")"
                  << (m.epilogueBytes ? " + epilogue " + formatBytes(m.epilogueBytes) : "")
                  << (m.convertBytes ? " + bf16 conversion " + formatBytes(m.convertBytes) : "")
                  << (p.tmaRing()
                          ? " + barriers " + formatBytes(need - m.ringOffset -
                                                         p.stages * m.slotBytes - m.epilogueBytes -
                                                         m.convertBytes)
                          : "")
                  << " = " << formatBytes(need) << " > " << formatBytes(budget) << " per block"
                  << (narrowestTried ? " (nor with the epilogue's staging narrowed to " +
                                           formatBytes(narrowestTried) + ")"
                                     : "");
  // Ring, then the epilogue buffers (1024-byte aligned for the 128-byte TMA swizzle), then the
  // barriers.
  m.ringOffset = 0;
  m.epilogueOffset = m.ringOffset + p.stages * m.slotBytes;
  m.convertOffset = m.epilogueOffset + m.epilogueBytes;
  m.barrierOffset = m.convertOffset + m.convertBytes;
  m.barrierBytes =
      p.tmaRing()
          ? alignTo(2 * p.stages * 8 + 2 * p.accumulators * 8 + 2 * m.convertSlots * 8, 128)
          : 0;
  m.total = m.barrierOffset + m.barrierBytes;
  // Stream-K sums a peer's f32 partial tile in the ring (one bulk copy once the MMAs are done).
  if (op.getGrid() == Grid::StreamK && p.stages * m.slotBytes < p.tileM * p.tileN * 4)
    return fail("grid") << "not supported yet: grid = stream_k with a ring of " << p.stages
                  << " x " << formatBytes(m.slotBytes) << " = "
                  << formatBytes(p.stages * m.slotBytes) << " on target " << tname
                  << " (the ring holds a peer's f32 partial tile of " << p.tileM << " x "
                  << p.tileN << " x 4 B = " << formatBytes(p.tileM * p.tileN * 4)
                  << " while a tile is finished; use more stages)";
  return p;
}

FailureOr<GemmPlan> tilegen::resolveGemm(GemmOp op, const NVTarget &target) {
  // `schedule = auto` with the mma.sync family on a target with TMA (sm_90, sm_120, sm_120a):
  // the warp-specialised schedule when the description meets its rules (K-major operands,
  // 16-byte alignment, 128-byte K-slice rows, a ring that fits ...), quietly checked first;
  // else multistage, whose rules then report.
  if (op.getSchedule() == Schedule::Auto && target.hasTma() &&
      target.preferredFamily() == MmaFamily::MmaSync && op.getCopy() != Copy::CpAsync) {
    // Block-scaled mma.sync exists only on the warp-specialised schedule (its scales ride the
    // TMA ring), and so do 6- and 4-bit operands (TMA writes their padded form): its rules
    // report.
    if (op.isBlockScaled() || isSubByteFloat(op.getAType()) || isSubByteFloat(op.getBType()))
      return resolveWith(op, target, /*autoWarpSpecialized=*/true);
    bool fits = false;
    {
      ScopedDiagnosticHandler quiet(op.getContext(), [](Diagnostic &) { return success(); });
      fits = succeeded(resolveWith(op, target, /*autoWarpSpecialized=*/true));
    }
    if (fits)
      return resolveWith(op, target, /*autoWarpSpecialized=*/true);
  }
  return resolveWith(op, target, /*autoWarpSpecialized=*/false);
}

void tilegen::recordPlan(GemmOp op, const GemmPlan &plan) {
  Builder b(op.getContext());
  op.setStages(plan.stages);
  op.setSchedule(plan.schedule);
  op.setCopy(plan.copy);
  op.setWarps(ArrayRef<int64_t>{plan.warpsM, plan.warpsN});
  op.setMma(ArrayRef<int64_t>{plan.mmaM, plan.mmaN, plan.mmaK});
  op.setTarget(plan.target.name());
  // Block-scaled MMAs accumulate in f32: the field does not apply to them.
  if (elemInfo(*elemOf(op.getAType())).fp8 && !plan.microScales && !plan.upcastA)
    op.setAccumulationAttr(AccumulationAttr::get(op.getContext(), plan.accumulation));
}
