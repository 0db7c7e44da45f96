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
/// of the element size and both pointers are aligned to it.
///
/// Mode 0, element-wise: each block copies one chunk of ChunkElems elements of one line
/// (Chunks chunks per line, the last one maybe shorter; Blocks = Chunks * Lines).
///
/// Modes 1 and 2 move 16-byte pieces with 16-byte loads and stores, both pointers 16-byte
/// aligned and the padded side's pitch a multiple of 16; the dense side's pitch is
/// Width * ElemBytes, whatever its alignment. Mode 1 (into the padded copy): one piece per
/// (line, 16 bytes of the line); Mode 2 (out of it, the dense side written as one run of
/// Lines * Width elements): one piece per 16 bytes of that run. Each block takes
/// TILEGEN_PAD_COPY_THREADS * TILEGEN_PAD_COPY_PIECES pieces; Blocks covers them. Pieces that
/// would read or write past SrcEnd or DstEnd (the ends of the tensors' bytes) are copied
/// element by element.
struct TilegenPadCopyJob {
  uint64_t Src;
  uint64_t Dst;
  uint64_t SrcEnd;    ///< one past the source tensor's last byte
  uint64_t DstEnd;    ///< one past the destination tensor's last byte
  int64_t SrcPitch;   ///< bytes
  int64_t DstPitch;   ///< bytes
  int64_t Width;      ///< elements per line
  int64_t Lines;
  int64_t Chunks;     ///< mode 0: chunks per line
  int64_t ChunkElems; ///< mode 0: elements per chunk
  int64_t ElemBytes;  ///< 1, 2 or 4
  int64_t Mode;       ///< 0, 1 or 2 (above)
  int64_t Blocks;     ///< blocks of the grid's numbering this job takes
};

/// The copies of one launch (A, B and C in; D out): their blocks are numbered one job after
/// the other, and the grid's CTAs take them in a grid-stride loop.
#define TILEGEN_PAD_COPY_MAX_JOBS 3
struct TilegenPadCopyArgs {
  TilegenPadCopyJob Jobs[TILEGEN_PAD_COPY_MAX_JOBS];
  int64_t NumJobs;
};

/// The kernel's name in the image.
#define TILEGEN_PAD_COPY_KERNEL "tilegen_pad_copy"

/// Threads per CTA; the most elements one thread moves per trip of its loop in mode 0, and the
/// 16-byte pieces per thread of a block in modes 1 and 2 (the loads of a trip are all issued
/// before its stores, for memory-level parallelism).
#define TILEGEN_PAD_COPY_THREADS 256
#define TILEGEN_PAD_COPY_UNROLL 8
#define TILEGEN_PAD_COPY_PIECES 2

/// The job that copies Lines lines of Width elements of ElemBytes bytes between a dense
/// tensor (pitch Width * ElemBytes) and its padded copy (pitch PaddedPitch bytes); ToPadded
/// picks the direction. 16-byte pieces (modes 1 and 2) where both buffers are 16-byte aligned
/// and the padded pitch is a multiple of 16, else element by element (mode 0). The sizes must
/// have passed the runner's size checks (no overflow). Host code only.
#ifndef __CUDA_ARCH__
static inline TilegenPadCopyJob tilegenPadCopyJob(uint64_t Dense, uint64_t Padded,
                                                  int64_t PaddedPitch, int64_t Width,
                                                  int64_t Lines, int64_t ElemBytes,
                                                  int ToPadded) {
  TilegenPadCopyJob J;
  const int64_t DensePitch = Width * ElemBytes;
  J.Src = ToPadded ? Dense : Padded;
  J.Dst = ToPadded ? Padded : Dense;
  J.SrcPitch = ToPadded ? DensePitch : PaddedPitch;
  J.DstPitch = ToPadded ? PaddedPitch : DensePitch;
  J.Width = Width;
  J.Lines = Lines;
  J.ElemBytes = ElemBytes;
  J.SrcEnd = J.Src + (uint64_t)((Lines - 1) * J.SrcPitch + DensePitch);
  J.DstEnd = J.Dst + (uint64_t)((Lines - 1) * J.DstPitch + DensePitch);
  J.Chunks = J.ChunkElems = 0;
  const int64_t Threads = TILEGEN_PAD_COPY_THREADS;
  if (Dense % 16 == 0 && Padded % 16 == 0 && PaddedPitch % 16 == 0) {
    J.Mode = ToPadded ? 1 : 2;
    const int64_t Pieces =
        ToPadded ? (DensePitch + 15) / 16 * Lines : (Lines * DensePitch + 15) / 16;
    const int64_t PerBlock = Threads * TILEGEN_PAD_COPY_PIECES;
    J.Blocks = (Pieces + PerBlock - 1) / PerBlock;
  } else {
    // Chunks of one trip of a CTA's loop, evened out over the line, so that a line just past
    // a multiple of the chunk does not leave a CTA with a handful of elements.
    const int64_t Target = Threads * TILEGEN_PAD_COPY_UNROLL;
    J.Mode = 0;
    J.Chunks = (Width + Target - 1) / Target;
    J.ChunkElems = (Width + J.Chunks - 1) / J.Chunks;
    J.Blocks = J.Chunks * Lines;
  }
  return J;
}
#endif

#endif // TILEGEN_RUN_PADCOPY_H
