//===- PadCopy.h - The runner's line-copy kernel: its one parameter -*- C++ -*-===//
//
// --pad copies each input into its zero-padded copy, and D back out, on every
// launch. The dense side's line pitch is often not a multiple of 16 bytes (that
// is why the padding is needed), and the driver's cuMemcpy2DAsync is slow at
// such pitches; tilegen-run therefore copies with a kernel of its own
// (PadCopy.cu, built by nvcc into an image embedded in the runner): one launch
// for the inputs, one for D. This header is read by nvcc, by the runner, and by the fake
// driver of the tests, which runs the copy on the host.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_PADCOPY_H
#define TILEGEN_RUN_PADCOPY_H

#include <stdint.h>

/// One copy: Lines lines of Width elements of ElemBytes bytes each, from Src (line L at
/// Src + L * SrcPitch bytes) to Dst (at Dst + L * DstPitch bytes). Both pitches are multiples
/// of the element size and both pointers are aligned to it. Each CTA copies one chunk of
/// ChunkElems elements of one line (Chunks chunks per line, the last one maybe shorter).
struct TilegenPadCopyJob {
  uint64_t Src;
  uint64_t Dst;
  int64_t SrcPitch;   ///< bytes
  int64_t DstPitch;   ///< bytes
  int64_t Width;      ///< elements per line
  int64_t Lines;
  int64_t Chunks;     ///< chunks per line
  int64_t ChunkElems; ///< elements per chunk
  int64_t ElemBytes;  ///< 1, 2 or 4
};

/// The copies of one launch (A, B and C in; D out): their chunks are numbered one job after
/// the other, and the grid's CTAs take them in a grid-stride loop.
#define TILEGEN_PAD_COPY_MAX_JOBS 3
struct TilegenPadCopyArgs {
  TilegenPadCopyJob Jobs[TILEGEN_PAD_COPY_MAX_JOBS];
  int64_t NumJobs;
};

/// The kernel's name in the image.
#define TILEGEN_PAD_COPY_KERNEL "tilegen_pad_copy"

/// Threads per CTA, and the most elements one thread moves per trip of its loop (the loads of
/// a trip are all issued before its stores, for memory-level parallelism).
#define TILEGEN_PAD_COPY_THREADS 256
#define TILEGEN_PAD_COPY_UNROLL 4

#endif // TILEGEN_RUN_PADCOPY_H
