//===- PadCopy.cu - The runner's line-copy kernel (--pad) -----------------===//
//
// Built by nvcc into a fatbin that tilegen-run embeds and loads with
// cuModuleLoadData; see PadCopy.h for the parameter. Element-wise: a warp's
// loads and stores are contiguous runs of a line whatever the pitches, and each
// thread issues up to TILEGEN_PAD_COPY_UNROLL independent loads before its
// stores. The copy is bandwidth-bound; finding a block's job, line and chunk
// (one integer division per CTA) is not on its critical path.
//
//===----------------------------------------------------------------------===//

#include "PadCopy.h"

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

extern "C" __global__ void __launch_bounds__(TILEGEN_PAD_COPY_THREADS)
    tilegen_pad_copy(const TilegenPadCopyArgs A) {
  int64_t Total = 0;
  for (int J = 0; J < A.NumJobs; ++J)
    Total += A.Jobs[J].Chunks * A.Jobs[J].Lines;
  for (int64_t Blk = blockIdx.x; Blk < Total; Blk += gridDim.x) {
    int J = 0;
    int64_t Local = Blk;
    while (J + 1 < A.NumJobs && Local >= A.Jobs[J].Chunks * A.Jobs[J].Lines) {
      Local -= A.Jobs[J].Chunks * A.Jobs[J].Lines;
      ++J;
    }
    const TilegenPadCopyJob &Job = A.Jobs[J];
    if (Job.ElemBytes == 1)
      copyChunk<uint8_t>(Job, Local);
    else if (Job.ElemBytes == 2)
      copyChunk<uint16_t>(Job, Local);
    else
      copyChunk<uint32_t>(Job, Local);
  }
}
