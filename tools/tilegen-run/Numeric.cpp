//===- Numeric.cpp - Element types, conversions, seeded inputs ------------===//

#include "Numeric.h"

#include <algorithm>
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
  }
  return "?";
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
