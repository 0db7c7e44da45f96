//===- Descriptors.cpp - wgmma/tcgen05 descriptor encoders ----------------===//
//
// See include/tilegen/Target/Descriptors.h for the field tables and the PTX ISA 9.1 sections
// they come from. The rules derived here, with their sources:
//
// - matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4 (9.7.15.5.1.2.2, Table 40): start
//   address, LBO and SBO are byte quantities, 16-byte aligned, stored in 14 bits after dropping
//   the 4 low bits. The mask means the hardware sees only 18 address bits; we reject values of
//   2^18 (256 KiB) or more rather than let the mask wrap them.
// - Base offset (9.7.15.5.1.2.2, Table 41): 0 when the swizzle pattern starts on its repeat
//   boundary (1024 B for 128B, 512 B for 64B, 256 B for 32B), otherwise
//   (pattern start >> 7) & 7. wgmma: "valid for all swizzling modes except the no-swizzle mode".
// - LBO / SBO (9.7.15.5.1.2.1.1-2, 9.7.16.3.1-2), with elements normalised to 128 bits:
//   K-major: SBO = offset between consecutive 8-row groups; LBO = offset between the two
//   16-byte K columns of the 8x2 core-matrix tile without swizzle, "not used, assumed to be 1"
//   with swizzle. MN-major swizzled: LBO = offset between consecutive (span/16) 16-byte MN
//   chunks, i.e. the next swizzle-span-wide MN panel; SBO = offset between consecutive groups
//   of 8 K rows. Canonical layouts (9.7.15.5.1.2.1.3): K-major 128B is
//   ((8,m),(T,2k)):((8T,SBO),(1,T)) with T = 128 / element bits, so a row of the swizzle atom
//   is 8 x 16 B = 128 B and 8 rows make the 1024-byte atom.
// - One MMA-K slice is 32 bytes of K for kind::f16 (K = 16 x 2 B), kind::tf32
//   (K = 8 x 4 B) and kind::f8f6f4 with 8-bit types (K = 32 x 1 B) (Table 39), and for
//   wgmma's K = 16 for f16/bf16 and K = 32 for e4m3/e5m2 (9.7.15.2), so inside a 128B
//   atom the k-th slice starts 32*k bytes after the tile: the start address advances by 2
//   encoded units per slice while SBO and the base offset are unchanged (the swizzle XOR is a
//   function of the address bits, and the atom itself stays 1024-byte aligned).
// - kind::f8f6f4 (9.7.16.4.2 Table 42, 9.7.16.2.1 Table 39): the kind is a modifier of the
//   instruction, so the descriptor keeps the kind::f16 layout and only the type values
//   change (atype/btype 0, 1, 3, 4, 5 for e4m3, e5m2, e2m3, e3m2, e2m1, chosen independently
//   for A and B; dtype f16 0 / f32 1). Its dense M/N rows in Table 39 are those of kind::f16.
//   Table 54 allows MN-major (transposed) operands only for 8-, 16- and 32-bit types, so the
//   6- and 4-bit types are K-major only (CUTLASS's UMMA::InstrDescriptor comments say the
//   same: MN-major is valid for E4M3, E5M2, INT8, F16, BF16, TF32); Table 52 narrows N when B
//   is an MN-major 8-bit operand; the sparsity selector must be 0 (9.7.16.10.8.4.5-6).
//
//===----------------------------------------------------------------------===//

#include "tilegen/Target/Descriptors.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace tilegen;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

const char *swizzleName(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return "none";
  case Swizzle::B32:
    return "32B";
  case Swizzle::B64:
    return "64B";
  case Swizzle::B128:
    return "128B";
  case Swizzle::B128Atom32B:
    return "128B with 32B atom";
  }
  return "?";
}

/// matrix-descriptor-encode with range and alignment checks.
llvm::Expected<uint64_t> encode14(const char *field, uint32_t bytes) {
  if (bytes % 16 != 0)
    return fail(llvm::formatv("{0} = {1:x} is not 16-byte aligned", field, bytes));
  if (bytes >= (1u << 18))
    return fail(llvm::formatv("{0} = {1:x} does not fit the 14-bit field (must be < 0x40000)",
                              field, bytes));
  return uint64_t(bytes >> 4);
}

/// The three 14-bit fields shared by both descriptor formats.
llvm::Expected<uint64_t> encodeAddressFields(uint32_t addr, uint32_t lbo, uint32_t sbo) {
  auto a = encode14("start address", addr);
  if (!a)
    return a.takeError();
  auto l = encode14("leading dimension byte offset", lbo);
  if (!l)
    return l.takeError();
  auto s = encode14("stride dimension byte offset", sbo);
  if (!s)
    return s.takeError();
  return *a | (*l << 16) | (*s << 32);
}

llvm::Error checkBaseOffset(unsigned baseOffset, Swizzle s) {
  if (baseOffset > 7)
    return fail(llvm::formatv("base offset = {0} does not fit 3 bits (0..7)", baseOffset));
  if (baseOffset != 0 && s == Swizzle::None)
    return fail(
        llvm::formatv("base offset = {0} needs a swizzled layout; swizzle is none", baseOffset));
  return llvm::Error::success();
}

} // namespace

unsigned tilegen::swizzleSpanBytes(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return 16;
  case Swizzle::B32:
    return 32;
  case Swizzle::B64:
    return 64;
  case Swizzle::B128:
  case Swizzle::B128Atom32B:
    return 128;
  }
  return 0;
}

unsigned tilegen::swizzleRepeatBytes(Swizzle s) {
  return s == Swizzle::None ? 0 : 8 * swizzleSpanBytes(s);
}

unsigned tilegen::swizzleBaseOffset(Swizzle s, uint32_t patternStart) {
  unsigned repeat = swizzleRepeatBytes(s);
  if (repeat == 0 || patternStart % repeat == 0)
    return 0;
  return (patternStart >> 7) & 7;
}

//===----------------------------------------------------------------------===//
// Canonical layouts
//===----------------------------------------------------------------------===//

namespace {
llvm::Error checkTile(Major major, Swizzle s, unsigned elemBytes, unsigned rows,
                      unsigned contigElems) {
  if (elemBytes != 1 && elemBytes != 2 && elemBytes != 4)
    return fail(llvm::formatv("element size = {0} bytes; expected 1, 2 or 4", elemBytes));
  if (major == Major::MN && s == Swizzle::None)
    return fail("MN-major operand needs a swizzled layout (32B, 64B or 128B); swizzle is none");
  if (rows == 0 || rows % 8 != 0)
    return fail(llvm::formatv("{0} = {1} is not a positive multiple of 8",
                              major == Major::K ? "rows" : "K rows", rows));
  unsigned span = swizzleSpanBytes(s);
  uint64_t contigBytes = uint64_t(contigElems) * elemBytes;
  if (contigBytes == 0 || contigBytes % span != 0)
    return fail(llvm::formatv("contiguous extent = {0} elements ({1} bytes) is not a positive "
                              "multiple of the {2}-byte swizzle span ({3})",
                              contigElems, contigBytes, span, swizzleName(s)));
  return llvm::Error::success();
}
} // namespace

llvm::Expected<SmemStrides> tilegen::canonicalStrides(Major major, Swizzle s, unsigned elemBytes,
                                                      unsigned rows, unsigned contigElems) {
  if (llvm::Error e = checkTile(major, s, elemBytes, rows, contigElems))
    return std::move(e);
  uint64_t span = swizzleSpanBytes(s);
  uint64_t panel = uint64_t(rows) * span; // bytes of one span-wide panel
  SmemStrides st;
  st.sboBytes = uint32_t(8 * span);
  if (major == Major::K)
    st.lboBytes = s == Swizzle::None ? uint32_t(panel) : 16u;
  else
    st.lboBytes = uint32_t(panel);
  if (panel >= (1u << 18))
    return fail(llvm::formatv("panel stride = {0} bytes ({1} rows x {2} B) does not fit the "
                              "14-bit byte-offset field",
                              panel, rows, span));
  return st;
}

llvm::Expected<uint32_t> tilegen::canonicalOffsetBytes(Major major, Swizzle s, unsigned elemBytes,
                                                       unsigned rows, unsigned contigElems,
                                                       unsigned row, unsigned elem) {
  if (llvm::Error e = checkTile(major, s, elemBytes, rows, contigElems))
    return std::move(e);
  if (row % 8 != 0 || row >= rows)
    return fail(llvm::formatv("row = {0} is not a multiple of 8 below {1}", row, rows));
  uint64_t eb = uint64_t(elem) * elemBytes;
  if (eb % 16 != 0 || elem >= contigElems)
    return fail(
        llvm::formatv("element = {0} is not a 16-byte boundary below {1}", elem, contigElems));
  uint64_t span = swizzleSpanBytes(s);
  uint64_t off = (eb / span) * rows * span + uint64_t(row) * span + eb % span;
  return uint32_t(off);
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

llvm::Expected<unsigned> tilegen::wgmmaSwizzleField(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return 0;
  case Swizzle::B128:
    return 1;
  case Swizzle::B64:
    return 2;
  case Swizzle::B32:
    return 3;
  case Swizzle::B128Atom32B:
    break;
  }
  return fail("swizzle 128B with 32B atom has no wgmma encoding (tcgen05 only)");
}

llvm::Expected<uint64_t> tilegen::encodeWgmmaSmemDesc(uint32_t smemAddr, uint32_t lboBytes,
                                                      uint32_t sboBytes, Swizzle s,
                                                      unsigned baseOffset) {
  auto sw = wgmmaSwizzleField(s);
  if (!sw)
    return sw.takeError();
  if (llvm::Error e = checkBaseOffset(baseOffset, s))
    return std::move(e);
  auto fields = encodeAddressFields(smemAddr, lboBytes, sboBytes);
  if (!fields)
    return fields.takeError();
  return *fields | (uint64_t(baseOffset) << 49) | (uint64_t(*sw) << 62);
}

//===----------------------------------------------------------------------===//
// tcgen05
//===----------------------------------------------------------------------===//

unsigned tilegen::tcgen05SwizzleField(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return 0;
  case Swizzle::B128Atom32B:
    return 1;
  case Swizzle::B128:
    return 2;
  case Swizzle::B64:
    return 4;
  case Swizzle::B32:
    return 6;
  }
  return 0;
}

llvm::Expected<uint64_t> tilegen::encodeTcgen05SmemDesc(uint32_t smemAddr, uint32_t lboBytes,
                                                        uint32_t sboBytes, Swizzle s,
                                                        unsigned baseOffset, bool lboAbsolute) {
  if (llvm::Error e = checkBaseOffset(baseOffset, s))
    return std::move(e);
  auto fields = encodeAddressFields(smemAddr, lboBytes, sboBytes);
  if (!fields)
    return fields.takeError();
  return *fields | (uint64_t(1) << 46) /* fixed 0b001 at 46-48 */ | (uint64_t(baseOffset) << 49) |
         (uint64_t(lboAbsolute) << 52) | (uint64_t(tcgen05SwizzleField(s)) << 61);
}

namespace {
const char *elemName(MmaElem e) {
  switch (e) {
  case MmaElem::F16:
    return "f16";
  case MmaElem::BF16:
    return "bf16";
  case MmaElem::TF32:
    return "tf32";
  case MmaElem::F32:
    return "f32";
  case MmaElem::E4M3:
    return "e4m3";
  case MmaElem::E5M2:
    return "e5m2";
  case MmaElem::E2M3:
    return "e2m3";
  case MmaElem::E3M2:
    return "e3m2";
  case MmaElem::E2M1:
    return "e2m1";
  }
  return "?";
}

const char *kindName(Tcgen05Kind k) {
  switch (k) {
  case Tcgen05Kind::F16:
    return "kind::f16";
  case Tcgen05Kind::TF32:
    return "kind::tf32";
  case Tcgen05Kind::F8F6F4:
    return "kind::f8f6f4";
  }
  return "?";
}

/// The atype/btype value of an element type under kind::f8f6f4 (Table 42, .kind::f8f6f4
/// column: E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5); an error for any other type.
llvm::Expected<unsigned> f8f6f4TypeField(const char *operand, MmaElem e) {
  switch (e) {
  case MmaElem::E4M3:
    return 0;
  case MmaElem::E5M2:
    return 1;
  case MmaElem::E2M3:
    return 3;
  case MmaElem::E3M2:
    return 4;
  case MmaElem::E2M1:
    return 5;
  default:
    break;
  }
  return fail(llvm::formatv("kind::f8f6f4: {0} type {1}; expected e4m3, e5m2, e2m3, e3m2 or "
                            "e2m1",
                            operand, elemName(e)));
}

/// The atype/btype and dtype fields of kind::f16 / kind::tf32 (one type for A and B).
llvm::Error f16Tf32Fields(const Tcgen05InstrDesc &d, unsigned &aField, unsigned &bField,
                          unsigned &dField) {
  const char *kind = kindName(d.kind);
  if (d.aType != d.bType)
    return fail(llvm::formatv("{0}: A type {1} and B type {2} differ", kind, elemName(d.aType),
                              elemName(d.bType)));
  if (d.kind == Tcgen05Kind::F16) {
    if (d.aType != MmaElem::F16 && d.aType != MmaElem::BF16)
      return fail(
          llvm::formatv("kind::f16: A/B type {0}; expected f16 or bf16", elemName(d.aType)));
    aField = bField = d.aType == MmaElem::F16 ? 0 : 1;
    if (d.dType == MmaElem::F32)
      dField = 1;
    else if (d.dType == MmaElem::F16 && d.aType == MmaElem::F16)
      dField = 0;
    else
      return fail(llvm::formatv("kind::f16: D type {0} with {1} inputs; expected f32 (or f16 "
                                "with f16 inputs)",
                                elemName(d.dType), elemName(d.aType)));
    return llvm::Error::success();
  }
  if (d.aType != MmaElem::TF32)
    return fail(llvm::formatv("kind::tf32: A/B type {0}; expected tf32", elemName(d.aType)));
  if (d.dType != MmaElem::F32)
    return fail(llvm::formatv("kind::tf32: D type {0}; expected f32", elemName(d.dType)));
  aField = bField = 2;
  dField = 1;
  return llvm::Error::success();
}

/// The type fields of kind::f8f6f4 and its major-ness rules (Tables 39, 42, 52, 54).
llvm::Error f8f6f4Fields(const Tcgen05InstrDesc &d, unsigned &aField, unsigned &bField,
                         unsigned &dField) {
  // Table 39: A and B each any of the five types, independently.
  auto a = f8f6f4TypeField("A", d.aType);
  if (!a)
    return a.takeError();
  auto b = f8f6f4TypeField("B", d.bType);
  if (!b)
    return b.takeError();
  aField = *a;
  bField = *b;
  // Table 39 dtype .f32 or .f16; Table 42 F16 = 0, F32 = 1.
  if (d.dType == MmaElem::F32)
    dField = 1;
  else if (d.dType == MmaElem::F16)
    dField = 0;
  else
    return fail(llvm::formatv("kind::f8f6f4: D type {0}; expected f32 or f16", elemName(d.dType)));
  // Table 54: transposed (MN-major) operands only for 8-, 16- and 32-bit types.
  if (d.aMajor == Major::MN && mmaElemBits(d.aType) != 8)
    return fail(llvm::formatv("kind::f8f6f4: A type {0} ({1}-bit) is MN-major; {1}-bit operands "
                              "must be K-major (only 8-bit types can be transposed)",
                              elemName(d.aType), mmaElemBits(d.aType)));
  if (d.bMajor == Major::MN && mmaElemBits(d.bType) != 8)
    return fail(llvm::formatv("kind::f8f6f4: B type {0} ({1}-bit) is MN-major; {1}-bit operands "
                              "must be K-major (only 8-bit types can be transposed)",
                              elemName(d.bType), mmaElemBits(d.bType)));
  // Table 52: an 8-bit transposed B narrows N.
  if (d.bMajor == Major::MN) {
    unsigned step = d.ctaGroup == 2 ? 32 : 16;
    if (d.n < step || d.n > 256 || d.n % step != 0)
      return fail(llvm::formatv("kind::f8f6f4 cta_group::{0}: N = {1} with an MN-major 8-bit B; "
                                "expected {2}..256 in steps of {2}",
                                d.ctaGroup, d.n, step));
  }
  // 9.7.16.10.8.4.5-6: the sparsity selector must be 0 for kind::f8f6f4.
  if (d.sparsitySelector != 0 && d.sparse)
    return fail(llvm::formatv("kind::f8f6f4: sparsity selector = {0}; must be 0 for this kind",
                              d.sparsitySelector));
  return llvm::Error::success();
}
} // namespace

unsigned tilegen::mmaElemBits(MmaElem e) {
  switch (e) {
  case MmaElem::F16:
  case MmaElem::BF16:
    return 16;
  case MmaElem::TF32:
  case MmaElem::F32:
    return 32;
  case MmaElem::E4M3:
  case MmaElem::E5M2:
    return 8;
  case MmaElem::E2M3:
  case MmaElem::E3M2:
    return 6;
  case MmaElem::E2M1:
    return 4;
  }
  return 0;
}

llvm::Expected<uint32_t> tilegen::encodeTcgen05InstrDesc(const Tcgen05InstrDesc &d) {
  const char *kind = kindName(d.kind);
  // Shapes (Table 39, dense and sparse share M/N; .ws is not modelled). The rows for
  // kind::f16, kind::tf32 and kind::f8f6f4 are the same; only K differs.
  if (d.ctaGroup == 1) {
    if (d.m != 64 && d.m != 128)
      return fail(llvm::formatv("{0} cta_group::1: M = {1}; expected 64 or 128", kind, d.m));
    if (d.n < 8 || d.n > 256 || d.n % 8 != 0)
      return fail(
          llvm::formatv("{0} cta_group::1: N = {1}; expected 8..256 in steps of 8", kind, d.n));
  } else if (d.ctaGroup == 2) {
    if (d.m != 128 && d.m != 256)
      return fail(llvm::formatv("{0} cta_group::2: M = {1}; expected 128 or 256", kind, d.m));
    if (d.n < 16 || d.n > 256 || d.n % 16 != 0)
      return fail(
          llvm::formatv("{0} cta_group::2: N = {1}; expected 16..256 in steps of 16", kind, d.n));
  } else {
    return fail(llvm::formatv("cta_group = {0}; expected 1 or 2", d.ctaGroup));
  }
  if (d.sparsitySelector > 3)
    return fail(llvm::formatv("sparsity selector = {0}; expected 0..3", d.sparsitySelector));
  if (d.sparsitySelector != 0 && !d.sparse)
    return fail("sparsity selector set on a dense MMA");
  if (d.maxShift > 3)
    return fail(llvm::formatv("max shift = {0}; expected 0..3", d.maxShift));
  // Types (Table 42 values; Table 39 combinations) and per-kind rules.
  unsigned aField = 0, bField = 0, dField = 0;
  if (llvm::Error e = d.kind == Tcgen05Kind::F8F6F4 ? f8f6f4Fields(d, aField, bField, dField)
                                                    : f16Tf32Fields(d, aField, bField, dField))
    return std::move(e);

  uint32_t v = 0;
  v |= d.sparsitySelector;                    // 0-1
  v |= uint32_t(d.sparse) << 2;               // 2
  /* bit 3 saturate: 0 (NA: no i8 kind) */    //
  v |= dField << 4;                           // 4-5
  v |= aField << 7;                           // 7-9
  v |= bField << 10;                          // 10-12
  v |= uint32_t(d.negateA) << 13;             // 13
  v |= uint32_t(d.negateB) << 14;             // 14
  v |= uint32_t(d.aMajor == Major::MN) << 15; // 15
  v |= uint32_t(d.bMajor == Major::MN) << 16; // 16
  v |= (d.n >> 3) << 17;                      // 17-22
  v |= (d.m >> 4) << 24;                      // 24-28
  v |= d.maxShift << 30;                      // 30-31
  return v;
}

llvm::Expected<uint32_t> tilegen::encodeTcgen05InstrDescF16(MmaElem ab, MmaElem d, unsigned m,
                                                            unsigned n, unsigned ctaGroup,
                                                            Major aMajor, Major bMajor) {
  Tcgen05InstrDesc desc;
  desc.kind = Tcgen05Kind::F16;
  desc.aType = desc.bType = ab;
  desc.dType = d;
  desc.m = m;
  desc.n = n;
  desc.ctaGroup = ctaGroup;
  desc.aMajor = aMajor;
  desc.bMajor = bMajor;
  return encodeTcgen05InstrDesc(desc);
}

uint8_t tilegen::f8f6f4Container(unsigned bits, uint8_t code) {
  // .e2m1: bits 5..2; .e3m2 / .e2m3: bits 5..0 (9.7.14.5.14).
  if (bits == 4)
    return uint8_t((code & 0xF) << 2);
  return uint8_t(code & 0x3F);
}

llvm::Expected<uint32_t> tilegen::encodeTcgen05InstrDescF8F6F4(MmaElem a, MmaElem b, MmaElem d,
                                                               unsigned m, unsigned n,
                                                               unsigned ctaGroup, Major aMajor,
                                                               Major bMajor) {
  Tcgen05InstrDesc desc;
  desc.kind = Tcgen05Kind::F8F6F4;
  desc.aType = a;
  desc.bType = b;
  desc.dType = d;
  desc.m = m;
  desc.n = n;
  desc.ctaGroup = ctaGroup;
  desc.aMajor = aMajor;
  desc.bMajor = bMajor;
  return encodeTcgen05InstrDesc(desc);
}

llvm::Expected<unsigned> tilegen::tmemAllocColumns(unsigned needed) {
  if (needed == 0)
    return fail("tensor memory allocation of 0 columns; expected 1..512");
  if (needed > kTmemColumns)
    return fail(
        llvm::formatv("tensor memory needs {0} columns; a CTA has {1}", needed, kTmemColumns));
  return std::max(32u, unsigned(llvm::PowerOf2Ceil(needed)));
}

//===----------------------------------------------------------------------===//
// Block-scaled tcgen05.mma
//===----------------------------------------------------------------------===//

namespace {
const char *scaledKindName(Tcgen05ScaledKind k) {
  switch (k) {
  case Tcgen05ScaledKind::MXF8F6F4:
    return "kind::mxf8f6f4";
  case Tcgen05ScaledKind::MXF4:
    return "kind::mxf4";
  case Tcgen05ScaledKind::MXF4NVF4:
    return "kind::mxf4nvf4";
  }
  return "?";
}

const char *scaleVecName(ScaleVec v) {
  switch (v) {
  case ScaleVec::X1:
    return "scale_vec::1X";
  case ScaleVec::X2:
    return "scale_vec::2X";
  case ScaleVec::X4:
    return "scale_vec::4X";
  }
  return "?";
}

const char *scaleElemName(ScaleElem e) { return e == ScaleElem::UE8M0 ? "ue8m0" : "ue4m3"; }

/// 9.7.16.10.7.1: the (kind, scale type, scale_vec) triples the ISA allows.
llvm::Error checkScaleCombination(Tcgen05ScaledKind kind, ScaleElem se, ScaleVec vec) {
  bool ok = false;
  switch (kind) {
  case Tcgen05ScaledKind::MXF8F6F4:
    ok = se == ScaleElem::UE8M0 && vec == ScaleVec::X1;
    break;
  case Tcgen05ScaledKind::MXF4:
    ok = se == ScaleElem::UE8M0 && vec == ScaleVec::X2;
    break;
  case Tcgen05ScaledKind::MXF4NVF4:
    ok = (se == ScaleElem::UE8M0 && (vec == ScaleVec::X2 || vec == ScaleVec::X4)) ||
         (se == ScaleElem::UE4M3 && vec == ScaleVec::X4);
    break;
  }
  if (ok)
    return llvm::Error::success();
  return fail(llvm::formatv("{0}: scale type {1} with {2} is not a valid combination (mxf8f6f4: "
                            "ue8m0 1X; mxf4: ue8m0 2X; mxf4nvf4: ue8m0 2X or 4X, ue4m3 4X)",
                            scaledKindName(kind), scaleElemName(se), scaleVecName(vec)));
}

/// 9.7.16.10.7.2-3: the scale factor IDs a scale_vec allows.
llvm::Error checkScaleId(const char *which, ScaleVec vec, unsigned id) {
  bool ok = vec == ScaleVec::X1 ? id <= 3 : vec == ScaleVec::X2 ? (id == 0 || id == 2) : id == 0;
  if (ok)
    return llvm::Error::success();
  return fail(llvm::formatv("scale factor {0} ID = {1} with {2}; expected {3}", which, id,
                            scaleVecName(vec),
                            vec == ScaleVec::X1   ? "0..3 (a byte)"
                            : vec == ScaleVec::X2 ? "0 or 2 (a half word)"
                                                  : "0 (the whole word)"));
}
} // namespace

unsigned tilegen::tcgen05ScaledK(Tcgen05ScaledKind kind) {
  return kind == Tcgen05ScaledKind::MXF8F6F4 ? 32 : 64;
}

unsigned tilegen::tcgen05ScaleBlock(Tcgen05ScaledKind kind, ScaleVec vec) {
  return tcgen05ScaledK(kind) / unsigned(vec);
}

unsigned tilegen::tcgen05SmemElemBits(Tcgen05ScaledKind kind) {
  return kind == Tcgen05ScaledKind::MXF8F6F4 ? 8 : 4;
}

llvm::Expected<uint32_t> tilegen::encodeTcgen05ScaledInstrDesc(const Tcgen05ScaledInstrDesc &d) {
  const char *kind = scaledKindName(d.kind);
  // Shapes (Table 39, dense, no .ws).
  if (d.ctaGroup == 1) {
    if (d.m != 128)
      return fail(llvm::formatv("{0} cta_group::1: M = {1}; expected 128", kind, d.m));
    if (d.n < 8 || d.n > 256 || d.n % 8 != 0)
      return fail(
          llvm::formatv("{0} cta_group::1: N = {1}; expected 8..256 in steps of 8", kind, d.n));
  } else if (d.ctaGroup == 2) {
    if (d.m != 128 && d.m != 256)
      return fail(llvm::formatv("{0} cta_group::2: M = {1}; expected 128 or 256", kind, d.m));
    if (d.n < 16 || d.n > 256 || d.n % 16 != 0)
      return fail(
          llvm::formatv("{0} cta_group::2: N = {1}; expected 16..256 in steps of 16", kind, d.n));
  } else {
    return fail(llvm::formatv("cta_group = {0}; expected 1 or 2", d.ctaGroup));
  }
  if (llvm::Error e = checkScaleCombination(d.kind, d.scaleType, d.scaleVec))
    return std::move(e);
  if (llvm::Error e = checkScaleId("A", d.scaleVec, d.sfaId))
    return std::move(e);
  if (llvm::Error e = checkScaleId("B", d.scaleVec, d.sfbId))
    return std::move(e);

  unsigned aField = 0, bField = 0;
  if (d.kind == Tcgen05ScaledKind::MXF8F6F4) {
    // Same type codes and major-ness rules as kind::f8f6f4 (Tables 42/43, 52, 54); D is f32.
    Tcgen05InstrDesc plain;
    plain.kind = Tcgen05Kind::F8F6F4;
    plain.aType = d.aType;
    plain.bType = d.bType;
    plain.dType = MmaElem::F32;
    plain.n = d.n;
    plain.ctaGroup = d.ctaGroup;
    plain.aMajor = d.aMajor;
    plain.bMajor = d.bMajor;
    unsigned dField = 0;
    if (llvm::Error e = f8f6f4Fields(plain, aField, bField, dField)) {
      std::string msg = llvm::toString(std::move(e));
      llvm::StringRef rest(msg);
      rest.consume_front("kind::f8f6f4");
      return fail(llvm::Twine(kind) + rest);
    }
  } else {
    // mxf4 / mxf4nvf4: E2M1 = 1 for both; no transpose (Table 44 "No Transpose = 0" only).
    if (d.aType != MmaElem::E2M1 || d.bType != MmaElem::E2M1)
      return fail(llvm::formatv("{0}: A type {1}, B type {2}; both must be e2m1", kind,
                                elemName(d.aType), elemName(d.bType)));
    if (d.aMajor == Major::MN || d.bMajor == Major::MN)
      return fail(llvm::formatv("{0}: {1} is MN-major; this kind reads K-major operands only "
                                "(the transpose bits must be 0)",
                                kind, d.aMajor == Major::MN ? "A" : "B"));
    aField = bField = 1;
  }

  uint32_t v = 0;
  /* bits 0-1 reserved; bit 2 sparse: dense */ //
  v |= d.sfbId << 4;                            // 4-5
  v |= aField << 7;                             // 7-9
  v |= bField << 10;                            // 10-12 (10-11 for mxf4/mxf4nvf4)
  v |= uint32_t(d.negateA) << 13;               // 13
  v |= uint32_t(d.negateB) << 14;               // 14
  v |= uint32_t(d.aMajor == Major::MN) << 15;   // 15
  v |= uint32_t(d.bMajor == Major::MN) << 16;   // 16
  v |= (d.n >> 3) << 17;                        // 17-22
  v |= uint32_t(d.scaleType == ScaleElem::UE8M0) << 23; // 23
  v |= (d.m >> 7) << 27;                        // 27-28
  v |= d.sfaId << 29;                           // 29-30
  /* bit 31: K = 64 (mxf4/mxf4nvf4) or reserved (mxf8f6f4): 0 */
  return v;
}

llvm::Expected<uint32_t> tilegen::scaleAtomOffset(unsigned row, unsigned block) {
  if (row >= kScaleAtomRows || block >= kScaleAtomBlocks)
    return fail(llvm::formatv("scale atom position (row {0}, block {1}) is outside 128 x 4", row,
                              block));
  return (row % 32) * 16 + (row / 32) * 4 + block;
}

llvm::Expected<ScaleStep> tilegen::tcgen05ScaleStep(Tcgen05ScaledKind kind, ScaleVec vec,
                                                    unsigned mmaIndex) {
  // The scale_vec sizes each kind allows (9.7.16.10.7.1), whatever the scale type.
  if (llvm::Error e = checkScaleCombination(kind,
                                            vec == ScaleVec::X4 ? ScaleElem::UE4M3
                                                                : ScaleElem::UE8M0,
                                            vec))
    return std::move(e);
  switch (vec) {
  case ScaleVec::X1:
    return ScaleStep{mmaIndex / 4, mmaIndex % 4};
  case ScaleVec::X2:
    return ScaleStep{mmaIndex / 2, 2 * (mmaIndex % 2)};
  case ScaleVec::X4:
    return ScaleStep{mmaIndex, 0};
  }
  return fail("unknown scale_vec");
}

llvm::Expected<uint64_t> tilegen::encodeTcgen05ScaleCopyDesc(uint32_t smemAddr) {
  return encodeTcgen05SmemDesc(smemAddr, /*lbo=*/0, /*sbo=*/128, Swizzle::None);
}

//===----------------------------------------------------------------------===//
// Block-scaled mma.sync (sm_120a)
//===----------------------------------------------------------------------===//

llvm::Expected<unsigned> tilegen::mmaSyncScaleLaneA(unsigned row, unsigned tid) {
  if (row >= 16)
    return fail(llvm::formatv("scale_A row = {0}; an m16n8 MMA has rows 0..15", row));
  if (tid > 1)
    return fail(llvm::formatv("thread-id-a = {0}; expected 0 or 1", tid));
  return 4 * (row % 8) + 2 * tid + row / 8;
}

llvm::Expected<unsigned> tilegen::mmaSyncScaleLaneB(unsigned col, unsigned tid) {
  if (col >= 8)
    return fail(llvm::formatv("scale_B column = {0}; an m16n8 MMA has columns 0..7", col));
  if (tid > 3)
    return fail(llvm::formatv("thread-id-b = {0}; expected 0..3", tid));
  return 4 * col + tid;
}

llvm::Error tilegen::checkMmaSyncScaleByteId(ScaleVec vec, unsigned byteId) {
  // Table 37: byte-id 0..3 with 1X, 0 or 2 with 2X, 0 with 4X.
  bool ok = vec == ScaleVec::X1   ? byteId <= 3
            : vec == ScaleVec::X2 ? (byteId == 0 || byteId == 2)
                                  : byteId == 0;
  if (ok)
    return llvm::Error::success();
  return fail(llvm::formatv("byte-id = {0} with {1}; expected {2}", byteId, scaleVecName(vec),
                            vec == ScaleVec::X1   ? "0..3"
                            : vec == ScaleVec::X2 ? "0 or 2"
                                                  : "0"));
}
