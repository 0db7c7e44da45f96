//===- UpcastBits.h - the sm_90a upcast's narrow -> bf16x2 bit tricks -*- C++ -*-===//
//
// The integer and bf16x2 steps by which the sm_90a upcast (SM90.cpp's converter) turns packed
// E2M1 codes with an E8M0 (MXFP4) or E4M3 (NVFP4) block scale, and FP8 codes with an E8M0 block
// scale (MXFP8), into bf16. One definition of the constants for the
// emitter and for the host test that replays the kernel's arithmetic over every code and
// scale (unittests/Support/UpcastBitsTest.cpp). Plain C++, no LLVM.
//
// A 32-bit word of packed B holds eight E2M1 codes, element i in bits [4i, 4i + 4) (the order
// of MicroScaling.h's packE2M1). Output word j (a bf16x2) holds elements 2j (low half) and
// 2j + 1 (high half):
//
//   1. lo = word & 0x0F0F0F0F (even elements, one per byte), hi = (word >> 4) & 0x0F0F0F0F
//      (odd elements);
//   2. z = prmt(lo, hi, selector(j)): byte 0 = byte j of lo, byte 2 = byte j of hi, bytes 1
//      and 3 = the replicated sign bit of byte 0 of lo, which is 0 (prmt's selector nibble
//      with bit 3 set);
//   3. bits = (z * 0x1040) & 0x81C081C0: z * 0x1040 = (z << 6) + (z << 12) without carries
//      (the two shifted copies do not overlap), so code s e1 e0 m lands with e1 e0 m in bf16
//      bits 8..6 and s in bit 15 (and + 16 for the high half). As a bf16 that is the E2M1
//      value times 2^-126: exponent field e1 e0 with mantissa m is (1 + m / 2) 2^(e - 127)
//      for e >= 1 and, for e = 0, the subnormal m / 2 x 2^-126;
//   4. x = bits * 2^126 (bf16x2 multiply, round to nearest): exact, the value itself (at most
//      two significant bits, magnitude 0.5 ... 6);
//   5. y = x * scale, scale = the E8M0 code as a bf16 power of two (scaleBits): exact unless
//      the product overflows bf16 (|value| x 2^(code - 127) >= 2^128 gives infinity, as the
//      exact value is beyond bf16's largest finite one); the smallest product, 0.5 x 2^-127
//      = 2^-128, is a bf16 subnormal (bf16 subnormals reach 2^-133), exact.
//
// Steps 4 and 5 in one multiply (the consumers' conversion in registers): for E8M0 codes 0
// ... kFoldMaxCode (block scales up to 2), 2^126 x 2^(code - 127) = 2^(code - 1) is a normal
// bf16, exponent field code + 126 (foldedScaleBits: code x kFoldMul + kFoldAdd, both halves),
// and y = bits x 2^(code - 1) rounds the same exact product (E2M1 value x 2^(code - 127)) once,
// as step 5 does: the same bits. Codes above kFoldMaxCode (scales of 4 and more, and NaN) need
// the two steps.
//
// E8M0 codes as bf16 (scaleBits): code 1 ... 254 is 2^(code - 127), the exponent field
// itself (code << 7); code 0 is 2^-127, a bf16 subnormal (mantissa bit 6: 0x0040), exact; code
// 255 (E8M0's NaN) becomes the bf16 NaN 0x7FC0, so that every element of its block is NaN,
// as MicroScaling.h's decode makes it.
//
// PTX's mul.rn.bf16x2 keeps subnormal inputs and results (it has no .ftz form), which steps 4
// and 5 rely on.
//
// NVFP4 in one multiply (the consumers' conversion in registers): 2^126 x an E4M3 scale
// overflows bf16 from 4 on, but 2^118 x every E4M3 value fits (2^-9 x 2^118 ... 480 x 2^118 <
// 2^127), exactly (four significant bits). So the factor is the scale's bf16 (below) times
// kTwo119 twice (two exact multiplies per code, not per element), and y = bits x factor is the
// exact product E2M1 x E4M3 x 2^-kNvfp4FoldShift (at most six significant bits, 2^-18 ... 10.5:
// a normal bf16), with no branch. The accumulators then hold D x 2^-8, scaled exactly (a power
// of two commutes with every rounding of the sums unless they leave f32's normal range), and the
// epilogue multiplies alpha by 2^8.
//
// NVFP4 (E4M3 block scales per 16): steps 1 to 4 as above, and in step 5 the scale is the E4M3
// code as a bf16 (e4m3ScaleBits' steps below, then a multiply by 2^120): every E4M3 value is a
// bf16 value, and an E2M1 value (two significant bits) times an E4M3 value (four) is one as
// well (at most 6 x 448 = 2688, at least 0.5 x 2^-9), so the product is exact. The E4M3 code
// 0x7F / 0xFF (NaN) becomes 480 / -480: NaN scales are not propagated.
//
// FP8 elements (MXFP8: E4M3 or E5M2 with an E8M0 block scale), one per byte, four to a 32-bit
// word (element i in byte i). Output word j (0 or 1) holds elements 2j and 2j + 1:
//
//   1. z = prmt(word, 0, fp8Selector(j)): bytes {2j, sign of 2j, 2j + 1, sign of 2j + 1}, each
//      half the element as a sign-extended 16-bit integer;
//   2. bits = (z << shift) & mask: the sign at bit 15 (a copy of the sign, shifted in from
//      bit 15 - shift) and the seven exponent and mantissa bits below bf16's sign, with the
//      FP8 exponent in the low bits of bf16's exponent field (shift 4 for E4M3, 5 for E5M2);
//      the sign copies that the shift carries out of the low half land in the high half's low
//      bits, which the mask clears. As a bf16 that is the FP8 value times 2^(bias - 127);
//      exponent field 0 gives the FP8 subnormals as bf16 subnormals;
//   3. x = bits * 2^(127 - bias) (2^120 for E4M3, 2^112 for E5M2): exact, the FP8 value;
//   4. y = x * scale (scaleBits): exact unless the product leaves bf16's range: |value| x
//      2^(code - 127) >= 2^128 overflows to infinity, and products below 2^-126 (bf16's
//      normals) with more significant bits than the subnormals keep are rounded.
//
// Steps 3 and 4 in one multiply (the MXFP8 converter): 2^(127 - bias) x 2^(code - 127) =
// 2^(code - bias) is a normal bf16 for every E8M0 code up to 127 + bias (134 for E4M3, 142 for
// E5M2: scales up to 2^7 or 2^15), exponent field code + 127 - bias (fp8FoldedScaleBits), and
// y = bits x 2^(code - bias) rounds the same exact product once, as step 4 does: the same bits.
//
// FP8 NaN and infinity codes (E4M3 S.1111.111, E5M2 S.11111.xx) become finite values
// (480 x 2^(code - 127); 2^16 x (1 ... 1.75) x 2^(code - 127)): the conversion does not
// propagate them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_SUPPORT_UPCASTBITS_H
#define TILEGEN_SUPPORT_UPCASTBITS_H

#include <cstdint>

namespace tilegen {
namespace upcast {

constexpr uint32_t kNibbleMask = 0x0F0F0F0Fu;
constexpr uint32_t kSpread = 0x1040u;        ///< (z << 6) + (z << 12)
constexpr uint32_t kFieldMask = 0x81C081C0u; ///< sign at 15 / 31, e1 e0 m at 8..6 / 24..22
constexpr uint16_t kTwo126 = 0x7E80;         ///< 2^126 as a bf16
constexpr uint16_t kScaleOfCode0 = 0x0040;   ///< 2^-127 as a bf16 (subnormal)
constexpr uint16_t kScaleNaN = 0x7FC0;       ///< E8M0 code 255

/// prmt selector of output word j (0 ... 3): bytes {j of lo, 0, j of hi, 0}.
constexpr uint32_t selector(unsigned j) { return j | (8u << 4) | ((4u + j) << 8) | (8u << 12); }

/// Largest E8M0 code whose scale folds with 2^126 into one bf16 factor.
constexpr uint32_t kFoldMaxCode = 128;
constexpr uint32_t kFoldMul = 0x00800080u; ///< code << 7 in both halves
constexpr uint32_t kFoldAdd = 0x3F003F00u; ///< 126 << 7 in both halves

/// The bf16x2 bits of 2^126 x 2^(code - 127), for code <= kFoldMaxCode.
constexpr uint32_t foldedScaleBits(uint8_t code) { return code * kFoldMul + kFoldAdd; }

/// The bf16 bits of an E8M0 code's value.
constexpr uint16_t scaleBits(uint8_t code) {
  return code == 0 ? kScaleOfCode0 : code == 255 ? kScaleNaN : uint16_t(code << 7);
}

/// PTX prmt (default mode) of `a` (bytes 0 ... 3) and `b` (bytes 4 ... 7) by `sel`.
constexpr uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint64_t pool = (uint64_t(b) << 32) | a;
  uint32_t out = 0;
  for (unsigned i = 0; i < 4; ++i) {
    unsigned s = (sel >> (4 * i)) & 0xF;
    uint32_t byte = uint32_t(pool >> (8 * (s & 7))) & 0xFF;
    if (s & 8)
      byte = (byte & 0x80) ? 0xFF : 0x00;
    out |= byte << (8 * i);
  }
  return out;
}

/// Steps 1 to 3: the bf16x2 bits (value x 2^-126) of elements 2j and 2j + 1 of `word`.
constexpr uint32_t pairBits(uint32_t word, unsigned j) {
  uint32_t lo = word & kNibbleMask, hi = (word >> 4) & kNibbleMask;
  return (prmt(lo, hi, selector(j)) * kSpread) & kFieldMask;
}

/// FP8 element formats: the shift and mask of step 2 and 2^(127 - bias) as a bf16 (step 3).
struct Fp8Format {
  uint32_t shift, mask;
  uint16_t unbias;
};
constexpr Fp8Format kE4M3{4, 0x87F087F0u, 0x7B80}; ///< 2^120
constexpr Fp8Format kE5M2{5, 0x8FE08FE0u, 0x7780}; ///< 2^112

/// The FP8 format's exponent bias (from its unbias constant 2^(127 - bias)).
constexpr uint32_t fp8Bias(Fp8Format f) { return 254u - (uint32_t(f.unbias) >> 7); }

/// Largest E8M0 code whose scale folds with 2^(127 - bias) into one bf16 factor.
constexpr uint32_t fp8FoldMaxCode(Fp8Format f) { return 127u + fp8Bias(f); }

/// The bf16x2 bits of 2^(127 - bias) x 2^(code - 127), for code <= fp8FoldMaxCode(f).
constexpr uint32_t fp8FoldedScaleBits(uint8_t code, Fp8Format f) {
  return code * kFoldMul + (127u - fp8Bias(f)) * kFoldMul;
}

/// prmt selector of FP8 output word j (0 or 1): bytes {2j, sign of 2j, 2j + 1, sign of 2j + 1}.
constexpr uint32_t fp8Selector(unsigned j) {
  return (2 * j) | ((8u | (2 * j)) << 4) | ((2 * j + 1) << 8) | ((8u | (2 * j + 1)) << 12);
}

/// FP8 steps 1 and 2: the bf16x2 bits (value x 2^(bias - 127)) of elements 2j and 2j + 1.
constexpr uint32_t fp8PairBits(uint32_t word, unsigned j, Fp8Format f) {
  return (prmt(word, 0, fp8Selector(j)) << f.shift) & f.mask;
}

/// NVFP4's folded factor: the E4M3 scale's bf16 (e4m3ScaleBits) times kTwo119 twice is the
/// scale x 2^118 = 2^126 x scale x 2^-kNvfp4FoldShift.
constexpr uint16_t kTwo119 = 0x7B00; ///< 2^119 as a bf16
constexpr int kNvfp4FoldShift = 8;

/// prmt selector that puts an E4M3 scale code (byte 0) in both halves, sign-extended.
constexpr uint32_t kE4M3ScaleSelector = 0x8080u;

/// NVFP4's E4M3 block scale code, before the multiply by 2^120, in both halves of a bf16x2.
constexpr uint32_t e4m3ScaleBits(uint8_t code) {
  return (prmt(code, 0, kE4M3ScaleSelector) << kE4M3.shift) & kE4M3.mask;
}

} // namespace upcast
} // namespace tilegen

#endif // TILEGEN_SUPPORT_UPCASTBITS_H
