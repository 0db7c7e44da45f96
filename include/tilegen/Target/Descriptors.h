//===- Descriptors.h - wgmma/tcgen05 descriptor encoders ---------*- C++ -*-===//
//
// Bit-exact encoders for the operand descriptors of the sm_90a and sm_100a tensor-core
// instructions, and the canonical shared-memory strides they are built from. Pure C++ over
// LLVMSupport: no MLIR. Every field position is cited from the PTX ISA 9.1 (CUDA 13.0
// documentation) and cross-checked with CUTLASS's cute/arch/mma_sm90_desc.hpp and
// cute/arch/mma_sm100_desc.hpp:
//
//   wgmma matrix descriptor ....... 9.7.15.5.1.2.2 "Matrix Descriptor Format"
//   wgmma LBO / SBO / layouts ..... 9.7.15.5.1.2.1.1-3 (leading/stride byte offset, canonical)
//   tcgen05 smem descriptor ....... 9.7.16.4.1, Table 40 (and Table 41 for the base offset)
//   tcgen05 instruction desc ...... 9.7.16.4.2, Table 42 (.kind::f16 / .kind::tf32 columns)
//   tcgen05 legal M / N ........... 9.7.16.2.1, Table 39 (dense, no .ws)
//   TMEM address / allocation ..... 9.7.16.1.1 and 9.7.16.1.2 / tcgen05.alloc (9.7.16.7.1)
//
// Each encoder validates its inputs and returns llvm::Expected: a field that does not fit is an
// error naming the field, the value and the rule, never a silently masked bit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_TARGET_DESCRIPTORS_H
#define TILEGEN_TARGET_DESCRIPTORS_H

#include "llvm/Support/Error.h"
#include <cstdint>

namespace tilegen {

/// Shared-memory swizzle of an MMA operand, independent of how an ISA encodes it.
/// `Swizzle128BAtom32B` exists only on sm_100 (tcgen05 encoding 1).
enum class Swizzle { None, B32, B64, B128, B128Atom32B };

/// Width in bytes of one swizzled row (the "swizzle span"): 32, 64, 128; 16 for None (one
/// 16-byte core-matrix row).
unsigned swizzleSpanBytes(Swizzle s);

/// Bytes after which the swizzle pattern repeats (8 rows of the span): 256 / 512 / 1024
/// (9.7.15.5.1.2.2 and Table 41); 0 for None.
unsigned swizzleRepeatBytes(Swizzle s);

/// Which dimension is contiguous in shared memory. K-major: the reduction dimension (A row-major
/// MxK, B column-major); MN-major: M or N ("transposed" in the PTX tables).
enum class Major { K, MN };

//===----------------------------------------------------------------------===//
// Shared-memory canonical layouts (both ISAs use the same LBO/SBO definitions)
//===----------------------------------------------------------------------===//

/// The byte strides of an operand tile stored in shared memory the way TMA writes it: a stack
/// of "panels", each panel as wide as the swizzle span (16 B for None) and spanning the whole
/// other dimension of the tile.
///
///   K-major, `rows` M/N rows, `kElems` K elements per row:
///     panel p holds K bytes [p*W, (p+1)*W) of every row; row r of panel p is at p*rows*W + r*W.
///     SBO = 8*W (next 8-row group);  LBO = rows*16 for None (next 16-byte K chunk = next
///     panel), 16 for swizzled modes (unused, "assumed to be 1" once encoded).
///   MN-major, `rows` = K rows, each holding `mnElems` M/N elements:
///     panel p holds MN bytes [p*W, (p+1)*W) of every K row; K row k of panel p is at
///     p*kRows*W + k*W.  SBO = 8*W (next 8 K rows);  LBO = kRows*W (next panel along MN).
///     MN-major requires a swizzled mode (the interleaved MN-major form is not produced).
///
/// One MMA-K slice is 32 bytes of K (kind::f16 and wgmma f16/bf16 K=16, kind::tf32 K=8): the
/// k-th slice of a K-major tile starts canonicalOffsetBytes(..., 0, k * 32 / elemBytes) after
/// the tile, 32*k bytes inside a 128B swizzle panel.
struct SmemStrides {
  uint32_t lboBytes;
  uint32_t sboBytes;
};

/// Canonical LBO/SBO for a tile (see SmemStrides). `rows` is the M/N extent for K-major and
/// the K extent for MN-major; `contigElems` is the extent of the contiguous dimension.
/// Errors: element size not 1/2/4, rows not a multiple of 8, contiguous extent not a multiple
/// of the span, MN-major without swizzle, strides over the 14-bit field (256 KiB).
llvm::Expected<SmemStrides> canonicalStrides(Major major, Swizzle s, unsigned elemBytes,
                                             unsigned rows, unsigned contigElems);

/// Byte offset, from the tile base, of the 8x16B core matrix that starts at (row, elem) where
/// `row` indexes the strided dimension (multiple of 8) and `elem` the contiguous one (a
/// multiple of 16 bytes). Adding it to the tile's start address addresses a sub-tile: use
/// elem = k*16 (bf16) for the k-th K=16 slice of a K-major tile, row = 64*w for warpgroup w.
/// For MN-major tiles `row` is the K row and `elem` the M/N element.
llvm::Expected<uint32_t> canonicalOffsetBytes(Major major, Swizzle s, unsigned elemBytes,
                                              unsigned rows, unsigned contigElems, unsigned row,
                                              unsigned elem);

/// The base-offset field for a swizzle pattern that starts at `patternStart` (9.7.15.5.1.2.2,
/// Table 41): 0 when aligned to the repeat boundary, else (patternStart >> 7) & 7.
unsigned swizzleBaseOffset(Swizzle s, uint32_t patternStart);

//===----------------------------------------------------------------------===//
// sm_90a: wgmma shared-memory matrix descriptor (64 bit)
//===----------------------------------------------------------------------===//

/// The 2-bit swizzle field at 62-63: 0 none/interleave, 1 128B, 2 64B, 3 32B.
/// `B128Atom32B` has no wgmma encoding (error).
llvm::Expected<unsigned> wgmmaSwizzleField(Swizzle s);

/// Encodes a wgmma matrix descriptor (9.7.15.5.1.2.2):
///   [0,14) start >> 4   [16,30) LBO >> 4   [32,46) SBO >> 4   [49,52) base offset
///   [62,64) swizzle.    Other bits zero.
/// `smemAddr` is the shared-state-space byte address (cvta.to.shared), < 256 KiB, 16-byte
/// aligned; LBO and SBO likewise; base offset < 8 and 0 when `s` is None.
llvm::Expected<uint64_t> encodeWgmmaSmemDesc(uint32_t smemAddr, uint32_t lboBytes,
                                             uint32_t sboBytes, Swizzle s, unsigned baseOffset = 0);

//===----------------------------------------------------------------------===//
// sm_100a: tcgen05 shared-memory descriptor (64 bit)
//===----------------------------------------------------------------------===//

/// The 3-bit swizzle field at 61-63: 0 none, 1 128B with 32B atom, 2 128B, 4 64B, 6 32B.
unsigned tcgen05SwizzleField(Swizzle s);

/// Encodes a tcgen05 shared-memory descriptor (9.7.16.4.1, Table 40):
///   [0,14) start >> 4   [16,30) LBO >> 4   [32,46) SBO >> 4   [46,49) fixed 0b001
///   [49,52) base offset   [52] LBO mode (1 = absolute address, sm_103a only)   [53,61) 0
///   [61,64) swizzle.
llvm::Expected<uint64_t> encodeTcgen05SmemDesc(uint32_t smemAddr, uint32_t lboBytes,
                                               uint32_t sboBytes, Swizzle s,
                                               unsigned baseOffset = 0, bool lboAbsolute = false);

//===----------------------------------------------------------------------===//
// sm_100a: tcgen05 instruction descriptor (32 bit), .kind::f16 and .kind::tf32
//===----------------------------------------------------------------------===//

enum class Tcgen05Kind { F16, TF32 };
/// Operand and accumulator element types of the two kinds (Table 42 values in comments).
enum class MmaElem { F16 /*0*/, BF16 /*1*/, TF32 /*2*/, F32 };

struct Tcgen05InstrDesc {
  Tcgen05Kind kind = Tcgen05Kind::F16;
  MmaElem aType = MmaElem::BF16;
  MmaElem bType = MmaElem::BF16;
  MmaElem dType = MmaElem::F32;
  unsigned m = 128;
  unsigned n = 256;
  unsigned ctaGroup = 1;
  Major aMajor = Major::K; ///< MN-major sets "transpose A" (bit 15)
  Major bMajor = Major::K; ///< MN-major sets "transpose B" (bit 16)
  bool negateA = false;
  bool negateB = false;
  bool sparse = false;
  unsigned sparsitySelector = 0; ///< bits 0-1, only with sparse
  unsigned maxShift = 0;         ///< bits 30-31 (.ws B reuse): 0 none, 1/2/3 = 8/16/32
};

/// Encodes Table 42 for .kind::f16 / .kind::tf32:
///   [0,2) sparsity selector  [2] sparse  [3] saturate (0 for these kinds)  [4,6) dtype
///   (F16 0, F32 1)  [7,10) atype  [10,13) btype (F16 0, BF16 1, TF32 2)  [13] negate A
///   [14] negate B  [15] transpose A  [16] transpose B  [17,23) N >> 3  [23] reserved
///   [24,29) M >> 4  [29] reserved  [30,32) max shift.
/// Validates against Table 39 (dense, no .ws): cta_group::1: M in {64, 128}, N in [8, 256]
/// step 8; cta_group::2: M in {128, 256}, N in [16, 256] step 16; kind::f16: A and B both f16
/// or both bf16, D f32, or D f16 with f16 inputs; kind::tf32: tf32 inputs, f32 D.
llvm::Expected<uint32_t> encodeTcgen05InstrDesc(const Tcgen05InstrDesc &d);

/// Shorthand for the common case: dense kind::f16, K-major A and B unless told otherwise.
llvm::Expected<uint32_t> encodeTcgen05InstrDescF16(MmaElem ab, MmaElem d, unsigned m, unsigned n,
                                                   unsigned ctaGroup = 1, Major aMajor = Major::K,
                                                   Major bMajor = Major::K);

//===----------------------------------------------------------------------===//
// sm_100a: Tensor Memory addresses and allocation
//===----------------------------------------------------------------------===//

constexpr unsigned kTmemLanes = 128;
constexpr unsigned kTmemColumns = 512;

/// A TMEM address (9.7.16.1.1): lane in bits 31-16, column in bits 15-0.
constexpr uint32_t tmemAddress(uint16_t lane, uint16_t column) {
  return (uint32_t(lane) << 16) | uint32_t(column);
}
constexpr unsigned tmemLane(uint32_t addr) { return addr >> 16; }
constexpr unsigned tmemColumn(uint32_t addr) { return addr & 0xFFFF; }

/// Columns to pass to tcgen05.alloc for `needed` columns: the next power of two, at least 32
/// (tcgen05.alloc: nCols a power of 2 in [32, 512]). Error for 0 or more than 512.
llvm::Expected<unsigned> tmemAllocColumns(unsigned needed);

} // namespace tilegen

#endif // TILEGEN_TARGET_DESCRIPTORS_H
