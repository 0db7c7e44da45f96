//===- NumericTests.cpp - Bit-exact checks of the runner's fp8 helpers ----===//
//
// Test-only. Prints one line per case of encodeFp8 / decodeFp8 /
// fillScaledFp8 (test/tools/tilegen-run/numeric-fp8.test checks them) and
// exits non-zero if any case disagrees with the value written here.
//
//===----------------------------------------------------------------------===//

#include "../Numeric.h"

#include <cmath>
#include <cstdio>

using namespace tilegen::run;

namespace {

int Failures = 0;

void encodes(ElemType T, double X, bool Sat, unsigned Want) {
  unsigned Got = encodeFp8(X, T, Sat);
  bool Ok = Got == Want;
  Failures += !Ok;
  std::printf("%s encode %s %.10g -> 0x%02X%s\n", elemTypeName(T),
              Sat ? "sat" : "nosat", X, Got, Ok ? "" : "  WRONG");
}

void decodes(ElemType T, unsigned Code, double Want) {
  double Got = decodeFp8(static_cast<uint8_t>(Code), T);
  bool Ok = std::isnan(Want) ? std::isnan(Got) : Got == Want;
  Failures += !Ok;
  if (std::isnan(Got))
    std::printf("%s decode 0x%02X -> nan%s\n", elemTypeName(T), Code,
                Ok ? "" : "  WRONG");
  else
    std::printf("%s decode 0x%02X -> %.10g%s\n", elemTypeName(T), Code, Got,
                Ok ? "" : "  WRONG");
}

/// Every non-NaN code decodes to a value that encodes back to the same code.
void roundTrips(ElemType T) {
  unsigned Bad = 0, Checked = 0;
  for (unsigned C = 0; C < 256; ++C) {
    float V = decodeFp8(static_cast<uint8_t>(C), T);
    if (std::isnan(V) || std::isinf(V))
      continue;
    ++Checked;
    Bad += encodeFp8(V, T, false) != C;
  }
  Failures += Bad != 0;
  std::printf("%s round trip: %u codes, %u wrong\n", elemTypeName(T), Checked,
              Bad);
}

} // namespace

int main() {
  const ElemType E4 = ElemType::E4M3, E5 = ElemType::E5M2;
  // e4m3: max, min normal, subnormals, ties, overflow, NaN.
  encodes(E4, 448, true, 0x7E);
  encodes(E4, -448, true, 0xFE);
  encodes(E4, 1, true, 0x38);
  encodes(E4, std::ldexp(1.0, -6), true, 0x08); // smallest normal
  encodes(E4, std::ldexp(1.0, -9), true, 0x01); // smallest subnormal
  encodes(E4, std::ldexp(7.0, -9), true, 0x07); // largest subnormal
  encodes(E4, std::ldexp(1.0, -10), true, 0x00); // tie to even: 0
  encodes(E4, std::ldexp(3.0, -10), true, 0x02); // tie 1.5 ulp -> 2 (even)
  encodes(E4, 1.0625, true, 0x38);               // tie between 1 and 1.125: even
  encodes(E4, 1.1875, true, 0x3A);               // tie between 1.125 and 1.25: even
  encodes(E4, 464, true, 0x7E);                  // tie 448/480: 448 (even)
  encodes(E4, 464.01, true, 0x7E);               // would round to 480: saturates
  encodes(E4, 464.01, false, 0x7F);              // ... or is NaN without saturation
  encodes(E4, 1e9, true, 0x7E);
  encodes(E4, -INFINITY, true, 0xFE);
  encodes(E4, NAN, true, 0x7F);
  encodes(E4, -0.0, true, 0x80);
  decodes(E4, 0x7E, 448);
  decodes(E4, 0xFE, -448);
  decodes(E4, 0x01, std::ldexp(1.0, -9));
  decodes(E4, 0x08, std::ldexp(1.0, -6));
  decodes(E4, 0x7F, NAN);
  decodes(E4, 0xFF, NAN);
  decodes(E4, 0x78, 256);
  // e5m2: max, subnormals, infinities, NaN, ties.
  encodes(E5, 57344, true, 0x7B);
  encodes(E5, -57344, true, 0xFB);
  encodes(E5, 1, true, 0x3C);
  encodes(E5, std::ldexp(1.0, -14), true, 0x04); // smallest normal
  encodes(E5, std::ldexp(1.0, -16), true, 0x01); // smallest subnormal
  encodes(E5, std::ldexp(1.0, -17), true, 0x00); // tie to even: 0
  encodes(E5, 1.125, true, 0x3C);                // tie between 1 and 1.25: even
  encodes(E5, 1.375, true, 0x3E);                // tie between 1.25 and 1.5: even
  encodes(E5, 61440, true, 0x7B);                // tie 57344/65536 -> 65536: saturates
  encodes(E5, 61440, false, 0x7C);               // ... or is inf
  encodes(E5, -INFINITY, false, 0xFC);
  encodes(E5, INFINITY, true, 0x7B);
  encodes(E5, NAN, true, 0x7E);
  decodes(E5, 0x7B, 57344);
  decodes(E5, 0x01, std::ldexp(1.0, -16));
  decodes(E5, 0x7C, INFINITY);
  decodes(E5, 0xFC, -INFINITY);
  decodes(E5, 0x7D, NAN);
  decodes(E5, 0x7F, NAN);
  roundTrips(E4);
  roundTrips(E5);

  // fillScaledFp8: per-block amax reaches the max code, scale layout.
  ScaledFp8 Op;
  Op.Type = E4;
  Op.Outer = 5;
  Op.K = 300;
  Op.KContiguous = false;
  Op.PerTensor = false;
  Op.BlockOuter = 2;
  Op.BlockK = 128;
  std::vector<uint8_t> Codes(size_t(Op.Outer * Op.K));
  std::vector<float> Scales;
  InputDistribution Dist;
  fillScaledFp8(Codes.data(), Op, Dist, 0, Scales);
  unsigned BlocksAtMax = 0;
  for (int64_t Ob = 0; Ob < Op.outerBlocks(); ++Ob)
    for (int64_t Kb = 0; Kb < Op.kBlocks(); ++Kb) {
      bool AtMax = false;
      for (int64_t O = Ob * 2; O < std::min<int64_t>(Op.Outer, Ob * 2 + 2); ++O)
        for (int64_t K = Kb * 128; K < std::min<int64_t>(Op.K, Kb * 128 + 128);
             ++K)
          AtMax |= (Codes[Op.elemIndex(O, K)] & 0x7F) == 0x7E;
      BlocksAtMax += AtMax;
    }
  bool LayoutOk = Scales.size() == 9 && Op.scaleIndex(3, 200) == 1 * 3 + 1;
  Failures += BlocksAtMax != 9 || !LayoutOk;
  std::printf("scaled e4m3 5x300, blocks 2x128: %zu scales, %u blocks reach "
              "448, scale (3, 200) at %zu\n",
              Scales.size(), BlocksAtMax, Op.scaleIndex(3, 200));

  // fillBlockScaled: for each format, every block's scale is the one its source values ask
  // for (MX: the largest element of a nonzero block is at least 2^emax after scaling, so the
  // scale is not too large, and no element is clamped by more than the rounding of the block
  // maximum; NVFP4 likewise with its two levels), the dequantised value is within half a unit
  // of the element format at the block's scale of the source (or clamped to the maximum), the
  // scale layout is kb * Outer + o, and FP4 codes are packed low nibble first.
  struct FormatCase {
    const char *Name;
    tilegen::mx::Format Elem, Scale;
    int64_t Block;
    bool KContiguous;
  };
  using tilegen::mx::Format;
  const FormatCase Cases[] = {
      {"mxfp4", Format::E2M1, Format::E8M0, 32, true},
      {"mxfp4 mn-major", Format::E2M1, Format::E8M0, 32, false},
      {"nvfp4", Format::E2M1, Format::E4M3, 16, true},
      {"mxfp8 e4m3", Format::E4M3, Format::E8M0, 32, true},
      {"mxfp8 e5m2", Format::E5M2, Format::E8M0, 32, false},
      {"mxfp6 e2m3", Format::E2M3, Format::E8M0, 32, true},
      {"mxfp6 e3m2", Format::E3M2, Format::E8M0, 32, true},
  };
  for (bool Ints : {false, true})
    for (const FormatCase &C : Cases) {
      BlockScaledOperand B;
      B.Elem = C.Elem;
      B.Scale = C.Scale;
      B.Block = C.Block;
      B.KContiguous = C.KContiguous;
      B.Outer = 7;
      B.K = 96;
      uint64_t Bytes = 0;
      B.dataBytes(Bytes);
      std::vector<uint8_t> Data(Bytes), BScales;
      float TS = 0;
      InputDistribution D;
      D.IntegerValued = Ints;
      D.Seed = 7;
      fillBlockScaled(Data.data(), B, D, 3, BScales, TS);
      const tilegen::mx::FormatInfo &EI = tilegen::mx::formatInfo(C.Elem);
      unsigned Bad = 0, Inexact = 0;
      double MaxRel = 0;
      for (int64_t O = 0; O < B.Outer; ++O)
        for (int64_t K0 = 0; K0 < B.K; K0 += B.Block) {
          double Scale = tilegen::mx::decode(BScales[B.scaleIndex(O, K0)], C.Scale) * TS;
          double BlockMax = 0, SrcMax = 0;
          for (int64_t K = K0; K < K0 + B.Block; ++K) {
            double X = blockScaledSource(B, D, 3, O, K);
            double V = blockScaledValue(Data.data(), BScales.data(), TS, B, O, K);
            SrcMax = std::max(SrcMax, std::fabs(X));
            BlockMax = std::max(BlockMax, std::fabs(V));
            // Half a unit in the last place of X / Scale in the element format, or clamping.
            double Y = std::fabs(X) / Scale;
            int E;
            std::frexp(std::max(Y, std::ldexp(1.0, 1 - EI.bias)), &E);
            double HalfUlp = std::ldexp(1.0, E - 1 - int(EI.manBits) - 1) * Scale;
            bool Clamped = Y > EI.maxFinite && std::fabs(V) == EI.maxFinite * Scale;
            if (!(std::fabs(V - X) <= HalfUlp * (1 + 1e-12) || Clamped))
              ++Bad;
            Inexact += V != X;
          }
          MaxRel = std::max(MaxRel, SrcMax > 0 ? std::fabs(BlockMax - SrcMax) / SrcMax : 0);
          // The block maximum lands in the element format's top binade (MX) or at its
          // largest value within E4M3's rounding of the scale (NVFP4; --int-inputs picks a
          // power-of-two scale instead, checked by exactness).
          if (SrcMax > 0 && C.Scale == Format::E8M0 &&
              !(SrcMax / Scale >= std::ldexp(1.0, EI.emax)))
            ++Bad;
          if (SrcMax > 0 && C.Scale == Format::E4M3 && !Ints && !(SrcMax / Scale >= 6.0 * 0.93))
            ++Bad;
        }
      bool Layout = BScales.size() == size_t(B.Outer * B.kBlocks()) &&
                    B.scaleIndex(5, 40) == size_t(1 * B.Outer + 5) * (C.Block == 32) +
                                               size_t(2 * B.Outer + 5) * (C.Block == 16);
      bool Ok = Bad == 0 && Layout && (!Ints || Inexact == 0);
      Failures += !Ok;
      std::printf("block-scaled %s%s 7x96: %zu scales, %u outside rounding%s%s\n", C.Name,
                  Ints ? " int" : "", BScales.size(), Bad,
                  Ints ? (Inexact ? ", inexact" : ", exact") : "", Ok ? "" : "  WRONG");
    }
  {
    // Packing: element (0, 1) of a K-contiguous FP4 operand is the high nibble of byte 0.
    BlockScaledOperand B;
    B.Outer = 1;
    B.K = 32;
    std::vector<uint8_t> Data(16), BScales;
    float TS;
    InputDistribution D;
    D.IntegerValued = true;
    fillBlockScaled(Data.data(), B, D, 1, BScales, TS);
    double Scale = tilegen::mx::decode(BScales[0], Format::E8M0);
    bool Ok = blockScaledValue(Data.data(), BScales.data(), TS, B, 0, 1) ==
              tilegen::mx::decode(Data[0] >> 4, Format::E2M1) * Scale;
    Failures += !Ok;
    std::printf("block-scaled e2m1 packing: element 1 in the high nibble%s\n",
                Ok ? "" : "  WRONG");
  }

  std::printf("%s\n", Failures ? "FAILED" : "all passed");
  return Failures ? 1 : 0;
}
