//===- Numeric.h - Element types, conversions, seeded inputs ----*- C++ -*-===//
//
// The element types a manifest may name, their bit-exact conversions to and
// from float (round to nearest even, as the GPU's cvt.rn does), and the seeded
// input generator used by --check and --bench.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_NUMERIC_H
#define TILEGEN_RUN_NUMERIC_H

#include "tilegen/Support/MicroScaling.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tilegen {
namespace run {

/// Storage types of A, B, C, D. tf32 is stored as 32-bit float with the low
/// 13 mantissa bits zero. e4m3 and e5m2 are the OCP 8-bit floats (inputs only):
/// e4m3 is E4M3FN (bias 7, no infinities, S.1111.111 is NaN, max 448); e5m2 is
/// IEEE-like (bias 15, infinities and NaNs, max 57344).
/// e2m1 is OCP MX FP4 (MXFP4 with E8M0 block scales), stored two per byte (the element with
/// the lower linear index in the low nibble); it has no value without its block scales
/// (blockScaledValue), and only block-scaled kernels take it.
enum class ElemType { BF16, F16, F32, TF32, E4M3, E5M2, E2M1 };

/// The largest magnitude alpha and beta may have: 3.4028235e38, the shortest decimal that
/// reads back as FLT_MAX. The compiler's verifier takes the same bound, so a manifest it writes
/// for any description it accepts (FLT_MAX as C prints it, 3.40282347e38, is above FLT_MAX as a
/// double) is read back; every value up to the bound rounds to a finite f32.
constexpr double kMaxF32Scalar = 3.4028235e38;

bool parseElemType(const std::string &S, ElemType &T);
const char *elemTypeName(ElemType T);
inline bool isFp8(ElemType T) {
  return T == ElemType::E4M3 || T == ElemType::E5M2;
}
/// Bytes of one element; a packed e2m1 element is half a byte and counts 1 here: sizes of
/// tensors come from storageBytes.
inline unsigned elemBytes(ElemType T) {
  if (isFp8(T) || T == ElemType::E2M1)
    return 1;
  return (T == ElemType::BF16 || T == ElemType::F16) ? 2 : 4;
}

inline unsigned elemBits(ElemType T) { return T == ElemType::E2M1 ? 4 : 8 * elemBytes(T); }
/// Bytes of Elems elements of T (e2m1: two per byte, rounded up); false on overflow.
inline bool storageBytes(ElemType T, uint64_t Elems, uint64_t &Bytes) {
  if (T == ElemType::E2M1) {
    Bytes = Elems / 2 + Elems % 2;
    return true;
  }
  return !__builtin_mul_overflow(Elems, uint64_t(elemBytes(T)), &Bytes);
}
/// The largest finite value of an fp8 type: 448 (e4m3), 57344 (e5m2).
double fp8Max(ElemType T);

/// The range of an output type (C and D: bf16, f16, f32): its largest finite value
/// (65504 for f16) and its smallest normal one (2^-14 for f16, 2^-126 for bf16 and f32).
/// Results beyond the first round to infinity; below the second they are subnormal (fewer
/// bits, or flushed to 0 by a kernel that flushes subnormals).
inline double outputMaxFinite(ElemType T) {
  return T == ElemType::F16 ? 65504.0 : T == ElemType::BF16 ? 0x1.fep127 : 0x1.fffffep127;
}
inline double outputMinNormal(ElemType T) {
  return T == ElemType::F16 ? 0x1p-14 : 0x1p-126;
}
/// Encodes X as fp8 with round to nearest even. With Saturate, finite values
/// beyond the largest finite one (and infinities) become +-max, as cvt.satfinite
/// does; without it they become NaN (e4m3, which has no infinity) or +-inf
/// (e5m2). NaN stays NaN (0x7F for e4m3, 0x7E for e5m2, with X's sign).
uint8_t encodeFp8(double X, ElemType T, bool Saturate);
/// The exact value of an fp8 code (NaN and +-inf as floats).
float decodeFp8(uint8_t Code, ElemType T);

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
  case ElemType::E4M3:
  case ElemType::E5M2:
    return decodeFp8(encodeFp8(F, T, /*Saturate=*/true), T);
  case ElemType::E2M1:
    return static_cast<float>(mx::decode(mx::encode(F, mx::Format::E2M1), mx::Format::E2M1));
  }
  return F;
}

/// Reads element I of a buffer of type T as double.
inline double loadElem(const void *Buf, size_t I, ElemType T) {
  if (T == ElemType::E2M1) // the code's value, without its block scale
    return mx::decode((static_cast<const uint8_t *>(Buf)[I / 2] >> (4 * (I % 2))) & 0xF,
                      mx::Format::E2M1);
  if (isFp8(T))
    return decodeFp8(static_cast<const uint8_t *>(Buf)[I], T);
  if (elemBytes(T) == 2) {
    uint16_t H = static_cast<const uint16_t *>(Buf)[I];
    return T == ElemType::BF16 ? bf16ToFloat(H) : halfToFloat(H);
  }
  return static_cast<const float *>(Buf)[I];
}

/// Writes F (already representable in T) as element I of a buffer of type T.
inline void storeElem(void *Buf, size_t I, ElemType T, float F) {
  if (T == ElemType::E2M1) {
    uint8_t &Byte = static_cast<uint8_t *>(Buf)[I / 2];
    unsigned Shift = 4 * (I % 2);
    Byte = static_cast<uint8_t>((Byte & ~(0xFu << Shift)) |
                                (mx::encode(F, mx::Format::E2M1) & 0xFu) << Shift);
  } else if (isFp8(T))
    static_cast<uint8_t *>(Buf)[I] = encodeFp8(F, T, /*Saturate=*/true);
  else if (T == ElemType::BF16)
    static_cast<uint16_t *>(Buf)[I] = floatToBF16(F);
  else if (T == ElemType::F16)
    static_cast<uint16_t *>(Buf)[I] = floatToHalf(F);
  else
    static_cast<float *>(Buf)[I] = roundToType(F, T);
}

/// How inputs are drawn.
/// The default range of the per-block exponent of scaled and block-scaled operands.
constexpr int DefaultBlockExpLo = -4, DefaultBlockExpHi = 4;

struct InputDistribution {
  bool IntegerValued = false; ///< --int-inputs
  uint64_t Seed = 1;
  /// The per-block exponent e of scaled and block-scaled operands is uniform in
  /// [BlockExpLo, BlockExpHi] (--block-exp).
  int BlockExpLo = DefaultBlockExpLo, BlockExpHi = DefaultBlockExpHi;
  /// "[LO, HI]" of the block exponent, for the descriptions.
  std::string blockExpRange() const;
  /// e for a block whose random word is R.
  int blockExp(uint64_t R) const {
    return int(R % uint64_t(BlockExpHi - BlockExpLo + 1)) + BlockExpLo;
  }
  /// One line for headers and reports.
  std::string describe() const;
};

/// Fills Count elements of type T with values from the distribution. The
/// stream depends only on (Seed, TensorId, element index), not on the number
/// of threads. Values are never all zero.
void fillRandom(void *Buf, size_t Count, ElemType T,
                const InputDistribution &Dist, uint64_t TensorId);

/// An fp8 operand with scales, seen as Outer x K (M x K for A, N x K for B).
/// Scales are f32, one per tensor or one per BlockOuter x BlockK block; the
/// scale of block (ob, kb) is at kb * ceil(Outer / BlockOuter) + ob.
struct ScaledFp8 {
  ElemType Type = ElemType::E4M3;
  int64_t Outer = 0, K = 0;
  bool KContiguous = true; ///< element (o, k) at o*K + k, else at o + k*Outer
  /// NVFP4: whether the kernel takes the per-tensor f32; without it TensorScale is 1 and the
  /// E4M3 block scales are amax_block / 6.
  bool SecondLevel = true;
  bool PerTensor = true;
  int64_t BlockOuter = 1, BlockK = 1; ///< block granularity only

  int64_t outerBlocks() const {
    return PerTensor ? 1 : (Outer + BlockOuter - 1) / BlockOuter;
  }
  int64_t kBlocks() const { return PerTensor ? 1 : (K + BlockK - 1) / BlockK; }
  size_t elemIndex(int64_t O, int64_t Kk) const {
    return KContiguous ? size_t(O) * size_t(K) + size_t(Kk)
                       : size_t(O) + size_t(Kk) * size_t(Outer);
  }
  size_t scaleIndex(int64_t O, int64_t Kk) const {
    if (PerTensor)
      return 0;
    return size_t(Kk / BlockK) * size_t(outerBlocks()) + size_t(O / BlockOuter);
  }
};

/// Fills a scaled fp8 operand and its scales (Scales gets outerBlocks() x
/// kBlocks() entries). Real-valued: x = n * 2^e, n ~ N(0, 1) per element and
/// e uniform in [BlockExpLo, BlockExpHi] (default [-4, 4]) per scale block
/// (e = 0 per tensor), so blocks differ in magnitude; each block's scale is
/// amax / fp8Max and its codes are x / scale rounded to nearest even with
/// saturation, so they reach +-fp8Max. With
/// --int-inputs: integer codes uniform in [-3, 3] and scales 0.5, 1 or 2 per
/// block (products and sums exact in fp32). Deterministic in (Seed, TensorId).
void fillScaledFp8(void *Buf, const ScaledFp8 &Op,
                   const InputDistribution &Dist, uint64_t TensorId,
                   std::vector<float> &Scales);

/// One line describing fillScaledFp8's distribution, for headers and reports.
std::string describeScaledFp8(const InputDistribution &Dist);

/// A block-scaled operand (MXFP8, MXFP6, MXFP4 with E8M0 scales per 32 elements of K;
/// NVFP4 with E4M3 scales per 16 and one f32 per tensor), seen as Outer x K (M x K for A,
/// N x K for B). Its layout in global memory (docs/manifest.md):
/// - elements: dense, element (o, k) at linear index o*K + k (K contiguous) or o + k*Outer;
///   FP8 one per byte, FP6 one per byte (low 6 bits), FP4 two per byte, linear index i in
///   byte i / 2, bits [0, 4) for even i and [4, 8) for odd i;
/// - scales: one byte per (row, K block), dense, ceil(K / Block) x Outer, the scale of
///   (o, kb) at kb * Outer + o (the rows of one K block adjacent, as the f32 block scales);
/// - NVFP4's per-tensor f32 (TensorScale), a kernel parameter of its own.
struct BlockScaledOperand {
  mx::Format Elem = mx::Format::E2M1;
  mx::Format Scale = mx::Format::E8M0; ///< E8M0 (OCP MX) or E4M3 (NVFP4)
  int64_t Outer = 0, K = 0;
  int64_t Block = 32;      ///< K elements per scale: 32 (E8M0) or 16 (E4M3)
  bool KContiguous = true; ///< element (o, k) at o*K + k, else at o + k*Outer
  /// NVFP4: whether the kernel takes the per-tensor f32; without it TensorScale is 1 and the
  /// E4M3 block scales are amax_block / 6.
  bool SecondLevel = true;

  int64_t kBlocks() const { return (K + Block - 1) / Block; }
  size_t elemIndex(int64_t O, int64_t Kk) const {
    return KContiguous ? size_t(O) * size_t(K) + size_t(Kk)
                       : size_t(O) + size_t(Kk) * size_t(Outer);
  }
  size_t scaleIndex(int64_t O, int64_t Kk) const {
    return size_t(Kk / Block) * size_t(Outer) + size_t(O);
  }
  /// Bytes of the element and scale tensors; false on overflow.
  bool dataBytes(uint64_t &Bytes) const;
  uint64_t scaleCount() const { return uint64_t(kBlocks()) * uint64_t(Outer); }
};

/// The value element (o, k) is drawn as before quantisation (fillBlockScaled): x = n * 2^e,
/// n ~ N(0, 1) per element, e uniform in [BlockExpLo, BlockExpHi] per scale block; with
/// --int-inputs, x = c * 2^e with c uniform in {-3, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2,
/// 3} (E2M1 values; every narrow format holds them) and e in {-1, 0, 1} per block, exact in
/// every format and in fp32 sums.
double blockScaledSource(const BlockScaledOperand &Op, const InputDistribution &Dist,
                         uint64_t TensorId, int64_t O, int64_t Kk);

/// Fills a block-scaled operand: Data gets the element codes (dataBytes), Scales the scale
/// codes (scaleCount), TensorScale NVFP4's per-tensor f32 (1 for MX). Each block is quantised
/// from blockScaledSource: MX as the OCP MX specification v1.0 section 6.3 says
/// (mx::quantiseMxBlock), NVFP4 with its two levels (mx::nvfp4TensorScale,
/// mx::quantiseNvfp4Block; with --int-inputs a power-of-two block scale and a per-tensor scale
/// of 1, so that every value is exact). Deterministic in (Seed, TensorId).
void fillBlockScaled(uint8_t *Data, const BlockScaledOperand &Op,
                     const InputDistribution &Dist, uint64_t TensorId,
                     std::vector<uint8_t> &Scales, float &TensorScale);

/// The dequantised value of element (o, k): element x its block's scale x TensorScale, exact
/// in double.
double blockScaledValue(const uint8_t *Data, const uint8_t *Scales, float TensorScale,
                        const BlockScaledOperand &Op, int64_t O, int64_t Kk);

/// One line describing fillBlockScaled's distribution, for headers and reports.
std::string describeBlockScaled(const InputDistribution &Dist);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_NUMERIC_H
