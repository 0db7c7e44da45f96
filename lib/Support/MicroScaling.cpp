//===- MicroScaling.cpp - narrow float formats and block scaling ----------===//
//
// Sources: OCP Microscaling Formats (MX) Specification v1.0 (section 5.3: element formats;
// section 5.4: E8M0; section 6.3: conversion of a block), OCP 8-bit Floating Point
// Specification (OFP8) v1.0 (E4M3, E5M2), NVIDIA's NVFP4 description (E2M1 elements, E4M3
// scale per 16 elements, f32 per tensor).
//
//===----------------------------------------------------------------------===//

#include "tilegen/Support/MicroScaling.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace tilegen::mx;

static const FormatInfo kFormats[] = {
    // format        name    bits exp man bias emax max      inf    signed
    {Format::E2M1, "e2m1", 4, 2, 1, 1, 2, 6.0, false, true},
    {Format::E2M3, "e2m3", 6, 2, 3, 1, 2, 7.5, false, true},
    {Format::E3M2, "e3m2", 6, 3, 2, 3, 4, 28.0, false, true},
    {Format::E4M3, "e4m3", 8, 4, 3, 7, 8, 448.0, false, true},
    {Format::E5M2, "e5m2", 8, 5, 2, 15, 15, 57344.0, true, true},
    {Format::E8M0, "e8m0", 8, 8, 0, 127, 127, 0x1p127, false, false},
};

const FormatInfo &tilegen::mx::formatInfo(Format f) {
  return kFormats[static_cast<unsigned>(f)];
}

bool tilegen::mx::parseFormat(const std::string &name, Format &out) {
  for (const FormatInfo &info : kFormats)
    if (name == info.name) {
      out = info.format;
      return true;
    }
  return false;
}

double tilegen::mx::decode(uint8_t code, Format f) {
  const FormatInfo &info = formatInfo(f);
  if (f == Format::E8M0)
    return code == 0xFF ? std::numeric_limits<double>::quiet_NaN()
                        : std::ldexp(1.0, int(code) - 127);
  const unsigned valueBits = info.expBits + info.manBits;
  const bool neg = (code >> valueBits) & 1;
  const unsigned e = (code >> info.manBits) & ((1u << info.expBits) - 1);
  const unsigned m = code & ((1u << info.manBits) - 1);
  const unsigned eMax = (1u << info.expBits) - 1;
  double v;
  if (f == Format::E4M3 && e == eMax && m == (1u << info.manBits) - 1)
    v = std::numeric_limits<double>::quiet_NaN();
  else if (f == Format::E5M2 && e == eMax)
    v = m == 0 ? std::numeric_limits<double>::infinity()
               : std::numeric_limits<double>::quiet_NaN();
  else if (e == 0) // subnormal: 0.m x 2^(1 - bias)
    v = std::ldexp(double(m), 1 - info.bias - int(info.manBits));
  else
    v = std::ldexp(double((1u << info.manBits) | m), int(e) - info.bias - int(info.manBits));
  return neg ? -v : v;
}

static uint8_t encodeE8M0(double x) {
  if (std::isnan(x))
    return 0xFF;
  double a = std::fabs(x);
  if (a == 0)
    return 0;
  if (std::isinf(a))
    return 0xFE;
  int e;
  double frac = std::frexp(a, &e); // a = frac x 2^e, frac in [0.5, 1)
  int exp = e - 1;                 // a = (2 frac) x 2^exp, 2 frac in [1, 2)
  if (2 * frac >= 1.5)
    ++exp;
  exp = std::clamp(exp, -127, 127);
  return static_cast<uint8_t>(exp + 127);
}

uint8_t tilegen::mx::encode(double x, Format f, bool saturate) {
  if (f == Format::E8M0)
    return encodeE8M0(x);
  const FormatInfo &info = formatInfo(f);
  const unsigned valueBits = info.expBits + info.manBits;
  const uint8_t sign = std::signbit(x) ? uint8_t(1u << valueBits) : 0;
  const unsigned eMax = (1u << info.expBits) - 1;
  const unsigned mMax = (1u << info.manBits) - 1;
  // Codes of the largest finite value, of NaN and of infinity (where the format has them).
  uint8_t maxCode, nanCode, infCode;
  if (f == Format::E4M3) {
    maxCode = uint8_t((eMax << info.manBits) | (mMax - 1));
    nanCode = uint8_t((eMax << info.manBits) | mMax);
    infCode = nanCode;
  } else if (f == Format::E5M2) {
    maxCode = uint8_t(((eMax - 1) << info.manBits) | mMax);
    nanCode = uint8_t((eMax << info.manBits) | 2);
    infCode = uint8_t(eMax << info.manBits);
  } else { // no NaN, no infinity: every code is finite
    maxCode = uint8_t((eMax << info.manBits) | mMax);
    nanCode = maxCode;
    infCode = maxCode;
  }
  if (std::isnan(x))
    return sign | nanCode;
  const double a = std::fabs(x);
  const uint8_t overflow = saturate ? maxCode : infCode;
  if (std::isinf(a))
    return sign | overflow;
  if (a == 0)
    return sign;
  // The spacing of representable values in a's binade (the subnormal spacing below the
  // smallest normal): a / quantum is exact in double and nearbyint rounds it to nearest even.
  const int minExp = 1 - info.bias; // exponent of the smallest normal
  int e;
  std::frexp(a, &e);
  const int exp = std::max(e - 1, minExp);
  const double quantum = std::ldexp(1.0, exp - int(info.manBits));
  const double r = std::nearbyint(a / quantum) * quantum;
  if (r > info.maxFinite)
    return sign | overflow;
  if (r < std::ldexp(1.0, minExp)) // subnormal or zero: exponent field 0
    return sign | static_cast<uint8_t>(r / std::ldexp(1.0, minExp - int(info.manBits)));
  std::frexp(r, &e);
  const int rExp = e - 1;
  const unsigned biased = unsigned(rExp + info.bias);
  const unsigned mant = unsigned((r / std::ldexp(1.0, rExp) - 1.0) * double(1u << info.manBits));
  return sign | static_cast<uint8_t>((biased << info.manBits) | mant);
}

uint8_t tilegen::mx::mxScaleCode(double amax, Format element) {
  if (!(amax > 0) || std::isinf(amax))
    return amax > 0 ? uint8_t(0xFE) : uint8_t(0);
  int e;
  std::frexp(amax, &e); // amax = f x 2^e, f in [0.5, 1): floor(log2(amax)) = e - 1
  int shared = (e - 1) - formatInfo(element).emax;
  return static_cast<uint8_t>(std::clamp(shared, -127, 127) + 127);
}

void tilegen::mx::quantiseMxBlock(const double *x, size_t n, Format element,
                                  uint8_t &scaleCode, uint8_t *codes) {
  double amax = 0;
  for (size_t i = 0; i < n; ++i)
    amax = std::max(amax, std::fabs(x[i]));
  scaleCode = mxScaleCode(amax, element);
  const double scale = decode(scaleCode, Format::E8M0);
  for (size_t i = 0; i < n; ++i)
    codes[i] = encode(x[i] / scale, element, /*saturate=*/true);
}

double tilegen::mx::nvfp4TensorScale(double amaxTensor) {
  if (!(amaxTensor > 0) || std::isinf(amaxTensor))
    return 1.0;
  // The f32 the kernel receives: computed and rounded in f32.
  return double(float(amaxTensor / (448.0 * 6.0)));
}

void tilegen::mx::quantiseNvfp4Block(const double *x, size_t n, double tensorScale,
                                     uint8_t &scaleCode, uint8_t *codes) {
  double amax = 0;
  for (size_t i = 0; i < n; ++i)
    amax = std::max(amax, std::fabs(x[i]));
  scaleCode = encode(amax / (6.0 * tensorScale), Format::E4M3, /*saturate=*/true);
  const double s = decode(scaleCode, Format::E4M3) * tensorScale;
  for (size_t i = 0; i < n; ++i)
    codes[i] = s > 0 ? encode(x[i] / s, Format::E2M1, /*saturate=*/true) : 0;
}

bool tilegen::mx::storageBytes(uint64_t count, Format f, uint64_t &bytes) {
  if (formatInfo(f).bits == 4) {
    bytes = count / 2 + count % 2;
    return true;
  }
  bytes = count; // 6- and 8-bit elements take one byte each
  return true;
}

void tilegen::mx::packE2M1(const uint8_t *codes, size_t n, uint8_t *out) {
  for (size_t i = 0; i < n; i += 2) {
    uint8_t lo = codes[i] & 0xF;
    uint8_t hi = i + 1 < n ? codes[i + 1] & 0xF : 0;
    out[i / 2] = uint8_t(lo | (hi << 4));
  }
}

std::vector<uint8_t> tilegen::mx::packScaleAtoms(const uint8_t *codes, uint64_t rows,
                                                 uint64_t kBlocks) {
  std::vector<uint8_t> out(scaleAtomTensorBytes(rows, kBlocks), 0);
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < kBlocks; ++c)
      out[scaleAtomByteOffset(r, c, kBlocks)] = codes[r * kBlocks + c];
  return out;
}
