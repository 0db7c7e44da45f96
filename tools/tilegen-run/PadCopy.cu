//===- PadCopy.cu - The runner's line-copy kernels (--pad) ----------------===//
//
// Built by nvcc into a fatbin that tilegen-run embeds and loads with
// cuModuleLoadData; see PadCopy.h for the parameter. Element-wise: a warp's
// loads and stores are contiguous runs of its lines whatever the pitches, and
// each thread issues up to TILEGEN_PAD_COPY_UNROLL independent loads before its
// stores. The copy is bandwidth-bound; the one integer division per CTA (line
// and chunk of a block index) is not on its critical path.
//
//===----------------------------------------------------------------------===//

#include "PadCopy.h"

template <typename T>
__device__ __forceinline__ void padCopy(const TilegenPadCopyArgs &A) {
  const int64_t Blocks = A.Chunks * A.Lines;
  for (int64_t Blk = blockIdx.x; Blk < Blocks; Blk += gridDim.x) {
    const int64_t Line = Blk / A.Chunks, Chunk = Blk - Line * A.Chunks;
    const int64_t Begin = Chunk * A.ChunkElems;
    const int64_t End = Begin + A.ChunkElems < A.Width ? Begin + A.ChunkElems : A.Width;
    const T *Src = reinterpret_cast<const T *>(A.Src + Line * A.SrcPitch);
    T *Dst = reinterpret_cast<T *>(A.Dst + Line * A.DstPitch);
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
}

extern "C" __global__ void __launch_bounds__(TILEGEN_PAD_COPY_THREADS)
    tilegen_pad_copy_1(const TilegenPadCopyArgs A) {
  padCopy<uint8_t>(A);
}
extern "C" __global__ void __launch_bounds__(TILEGEN_PAD_COPY_THREADS)
    tilegen_pad_copy_2(const TilegenPadCopyArgs A) {
  padCopy<uint16_t>(A);
}
extern "C" __global__ void __launch_bounds__(TILEGEN_PAD_COPY_THREADS)
    tilegen_pad_copy_4(const TilegenPadCopyArgs A) {
  padCopy<uint32_t>(A);
}
