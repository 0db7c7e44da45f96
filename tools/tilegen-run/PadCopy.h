//===- PadCopy.h - The runner's line-copy kernel: its one parameter -*- C++ -*-===//
//
// --pad copies each input into its zero-padded copy, and D back out, on every
// launch. The dense side's line pitch is often not a multiple of 16 bytes (that
// is why the padding is needed), and the driver's cuMemcpy2DAsync is slow at
// such pitches; tilegen-run therefore copies with a kernel of its own
// (PadCopy.cu, built by nvcc into an image embedded in the runner), one kernel
// per element size. This header is read by nvcc, by the runner, and by the fake
// driver of the tests, which runs the copy on the host.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_PADCOPY_H
#define TILEGEN_RUN_PADCOPY_H

#include <stdint.h>

/// Lines lines of Width elements each, from Src (line L at Src + L * SrcPitch bytes) to Dst
/// (at Dst + L * DstPitch bytes). Each CTA copies one chunk of ChunkElems elements of one line
/// (Chunks chunks per line, the last one maybe shorter), for blocks Chunks * Lines in all, in
/// a grid-stride loop over them. Both pitches are multiples of the element size and both
/// pointers are aligned to it.
struct TilegenPadCopyArgs {
  uint64_t Src;
  uint64_t Dst;
  int64_t SrcPitch; ///< bytes
  int64_t DstPitch; ///< bytes
  int64_t Width;    ///< elements per line
  int64_t Lines;
  int64_t Chunks;     ///< chunks per line
  int64_t ChunkElems; ///< elements per chunk
};

/// The kernels, by element size in bytes: 1 (fp8), 2 (bf16, f16), 4 (f32, tf32).
#define TILEGEN_PAD_COPY_KERNEL_1 "tilegen_pad_copy_1"
#define TILEGEN_PAD_COPY_KERNEL_2 "tilegen_pad_copy_2"
#define TILEGEN_PAD_COPY_KERNEL_4 "tilegen_pad_copy_4"

/// Threads per CTA, and the most elements one thread moves per trip of its loop (the loads of
/// a trip are all issued before its stores, for memory-level parallelism).
#define TILEGEN_PAD_COPY_THREADS 256
#define TILEGEN_PAD_COPY_UNROLL 4

#endif // TILEGEN_RUN_PADCOPY_H
