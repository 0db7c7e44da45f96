//===- PadCopy.cu - The runner's line-copy kernel (--pad) -----------------===//
//
// Built by nvcc into a fatbin that tilegen-run embeds and loads with
// cuModuleLoadData; see PadCopy.h for the parameter and the work split. The
// copy is bandwidth-bound and the dense side's lines start at any element
// boundary, so a warp moves a line's middle in 16-byte pieces: 16-byte loads of
// the aligned source blocks holding each piece's bytes, shifted into place by
// the line's one source offset (funnel shifts), and 16-byte stores to aligned
// destination addresses. Each lane issues the loads of all its pieces before
// its stores.
//
//===----------------------------------------------------------------------===//

#include "PadCopy.h"

namespace {

constexpr int LanePieces = TILEGEN_PAD_COPY_LANE_PIECES;

__device__ __forceinline__ uint4 load16(uint64_t A) {
  return *reinterpret_cast<const uint4 *>(A);
}

/// Copies Bytes bytes element by element.
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

/// The 16 bytes at byte offset Q * 4 + R / 8 of the 32 bytes Lo:Hi (Q, R the same for the
/// whole warp: the switch does not diverge).
__device__ __forceinline__ uint4 shifted(uint4 Lo, uint4 Hi, unsigned Q, unsigned R) {
  uint32_t W0, W1, W2, W3, W4;
  switch (Q) {
  case 0:
    W0 = Lo.x, W1 = Lo.y, W2 = Lo.z, W3 = Lo.w, W4 = Hi.x;
    break;
  case 1:
    W0 = Lo.y, W1 = Lo.z, W2 = Lo.w, W3 = Hi.x, W4 = Hi.y;
    break;
  case 2:
    W0 = Lo.z, W1 = Lo.w, W2 = Hi.x, W3 = Hi.y, W4 = Hi.z;
    break;
  default:
    W0 = Lo.w, W1 = Hi.x, W2 = Hi.y, W3 = Hi.z, W4 = Hi.w;
    break;
  }
  if (!R)
    return make_uint4(W0, W1, W2, W3);
  return make_uint4(__funnelshift_r(W0, W1, R), __funnelshift_r(W1, W2, R),
                    __funnelshift_r(W2, W3, R), __funnelshift_r(W3, W4, R));
}

/// Item Item of job J, by the calling warp's lane Lane.
__device__ __forceinline__ void copyItem(const TilegenPadCopyJob &J, int64_t Item, int Lane) {
  const int64_t E = J.ElemBytes, LineBytes = J.Width * E;
  // 32-bit division where the numbers fit (all but jobs of 2^32 items and more).
  const int64_t Line = J.Items <= int64_t(0xffffffffu)
                           ? int64_t(uint32_t(Item) / uint32_t(J.Chunks))
                           : Item / J.Chunks;
  const int64_t Chunk = Item - Line * J.Chunks;
  const uint64_t Ps = J.Src + uint64_t(Line * J.SrcPitch);
  const uint64_t Pd = J.Dst + uint64_t(Line * J.DstPitch);
  // Head: the bytes before the line's first 16-byte aligned destination address.
  int64_t Head = int64_t((16 - (Pd & 15)) & 15);
  Head = Head < LineBytes ? Head : LineBytes;
  const int64_t Pieces = (LineBytes - Head) / 16;
  const int64_t TailAt = Head + Pieces * 16;
  if (Chunk == 0) {
    // At most 15 bytes each: one element per lane.
    if (Lane * E < Head)
      copyElems(Ps + uint64_t(Lane * E), Pd + uint64_t(Lane * E), E, E);
    if (TailAt + Lane * E < LineBytes)
      copyElems(Ps + uint64_t(TailAt + Lane * E), Pd + uint64_t(TailAt + Lane * E), E, E);
  }
  // The middle: piece I starts at source byte Ps + Head + 16 I, Off bytes past a 16-byte
  // boundary, the same Off for every piece of the line.
  const uint64_t First = Ps + uint64_t(Head);
  const unsigned Off = unsigned(First & 15);
  const uint64_t Base = First - Off;
  const unsigned Q = Off >> 2, R = (Off & 3) * 8;
  const int64_t Begin = Chunk * TILEGEN_PAD_COPY_ITEM_PIECES;
  uint4 Lo[LanePieces], Hi[LanePieces];
  bool Fast[LanePieces];
#pragma unroll
  for (int U = 0; U < LanePieces; ++U) {
    const int64_t I = Begin + U * 32 + Lane;
    const uint64_t A = Base + uint64_t(I * 16);
    Fast[U] = I < Pieces && A >= J.Src && A + (Off ? 32 : 16) <= J.SrcEnd;
    if (Fast[U]) {
      Lo[U] = load16(A);
      Hi[U] = Off ? load16(A + 16) : make_uint4(0, 0, 0, 0);
    }
  }
#pragma unroll
  for (int U = 0; U < LanePieces; ++U) {
    const int64_t I = Begin + U * 32 + Lane;
    const uint64_t D = Pd + uint64_t(Head + I * 16);
    if (Fast[U])
      *reinterpret_cast<uint4 *>(D) = shifted(Lo[U], Hi[U], Q, R);
    else if (I < Pieces)
      copyElems(First + uint64_t(I * 16), D, 16, E);
  }
}

} // namespace

extern "C" __global__ void __launch_bounds__(TILEGEN_PAD_COPY_THREADS)
    tilegen_pad_copy(const TilegenPadCopyArgs A) {
  int64_t Total = 0;
  for (int J = 0; J < A.NumJobs; ++J)
    Total += A.Jobs[J].Items;
  const int Lane = int(threadIdx.x & 31);
  const int64_t Warps = int64_t(TILEGEN_PAD_COPY_THREADS / 32);
  for (int64_t Item = int64_t(blockIdx.x) * Warps + int64_t(threadIdx.x >> 5); Item < Total;
       Item += int64_t(gridDim.x) * Warps) {
    int J = 0;
    int64_t Local = Item;
    while (J + 1 < A.NumJobs && Local >= A.Jobs[J].Items) {
      Local -= A.Jobs[J].Items;
      ++J;
    }
    copyItem(A.Jobs[J], Local, Lane);
  }
}
