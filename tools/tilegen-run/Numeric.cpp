//===- Numeric.cpp - Element types, conversions, seeded inputs ------------===//

#include "Numeric.h"

#include <algorithm>
#include <mutex>
#include <thread>

using namespace tilegen::run;

bool tilegen::run::parseElemType(const std::string &S, ElemType &T) {
  if (S == "bf16")
    T = ElemType::BF16;
  else if (S == "f16")
    T = ElemType::F16;
  else if (S == "f32")
    T = ElemType::F32;
  else if (S == "tf32")
    T = ElemType::TF32;
  else if (S == "e4m3")
    T = ElemType::E4M3;
  else if (S == "e5m2")
    T = ElemType::E5M2;
  else if (S == "e2m1")
    T = ElemType::E2M1;
  else
    return false;
  return true;
}

const char *tilegen::run::elemTypeName(ElemType T) {
  switch (T) {
  case ElemType::BF16:
    return "bf16";
  case ElemType::F16:
    return "f16";
  case ElemType::F32:
    return "f32";
  case ElemType::TF32:
    return "tf32";
  case ElemType::E4M3:
    return "e4m3";
  case ElemType::E5M2:
    return "e5m2";
  case ElemType::E2M1:
    return "e2m1";
  }
  return "?";
}

// The fp8 conversions are the narrow-format library's (tilegen/Support/MicroScaling.h, the
// OFP8 formats' rules there): one implementation of E4M3 and E5M2 for the runner and the
// block-scaled generator.
static tilegen::mx::Format fp8Format(ElemType T) {
  return T == ElemType::E5M2 ? tilegen::mx::Format::E5M2 : tilegen::mx::Format::E4M3;
}

double tilegen::run::fp8Max(ElemType T) {
  return tilegen::mx::formatInfo(fp8Format(T)).maxFinite;
}

uint8_t tilegen::run::encodeFp8(double X, ElemType T, bool Saturate) {
  return tilegen::mx::encode(X, fp8Format(T), Saturate);
}

float tilegen::run::decodeFp8(uint8_t Code, ElemType T) {
  return float(tilegen::mx::decode(Code, fp8Format(T)));
}

uint16_t tilegen::run::floatToHalf(float F) {
  uint32_t U = floatBits(F);
  uint16_t Sign = static_cast<uint16_t>((U >> 16) & 0x8000u);
  uint32_t Abs = U & 0x7FFFFFFFu;
  if (Abs > 0x7F800000u) // NaN
    return Sign | 0x7E00u;
  if (Abs >= 0x477FF000u) // rounds to >= 65520: infinity
    return Sign | 0x7C00u;
  if (Abs < 0x38800000u) { // below 2^-14: half subnormal or zero
    // Scale so that the half subnormal unit (2^-24) becomes 1, then round to
    // nearest even in float arithmetic (exact for these magnitudes).
    float Scaled = bitsFloat(Abs) * 16777216.0f; // * 2^24
    float R = std::nearbyint(Scaled);           // default mode: ties to even
    return Sign | static_cast<uint16_t>(R);
  }
  uint32_t Exp = (Abs >> 23) - 127 + 15;
  uint32_t Mant = Abs & 0x7FFFFFu;
  uint32_t H = (Exp << 10) | (Mant >> 13);
  uint32_t Rest = Mant & 0x1FFFu;
  if (Rest > 0x1000u || (Rest == 0x1000u && (H & 1u)))
    ++H; // may carry into the exponent, which is the right answer
  return Sign | static_cast<uint16_t>(H);
}

float tilegen::run::halfToFloat(uint16_t H) {
  uint32_t Sign = static_cast<uint32_t>(H & 0x8000u) << 16;
  uint32_t Exp = (H >> 10) & 0x1Fu;
  uint32_t Mant = H & 0x3FFu;
  if (Exp == 0) {
    float F = static_cast<float>(Mant) * (1.0f / 16777216.0f); // 2^-24
    return Sign ? -F : F;
  }
  if (Exp == 31)
    return bitsFloat(Sign | 0x7F800000u | (Mant << 13));
  return bitsFloat(Sign | ((Exp - 15 + 127) << 23) | (Mant << 13));
}

std::string InputDistribution::describe() const {
  std::string S = IntegerValued
                      ? "integers uniform in [-3, 3] (exact in fp32)"
                      : "uniform in [-1, 1] rounded to the operand type";
  return S + ", seed " + std::to_string(Seed);
}

std::string InputDistribution::blockExpRange() const {
  return "[" + std::to_string(BlockExpLo) + ", " + std::to_string(BlockExpHi) + "]";
}

std::string tilegen::run::describeScaledFp8(const InputDistribution &Dist) {
  if (Dist.IntegerValued)
    return "scaled fp8: integer codes uniform in [-3, 3], scales 0.5, 1 or 2 "
           "per scale block (exact in fp32)";
  return "scaled fp8: x = n * 2^e with n ~ N(0, 1) and e uniform in " + Dist.blockExpRange() +
         " per scale block (0 per tensor); scale = amax / fp8 max per block, "
         "codes = x / scale rounded to nearest even with saturation";
}

namespace {

/// splitmix64: a counter-based generator, so element I's value does not
/// depend on how the work is split over threads.
inline uint64_t mix(uint64_t X) {
  X += 0x9E3779B97F4A7C15ull;
  X = (X ^ (X >> 30)) * 0xBF58476D1CE4E5B9ull;
  X = (X ^ (X >> 27)) * 0x94D049BB133111EBull;
  return X ^ (X >> 31);
}

} // namespace

void tilegen::run::fillRandom(void *Buf, size_t Count, ElemType T,
                              const InputDistribution &Dist,
                              uint64_t TensorId) {
  uint64_t Key = mix(Dist.Seed ^ mix(TensorId + 0x1234567ull));
  auto Work = [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      uint64_t R = mix(Key + I);
      float V;
      if (Dist.IntegerValued) {
        V = static_cast<float>(static_cast<int>(R % 7) - 3);
      } else {
        // 24 random bits -> [-1, 1).
        double U = static_cast<double>(R >> 40) / 16777216.0;
        V = static_cast<float>(2.0 * U - 1.0);
      }
      storeElem(Buf, I, T, V);
    }
  };
  unsigned Threads = std::max(1u, std::thread::hardware_concurrency());
  if (Count < (1u << 20) || Threads == 1) {
    Work(0, Count);
    return;
  }
  std::vector<std::thread> Pool;
  size_t Chunk = (Count + Threads - 1) / Threads;
  for (unsigned W = 0; W < Threads; ++W) {
    size_t B = std::min(Count, W * Chunk), E = std::min(Count, B + Chunk);
    Pool.emplace_back(Work, B, E);
  }
  for (auto &Th : Pool)
    Th.join();
}

namespace {

/// Runs Work(Begin, End) over [0, Count) in chunks of whole Align units on
/// the host's threads (one thread for small work).
template <typename Fn>
void parallelChunks(int64_t Count, int64_t Align, uint64_t WorkPerUnit, Fn Work) {
  unsigned Threads = std::max(1u, std::thread::hardware_concurrency());
  int64_t Units = (Count + Align - 1) / Align;
  if (uint64_t(Count) * WorkPerUnit < (1u << 20) || Threads == 1 || Units < 2) {
    Work(int64_t(0), Count);
    return;
  }
  int64_t T = std::min<int64_t>(Threads, Units);
  int64_t Per = (Units + T - 1) / T;
  std::vector<std::thread> Pool;
  for (int64_t W = 0; W < T; ++W) {
    int64_t B = std::min(Count, W * Per * Align);
    int64_t E = std::min(Count, B + Per * Align);
    if (B < E)
      Pool.emplace_back(Work, B, E);
  }
  for (auto &Th : Pool)
    Th.join();
}

} // namespace

void tilegen::run::fillScaledFp8(void *Buf, const ScaledFp8 &Op,
                                 const InputDistribution &Dist,
                                 uint64_t TensorId,
                                 std::vector<float> &Scales) {
  const uint64_t Key = mix(Dist.Seed ^ mix(TensorId + 0x1234567ull));
  const uint64_t BlockKey = mix(Key ^ 0x5CA1Eull);
  const int64_t OB = Op.outerBlocks(), KB = Op.kBlocks();
  const int64_t BO = Op.PerTensor ? Op.Outer : Op.BlockOuter;
  uint8_t *Codes = static_cast<uint8_t *>(Buf);
  Scales.assign(size_t(OB) * size_t(KB), 1.0f);
  auto BlockRandom = [&](int64_t Ob, int64_t Kb) {
    return mix(BlockKey + mix(uint64_t(Ob)) + uint64_t(Kb));
  };

  if (Dist.IntegerValued) {
    for (int64_t Kb = 0; Kb < KB; ++Kb)
      for (int64_t Ob = 0; Ob < OB; ++Ob)
        Scales[size_t(Kb) * OB + Ob] =
            std::ldexp(1.0f, int(BlockRandom(Ob, Kb) % 3) - 1);
    parallelChunks(Op.Outer, 1, uint64_t(Op.K), [&](int64_t B, int64_t E) {
      for (int64_t O = B; O < E; ++O)
        for (int64_t Kk = 0; Kk < Op.K; ++Kk) {
          uint64_t R = mix(Key + uint64_t(O) * uint64_t(Op.K) + uint64_t(Kk));
          Codes[Op.elemIndex(O, Kk)] =
              encodeFp8(double(int(R % 7) - 3), Op.Type, true);
        }
    });
    return;
  }

  // x(o, k) = n * 2^e: n ~ N(0, 1) by Box-Muller from the element's counter,
  // e from its scale block's.
  std::vector<int> BlockExp(Scales.size(), 0);
  if (!Op.PerTensor)
    for (size_t I = 0; I < BlockExp.size(); ++I)
      BlockExp[I] = Dist.blockExp(BlockRandom(int64_t(I) % OB, int64_t(I) / OB));
  auto Value = [&](int64_t O, int64_t Kk) {
    uint64_t R = mix(Key + uint64_t(O) * uint64_t(Op.K) + uint64_t(Kk));
    double U1 = double((R >> 11) + 1) * 0x1p-53; // (0, 1]
    double U2 = double(mix(R) >> 11) * 0x1p-53;  // [0, 1)
    double N = std::sqrt(-2.0 * std::log(U1)) * std::cos(6.283185307179586 * U2);
    return std::ldexp(N, BlockExp[Op.scaleIndex(O, Kk)]);
  };

  // Pass 1: amax per scale block. Chunks are whole outer blocks, so threads
  // own disjoint blocks; per tensor, each chunk keeps its own maximum.
  std::vector<double> Amax(Scales.size(), 0.0);
  std::vector<double> ChunkMax;
  std::mutex Lock;
  parallelChunks(Op.Outer, BO, uint64_t(Op.K), [&](int64_t B, int64_t E) {
    double Local = 0;
    for (int64_t O = B; O < E; ++O)
      for (int64_t Kk = 0; Kk < Op.K; ++Kk) {
        double A = std::fabs(Value(O, Kk));
        if (Op.PerTensor) {
          Local = std::max(Local, A);
        } else {
          double &M = Amax[Op.scaleIndex(O, Kk)];
          M = std::max(M, A);
        }
      }
    std::lock_guard<std::mutex> G(Lock);
    ChunkMax.push_back(Local);
  });
  if (Op.PerTensor)
    for (double M : ChunkMax)
      Amax[0] = std::max(Amax[0], M);
  const double Max = fp8Max(Op.Type);
  for (size_t I = 0; I < Scales.size(); ++I)
    Scales[I] = Amax[I] > 0 ? static_cast<float>(Amax[I] / Max) : 1.0f;

  // Pass 2: codes = x / scale (the f32 scale the kernel reads), rounded to
  // nearest even with saturation (a block's amax may round up past the max).
  parallelChunks(Op.Outer, 1, uint64_t(Op.K), [&](int64_t B, int64_t E) {
    for (int64_t O = B; O < E; ++O)
      for (int64_t Kk = 0; Kk < Op.K; ++Kk)
        Codes[Op.elemIndex(O, Kk)] = encodeFp8(
            Value(O, Kk) / double(Scales[Op.scaleIndex(O, Kk)]), Op.Type, true);
  });
}

bool tilegen::run::BlockScaledOperand::dataBytes(uint64_t &Bytes) const {
  if (Outer < 0 || K < 0)
    return false;
  uint64_t Count;
  if (__builtin_mul_overflow(uint64_t(Outer), uint64_t(K), &Count))
    return false;
  return mx::storageBytes(Count, Elem, Bytes);
}

std::string tilegen::run::describeBlockScaled(const InputDistribution &Dist) {
  if (Dist.IntegerValued)
    return "block-scaled: x = c * 2^e with c uniform in the E2M1 values {0, +-0.5, +-1, +-1.5, "
           "+-2, +-3} and e in {-1, 0, 1} per scale block, quantised per block (MX as below; "
           "NVFP4 with the power-of-two block scale 2^(floor(log2 amax) - 1) and a per-tensor "
           "scale of 1), exact";
  return "block-scaled: x = n * 2^e with n ~ N(0, 1) and e uniform in " + Dist.blockExpRange() +
         " per scale block, quantised per block (OCP MX v1.0 6.3: scale 2^(floor(log2 amax) - "
         "emax); NVFP4: f32 amax_tensor / 2688, or 1 for a kernel without the per-tensor f32, E4M3 "
         "amax_block / (6 x that)), elements rounded to "
         "nearest even with saturation";
}

double tilegen::run::blockScaledSource(const BlockScaledOperand &Op,
                                       const InputDistribution &Dist, uint64_t TensorId,
                                       int64_t O, int64_t Kk) {
  const uint64_t Key = mix(Dist.Seed ^ mix(TensorId + 0x1234567ull));
  const uint64_t BlockKey = mix(Key ^ 0xB10Cull);
  const uint64_t BR = mix(BlockKey + mix(uint64_t(O)) + uint64_t(Kk / Op.Block));
  const uint64_t R = mix(Key + uint64_t(O) * uint64_t(Op.K) + uint64_t(Kk));
  if (Dist.IntegerValued) {
    static const double Values[] = {-3, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3};
    return std::ldexp(Values[R % 11], int(BR % 3) - 1);
  }
  double U1 = double((R >> 11) + 1) * 0x1p-53; // (0, 1]
  double U2 = double(mix(R) >> 11) * 0x1p-53;  // [0, 1)
  double N = std::sqrt(-2.0 * std::log(U1)) * std::cos(6.283185307179586 * U2);
  return std::ldexp(N, Dist.blockExp(BR));
}

void tilegen::run::fillBlockScaled(uint8_t *Data, const BlockScaledOperand &Op,
                                   const InputDistribution &Dist, uint64_t TensorId,
                                   std::vector<uint8_t> &Scales, float &TensorScale) {
  const bool Nvfp4 = Op.Scale == mx::Format::E4M3;
  const bool Fp4 = mx::formatInfo(Op.Elem).bits == 4;
  Scales.assign(size_t(Op.scaleCount()), 0);
  TensorScale = 1.0f;
  if (Nvfp4 && Op.SecondLevel && !Dist.IntegerValued) {
    double Amax = 0;
    std::mutex Lock;
    parallelChunks(Op.Outer, 1, uint64_t(Op.K), [&](int64_t B, int64_t E) {
      double Local = 0;
      for (int64_t O = B; O < E; ++O)
        for (int64_t Kk = 0; Kk < Op.K; ++Kk)
          Local = std::max(Local, std::fabs(blockScaledSource(Op, Dist, TensorId, O, Kk)));
      std::lock_guard<std::mutex> G(Lock);
      Amax = std::max(Amax, Local);
    });
    TensorScale = float(mx::nvfp4TensorScale(Amax));
  }
  // Rows are independent (a block is part of one row): threads own whole rows. FP4 codes
  // of two elements share a byte; with K contiguous and K even (K is a multiple of the block)
  // a row's bytes are its own, otherwise one thread packs every byte afterwards.
  const bool RowBytesOwn = !Fp4 || (Op.KContiguous && Op.K % 2 == 0);
  std::vector<uint8_t> Codes(RowBytesOwn ? 0 : size_t(Op.Outer) * size_t(Op.K));
  parallelChunks(Op.Outer, 1, uint64_t(Op.K), [&](int64_t B, int64_t E) {
    std::vector<double> X(size_t(Op.Block));
    std::vector<uint8_t> C(size_t(Op.Block));
    for (int64_t O = B; O < E; ++O)
      for (int64_t K0 = 0; K0 < Op.K; K0 += Op.Block) {
        int64_t N = std::min(Op.Block, Op.K - K0);
        for (int64_t I = 0; I < N; ++I)
          X[size_t(I)] = blockScaledSource(Op, Dist, TensorId, O, K0 + I);
        uint8_t &S = Scales[Op.scaleIndex(O, K0)];
        if (Nvfp4 && Dist.IntegerValued) {
          // Exact: the power of two 2^(floor(log2 amax) - 1) as the E4M3 scale puts every
          // source value (an E2M1 value times 2^e) on an E2M1 value.
          double Amax = 0;
          for (int64_t I = 0; I < N; ++I)
            Amax = std::max(Amax, std::fabs(X[size_t(I)]));
          int E = 1;
          if (Amax > 0)
            std::frexp(Amax, &E);
          S = mx::encode(std::ldexp(1.0, E - 2), mx::Format::E4M3);
          double Scale = mx::decode(S, mx::Format::E4M3);
          for (int64_t I = 0; I < N; ++I)
            C[size_t(I)] = mx::encode(X[size_t(I)] / Scale, mx::Format::E2M1);
        } else if (Nvfp4)
          mx::quantiseNvfp4Block(X.data(), size_t(N), TensorScale, S, C.data());
        else
          mx::quantiseMxBlock(X.data(), size_t(N), Op.Elem, S, C.data());
        for (int64_t I = 0; I < N; ++I) {
          size_t Idx = Op.elemIndex(O, K0 + I);
          if (!Fp4)
            Data[Idx] = C[size_t(I)];
          else if (RowBytesOwn)
            Data[Idx / 2] = uint8_t((Data[Idx / 2] & ~(0xF << (Idx % 2 * 4))) |
                                    ((C[size_t(I)] & 0xF) << (Idx % 2 * 4)));
          else
            Codes[Idx] = C[size_t(I)];
        }
      }
  });
  if (!RowBytesOwn)
    mx::packE2M1(Codes.data(), Codes.size(), Data);
}

double tilegen::run::blockScaledValue(const uint8_t *Data, const uint8_t *Scales,
                                      float TensorScale, const BlockScaledOperand &Op,
                                      int64_t O, int64_t Kk) {
  size_t Idx = Op.elemIndex(O, Kk);
  uint8_t Code = mx::formatInfo(Op.Elem).bits == 4 ? mx::unpackE2M1(Data, Idx) : Data[Idx];
  return mx::decode(Code, Op.Elem) * mx::decode(Scales[Op.scaleIndex(O, Kk)], Op.Scale) *
         double(TensorScale);
}
