//===- UpcastBits.h - the sm_90a upcast's packed E2M1 -> bf16x2 bit trick -*- C++ -*-===//
//
// The integer and bf16x2 steps by which the sm_90a upcast (SM90.cpp's converter) turns packed
// E2M1 codes with an E8M0 block scale into bf16. One definition of the constants for the
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
// E8M0 codes as bf16 (scaleBits): code 1 ... 254 is 2^(code - 127), the exponent field
// itself (code << 7); code 0 is 2^-127, a bf16 subnormal (mantissa bit 6: 0x0040), exact; code
// 255 (E8M0's NaN) becomes the bf16 NaN 0x7FC0, so that every element of its block is NaN,
// as MicroScaling.h's decode makes it.
//
// PTX's mul.rn.bf16x2 keeps subnormal inputs and results (it has no .ftz form), which steps 4
// and 5 rely on.
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

} // namespace upcast
} // namespace tilegen

#endif // TILEGEN_SUPPORT_UPCASTBITS_H
