//===- UpcastBitsTest.cpp - the sm_90a upcast's bit trick over every code and scale -===//
//
// Replays the converter's arithmetic (UpcastBits.h: masks, prmt, multiply-and-mask, then two
// bf16x2 multiplies rounded to nearest even with subnormals kept, as PTX's mul.rn.bf16x2) on
// the host for every pair of E2M1 codes in every position of a packed word and every E8M0
// scale code, and compares each element with MicroScaling.h's decode: the exact product
// decode(e2m1) x decode(e8m0) where bf16 holds it, infinity of the same sign where it
// overflows bf16, NaN for scale code 255. Prints failures and "N passed, M failed"; exits 1
// on any failure. Plain C++: no LLVM.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Support/MicroScaling.h"
#include "tilegen/Support/UpcastBits.h"

#include <cmath>
#include <cstdio>

using namespace tilegen;

static unsigned passed = 0, failed = 0;

/// The value of bf16 bits.
static double bf16Value(uint16_t bits) {
  int sign = bits >> 15, exp = (bits >> 7) & 0xFF, man = bits & 0x7F;
  double mag;
  if (exp == 0xFF)
    mag = man ? std::nan("") : INFINITY;
  else if (exp == 0)
    mag = std::ldexp(man, -133); // subnormal: man / 128 x 2^-126
  else
    mag = std::ldexp(128 + man, exp - 127 - 7);
  return sign ? -mag : mag;
}

/// `x` rounded to bf16, to nearest even, subnormals kept, overflow to infinity.
static uint16_t bf16Round(double x) {
  if (std::isnan(x))
    return 0x7FC0;
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  double a = std::fabs(x);
  if (a == 0)
    return sign;
  int e;
  std::frexp(a, &e); // a = f 2^e, f in [0.5, 1): the leading bit is 2^(e - 1)
  int lead = std::max(e - 1, -126);
  double quantum = std::ldexp(1.0, lead - 7);
  double r = std::nearbyint(a / quantum) * quantum; // ties to even (default rounding mode)
  if (r == 0) // below half the smallest subnormal
    return sign;
  if (r >= std::ldexp(1.0, 128))
    return sign | 0x7F80;
  std::frexp(r, &e);
  if (e - 1 < -126)
    return sign | uint16_t(r / std::ldexp(1.0, -133));
  int exp = e - 1 + 127;
  uint16_t man = uint16_t((r / std::ldexp(1.0, e - 1) - 1) * 128);
  return sign | uint16_t(exp << 7) | man;
}

/// PTX mul.rn.bf16 of two bf16 values: the exact product (at most 16 significant bits, well
/// within a double's range) rounded once.
static uint16_t mulBf16(uint16_t a, uint16_t b) {
  return bf16Round(bf16Value(a) * bf16Value(b));
}

int main() {
  const uint32_t fills[] = {0x00000000u, 0xFFFFFFFFu, 0x9E3779B9u};
  for (unsigned s = 0; s < 256; ++s) {
    uint16_t scale = upcast::scaleBits(uint8_t(s));
    double scaleValue = mx::decode(uint8_t(s), mx::Format::E8M0);
    for (uint32_t fill : fills)
      for (unsigned j = 0; j < 4; ++j)
        for (unsigned lo = 0; lo < 16; ++lo)
          for (unsigned hi = 0; hi < 16; ++hi) {
            // Elements 2j (lo) and 2j + 1 (hi) of a word whose other nibbles are `fill`'s.
            uint32_t word = (fill & ~(0xFFu << (8 * j))) | (lo << (8 * j)) | (hi << (8 * j + 4));
            uint32_t bits = upcast::pairBits(word, j);
            for (unsigned half = 0; half < 2; ++half) {
              uint16_t x = uint16_t(bits >> (16 * half));
              uint16_t y = mulBf16(mulBf16(x, upcast::kTwo126), scale);
              unsigned code = half ? hi : lo;
              double exact = mx::decode(uint8_t(code), mx::Format::E2M1) * scaleValue;
              double got = bf16Value(y);
              bool ok;
              if (std::isnan(exact))
                ok = std::isnan(got);
              else if (std::fabs(exact) >= std::ldexp(1.0, 128))
                ok = std::isinf(got) && std::signbit(got) == std::signbit(exact);
              else
                ok = got == exact && std::signbit(got) == std::signbit(exact);
              if (ok) {
                ++passed;
              } else if (++failed <= 20) {
                std::printf("FAIL: e2m1 0x%x (element %u of word 0x%08x) x e8m0 %u: got bf16 "
                            "0x%04x = %.17g, expected %.17g\n",
                            code, 2 * j + half, word, s, y, got, exact);
              }
              // The folded factor: one multiply, the same bits as the two steps.
              if (s > upcast::kFoldMaxCode)
                continue;
              uint16_t folded = uint16_t(upcast::foldedScaleBits(uint8_t(s)) >> (16 * half));
              uint16_t yf = mulBf16(x, folded);
              if (yf == y && ok) {
                ++passed;
                continue;
              }
              if (++failed <= 20)
                std::printf("FAIL: e2m1 0x%x (element %u of word 0x%08x) x folded e8m0 %u: "
                            "got bf16 0x%04x, the two steps 0x%04x\n",
                            code, 2 * j + half, word, s, yf, y);
            }
          }
  }
  // NVFP4: every E2M1 code in every position times every E4M3 scale code but NaN (0x7F,
  // 0xFF): the exact product, always.
  for (unsigned s = 0; s < 256; ++s) {
    if ((s & 0x7F) == 0x7F)
      continue;
    uint32_t sb = upcast::e4m3ScaleBits(uint8_t(s));
    double scaleValue = mx::decode(uint8_t(s), mx::Format::E4M3);
    for (unsigned half = 0; half < 2; ++half) {
      uint16_t scale = mulBf16(uint16_t(sb >> (16 * half)), upcast::kE4M3.unbias);
      if (bf16Value(scale) != scaleValue || std::signbit(bf16Value(scale)) != std::signbit(scaleValue)) {
        if (++failed <= 20)
          std::printf("FAIL: e4m3 scale 0x%x half %u: bf16 0x%04x, expected %.17g\n", s, half,
                      scale, scaleValue);
        continue;
      }
      ++passed;
      // The folded factor: the scale x 2^118, exact.
      uint16_t folded = mulBf16(mulBf16(uint16_t(sb >> (16 * half)), upcast::kTwo119),
                                upcast::kTwo119);
      double foldShift = std::ldexp(1.0, -upcast::kNvfp4FoldShift);
      if (bf16Value(folded) != std::ldexp(scaleValue, 126 - upcast::kNvfp4FoldShift)) {
        if (++failed <= 20)
          std::printf("FAIL: e4m3 scale 0x%x half %u: folded bf16 0x%04x, expected %.17g\n", s,
                      half, folded, std::ldexp(scaleValue, 118));
        continue;
      }
      ++passed;
      for (unsigned j = 0; j < 4; ++j)
        for (unsigned code = 0; code < 16; ++code) {
          uint32_t word = 0x9E3779B9u & ~(0xFFu << (8 * j));
          word |= half ? (code << (8 * j + 4)) : (code << (8 * j));
          uint16_t x = uint16_t(upcast::pairBits(word, j) >> (16 * half));
          uint16_t y = mulBf16(mulBf16(x, upcast::kTwo126), scale);
          double exact = mx::decode(uint8_t(code), mx::Format::E2M1) * scaleValue;
          double got = bf16Value(y);
          if (got == exact && std::signbit(got) == std::signbit(exact))
            ++passed;
          else if (++failed <= 20)
            std::printf("FAIL: e2m1 0x%x x e4m3 0x%x: got %.17g, expected %.17g\n", code, s,
                        got, exact);
          // One multiply by the folded factor: the exact product x 2^-8.
          uint16_t yf = mulBf16(x, folded);
          double gotFolded = bf16Value(yf);
          if (gotFolded == exact * foldShift &&
              std::signbit(gotFolded) == std::signbit(exact)) {
            ++passed;
            continue;
          }
          if (++failed <= 20)
            std::printf("FAIL: e2m1 0x%x x folded e4m3 0x%x: got %.17g, expected %.17g\n",
                        code, s, gotFolded, exact * foldShift);
        }
    }
  }
  // MXFP8: every E4M3 and E5M2 code but NaN and infinity, in every byte of a word, times every
  // E8M0 scale code: the product rounded once to bf16 (exact where bf16 holds it), NaN for
  // scale code 255.
  for (auto [format, f] : {std::pair<mx::Format, upcast::Fp8Format>{mx::Format::E4M3, upcast::kE4M3},
                           {mx::Format::E5M2, upcast::kE5M2}}) {
    for (unsigned code = 0; code < 256; ++code) {
      double value = mx::decode(uint8_t(code), format);
      if (std::isnan(value) || std::isinf(value))
        continue;
      for (unsigned pos = 0; pos < 4; ++pos) {
        uint32_t word = (0x9E3779B9u & ~(0xFFu << (8 * pos))) | (code << (8 * pos));
        uint16_t x = uint16_t(upcast::fp8PairBits(word, pos / 2, f) >> (16 * (pos % 2)));
        uint16_t v = mulBf16(x, f.unbias);
        if (bf16Value(v) != value || std::signbit(bf16Value(v)) != std::signbit(value)) {
          if (++failed <= 20)
            std::printf("FAIL: fp8 0x%x in byte %u: bf16 0x%04x, expected %.17g\n", code, pos,
                        v, value);
          continue;
        }
        for (unsigned s = 0; s < 256; ++s) {
          uint16_t y = mulBf16(v, upcast::scaleBits(uint8_t(s)));
          double exact = value * mx::decode(uint8_t(s), mx::Format::E8M0);
          double got = bf16Value(y);
          bool ok = std::isnan(exact) ? std::isnan(got)
                                      : y == bf16Round(exact) &&
                                            std::signbit(got) == std::signbit(exact);
          if (ok)
            ++passed;
          else if (++failed <= 20)
            std::printf("FAIL: fp8 0x%x x e8m0 %u: got bf16 0x%04x, expected %.17g\n", code, s,
                        y, exact);
          // The folded factor: one multiply of the step-2 bits, the same bits as the two.
          if (s > upcast::fp8FoldMaxCode(f))
            continue;
          uint32_t fs = upcast::fp8FoldedScaleBits(uint8_t(s), f);
          uint16_t yf = mulBf16(x, uint16_t(fs >> (16 * (pos % 2))));
          if (yf == y && ok && (fs >> 16) == (fs & 0xFFFF)) {
            ++passed;
            continue;
          }
          if (++failed <= 20)
            std::printf("FAIL: fp8 0x%x x folded e8m0 %u: got bf16 0x%04x, the two steps "
                        "0x%04x\n", code, s, yf, y);
        }
      }
    }
  }
  // The bf16 values the trick leans on.
  auto expect = [&](bool ok, const char *what) {
    if (ok) {
      ++passed;
      return;
    }
    ++failed;
    std::printf("FAIL: %s\n", what);
  };
  expect(bf16Value(upcast::kTwo126) == std::ldexp(1.0, 126), "kTwo126 is 2^126");
  expect(bf16Value(upcast::kScaleOfCode0) == std::ldexp(1.0, -127),
         "scale code 0 is the bf16 subnormal 2^-127");
  expect(std::isnan(bf16Value(upcast::kScaleNaN)), "scale code 255 is a bf16 NaN");
  for (unsigned s = 0; s <= upcast::kFoldMaxCode; ++s) {
    uint32_t f = upcast::foldedScaleBits(uint8_t(s));
    double expected = std::ldexp(1.0, 126) * mx::decode(uint8_t(s), mx::Format::E8M0);
    expect((f >> 16) == (f & 0xFFFF) && bf16Value(uint16_t(f)) == expected,
           "the folded factor of every code up to kFoldMaxCode is 2^126 x its scale");
  }
  for (upcast::Fp8Format f : {upcast::kE4M3, upcast::kE5M2})
    expect((upcast::fp8FoldedScaleBits(uint8_t(upcast::fp8FoldMaxCode(f)), f) & 0x7F80) == 0x7F00 &&
               upcast::fp8FoldMaxCode(f) == (f.shift == 4 ? 134u : 142u),
           "fp8FoldMaxCode is the last code whose folded factor is finite (E4M3 134, E5M2 142)");
  expect((upcast::foldedScaleBits(upcast::kFoldMaxCode) & 0x7F80) == 0x7F00 &&
             (upcast::foldedScaleBits(upcast::kFoldMaxCode + 1) & 0x7F80) == 0x7F80,
         "kFoldMaxCode is the last code whose folded factor is finite");
  std::printf("%u passed, %u failed\n", passed, failed);
  return failed ? 1 : 0;
}
