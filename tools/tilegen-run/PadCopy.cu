//===- PadCopy.cu - The runner's line-copy kernel (--pad) -----------------===//
//
// Built by nvcc into a fatbin that tilegen-run embeds and loads with
// cuModuleLoadData; see PadCopy.h for the parameter and the modes. The copy is
// bandwidth-bound: the dense side's lines start at any element boundary, so
// modes 1 and 2 read the 16-byte aligned blocks that hold a piece's bytes and
// shift them into place (funnel shifts), keeping every load and store 16 bytes
// wide; each thread issues the loads of all its pieces before its stores.
//
//===----------------------------------------------------------------------===//

#include "PadCopy.h"

namespace {

__device__ __forceinline__ uint4 load16(uint64_t A) {
  return *reinterpret_cast<const uint4 *>(A);
}

/// The 16 bytes at byte offset Off (0..16) of the 32-byte window W[0..7] (W[8] is 0).
__device__ __forceinline__ void extract16(const uint32_t (&W)[9], unsigned Off,
                                          uint32_t (&Out)[4]) {
  const unsigned Q = Off >> 2, R = (Off & 3) * 8;
  uint32_t V[5];
#pragma unroll
  for (int I = 0; I < 5; ++I) {
    // W[I + Q] with constant indices (selects, no local memory).
    uint32_t X = W[I];
    X = Q == 1 ? W[I + 1 < 9 ? I + 1 : 8] : X;
    X = Q == 2 ? W[I + 2 < 9 ? I + 2 : 8] : X;
    X = Q == 3 ? W[I + 3 < 9 ? I + 3 : 8] : X;
    X = Q == 4 ? W[I + 4 < 9 ? I + 4 : 8] : X;
    V[I] = X;
  }
#pragma unroll
  for (int I = 0; I < 4; ++I)
    Out[I] = R ? __funnelshift_r(V[I], V[I + 1], R) : V[I];
}

/// The mask of the first N bytes (0..16) of word I of a 16-byte piece.
__device__ __forceinline__ uint32_t byteMask(int N, int I) {
  const int B = N - 4 * I;
  return B >= 4 ? 0xffffffffu : B <= 0 ? 0u : (1u << (8 * B)) - 1u;
}

__device__ __forceinline__ void window(uint4 Lo, uint4 Hi, uint32_t (&W)[9]) {
  W[0] = Lo.x, W[1] = Lo.y, W[2] = Lo.z, W[3] = Lo.w;
  W[4] = Hi.x, W[5] = Hi.y, W[6] = Hi.z, W[7] = Hi.w, W[8] = 0;
}

/// Copies Bytes bytes element by element (the pieces at the tensors' ends).
__device__ void copyElems(uint64_t Src, uint64_t Dst, int64_t Bytes, int64_t E) {
  for (int64_t I = 0; I < Bytes; I += E) {
    if (E == 1)
      *reinterpret_cast<uint8_t *>(Dst + I) = *reinterpret_cast<const uint8_t *>(Src + I);
    else if (E == 2)
      *reinterpret_cast<uint16_t *>(Dst + I) = *reinterpret_cast<const uint16_t *>(Src + I);
    else
      *reinterpret_cast<uint32_t *>(Dst + I) = *reinterpret_cast<const uint32_t *>(Src + I);
  }
}

/// Mode 0: chunk Blk of the job, element by element.
template <typename T>
__device__ __forceinline__ void copyChunk(const TilegenPadCopyJob &J, int64_t Blk) {
  const int64_t Line = Blk / J.Chunks, Chunk = Blk - Line * J.Chunks;
  const int64_t Begin = Chunk * J.ChunkElems;
  const int64_t End = Begin + J.ChunkElems < J.Width ? Begin + J.ChunkElems : J.Width;
  const T *Src = reinterpret_cast<const T *>(J.Src + Line * J.SrcPitch);
  T *Dst = reinterpret_cast<T *>(J.Dst + Line * J.DstPitch);
  for (int64_t X = Begin + threadIdx.x; X < End;
       X += int64_t(TILEGEN_PAD_COPY_THREADS) * TILEGEN_PAD_COPY_UNROLL) {
    T V[TILEGEN_PAD_COPY_UNROLL];
#pragma unroll
    for (int U = 0; U < TILEGEN_PAD_COPY_UNROLL; ++U) {
      const int64_t I = X + int64_t(U) * TILEGEN_PAD_COPY_THREADS;
      if (I < End)
        V[U] = Src[I];
    }
#pragma unroll
    for (int U = 0; U < TILEGEN_PAD_COPY_UNROLL; ++U) {
      const int64_t I = X + int64_t(U) * TILEGEN_PAD_COPY_THREADS;
      if (I < End)
        Dst[I] = V[U];
    }
  }
}

/// Modes 1 and 2: block Blk of the job, TILEGEN_PAD_COPY_PIECES pieces per thread.
__device__ __forceinline__ void copyPieces(const TilegenPadCopyJob &J, int64_t Blk) {
  constexpr int P = TILEGEN_PAD_COPY_PIECES;
  const int64_t LineBytes = J.Width * J.ElemBytes;
  // Mode 1: pieces per line; pieces in all.
  const int64_t PerLine = (LineBytes + 15) / 16;
  const int64_t Pieces = J.Mode == 1 ? PerLine * J.Lines : (J.Lines * LineBytes + 15) / 16;
  uint4 Lo[P], Hi[P], Next[P];
  uint64_t Out[P];
  int N1[P], N[P], Off1[P];
  bool Slow[P];
  uint64_t SlowSrc[P];
#pragma unroll
  for (int U = 0; U < P; ++U) {
    const int64_t Piece =
        (Blk * P + U) * int64_t(TILEGEN_PAD_COPY_THREADS) + int64_t(threadIdx.x);
    N[U] = 0;
    Slow[U] = false;
    if (Piece >= Pieces)
      continue;
    uint64_t S1;    // the first source byte
    int64_t Run1;   // bytes of the piece from that source line
    int64_t Total;  // bytes of the piece
    uint64_t S2 = 0; // mode 2: the next line's first byte, for the rest
    // 32-bit divisions where the numbers fit (all but tensors of 4 GB and more).
    const bool Small = J.Lines * LineBytes + 16 <= int64_t(0xffffffffu);
    if (J.Mode == 1) {
      const int64_t Line =
          Small ? int64_t(uint32_t(Piece) / uint32_t(PerLine)) : Piece / PerLine;
      const int64_t Col = (Piece - Line * PerLine) * 16;
      S1 = J.Src + uint64_t(Line * J.SrcPitch + Col);
      Out[U] = J.Dst + uint64_t(Line * J.DstPitch + Col);
      Total = LineBytes - Col < 16 ? LineBytes - Col : 16;
      Run1 = Total;
    } else {
      const int64_t D = Piece * 16;
      const int64_t Line =
          Small ? int64_t(uint32_t(D) / uint32_t(LineBytes)) : D / LineBytes;
      const int64_t Col = D - Line * LineBytes;
      S1 = J.Src + uint64_t(Line * J.SrcPitch + Col);
      S2 = J.Src + uint64_t((Line + 1) * J.SrcPitch);
      Out[U] = J.Dst + uint64_t(D);
      const int64_t Left = J.Lines * LineBytes - D;
      Total = Left < 16 ? Left : 16;
      Run1 = LineBytes - Col < Total ? LineBytes - Col : Total;
    }
    N[U] = int(Total);
    N1[U] = int(Run1);
    const uint64_t A1 = S1 & ~uint64_t(15);
    Off1[U] = int(S1 - A1);
    const bool NeedHi = Off1[U] + Run1 > 16;
    // Element by element where a 16-byte access would pass a tensor's end, and where a
    // piece spans more than two lines (lines shorter than 16 bytes).
    const bool Multi = Run1 < Total && Total - Run1 > LineBytes;
    if (A1 + (NeedHi ? 32 : 16) > J.SrcEnd || (J.Mode == 2 && Total < 16) || Multi ||
        (J.Mode == 2 && Run1 < Total && S2 + 16 > J.SrcEnd)) {
      Slow[U] = true;
      SlowSrc[U] = S1;
      continue;
    }
    Lo[U] = load16(A1);
    Hi[U] = NeedHi ? load16(A1 + 16) : make_uint4(0, 0, 0, 0);
    Next[U] = Run1 < Total ? load16(S2) : make_uint4(0, 0, 0, 0);
  }
#pragma unroll
  for (int U = 0; U < P; ++U) {
    if (!N[U])
      continue;
    if (Slow[U]) {
      if (J.Mode == 1) {
        copyElems(SlowSrc[U], Out[U], N[U], J.ElemBytes);
      } else {
        // The piece's bytes line by line: the rest of this line, then whole lines.
        int64_t Done = N1[U];
        copyElems(SlowSrc[U], Out[U], Done, J.ElemBytes);
        const int64_t D = int64_t(Out[U] - J.Dst) + Done;
        int64_t Line = D / LineBytes;
        while (Done < N[U]) {
          const int64_t Take =
              N[U] - Done < LineBytes ? N[U] - Done : LineBytes;
          copyElems(J.Src + uint64_t(Line * J.SrcPitch), Out[U] + uint64_t(Done), Take,
                    J.ElemBytes);
          Done += Take;
          ++Line;
        }
      }
      continue;
    }
    uint32_t W[9], A[4];
    window(Lo[U], Hi[U], W);
    extract16(W, unsigned(Off1[U]), A);
    uint32_t R[4];
    if (N1[U] < N[U]) {
      // The rest from the next line's first bytes: Next shifted up by N1 bytes.
      uint32_t W2[9], B[4];
      window(make_uint4(0, 0, 0, 0), Next[U], W2);
      extract16(W2, unsigned(16 - N1[U]), B);
#pragma unroll
      for (int I = 0; I < 4; ++I) {
        const uint32_t M = byteMask(N1[U], I);
        R[I] = (A[I] & M) | (B[I] & ~M);
      }
    } else {
      // Mode 1: the line's last piece keeps the padding zero past its end.
#pragma unroll
      for (int I = 0; I < 4; ++I)
        R[I] = A[I] & byteMask(N[U], I);
    }
    *reinterpret_cast<uint4 *>(Out[U]) = make_uint4(R[0], R[1], R[2], R[3]);
  }
}

} // namespace

extern "C" __global__ void __launch_bounds__(TILEGEN_PAD_COPY_THREADS)
    tilegen_pad_copy(const TilegenPadCopyArgs A) {
  int64_t Total = 0;
  for (int J = 0; J < A.NumJobs; ++J)
    Total += A.Jobs[J].Blocks;
  for (int64_t Blk = blockIdx.x; Blk < Total; Blk += gridDim.x) {
    int J = 0;
    int64_t Local = Blk;
    while (J + 1 < A.NumJobs && Local >= A.Jobs[J].Blocks) {
      Local -= A.Jobs[J].Blocks;
      ++J;
    }
    const TilegenPadCopyJob &Job = A.Jobs[J];
    if (Job.Mode != 0)
      copyPieces(Job, Local);
    else if (Job.ElemBytes == 1)
      copyChunk<uint8_t>(Job, Local);
    else if (Job.ElemBytes == 2)
      copyChunk<uint16_t>(Job, Local);
    else
      copyChunk<uint32_t>(Job, Local);
  }
}
