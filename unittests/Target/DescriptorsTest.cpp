//===- DescriptorsTest.cpp - descriptor encoders vs the PTX ISA tables ----===//
//
// Every expected value below is worked out by hand from the PTX ISA 9.1 tables cited next to
// it (section numbers as in the CUDA 13.0 PTX ISA), not computed by the code under test.
// Prints one line per failure and a final "N passed, M failed"; exits 1 on any failure.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Target/Descriptors.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilegen;

static unsigned passed = 0, failed = 0;

template <typename T>
static void expectValue(llvm::Expected<T> got, uint64_t want, const char *what, int line) {
  if (!got) {
    llvm::errs() << "FAIL line " << line << ": " << what
                 << ": unexpected error: " << llvm::toString(got.takeError()) << "\n";
    ++failed;
    return;
  }
  if (uint64_t(*got) != want) {
    llvm::errs() << "FAIL line " << line << ": " << what << ": got "
                 << llvm::format_hex(uint64_t(*got), 18) << ", expected "
                 << llvm::format_hex(want, 18) << "\n";
    ++failed;
    return;
  }
  ++passed;
}

template <typename T>
static void expectError(llvm::Expected<T> got, llvm::StringRef needle, const char *what, int line) {
  if (got) {
    llvm::errs() << "FAIL line " << line << ": " << what << ": expected an error containing '"
                 << needle << "', got a value\n";
    ++failed;
    return;
  }
  std::string msg = llvm::toString(got.takeError());
  if (!llvm::StringRef(msg).contains(needle)) {
    llvm::errs() << "FAIL line " << line << ": " << what << ": error '" << msg
                 << "' does not contain '" << needle << "'\n";
    ++failed;
    return;
  }
  ++passed;
}

static void expectTrue(bool ok, const char *what, int line) {
  if (!ok) {
    llvm::errs() << "FAIL line " << line << ": " << what << "\n";
    ++failed;
    return;
  }
  ++passed;
}

#define EXPECT_VALUE(expr, want) expectValue((expr), (want), #expr, __LINE__)
#define EXPECT_ERROR(expr, needle) expectError((expr), (needle), #expr, __LINE__)
#define EXPECT_TRUE(expr) expectTrue((expr), #expr, __LINE__)

//===----------------------------------------------------------------------===//
// Canonical strides and offsets: 9.7.15.5.1.2.1.1-3 (wgmma), 9.7.16.3.1-3 (tcgen05)
//===----------------------------------------------------------------------===//

static void testCanonicalLayouts() {
  auto lbo = [](llvm::Expected<SmemStrides> s) -> llvm::Expected<uint32_t> {
    if (!s)
      return s.takeError();
    return s->lboBytes;
  };
  auto sbo = [](llvm::Expected<SmemStrides> s) -> llvm::Expected<uint32_t> {
    if (!s)
      return s.takeError();
    return s->sboBytes;
  };

  // K-major 128B swizzle, bf16 128x64: a row of the atom is 64 x 2 B = 128 B; SBO = offset of
  // the next 8-row group = 8 x 128 = 1024; LBO "not used, assumed to be 1" -> 16 bytes.
  EXPECT_VALUE(sbo(canonicalStrides(Major::K, Swizzle::B128, 2, 128, 64)), 1024);
  EXPECT_VALUE(lbo(canonicalStrides(Major::K, Swizzle::B128, 2, 128, 64)), 16);
  // K-major 64B, bf16 64x32: SBO = 8 x 64 = 512.  32B, f16 64x16: SBO = 8 x 32 = 256.
  EXPECT_VALUE(sbo(canonicalStrides(Major::K, Swizzle::B64, 2, 64, 32)), 512);
  EXPECT_VALUE(sbo(canonicalStrides(Major::K, Swizzle::B32, 2, 64, 16)), 256);
  // ISA example (9.7.15.5.1.2.1.3, Figure 166): K-major, no swizzle, tf32, T = 4, m = 2
  // (16 rows), k = 2 (8 K elements): LBO = 64 x sizeof(tf32) = 256, SBO = 32 x 4 = 128.
  // Our panel layout (16-byte K chunk outermost) is exactly that layout.
  EXPECT_VALUE(lbo(canonicalStrides(Major::K, Swizzle::None, 4, 16, 8)), 256);
  EXPECT_VALUE(sbo(canonicalStrides(Major::K, Swizzle::None, 4, 16, 8)), 128);
  // No swizzle, bf16 64 rows: next 16-byte K chunk = next panel = 64 x 16 = 1024.
  EXPECT_VALUE(lbo(canonicalStrides(Major::K, Swizzle::None, 2, 64, 16)), 1024);
  // MN-major 128B, bf16, 64 K rows x 128 N: panel = 64 x 128 B = 8192 = LBO (next 64 N
  // elements); SBO = next 8 K rows = 8 x 128 = 1024.
  EXPECT_VALUE(lbo(canonicalStrides(Major::MN, Swizzle::B128, 2, 64, 128)), 8192);
  EXPECT_VALUE(sbo(canonicalStrides(Major::MN, Swizzle::B128, 2, 64, 128)), 1024);
  // Rejections.
  EXPECT_ERROR(canonicalStrides(Major::K, Swizzle::B128, 2, 60, 64),
               "not a positive multiple of 8");
  EXPECT_ERROR(canonicalStrides(Major::K, Swizzle::B128, 2, 64, 32), "swizzle span");
  EXPECT_ERROR(canonicalStrides(Major::MN, Swizzle::None, 2, 64, 64), "needs a swizzled layout");
  EXPECT_ERROR(canonicalStrides(Major::K, Swizzle::B128, 3, 64, 64), "element size");
  // 2048 K rows x 128 B = 0x40000 bytes: one past the 14-bit encoded field.
  EXPECT_ERROR(canonicalStrides(Major::MN, Swizzle::B128, 2, 2048, 64), "14-bit");

  // Offsets. K-major 128B bf16 128x64: K-slice k (16 elements = 32 B) starts 32k bytes in;
  // rows 64.. (second wgmma warpgroup) start 64 x 128 = 8192 bytes in.
  EXPECT_VALUE(canonicalOffsetBytes(Major::K, Swizzle::B128, 2, 128, 64, 0, 16), 32);
  EXPECT_VALUE(canonicalOffsetBytes(Major::K, Swizzle::B128, 2, 128, 64, 0, 48), 96);
  EXPECT_VALUE(canonicalOffsetBytes(Major::K, Swizzle::B128, 2, 128, 64, 64, 0), 8192);
  EXPECT_VALUE(canonicalOffsetBytes(Major::K, Swizzle::B128, 2, 128, 64, 64, 48), 8192 + 96);
  // K = 128 bf16 is two 128-byte panels: element 64 is panel 1 = 128 rows x 128 B = 16384;
  // element 80 is 32 B further.
  EXPECT_VALUE(canonicalOffsetBytes(Major::K, Swizzle::B128, 2, 128, 128, 0, 64), 16384);
  EXPECT_VALUE(canonicalOffsetBytes(Major::K, Swizzle::B128, 2, 128, 128, 0, 80), 16416);
  // tf32 (kind::tf32, K = 8): slice 1 is 8 x 4 B = 32 B in.
  EXPECT_VALUE(canonicalOffsetBytes(Major::K, Swizzle::B128, 4, 128, 32, 0, 8), 32);
  // No swizzle, bf16 64x32: slice 1 starts at byte 32 of K = 16-byte chunk 2 = 2 x 64 x 16.
  EXPECT_VALUE(canonicalOffsetBytes(Major::K, Swizzle::None, 2, 64, 32, 0, 16), 2048);
  // MN-major 128B bf16 64x128: K-slice 1 = K row 16 = 16 x 128 B; N 64.. = panel 1 = 8192.
  EXPECT_VALUE(canonicalOffsetBytes(Major::MN, Swizzle::B128, 2, 64, 128, 16, 0), 2048);
  EXPECT_VALUE(canonicalOffsetBytes(Major::MN, Swizzle::B128, 2, 64, 128, 0, 64), 8192);
  EXPECT_ERROR(canonicalOffsetBytes(Major::K, Swizzle::B128, 2, 128, 64, 4, 0), "row = 4");
  EXPECT_ERROR(canonicalOffsetBytes(Major::K, Swizzle::B128, 2, 128, 64, 0, 4), "element = 4");
  EXPECT_ERROR(canonicalOffsetBytes(Major::K, Swizzle::B128, 2, 128, 64, 0, 64), "element = 64");

  // Repeat boundaries and base offset (9.7.15.5.1.2.2 / Table 41): 1024 / 512 / 256 bytes;
  // otherwise base offset = (start >> 7) & 7.
  EXPECT_TRUE(swizzleRepeatBytes(Swizzle::B128) == 1024);
  EXPECT_TRUE(swizzleRepeatBytes(Swizzle::B64) == 512);
  EXPECT_TRUE(swizzleRepeatBytes(Swizzle::B32) == 256);
  EXPECT_TRUE(swizzleBaseOffset(Swizzle::B128, 0x1000) == 0);
  // 0x1180: 0x180 past a 1024 boundary; 0x1180 >> 7 = 0x23, & 7 = 3.
  EXPECT_TRUE(swizzleBaseOffset(Swizzle::B128, 0x1180) == 3);
  EXPECT_TRUE(swizzleBaseOffset(Swizzle::B64, 0x1200) == 0);
  // 0x1080: 0x80 past a 256 boundary; 0x1080 >> 7 = 0x21, & 7 = 1.
  EXPECT_TRUE(swizzleBaseOffset(Swizzle::B32, 0x1080) == 1);
  EXPECT_TRUE(swizzleBaseOffset(Swizzle::None, 0x1080) == 0);
}

//===----------------------------------------------------------------------===//
// wgmma matrix descriptor: 9.7.15.5.1.2.2 "Matrix Descriptor Format"
//   13-0 start>>4 | 29-16 LBO>>4 | 45-32 SBO>>4 | 51-49 base offset | 63-62 swizzle
//   swizzle: 0 none, 1 128B, 2 64B, 3 32B
//===----------------------------------------------------------------------===//

static void testWgmmaDesc() {
  // bf16 K-major 128x64 tile at smem 0x400, 128B swizzle: start = 0x400 >> 4 = 0x40;
  // LBO = 16 >> 4 = 1 -> 1 << 16 = 0x10000; SBO = 1024 >> 4 = 0x40 -> 0x40 << 32;
  // swizzle 1 << 62 = 0x4000000000000000.
  EXPECT_VALUE(encodeWgmmaSmemDesc(0x400, 16, 1024, Swizzle::B128), 0x4000004000010040ull);
  // K-slice 1 and 3 of the same tile: start + 32 and + 96 -> 0x42 and 0x46.
  EXPECT_VALUE(encodeWgmmaSmemDesc(0x400 + 32, 16, 1024, Swizzle::B128), 0x4000004000010042ull);
  EXPECT_VALUE(encodeWgmmaSmemDesc(0x400 + 96, 16, 1024, Swizzle::B128), 0x4000004000010046ull);
  // No swizzle, bf16 64x16 at 0x2000: start 0x200; LBO 1024 >> 4 = 0x40 -> 0x400000;
  // SBO 128 >> 4 = 8 -> 0x800000000; swizzle 0.
  EXPECT_VALUE(encodeWgmmaSmemDesc(0x2000, 1024, 128, Swizzle::None), 0x0000000800400200ull);
  // Swizzle field alone: 64B = 2 << 62, 32B = 3 << 62.
  EXPECT_VALUE(encodeWgmmaSmemDesc(0, 0, 0, Swizzle::B64), 0x8000000000000000ull);
  EXPECT_VALUE(encodeWgmmaSmemDesc(0, 0, 0, Swizzle::B32), 0xC000000000000000ull);
  EXPECT_VALUE(encodeWgmmaSmemDesc(0, 0, 0, Swizzle::None), 0);
  // ISA example, MN-major 32B bf16 (Figure 169): LBO = 128 x 2 = 256 -> encoded 16 (bits
  // 16.. = 0x100000), SBO = 256 x 2 = 512 -> encoded 32 (0x20 << 32).
  EXPECT_VALUE(encodeWgmmaSmemDesc(0, 256, 512, Swizzle::B32), 0xC000002000100000ull);
  // Base offset 3 (pattern at 0x1180): 3 << 49 = 0x0006000000000000.
  EXPECT_VALUE(encodeWgmmaSmemDesc(0x1180, 16, 1024, Swizzle::B128, 3), 0x4006004000010118ull);
  // Every field at its maximum: 0x3FFF0 >> 4 = 0x3FFF three times, base 7 << 49 =
  // 0x000E000000000000, 32B = 0xC000000000000000.
  EXPECT_VALUE(encodeWgmmaSmemDesc(0x3FFF0, 0x3FFF0, 0x3FFF0, Swizzle::B32, 7),
               0xC00E3FFF3FFF3FFFull);
  // Rejections: misaligned start/LBO/SBO, past the 18-bit address window, base offset > 7,
  // base offset without swizzle, the sm_100-only swizzle.
  EXPECT_ERROR(encodeWgmmaSmemDesc(0x408, 16, 1024, Swizzle::B128),
               "start address = 0x408 is not 16-byte aligned");
  EXPECT_ERROR(encodeWgmmaSmemDesc(0x400, 8, 1024, Swizzle::B128), "leading dimension byte offset");
  EXPECT_ERROR(encodeWgmmaSmemDesc(0x400, 16, 1000, Swizzle::B128), "stride dimension byte offset");
  EXPECT_ERROR(encodeWgmmaSmemDesc(0x40000, 16, 1024, Swizzle::B128),
               "does not fit the 14-bit field");
  EXPECT_ERROR(encodeWgmmaSmemDesc(0x400, 16, 0x40000, Swizzle::B128),
               "does not fit the 14-bit field");
  EXPECT_ERROR(encodeWgmmaSmemDesc(0x400, 16, 1024, Swizzle::B128, 8), "base offset = 8");
  EXPECT_ERROR(encodeWgmmaSmemDesc(0x400, 16, 1024, Swizzle::None, 1), "needs a swizzled layout");
  EXPECT_ERROR(encodeWgmmaSmemDesc(0x400, 16, 1024, Swizzle::B128Atom32B), "no wgmma encoding");
}

//===----------------------------------------------------------------------===//
// tcgen05 shared memory descriptor: 9.7.16.4.1, Table 40
//   0-13 start>>4 | 16-29 LBO>>4 | 32-45 SBO>>4 | 46-48 0b001 | 49-51 base offset |
//   52 LBO mode | 53-60 0 | 61-63 swizzle: 0 none, 1 128B/32B atom, 2 128B, 4 64B, 6 32B
//===----------------------------------------------------------------------===//

static void testTcgen05SmemDesc() {
  // Same bf16 128x64 128B tile at 0x400: 0x40 | 1 << 16 | 0x40 << 32 | 1 << 46
  // (0x0000400000000000) | 2 << 61 (0x4000000000000000).
  EXPECT_VALUE(encodeTcgen05SmemDesc(0x400, 16, 1024, Swizzle::B128), 0x4000404000010040ull);
  // Fixed bit 46 alone with no swizzle; each swizzle code at 61-63.
  EXPECT_VALUE(encodeTcgen05SmemDesc(0, 0, 0, Swizzle::None), 0x0000400000000000ull);
  EXPECT_VALUE(encodeTcgen05SmemDesc(0, 0, 0, Swizzle::B128Atom32B), 0x2000400000000000ull);
  EXPECT_VALUE(encodeTcgen05SmemDesc(0, 0, 0, Swizzle::B64), 0x8000400000000000ull);
  EXPECT_VALUE(encodeTcgen05SmemDesc(0, 0, 0, Swizzle::B32), 0xC000400000000000ull);
  // Maximum fields, LBO absolute: 0x3FFF | 0x3FFF << 16 | 0x3FFF << 32 | 1 << 46 | 7 << 49 |
  // 1 << 52 | 6 << 61 = 0xC01E7FFF3FFF3FFF (byte 6 = 0x1E: bits 49-52; byte 5 = 0x7F: SBO's
  // bits 40-45 and the fixed bit 46; bits 47, 48 and 53-60 clear).
  EXPECT_VALUE(encodeTcgen05SmemDesc(0x3FFF0, 0x3FFF0, 0x3FFF0, Swizzle::B32, 7, true),
               0xC01E7FFF3FFF3FFFull);
  EXPECT_ERROR(encodeTcgen05SmemDesc(0x404, 16, 1024, Swizzle::B128), "not 16-byte aligned");
  EXPECT_ERROR(encodeTcgen05SmemDesc(0x400, 16, 1024, Swizzle::B128, 8), "base offset = 8");
  EXPECT_ERROR(encodeTcgen05SmemDesc(0x400, 16, 1024, Swizzle::None, 2), "needs a swizzled layout");
}

//===----------------------------------------------------------------------===//
// tcgen05 instruction descriptor: 9.7.16.4.2, Table 42; shapes 9.7.16.2.1, Table 39
//   0-1 sparsity selector | 2 sparse | 3 saturate | 4-5 dtype (F16 0, F32 1) | 6 reserved |
//   7-9 atype | 10-12 btype (F16 0, BF16 1, TF32 2) | 13 negate A | 14 negate B |
//   15 transpose A | 16 transpose B | 17-22 N>>3 | 23 reserved | 24-28 M>>4 | 29 reserved |
//   30-31 max shift
//===----------------------------------------------------------------------===//

static void testTcgen05InstrDesc() {
  // bf16 x bf16 -> f32, M = 128, N = 256, K-major: dtype 1 << 4 = 0x10; atype 1 << 7 = 0x80;
  // btype 1 << 10 = 0x400; N >> 3 = 32 -> 32 << 17 = 0x400000; M >> 4 = 8 -> 0x08000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 128, 256), 0x08400490u);
  // f16 x f16 -> f16, M = 64, N = 8: N >> 3 = 1 -> 0x20000; M >> 4 = 4 -> 0x04000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF16(MmaElem::F16, MmaElem::F16, 64, 8), 0x04020000u);
  // f16 -> f32, 128x128, both MN-major: 0x10 | 1 << 15 | 1 << 16 | 16 << 17 (0x200000) |
  // 0x08000000.
  EXPECT_VALUE(
      encodeTcgen05InstrDescF16(MmaElem::F16, MmaElem::F32, 128, 128, 1, Major::MN, Major::MN),
      0x08218010u);
  // Only B MN-major (row-major KxN B): bit 16 alone of the two.
  EXPECT_VALUE(
      encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 128, 256, 1, Major::K, Major::MN),
      0x08410490u);
  // cta_group::2, bf16 -> f32, M = 256, N = 256: M >> 4 = 16 -> 16 << 24 = 0x10000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 256, 256, 2), 0x10400490u);
  // kind::tf32, 128x64: atype = btype = 2 -> 0x100 | 0x800; dtype 0x10; 8 << 17 = 0x100000.
  {
    Tcgen05InstrDesc d;
    d.kind = Tcgen05Kind::TF32;
    d.aType = d.bType = MmaElem::TF32;
    d.n = 64;
    EXPECT_VALUE(encodeTcgen05InstrDesc(d), 0x08100910u);
  }
  // Every flag: selector 3 | sparse 1 << 2 | 0x10 | 0x80 | 0x400 | negate 1 << 13 and 1 << 14 |
  // N = 8 -> 0x20000 | M = 128 -> 0x08000000 | max shift 3 << 30 = 0xC8026497.
  {
    Tcgen05InstrDesc d;
    d.n = 8;
    d.sparse = true;
    d.sparsitySelector = 3;
    d.negateA = d.negateB = true;
    d.maxShift = 3;
    EXPECT_VALUE(encodeTcgen05InstrDesc(d), 0xC8026497u);
  }

  // Table 39, cta_group::1: every N = 8..256 step 8 is legal and lands in bits 17-22 with
  // bit 23 clear; anything else is rejected.
  for (unsigned n = 8; n <= 256; n += 8) {
    auto v = encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 128, n);
    EXPECT_TRUE(v && ((*v >> 17) & 0x3F) == n / 8 && !(*v & (1u << 23)));
    if (!v)
      llvm::consumeError(v.takeError());
  }
  for (unsigned n : {0u, 4u, 12u, 260u, 264u})
    EXPECT_ERROR(encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 128, n),
                 "expected 8..256 in steps of 8");
  // cta_group::2: N = 16..256 step 16.
  for (unsigned n = 16; n <= 256; n += 16) {
    auto v = encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 256, n, 2);
    EXPECT_TRUE(v && ((*v >> 17) & 0x3F) == n / 8 && ((*v >> 24) & 0x1F) == 16);
    if (!v)
      llvm::consumeError(v.takeError());
  }
  for (unsigned n : {8u, 24u, 272u})
    EXPECT_ERROR(encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 128, n, 2),
                 "expected 16..256 in steps of 16");
  // M: {64, 128} for cta_group::1, {128, 256} for cta_group::2.
  // M = 128, N = 64 under cta_group::2: 8 << 17 = 0x100000, 8 << 24.
  EXPECT_VALUE(encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 128, 64, 2), 0x08100490u);
  EXPECT_ERROR(encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 256, 64, 1),
               "M = 256; expected 64 or 128");
  EXPECT_ERROR(encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 32, 64, 1), "M = 32");
  EXPECT_ERROR(encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 64, 64, 2),
               "M = 64; expected 128 or 256");
  EXPECT_ERROR(encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F32, 128, 64, 3), "cta_group = 3");
  // Types.
  EXPECT_ERROR(encodeTcgen05InstrDescF16(MmaElem::BF16, MmaElem::F16, 128, 64),
               "D type f16 with bf16 inputs");
  EXPECT_ERROR(encodeTcgen05InstrDescF16(MmaElem::TF32, MmaElem::F32, 128, 64),
               "expected f16 or bf16");
  {
    Tcgen05InstrDesc d;
    d.aType = MmaElem::F16;
    EXPECT_ERROR(encodeTcgen05InstrDesc(d), "A type f16 and B type bf16 differ");
    d = Tcgen05InstrDesc();
    d.kind = Tcgen05Kind::TF32;
    d.aType = d.bType = MmaElem::TF32;
    d.dType = MmaElem::F16;
    EXPECT_ERROR(encodeTcgen05InstrDesc(d), "kind::tf32: D type f16");
    d = Tcgen05InstrDesc();
    d.sparsitySelector = 1;
    EXPECT_ERROR(encodeTcgen05InstrDesc(d), "dense");
    d = Tcgen05InstrDesc();
    d.maxShift = 4;
    EXPECT_ERROR(encodeTcgen05InstrDesc(d), "max shift = 4");
  }
}

//===----------------------------------------------------------------------===//
// tcgen05 instruction descriptor, .kind::f8f6f4: 9.7.16.4.2, Table 42 (.kind::f8f6f4 column)
//   atype 7-9 / btype 10-12: E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5 (A and B independent)
//   dtype 4-5: F16 0, F32 1.  Every other field as for kind::f16.
// Shapes: Table 39, the same M/N rows as kind::f16 (K = 32). Transpose: Table 51 (allowed),
// Table 54 (only 8-bit types may be MN-major), Table 52 (N with an 8-bit MN-major B).
// Sparsity selector: 9.7.16.10.8.4.5-6 (must be 0).
//===----------------------------------------------------------------------===//

static void testTcgen05InstrDescF8F6F4() {
  // e4m3 x e4m3 -> f32, M = 128, N = 256, K-major: dtype 1 << 4 = 0x10; atype = btype = 0;
  // N >> 3 = 32 -> 32 << 17 = 0x400000; M >> 4 = 8 -> 8 << 24 = 0x08000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 128, 256),
               0x08400010u);
  // Mixed e5m2 x e4m3 -> f32, 128x256: atype 1 << 7 = 0x80.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E5M2, MmaElem::E4M3, MmaElem::F32, 128, 256),
               0x08400090u);
  // And the other way round, e4m3 x e5m2: btype 1 << 10 = 0x400.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E5M2, MmaElem::F32, 128, 256),
               0x08400410u);
  // f16 accumulator, e4m3 x e4m3 -> f16, 128x128: dtype 0; 16 << 17 = 0x200000; 0x08000000.
  // Bit for bit the kind::f16 f16 x f16 -> f16 128x128 descriptor: the kind is a modifier of
  // the instruction, not a descriptor field, and E4M3 and F16 are both 0 in their columns.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F16, 128, 128),
               0x08200000u);
  EXPECT_VALUE(encodeTcgen05InstrDescF16(MmaElem::F16, MmaElem::F16, 128, 128), 0x08200000u);
  // cta_group::2, M = 256, N = 256: M >> 4 = 16 -> 0x10000000; 0x400000; 0x10.
  EXPECT_VALUE(
      encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 256, 256, 2),
      0x10400010u);
  // cta_group::2, M = 128, N = 16 (the smallest N): 2 << 17 = 0x40000; 8 << 24.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E5M2, MmaElem::E5M2, MmaElem::F32, 128, 16, 2),
               0x08040490u);
  // cta_group::1, M = 64, N = 8 (the smallest shape): 1 << 17 = 0x20000; 4 << 24 = 0x04000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 64, 8),
               0x04020010u);
  // 6-bit: e2m3 x e3m2 -> f32, 128x64: atype 3 << 7 = 0x180; btype 4 << 10 = 0x1000; 0x10;
  // 8 << 17 = 0x100000; 0x08000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E2M3, MmaElem::E3M2, MmaElem::F32, 128, 64),
               0x08101190u);
  // 4-bit: e2m1 x e2m1 -> f32, 128x256: 5 << 7 = 0x280; 5 << 10 = 0x1400; 0x10; 0x400000;
  // 0x08000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E2M1, MmaElem::E2M1, MmaElem::F32, 128, 256),
               0x08401690u);
  // Every A x B pair is legal and lands in bits 7-9 and 10-12 (Table 42 values by hand).
  {
    const MmaElem types[] = {MmaElem::E4M3, MmaElem::E5M2, MmaElem::E2M3, MmaElem::E3M2,
                             MmaElem::E2M1};
    const unsigned field[] = {0, 1, 3, 4, 5};
    for (unsigned i = 0; i < 5; ++i)
      for (unsigned j = 0; j < 5; ++j) {
        auto v = encodeTcgen05InstrDescF8F6F4(types[i], types[j], MmaElem::F32, 128, 256);
        EXPECT_TRUE(v && ((*v >> 7) & 7) == field[i] && ((*v >> 10) & 7) == field[j] &&
                    (*v & ~0x1F80u) == 0x08400010u);
        if (!v)
          llvm::consumeError(v.takeError());
      }
  }
  // Both 8-bit operands MN-major, e4m3 x e5m2, 128x256: 0x10 | 0x400 | 1 << 15 (0x8000) |
  // 1 << 16 (0x10000) | 0x400000 | 0x08000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E5M2, MmaElem::F32, 128, 256, 1,
                                            Major::MN, Major::MN),
               0x08418410u);
  // Table 52 lower bounds with an MN-major 8-bit B: cta_group::1 N = 16, M = 64:
  // 0x10 | 0x10000 | 2 << 17 (0x40000) | 0x04000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 64, 16, 1,
                                            Major::K, Major::MN),
               0x04050010u);
  // cta_group::2 N = 32, M = 128: 0x10 | 0x10000 | 4 << 17 (0x80000) | 0x08000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 128, 32, 2,
                                            Major::K, Major::MN),
               0x08090010u);
  // Table 52 constrains B only: an MN-major A with N = 8 is legal. 64x8: 0x10 | 0x8000 |
  // 0x20000 | 0x04000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 64, 8, 1,
                                            Major::MN, Major::K),
               0x04028010u);
  // An MN-major 8-bit operand next to a K-major 4-bit one: e2m1 A (K) x e4m3 B (MN), 128x256:
  // 0x280 | 0x10 | 0x10000 | 0x400000 | 0x08000000.
  EXPECT_VALUE(encodeTcgen05InstrDescF8F6F4(MmaElem::E2M1, MmaElem::E4M3, MmaElem::F32, 128, 256, 1,
                                            Major::K, Major::MN),
               0x08410290u);
  // Negate A and B (Table 51: supported) and a dense-to-sparse flip with selector 0:
  // 0x10 | 1 << 13 (0x2000) | 1 << 14 (0x4000) | 1 << 2 | 0x400000 | 0x08000000.
  {
    Tcgen05InstrDesc d;
    d.kind = Tcgen05Kind::F8F6F4;
    d.aType = d.bType = MmaElem::E4M3;
    d.negateA = d.negateB = true;
    d.sparse = true;
    EXPECT_VALUE(encodeTcgen05InstrDesc(d), 0x08406014u);
  }

  // Rejections, one per rule.
  // Types of another kind under kind::f8f6f4 (Table 39 / 42).
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::F16, MmaElem::F16, MmaElem::F32, 128, 256),
               "kind::f8f6f4: A type f16; expected e4m3, e5m2, e2m3, e3m2 or e2m1");
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::BF16, MmaElem::F32, 128, 256),
               "kind::f8f6f4: B type bf16");
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::TF32, MmaElem::E4M3, MmaElem::F32, 128, 256),
               "A type tf32");
  // D: only f32 or f16.
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::BF16, 128, 256),
               "kind::f8f6f4: D type bf16; expected f32 or f16");
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::E4M3, 128, 256),
               "D type e4m3");
  // The FP8 types under kind::f16, same and mixed.
  EXPECT_ERROR(encodeTcgen05InstrDescF16(MmaElem::E4M3, MmaElem::F32, 128, 256),
               "kind::f16: A/B type e4m3; expected f16 or bf16");
  {
    Tcgen05InstrDesc d;
    d.aType = MmaElem::E5M2;
    d.bType = MmaElem::E4M3;
    EXPECT_ERROR(encodeTcgen05InstrDesc(d), "kind::f16: A type e5m2 and B type e4m3 differ");
  }
  // Table 54: 6- and 4-bit operands must be K-major.
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E2M1, MmaElem::E4M3, MmaElem::F32, 128, 256, 1,
                                            Major::MN, Major::K),
               "A type e2m1 (4-bit) is MN-major");
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E3M2, MmaElem::F32, 128, 256, 1,
                                            Major::K, Major::MN),
               "B type e3m2 (6-bit) is MN-major");
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E2M3, MmaElem::E4M3, MmaElem::F32, 128, 256, 1,
                                            Major::MN, Major::K),
               "A type e2m3 (6-bit)");
  // Table 52: MN-major 8-bit B, N off the 16 (cta_group::1) / 32 (cta_group::2) grid.
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 128, 8, 1,
                                            Major::K, Major::MN),
               "cta_group::1: N = 8 with an MN-major 8-bit B; expected 16..256 in steps of 16");
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 128, 24, 1,
                                            Major::K, Major::MN),
               "N = 24 with an MN-major 8-bit B");
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E5M2, MmaElem::E5M2, MmaElem::F32, 256, 48, 2,
                                            Major::K, Major::MN),
               "cta_group::2: N = 48 with an MN-major 8-bit B; expected 32..256 in steps of 32");
  // Table 39 shapes, with the kind in the message.
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 256, 256),
               "kind::f8f6f4 cta_group::1: M = 256; expected 64 or 128");
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 128, 12),
               "kind::f8f6f4 cta_group::1: N = 12; expected 8..256 in steps of 8");
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 64, 256, 2),
               "kind::f8f6f4 cta_group::2: M = 64; expected 128 or 256");
  EXPECT_ERROR(encodeTcgen05InstrDescF8F6F4(MmaElem::E4M3, MmaElem::E4M3, MmaElem::F32, 256, 8, 2),
               "kind::f8f6f4 cta_group::2: N = 8; expected 16..256 in steps of 16");
  // 9.7.16.10.8.4.5-6: a sparse kind::f8f6f4 MMA takes selector 0 only.
  {
    Tcgen05InstrDesc d;
    d.kind = Tcgen05Kind::F8F6F4;
    d.aType = d.bType = MmaElem::E4M3;
    d.sparse = true;
    d.sparsitySelector = 2;
    EXPECT_ERROR(encodeTcgen05InstrDesc(d), "kind::f8f6f4: sparsity selector = 2; must be 0");
  }
  // Element widths used by the Table 54 rule.
  EXPECT_TRUE(mmaElemBits(MmaElem::E4M3) == 8 && mmaElemBits(MmaElem::E5M2) == 8);
  EXPECT_TRUE(mmaElemBits(MmaElem::E2M3) == 6 && mmaElemBits(MmaElem::E3M2) == 6);
  EXPECT_TRUE(mmaElemBits(MmaElem::E2M1) == 4 && mmaElemBits(MmaElem::BF16) == 16);
}

//===----------------------------------------------------------------------===//
// TMEM: address 9.7.16.1.1 (lane 31-16, column 15-0); allocation 9.7.16.1.2 and
// tcgen05.alloc 9.7.16.7.1 (nCols a power of 2 in [32, 512], unit 32 columns)
//===----------------------------------------------------------------------===//

static void testTmem() {
  EXPECT_TRUE(tmemAddress(0, 0) == 0);
  EXPECT_TRUE(tmemAddress(32, 0) == 0x00200000u);    // lane 32 -> 0x20 << 16 (warp 1's lanes)
  EXPECT_TRUE(tmemAddress(64, 256) == 0x00400100u);  // second accumulator of N = 256, lane 64
  EXPECT_TRUE(tmemAddress(127, 511) == 0x007F01FFu); // last cell: 0x7F << 16 | 0x1FF
  EXPECT_TRUE(tmemLane(0x007F01FFu) == 127 && tmemColumn(0x007F01FFu) == 511);
  // Rounding: up to a power of two, never below 32.
  EXPECT_VALUE(tmemAllocColumns(1), 32);
  EXPECT_VALUE(tmemAllocColumns(31), 32);
  EXPECT_VALUE(tmemAllocColumns(32), 32);
  EXPECT_VALUE(tmemAllocColumns(33), 64);
  EXPECT_VALUE(tmemAllocColumns(65), 128);
  EXPECT_VALUE(tmemAllocColumns(200), 256);
  EXPECT_VALUE(tmemAllocColumns(256), 256);
  EXPECT_VALUE(tmemAllocColumns(2 * 192), 512); // two f32 accumulators of N = 192
  EXPECT_VALUE(tmemAllocColumns(2 * 256), 512); // two of N = 256: exactly all of TMEM
  EXPECT_ERROR(tmemAllocColumns(513), "needs 513 columns; a CTA has 512");
  EXPECT_ERROR(tmemAllocColumns(0), "0 columns");
}

//===----------------------------------------------------------------------===//
// Block-scaled tcgen05.mma instruction descriptor: 9.7.16.4.2, the tables for .kind::mxf8f6f4
// and for .kind::mxf4 / .kind::mxf4nvf4; shapes 9.7.16.2.1 (Table 39); scale combinations
// 9.7.16.10.7.1; IDs 9.7.16.10.7.2-3. Second source: CUTLASS UMMA::InstrDescriptorBlockScaled
// (M >> 4 at bits 24-28, which for M = 128 / 256 sets the same bit 27 / 28 as the ISA's M >> 7
// at 27-28).
//===----------------------------------------------------------------------===//

static void testTcgen05ScaledInstrDesc() {
  auto desc = [](Tcgen05ScaledKind kind, MmaElem a, MmaElem b, ScaleElem se, ScaleVec vec,
                 unsigned m, unsigned n, unsigned group = 1, unsigned sfa = 0, unsigned sfb = 0,
                 Major am = Major::K, Major bm = Major::K) {
    Tcgen05ScaledInstrDesc d;
    d.kind = kind;
    d.aType = a;
    d.bType = b;
    d.scaleType = se;
    d.scaleVec = vec;
    d.m = m;
    d.n = n;
    d.ctaGroup = group;
    d.sfaId = sfa;
    d.sfbId = sfb;
    d.aMajor = am;
    d.bMajor = bm;
    return encodeTcgen05ScaledInstrDesc(d);
  };
  using K = Tcgen05ScaledKind;
  using E = MmaElem;
  // MXFP8: e4m3 (0) x e4m3 (0), ue8m0 (bit 23), N = 256 -> 32 << 17, M = 128 -> 1 << 27.
  EXPECT_VALUE(desc(K::MXF8F6F4, E::E4M3, E::E4M3, ScaleElem::UE8M0, ScaleVec::X1, 128, 256),
               0x00400000u | 0x00800000u | 0x08000000u); // 0x08C00000
  // ... the same with SFA ID 3 (bits 29-30) and SFB ID 2 (bits 4-5).
  EXPECT_VALUE(
      desc(K::MXF8F6F4, E::E4M3, E::E4M3, ScaleElem::UE8M0, ScaleVec::X1, 128, 256, 1, 3, 2),
      0x68C00020u);
  // Mixed types: A e2m1 (5 << 7 = 0x280), B e5m2 (1 << 10), N = 128 (16 << 17).
  EXPECT_VALUE(desc(K::MXF8F6F4, E::E2M1, E::E5M2, ScaleElem::UE8M0, ScaleVec::X1, 128, 128),
               0x08A00680u);
  // A e2m3 (3), B e3m2 (4 << 10 = 0x1000), N = 8 (1 << 17).
  EXPECT_VALUE(desc(K::MXF8F6F4, E::E2M3, E::E3M2, ScaleElem::UE8M0, ScaleVec::X1, 128, 8),
               0x08821180u);
  // cta_group::2, M = 256 -> 2 << 27.
  EXPECT_VALUE(desc(K::MXF8F6F4, E::E4M3, E::E4M3, ScaleElem::UE8M0, ScaleVec::X1, 256, 256, 2),
               0x10C00000u);
  // MN-major 8-bit B sets bit 16 (N = 128 meets Table 52's step of 16).
  EXPECT_VALUE(desc(K::MXF8F6F4, E::E4M3, E::E4M3, ScaleElem::UE8M0, ScaleVec::X1, 128, 128, 1,
                    0, 0, Major::K, Major::MN),
               0x08A10000u);
  // MXFP4 (kind::mxf4): e2m1 = 1 in both type fields (0x80 | 0x400), ue8m0, 2X IDs 2 and 2.
  EXPECT_VALUE(desc(K::MXF4, E::E2M1, E::E2M1, ScaleElem::UE8M0, ScaleVec::X2, 128, 256, 1, 2, 2),
               0x48C004A0u);
  EXPECT_VALUE(desc(K::MXF4, E::E2M1, E::E2M1, ScaleElem::UE8M0, ScaleVec::X2, 128, 256),
               0x08C00480u);
  // NVFP4 (kind::mxf4nvf4, ue4m3: bit 23 clear, 4X), N = 128.
  EXPECT_VALUE(
      desc(K::MXF4NVF4, E::E2M1, E::E2M1, ScaleElem::UE4M3, ScaleVec::X4, 128, 128), 0x08200480u);
  // mxf4nvf4 with ue8m0 2X, cta_group::2 M = 256 N = 256.
  EXPECT_VALUE(
      desc(K::MXF4NVF4, E::E2M1, E::E2M1, ScaleElem::UE8M0, ScaleVec::X2, 256, 256, 2),
      0x10C00480u);

  // Shapes: block-scaled kinds have no M = 64 (the field is M >> 7).
  EXPECT_ERROR(desc(K::MXF8F6F4, E::E4M3, E::E4M3, ScaleElem::UE8M0, ScaleVec::X1, 64, 128),
               "M = 64; expected 128");
  EXPECT_ERROR(desc(K::MXF4, E::E2M1, E::E2M1, ScaleElem::UE8M0, ScaleVec::X2, 128, 8, 2),
               "N = 8; expected 16..256 in steps of 16");
  EXPECT_ERROR(desc(K::MXF4, E::E2M1, E::E2M1, ScaleElem::UE8M0, ScaleVec::X2, 128, 264),
               "N = 264");
  // Scale combinations (9.7.16.10.7.1).
  EXPECT_ERROR(desc(K::MXF4, E::E2M1, E::E2M1, ScaleElem::UE4M3, ScaleVec::X4, 128, 128),
               "kind::mxf4: scale type ue4m3 with scale_vec::4X is not a valid combination");
  EXPECT_ERROR(desc(K::MXF4NVF4, E::E2M1, E::E2M1, ScaleElem::UE4M3, ScaleVec::X2, 128, 128),
               "not a valid combination");
  EXPECT_ERROR(desc(K::MXF8F6F4, E::E4M3, E::E4M3, ScaleElem::UE8M0, ScaleVec::X2, 128, 128),
               "not a valid combination");
  // IDs (9.7.16.10.7.2-3): 2X takes half words, 4X only 0.
  EXPECT_ERROR(desc(K::MXF4, E::E2M1, E::E2M1, ScaleElem::UE8M0, ScaleVec::X2, 128, 128, 1, 1),
               "scale factor A ID = 1 with scale_vec::2X; expected 0 or 2");
  EXPECT_ERROR(
      desc(K::MXF4NVF4, E::E2M1, E::E2M1, ScaleElem::UE4M3, ScaleVec::X4, 128, 128, 1, 0, 2),
      "scale factor B ID = 2 with scale_vec::4X; expected 0");
  EXPECT_ERROR(
      desc(K::MXF8F6F4, E::E4M3, E::E4M3, ScaleElem::UE8M0, ScaleVec::X1, 128, 128, 1, 4, 0),
      "scale factor A ID = 4");
  // Types and major-ness.
  EXPECT_ERROR(desc(K::MXF4, E::E4M3, E::E2M1, ScaleElem::UE8M0, ScaleVec::X2, 128, 128),
               "kind::mxf4: A type e4m3, B type e2m1; both must be e2m1");
  EXPECT_ERROR(desc(K::MXF4NVF4, E::E2M1, E::E2M1, ScaleElem::UE4M3, ScaleVec::X4, 128, 128, 1,
                    0, 0, Major::MN, Major::K),
               "kind::mxf4nvf4: A is MN-major");
  EXPECT_ERROR(desc(K::MXF8F6F4, E::E2M1, E::E4M3, ScaleElem::UE8M0, ScaleVec::X1, 128, 128, 1,
                    0, 0, Major::MN, Major::K),
               "kind::mxf8f6f4: A type e2m1 (4-bit) is MN-major");
  EXPECT_ERROR(desc(K::MXF8F6F4, E::BF16, E::E4M3, ScaleElem::UE8M0, ScaleVec::X1, 128, 128),
               "kind::mxf8f6f4: A type bf16");
  // Table 52 narrows N for an MN-major 8-bit B (cta_group::1: steps of 16).
  EXPECT_ERROR(desc(K::MXF8F6F4, E::E4M3, E::E4M3, ScaleElem::UE8M0, ScaleVec::X1, 128, 24, 1, 0,
                    0, Major::K, Major::MN),
               "N = 24 with an MN-major 8-bit B");

  // K per instruction (Table 39), scale block (K / scale_vec), shared-memory element width.
  EXPECT_TRUE(tcgen05ScaledK(K::MXF8F6F4) == 32 && tcgen05ScaledK(K::MXF4) == 64 &&
              tcgen05ScaledK(K::MXF4NVF4) == 64);
  EXPECT_TRUE(tcgen05ScaleBlock(K::MXF8F6F4, ScaleVec::X1) == 32 &&
              tcgen05ScaleBlock(K::MXF4, ScaleVec::X2) == 32 &&
              tcgen05ScaleBlock(K::MXF4NVF4, ScaleVec::X2) == 32 &&
              tcgen05ScaleBlock(K::MXF4NVF4, ScaleVec::X4) == 16);
  // Every kind reads 32 bytes of each K-major row per instruction.
  for (K k : {K::MXF8F6F4, K::MXF4, K::MXF4NVF4})
    EXPECT_TRUE(tcgen05ScaledK(k) * tcgen05SmemElemBits(k) / 8 == 32);
}

//===----------------------------------------------------------------------===//
// 6- and 4-bit operands of the block-scaled .kind::mxf8f6f4 (sm_100a family). Sources, PTX ISA
// 9.1: the instruction-descriptor table for .kind::mxf8f6f4 in 9.7.16.4.2 (atype 7-9 / btype
// 10-12 with E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5 for A and B independently, bit 23 the
// scale type, UE8M0 = 1, scale factor B ID 4-5, scale factor A ID 29-30, M >> 7 at 27-28);
// 9.7.16.10.3, Table 54 (only 8-bit operands transpose); 9.7.16.2.1, Table 39 (K = 32 for
// every type of the kind); 9.7.16.10.7.1 (.ue8m0 with .scale_vec::1X only); 9.7.16.4.1,
// Table 40 (the shared-memory descriptor, the same for the padded 6- and 4-bit rows as for
// FP8: 16 elements per 16 bytes, so a 128-element K-slice row is 128 bytes, one 128B swizzle
// span). Second source: CUTLASS's UMMA::MXF8F6F4Format (cute/arch/mma_sm100_desc.hpp) has the
// same codes, E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5.
//===----------------------------------------------------------------------===//

static void testTcgen05ScaledNarrowOperands() {
  auto desc = [](MmaElem a, MmaElem b, unsigned m, unsigned n, unsigned group, unsigned id,
                 Major am = Major::K, Major bm = Major::K) {
    Tcgen05ScaledInstrDesc d;
    d.kind = Tcgen05ScaledKind::MXF8F6F4;
    d.aType = a;
    d.bType = b;
    d.scaleType = ScaleElem::UE8M0;
    d.scaleVec = ScaleVec::X1;
    d.m = m;
    d.n = n;
    d.ctaGroup = group;
    d.sfaId = d.sfbId = id;
    d.aMajor = am;
    d.bMajor = bm;
    return encodeTcgen05ScaledInstrDesc(d);
  };
  using E = MmaElem;
  // The table's codes, written out from the ISA (not from the encoder).
  const struct {
    E e;
    unsigned code;
  } codes[] = {{E::E4M3, 0}, {E::E5M2, 1}, {E::E2M3, 3}, {E::E3M2, 4}, {E::E2M1, 5}};
  // Every pair, cta_group::1 M = 128 N = 256: ue8m0 (1 << 23) | N >> 3 = 32 at 17 | M >> 7 = 1
  // at 27, the type codes at 7 and 10.
  for (auto ca : codes)
    for (auto cb : codes)
      EXPECT_VALUE(desc(ca.e, cb.e, 128, 256, 1, 0),
                   0x08C00000u | ca.code << 7 | cb.code << 10);
  // MXFP6 x MXFP8 as the sm_100a example issues it: e2m3 (3 << 7 = 0x180) x e4m3, N = 256,
  // each of the slice's four MMAs with scale factor IDs i (bytes 0..3 of the scale column):
  // ID 1 sets bit 29 (0x20000000) and bit 4 (0x10), ID 3 bits 29-30 (0x60000000) and 4-5
  // (0x30).
  EXPECT_VALUE(desc(E::E2M3, E::E4M3, 128, 256, 1, 0), 0x08C00180u);
  EXPECT_VALUE(desc(E::E2M3, E::E4M3, 128, 256, 1, 1), 0x28C00190u);
  EXPECT_VALUE(desc(E::E2M3, E::E4M3, 128, 256, 1, 3), 0x68C001B0u);
  // MXFP8 x MXFP4 on a CTA pair: e4m3 x e2m1 (5 << 10 = 0x1400), cta_group::2, M = 256
  // (2 << 27), N = 256.
  EXPECT_VALUE(desc(E::E4M3, E::E2M1, 256, 256, 2, 0), 0x10C01400u);
  // e3m2 x e3m2 (4 << 7 | 4 << 10 = 0x1200), cta_group::2 M = 128, N = 128, ID 2.
  EXPECT_VALUE(desc(E::E3M2, E::E3M2, 128, 128, 2, 2), 0x48A01220u);
  // Table 54: an 8-bit operand beside a 6- or 4-bit one may still be MN-major (bit 15 for A;
  // e4m3 x e2m3 N = 128: 0x08A00000 | 3 << 10 | 1 << 15); the 6- and 4-bit ones may not.
  EXPECT_VALUE(desc(E::E4M3, E::E2M3, 128, 128, 1, 0, Major::MN, Major::K), 0x08A08C00u);
  EXPECT_ERROR(desc(E::E4M3, E::E3M2, 128, 128, 1, 0, Major::K, Major::MN),
               "kind::mxf8f6f4: B type e3m2 (6-bit) is MN-major");
  EXPECT_ERROR(desc(E::E2M3, E::E4M3, 128, 128, 1, 0, Major::MN, Major::K),
               "kind::mxf8f6f4: A type e2m3 (6-bit) is MN-major");
  EXPECT_ERROR(desc(E::E2M1, E::E2M1, 128, 128, 2, 0, Major::K, Major::MN),
               "kind::mxf8f6f4: B type e2m1 (4-bit) is MN-major");
  // 9.7.16.10.7.1: .kind::mxf8f6f4 takes .ue8m0 with .scale_vec::1X only, whatever the types.
  {
    Tcgen05ScaledInstrDesc d;
    d.aType = E::E2M3;
    d.bType = E::E2M1;
    d.scaleType = ScaleElem::UE4M3;
    d.scaleVec = ScaleVec::X4;
    EXPECT_ERROR(encodeTcgen05ScaledInstrDesc(d),
                 "kind::mxf8f6f4: scale type ue4m3 with scale_vec::4X is not a valid combination");
  }
  // Table 39: K = 32 per instruction and one byte per element in shared memory for every
  // type of the kind (6- and 4-bit padded), so a K-slice of 128 elements is four MMAs, each
  // 32 bytes further along the row, reading scale bytes 0..3 of one atom (1X).
  EXPECT_TRUE(tcgen05ScaledK(Tcgen05ScaledKind::MXF8F6F4) == 32 &&
              tcgen05SmemElemBits(Tcgen05ScaledKind::MXF8F6F4) == 8);
  for (unsigned i = 0; i < 4; ++i) {
    auto st = tcgen05ScaleStep(Tcgen05ScaledKind::MXF8F6F4, ScaleVec::X1, i);
    EXPECT_TRUE(st && st->atom == 0 && st->id == i);
    if (!st)
      llvm::consumeError(st.takeError());
  }
  // The padded rows' shared-memory descriptor (Table 40): K-major, 128B swizzle, rows of 128
  // bytes, SBO = 8 rows = 1024 bytes (64 at bit 32), LBO 16 (1 at bit 16), fixed 0b001 at 46,
  // swizzle 2 at 61: the FP8 row's descriptor. A slot at 0x8000: start 0x800; the k-th MMA of
  // the slice starts 32 k bytes further (start + 2 k).
  EXPECT_VALUE(encodeTcgen05SmemDesc(0x8000, 16, 1024, Swizzle::B128), 0x4000404000010800ull);
  EXPECT_VALUE(encodeTcgen05SmemDesc(0x8000 + 3 * 32, 16, 1024, Swizzle::B128),
               0x4000404000010806ull);
}

//===----------------------------------------------------------------------===//
// Scale factors in shared memory / TMEM (9.7.16.10.7.2-3, tcgen05.cp 9.7.16.8.3)
//===----------------------------------------------------------------------===//

static void testScaleLayout() {
  EXPECT_VALUE(scaleAtomOffset(0, 0), 0);
  EXPECT_VALUE(scaleAtomOffset(1, 0), 16);       // next row of the 32 x 16 B copy source
  EXPECT_VALUE(scaleAtomOffset(32, 0), 4);       // row 32 -> the next 32-bit TMEM column
  EXPECT_VALUE(scaleAtomOffset(33, 2), 16 + 4 + 2);
  EXPECT_VALUE(scaleAtomOffset(31, 3), 31 * 16 + 3);
  EXPECT_VALUE(scaleAtomOffset(127, 3), 511);    // the last byte of the 512-byte atom
  EXPECT_ERROR(scaleAtomOffset(128, 0), "outside 128 x 4");
  EXPECT_ERROR(scaleAtomOffset(0, 4), "outside 128 x 4");
  // tcgen05.cp.32x128b puts source row i (16 bytes) in lane i, bytes 4c..4c+3 in column c.
  // So the offset's decomposition must be lane r % 32, column r / 32, byte j: the figures'
  // layout for M = 128 (row r at lane r % 32 of every partition, column r / 32, the ID's byte).
  bool all = true;
  for (unsigned r = 0; r < 128; ++r)
    for (unsigned j = 0; j < 4; ++j) {
      uint32_t off = llvm::cantFail(scaleAtomOffset(r, j));
      all &= off / 16 == r % 32 && (off % 16) / 4 == r / 32 && off % 4 == j;
    }
  EXPECT_TRUE(all);

  // Which atom and ID instruction i uses.
  auto step = [](Tcgen05ScaledKind k, ScaleVec v, unsigned i) -> llvm::Expected<uint64_t> {
    auto s = tcgen05ScaleStep(k, v, i);
    if (!s)
      return s.takeError();
    return uint64_t(s->atom) << 8 | s->id;
  };
  using K = Tcgen05ScaledKind;
  EXPECT_VALUE(step(K::MXF8F6F4, ScaleVec::X1, 0), 0x000);
  EXPECT_VALUE(step(K::MXF8F6F4, ScaleVec::X1, 3), 0x003); // 4 MMAs (K = 128) per atom
  EXPECT_VALUE(step(K::MXF8F6F4, ScaleVec::X1, 5), 0x101);
  EXPECT_VALUE(step(K::MXF4, ScaleVec::X2, 1), 0x002);     // the upper half word
  EXPECT_VALUE(step(K::MXF4, ScaleVec::X2, 3), 0x102);
  EXPECT_VALUE(step(K::MXF4NVF4, ScaleVec::X2, 2), 0x100);
  EXPECT_VALUE(step(K::MXF4NVF4, ScaleVec::X4, 3), 0x300); // one atom per K = 64 MMA
  EXPECT_ERROR(step(K::MXF8F6F4, ScaleVec::X2, 0), "not a valid combination");
  EXPECT_ERROR(step(K::MXF4, ScaleVec::X4, 0), "not a valid combination");

  // Copy-source descriptor (Table 40): start 0x400 >> 4 = 0x40, LBO 0, SBO 128 >> 4 = 8 at
  // bit 32, the fixed 0b001 at 46, no swizzle.
  EXPECT_VALUE(encodeTcgen05ScaleCopyDesc(0x400), 0x0000400800000040ull);
  EXPECT_ERROR(encodeTcgen05ScaleCopyDesc(0x408), "not 16-byte aligned");
}

//===----------------------------------------------------------------------===//
// Block-scaled mma.sync selectors: 9.7.14.3, Table 37 and Figures 43-45
//===----------------------------------------------------------------------===//

static void testMmaSyncScales() {
  EXPECT_VALUE(mmaSyncScaleLaneA(0, 0), 0);
  EXPECT_VALUE(mmaSyncScaleLaneA(8, 0), 1);   // rows 8-15 in the upper lane of the pair
  EXPECT_VALUE(mmaSyncScaleLaneA(3, 0), 12);  // quad 3
  EXPECT_VALUE(mmaSyncScaleLaneA(7, 1), 30);  // thread-id-a 1: lanes % 4 in {2, 3}
  EXPECT_VALUE(mmaSyncScaleLaneA(15, 1), 31);
  EXPECT_VALUE(mmaSyncScaleLaneB(0, 0), 0);
  EXPECT_VALUE(mmaSyncScaleLaneB(7, 3), 31);  // lane % 4 == thread-id-b
  EXPECT_VALUE(mmaSyncScaleLaneB(2, 2), 10);
  EXPECT_ERROR(mmaSyncScaleLaneA(16, 0), "rows 0..15");
  EXPECT_ERROR(mmaSyncScaleLaneA(0, 2), "thread-id-a = 2; expected 0 or 1");
  EXPECT_ERROR(mmaSyncScaleLaneB(8, 0), "columns 0..7");
  EXPECT_ERROR(mmaSyncScaleLaneB(0, 4), "thread-id-b = 4; expected 0..3");
  // Every lane provides at most one A row and at most one B column per thread-id.
  bool distinct = true;
  for (unsigned t = 0; t < 2; ++t) {
    unsigned seen = 0;
    for (unsigned m = 0; m < 16; ++m)
      seen |= 1u << llvm::cantFail(mmaSyncScaleLaneA(m, t));
    distinct &= llvm::popcount(seen) == 16;
  }
  EXPECT_TRUE(distinct);
  auto ok = [](ScaleVec v, unsigned id) -> llvm::Expected<uint64_t> {
    if (llvm::Error e = checkMmaSyncScaleByteId(v, id))
      return std::move(e);
    return uint64_t(1);
  };
  EXPECT_VALUE(ok(ScaleVec::X1, 3), 1);
  EXPECT_VALUE(ok(ScaleVec::X2, 2), 1);
  EXPECT_VALUE(ok(ScaleVec::X4, 0), 1);
  EXPECT_ERROR(ok(ScaleVec::X2, 1), "byte-id = 1 with scale_vec::2X; expected 0 or 2");
  EXPECT_ERROR(ok(ScaleVec::X4, 2), "byte-id = 2 with scale_vec::4X; expected 0");
  EXPECT_ERROR(ok(ScaleVec::X1, 4), "byte-id = 4 with scale_vec::1X; expected 0..3");
}

// mma.sync .kind::f8f6f4 containers (PTX ISA 9.0, 9.7.14.5.14 "mma", Description): ".e2m1
// resides in central 4 bits of the 8-bit container with padding in the upper 2 bits and lower 2
// bits"; ".e3m2 or .e2m3 ... in the lower 6 bits ... with padding in the upper 2 bits". Worked
// by hand: e2m1 -1.5 = 0b1011 -> 0b00101100 = 0x2C; e2m1 6.0 = 0b0111 -> 0x1C; e3m2 -28 =
// 0b111111 -> 0x3F; e2m3 1.0 = 0b001000 -> 0x08. ldmatrix .b8x16.b4x16_p64 gives the value in
// bits 3..0 of each byte (the low element in the low byte, 9.7.14.5.10), so a register holding
// e2m1 codes 0xB, 0x7, 0x0, 0xF in bytes 0..3 (0x0F00070B) becomes containers 0x2C, 0x1C, 0x00,
// 0x3C = 0x3C001C2C; anything in the unused high nibbles is cleared.
static void testF8F6F4Containers() {
  EXPECT_TRUE(f8f6f4Container(4, 0xB) == 0x2C);
  EXPECT_TRUE(f8f6f4Container(4, 0x7) == 0x1C);
  EXPECT_TRUE(f8f6f4Container(4, 0xF) == 0x3C);
  EXPECT_TRUE(f8f6f4Container(6, 0x3F) == 0x3F);
  EXPECT_TRUE(f8f6f4Container(6, 0x08) == 0x08);
  EXPECT_TRUE(e2m1ContainersFromLdmatrix(0x0F00070Bu) == 0x3C001C2Cu);
  EXPECT_TRUE(e2m1ContainersFromLdmatrix(0xFFF0F7FBu) == 0x3C001C2Cu);
  // Every code in every byte: the container the ISA names, padding bits 7..6 and 1..0 zero.
  bool all = true;
  for (unsigned byte = 0; byte < 4; ++byte)
    for (unsigned code = 0; code < 16; ++code) {
      uint32_t word = uint32_t(code) << (8 * byte);
      uint32_t want = uint32_t(f8f6f4Container(4, uint8_t(code))) << (8 * byte);
      all &= e2m1ContainersFromLdmatrix(word) == want;
      all &= (e2m1ContainersFromLdmatrix(word) & 0xC3C3C3C3u) == 0;
    }
  EXPECT_TRUE(all);
}

int main() {
  testF8F6F4Containers();
  testCanonicalLayouts();
  testWgmmaDesc();
  testTcgen05SmemDesc();
  testTcgen05InstrDesc();
  testTcgen05InstrDescF8F6F4();
  testTmem();
  testTcgen05ScaledInstrDesc();
  testTcgen05ScaledNarrowOperands();
  testScaleLayout();
  testMmaSyncScales();
  llvm::outs() << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}
