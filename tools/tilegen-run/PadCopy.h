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
/// of the element size and both pointers are aligned to it; nothing else is assumed (the
/// dense side's lines start at any element boundary).
///
/// A warp copies one item: chunk C of line L, TILEGEN_PAD_COPY_ITEM_PIECES 16-byte pieces of
/// the line's destination-aligned middle (16-byte loads of the aligned source blocks that
/// hold each piece's bytes, shifted into place: the shift is the same for the whole line,
/// and 16-byte stores); chunk 0 also copies the line's head (the bytes before its first
/// 16-byte aligned destination address) and its tail element by element. Items = Lines *
/// Chunks. A piece whose source blocks would reach outside [Src, SrcEnd) goes element by
/// element.
struct TilegenPadCopyJob {
  uint64_t Src;
  uint64_t Dst;
  uint64_t SrcEnd;   ///< one past the source tensor's last byte
  int64_t SrcPitch;  ///< bytes
  int64_t DstPitch;  ///< bytes
  int64_t Width;     ///< elements per line
  int64_t Lines;
  int64_t ElemBytes; ///< 1, 2 or 4
  int64_t Chunks;    ///< items per line
  int64_t Items;     ///< Lines * Chunks
};

/// The copies of one launch (A, B and C in; D out): their items are numbered one job after
/// the other, and the grid's warps take them in a grid-stride loop.
#define TILEGEN_PAD_COPY_MAX_JOBS 3
struct TilegenPadCopyArgs {
  TilegenPadCopyJob Jobs[TILEGEN_PAD_COPY_MAX_JOBS];
  int64_t NumJobs;
};

/// The kernel's name in the image.
#define TILEGEN_PAD_COPY_KERNEL "tilegen_pad_copy"

/// Threads per CTA; 16-byte pieces per lane of an item (a lane issues the loads of all its
/// pieces before their stores, for memory-level parallelism), and so per item.
#define TILEGEN_PAD_COPY_THREADS 256
#define TILEGEN_PAD_COPY_LANE_PIECES 4
#define TILEGEN_PAD_COPY_ITEM_PIECES (32 * TILEGEN_PAD_COPY_LANE_PIECES)

/// Items per line of LineBytes bytes: enough for its pieces (at most LineBytes / 16), at least
/// one (the head and the tail).
static inline int64_t tilegenPadCopyChunks(int64_t LineBytes) {
  const int64_t Pieces = LineBytes / 16;
  return Pieces > 0 ? (Pieces + TILEGEN_PAD_COPY_ITEM_PIECES - 1) / TILEGEN_PAD_COPY_ITEM_PIECES
                    : 1;
}

/// The job that copies Lines lines of Width elements of ElemBytes bytes between a dense
/// tensor (pitch Width * ElemBytes) and its padded copy (pitch PaddedPitch bytes); ToPadded
/// picks the direction. The sizes must have passed the runner's size checks (no overflow).
/// Host code only.
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
  J.Chunks = tilegenPadCopyChunks(DensePitch);
  J.Items = J.Chunks * Lines;
  return J;
}
#endif

#endif // TILEGEN_RUN_PADCOPY_H
