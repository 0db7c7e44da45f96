//===- PadCopyEmulation.cpp - PadCopy.cu's device code, run on the host ----===//
//
// Test-only. Compiles the copy kernel's source (PadCopy.cu) as plain C++ with
// the few CUDA built-ins it uses defined here (thread and block indices, uint4,
// __funnelshift_r as the CUDA documentation defines it), and runs its grid one
// thread after another (it has no shared memory and no barriers) on random
// lines: every element size, both directions, 16-byte pieces and element-wise
// jobs, several jobs per launch, dense sides at every alignment a line can
// start at. Each result is compared with a line-by-line copy; bytes of the
// padded copy past the lines must stay zero (into it) and untouched (out of
// it), and guard bytes around every buffer must stay untouched. Buffers are
// exactly the tensors' sizes, so the sanitizer build (ASan) catches any read
// past a tensor's end.
//
// Prints one line per case group and "pad-copy emulation: N cases pass"; exits
// 1 on the first mismatch, naming the case.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdlib.h>
#include <random>
#include <vector>

namespace cuda_shim {
struct Dim3 {
  unsigned x = 0, y = 1, z = 1;
};
} // namespace cuda_shim

static cuda_shim::Dim3 threadIdx, blockIdx, gridDim;

struct uint4 {
  uint32_t x, y, z, w;
};
static inline uint4 make_uint4(uint32_t X, uint32_t Y, uint32_t Z, uint32_t W) {
  return uint4{X, Y, Z, W};
}
/// hi:lo shifted right by shift & 31, the low 32 bits.
static inline uint32_t __funnelshift_r(uint32_t Lo, uint32_t Hi, uint32_t Shift) {
  const uint64_t V = (uint64_t(Hi) << 32) | Lo;
  return uint32_t(V >> (Shift & 31));
}

#define __device__
#define __forceinline__ inline
#define __global__
#define __launch_bounds__(N)

// (The kernel's `#pragma unroll`s mean nothing to a host compiler: CMake passes
// -Wno-unknown-pragmas for this file.)
#include "../PadCopy.cu"

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool Asan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool Asan = true;
#else
constexpr bool Asan = false;
#endif
#else
constexpr bool Asan = false;
#endif
/// Guard bytes after each buffer in plain builds (writes past the end change them); with
/// AddressSanitizer each buffer ends where its heap block ends, so that reads past it are
/// reported as well.
constexpr size_t Guard = Asan ? 0 : 64;
constexpr unsigned char GuardByte = 0xA5;

/// A buffer of exactly Bytes bytes at AlignOffset past a 256-byte aligned address (cuMemAlloc
/// gives 256-byte aligned ones), followed by Guard guard bytes.
struct Buffer {
  unsigned char *Raw = nullptr, *Base = nullptr;
  size_t Bytes = 0;
  Buffer(size_t N, size_t AlignOffset) : Bytes(N) {
    void *P = nullptr;
    if (posix_memalign(&P, 256, AlignOffset + N + Guard) != 0) {
      std::printf("out of host memory\n");
      std::exit(1);
    }
    Raw = static_cast<unsigned char *>(P);
    Base = Raw + AlignOffset;
    std::memset(Raw, GuardByte, AlignOffset + N + Guard);
  }
  ~Buffer() { std::free(Raw); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  bool guardsIntact() const {
    for (const unsigned char *P = Raw; P < Base; ++P)
      if (*P != GuardByte)
        return false;
    for (const unsigned char *P = Base + Bytes; P < Base + Bytes + Guard; ++P)
      if (*P != GuardByte)
        return false;
    return true;
  }
  uint64_t addr() const { return reinterpret_cast<uint64_t>(Base); }
};

void runGrid(const TilegenPadCopyArgs &A, unsigned Grid) {
  gridDim.x = Grid;
  for (unsigned B = 0; B < Grid; ++B)
    for (unsigned T = 0; T < TILEGEN_PAD_COPY_THREADS; ++T) {
      blockIdx.x = B;
      threadIdx.x = T;
      tilegen_pad_copy(A);
    }
}

struct Case {
  int64_t Width, Lines, ElemBytes, PaddedPitch;
  bool ToPadded;
  size_t DenseAlign; // 0: 256-byte aligned; else an offset (forces mode 0)
};

int Cases = 0;

/// Fills, copies with one launch of up to three jobs, and checks.
bool runLaunch(const std::vector<Case> &Cs, std::mt19937_64 &Rng, unsigned Grid, const char *Group) {
  std::vector<Buffer *> Dense, Padded;
  TilegenPadCopyArgs A{};
  A.NumJobs = int64_t(Cs.size());
  for (size_t I = 0; I < Cs.size(); ++I) {
    const Case &C = Cs[I];
    Dense.push_back(new Buffer(size_t(C.Width * C.ElemBytes * C.Lines), C.DenseAlign));
    // The padded copy has one more line than the dense tensor's lines (as a padded K adds
    // lines) so that "past the lines" has bytes to check.
    Padded.push_back(new Buffer(size_t(C.PaddedPitch * (C.Lines + 1)), 0));
    Buffer &Dn = *Dense.back(), &Pd = *Padded.back();
    for (size_t B = 0; B < Dn.Bytes; ++B)
      Dn.Base[B] = C.ToPadded ? (unsigned char)(Rng() | 1) : 0x5C; // never the guard pattern
    for (size_t B = 0; B < Pd.Bytes; ++B)
      Pd.Base[B] = C.ToPadded ? 0 : (unsigned char)(Rng() | 1);
    A.Jobs[I] = tilegenPadCopyJob(Dn.addr(), Pd.addr(), C.PaddedPitch, C.Width, C.Lines,
                                  C.ElemBytes, C.ToPadded);
  }
  std::vector<std::vector<unsigned char>> PaddedBefore;
  for (Buffer *P : Padded)
    PaddedBefore.emplace_back(P->Base, P->Base + P->Bytes);
  runGrid(A, Grid);
  bool Ok = true;
  for (size_t I = 0; I < Cs.size(); ++I) {
    const Case &C = Cs[I];
    Buffer &Dn = *Dense[I], &Pd = *Padded[I];
    const int64_t LineBytes = C.Width * C.ElemBytes;
    auto Fail = [&](const char *What, int64_t Line, int64_t Byte) {
      std::printf("FAIL %s: job %zu of %zu, %s, %lld lines of %lld x %lld bytes, padded pitch "
                  "%lld, dense offset %zu, grid %u: %s at line %lld byte %lld\n",
                  Group, I, Cs.size(), C.ToPadded ? "into the padded copy" : "out of it",
                  (long long)C.Lines, (long long)C.Width, (long long)C.ElemBytes,
                  (long long)C.PaddedPitch, C.DenseAlign, Grid, What,
                  (long long)Line, (long long)Byte);
      Ok = false;
    };
    if (!Dn.guardsIntact() || !Pd.guardsIntact()) {
      Fail("a guard byte changed", -1, -1);
      continue;
    }
    for (int64_t L = 0; L <= C.Lines && Ok; ++L)
      for (int64_t B = 0; B < C.PaddedPitch && Ok; ++B) {
        const unsigned char P = Pd.Base[L * C.PaddedPitch + B];
        const unsigned char Before = PaddedBefore[I][L * C.PaddedPitch + B];
        const bool InLine = L < C.Lines && B < LineBytes;
        if (C.ToPadded) {
          const unsigned char Want = InLine ? Dn.Base[L * LineBytes + B] : 0;
          if (P != Want)
            Fail(InLine ? "wrong byte" : "padding not zero", L, B);
        } else {
          if (P != Before)
            Fail("source changed", L, B);
          else if (InLine && Dn.Base[L * LineBytes + B] != P)
            Fail("wrong byte", L, B);
        }
      }
    ++Cases;
  }
  for (Buffer *B : Dense)
    delete B;
  for (Buffer *B : Padded)
    delete B;
  return Ok;
}

} // namespace

int main() {
  std::mt19937_64 Rng(20261202);
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return Lo + int64_t(Rng() % uint64_t(Hi - Lo + 1));
  };
  const int64_t Sizes[3] = {1, 2, 4};
  // 1. Every element size and direction on short, ragged and long lines (a chunk is 2048
  //    bytes), padded pitches a multiple of 16.
  for (int64_t E : Sizes)
    for (int Dir = 0; Dir < 2; ++Dir)
      for (int64_t W : {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 100, 255, 257, 1025, 2049,
                        4097}) {
        const int64_t Lines = Pick(1, 9);
        const int64_t Pitch = (W * E + 15) / 16 * 16 + 16 * Pick(0, 1);
        if (!runLaunch({{W, Lines, E, Pitch, Dir == 0, 0}}, Rng, unsigned(Pick(1, 5)),
                       "aligned padded pitch"))
          return 1;
      }
  std::printf("pad-copy emulation: every element size and direction: pass\n");
  // 2. Padded pitches off 16 bytes, and dense buffers off 16-byte alignment.
  for (int64_t E : Sizes)
    for (int Dir = 0; Dir < 2; ++Dir)
      for (int I = 0; I < 12; ++I) {
        const int64_t W = Pick(1, 3000), Lines = Pick(1, 7);
        const bool OffAlign = I % 2;
        const int64_t Pitch = OffAlign ? (W * E + 15) / 16 * 16 : W * E + E * Pick(1, 5);
        if (!runLaunch({{W, Lines, E, Pitch, Dir == 0, OffAlign ? size_t(E) * 8 % 16 + E : 0}},
                       Rng, unsigned(Pick(1, 9)), "unaligned"))
          return 1;
      }
  std::printf("pad-copy emulation: pitches and buffers off 16 bytes: pass\n");
  // 3. Launches of three jobs of different sizes (A, B and C in; D alone out), with grids
  //    smaller and larger than the items.
  for (int I = 0; I < 24; ++I) {
    std::vector<Case> Cs;
    const bool In = I % 2 == 0;
    for (int J = 0; J < (In ? 3 : 1); ++J) {
      const int64_t E = Sizes[Pick(0, 2)], W = Pick(1, 1500), Lines = Pick(1, 40);
      const int64_t Pitch = J == 1 && I % 4 == 0 ? W * E + E : (W * E + 15) / 16 * 16;
      Cs.push_back({W, Lines, E, Pitch, In, 0});
    }
    if (!runLaunch(Cs, Rng, unsigned(Pick(1, 40)), "three jobs"))
      return 1;
  }
  std::printf("pad-copy emulation: launches of several jobs: pass\n");
  std::printf("pad-copy emulation: %d cases pass\n", Cases);
  return 0;
}
