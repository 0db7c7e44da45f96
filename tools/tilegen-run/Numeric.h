//===- Numeric.h - Element types, conversions, seeded inputs ----*- C++ -*-===//
//
// The element types a manifest may name, their bit-exact conversions to and
// from float (round to nearest even, as the GPU's cvt.rn does), and the seeded
// input generator used by --check and --bench.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_NUMERIC_H
#define TILEGEN_RUN_NUMERIC_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tilegen {
namespace run {

/// Storage types of A, B, C, D. tf32 is stored as 32-bit float with the low
/// 13 mantissa bits zero.
enum class ElemType { BF16, F16, F32, TF32 };

bool parseElemType(const std::string &S, ElemType &T);
const char *elemTypeName(ElemType T);
inline unsigned elemBytes(ElemType T) {
  return (T == ElemType::BF16 || T == ElemType::F16) ? 2 : 4;
}

inline uint32_t floatBits(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}
inline float bitsFloat(uint32_t U) {
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}

inline uint16_t floatToBF16(float F) {
  uint32_t U = floatBits(F);
  if ((U & 0x7FFFFFFFu) > 0x7F800000u) // NaN: keep it a quiet NaN
    return static_cast<uint16_t>((U >> 16) | 0x40);
  U += 0x7FFFu + ((U >> 16) & 1u);
  return static_cast<uint16_t>(U >> 16);
}
inline float bf16ToFloat(uint16_t H) {
  return bitsFloat(static_cast<uint32_t>(H) << 16);
}

uint16_t floatToHalf(float F);
float halfToFloat(uint16_t H);

inline float roundToTF32(float F) {
  uint32_t U = floatBits(F);
  if ((U & 0x7F800000u) == 0x7F800000u)
    return F;
  U += 0xFFFu + ((U >> 13) & 1u);
  return bitsFloat(U & ~0x1FFFu);
}

/// Rounds F to the precision of T (round to nearest even).
inline float roundToType(float F, ElemType T) {
  switch (T) {
  case ElemType::BF16:
    return bf16ToFloat(floatToBF16(F));
  case ElemType::F16:
    return halfToFloat(floatToHalf(F));
  case ElemType::TF32:
    return roundToTF32(F);
  case ElemType::F32:
    return F;
  }
  return F;
}

/// Reads element I of a buffer of type T as double.
inline double loadElem(const void *Buf, size_t I, ElemType T) {
  if (elemBytes(T) == 2) {
    uint16_t H = static_cast<const uint16_t *>(Buf)[I];
    return T == ElemType::BF16 ? bf16ToFloat(H) : halfToFloat(H);
  }
  return static_cast<const float *>(Buf)[I];
}

/// Writes F (already representable in T) as element I of a buffer of type T.
inline void storeElem(void *Buf, size_t I, ElemType T, float F) {
  if (T == ElemType::BF16)
    static_cast<uint16_t *>(Buf)[I] = floatToBF16(F);
  else if (T == ElemType::F16)
    static_cast<uint16_t *>(Buf)[I] = floatToHalf(F);
  else
    static_cast<float *>(Buf)[I] = roundToType(F, T);
}

/// How inputs are drawn.
struct InputDistribution {
  bool IntegerValued = false; ///< --int-inputs
  uint64_t Seed = 1;
  /// One line for headers and reports.
  std::string describe() const;
};

/// Fills Count elements of type T with values from the distribution. The
/// stream depends only on (Seed, TensorId, element index), not on the number
/// of threads. Values are never all zero.
void fillRandom(void *Buf, size_t Count, ElemType T,
                const InputDistribution &Dist, uint64_t TensorId);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_NUMERIC_H
