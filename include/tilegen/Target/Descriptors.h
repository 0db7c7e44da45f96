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
//   tcgen05 instruction desc ...... 9.7.16.4.2, Table 42 (.kind::f16 / .kind::tf32 /
//                                   .kind::f8f6f4 columns)
//   tcgen05 legal M / N ........... 9.7.16.2.1, Table 39 (dense, no .ws)
//   tcgen05 transpose / negate .... 9.7.16.10.1, Table 51 (per kind) and Table 52 (N with an
//                                   8-bit transposed B)
//   tcgen05 major-ness by size .... 9.7.16.10.3, Table 54 (MN-major only for 8/16/32-bit)
//   tcgen05 sparsity selector ..... 9.7.16.10.8.4.5-6 (must be 0 for .kind::f8f6f4)
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
/// One MMA-K slice is 32 bytes of K (kind::f16 and wgmma f16/bf16 K=16, kind::tf32 K=8,
/// kind::f8f6f4 and wgmma e4m3/e5m2 K=32 with 8-bit elements; the 6- and 4-bit types are not
/// laid out by these helpers): the k-th slice of a K-major tile starts
/// canonicalOffsetBytes(..., 0, k * 32 / elemBytes) after the tile, 32*k bytes inside a 128B
/// swizzle panel.
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
// sm_100a: tcgen05 instruction descriptor (32 bit), .kind::f16, .kind::tf32, .kind::f8f6f4
//===----------------------------------------------------------------------===//

/// The MMA kind, a modifier of the tcgen05.mma instruction (9.7.16.10.9.1); it selects the column
/// of Table 42 that gives the type fields their meaning. K per instruction is implied by the
/// kind (9.7.16.2.2, Table 39, dense): f16 16, tf32 8, f8f6f4 32 elements.
/// .kind::i8 (S32 dtype, saturate bit, its own N table) is not modelled.
enum class Tcgen05Kind { F16, TF32, F8F6F4 };

/// Operand and accumulator element types. The atype/btype field value depends on the kind
/// (Table 42): kind::f16: F16 0, BF16 1; kind::tf32: TF32 2; kind::f8f6f4: E4M3 0, E5M2 1,
/// E2M3 3, E3M2 4, E2M1 5 (2 is unused). dtype (all three kinds): F16 0, F32 1.
/// E4M3/E5M2 are 8-bit, E2M3/E3M2 6-bit and E2M1 4-bit floating point (Table 39 names them
/// .e4m3, .e5m2, .e2m3, .e3m2, .e2m1).
enum class MmaElem { F16, BF16, TF32, F32, E4M3, E5M2, E2M3, E3M2, E2M1 };

/// Width of one element in bits (16, 16, 32, 32, 8, 8, 6, 6, 4).
unsigned mmaElemBits(MmaElem e);

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
  unsigned sparsitySelector = 0; ///< bits 0-1, only with sparse; must be 0 for f8f6f4
  unsigned maxShift = 0;         ///< bits 30-31 (.ws B reuse): 0 none, 1/2/3 = 8/16/32
};

/// Encodes Table 42 for .kind::f16 / .kind::tf32 / .kind::f8f6f4:
///   [0,2) sparsity selector  [2] sparse  [3] saturate (0: NA for these kinds)  [4,6) dtype
///   (F16 0, F32 1)  [6] reserved  [7,10) atype  [10,13) btype (see MmaElem)  [13] negate A
///   [14] negate B  [15] transpose A  [16] transpose B  [17,23) N >> 3  [23] reserved
///   [24,29) M >> 4  [29] reserved  [30,32) max shift.
/// Validates:
/// - shapes, Table 39 (dense, no .ws; the same M/N rows for all three kinds): cta_group::1:
///   M in {64, 128}, N in [8, 256] step 8; cta_group::2: M in {128, 256}, N in [16, 256]
///   step 16;
/// - types, Table 39: kind::f16: A and B both f16 or both bf16, D f32, or D f16 with f16
///   inputs; kind::tf32: tf32 inputs, f32 D; kind::f8f6f4: A and B each, independently, one of
///   e4m3, e5m2, e2m3, e3m2, e2m1, and D f32 or f16;
/// - kind::f8f6f4 major-ness, Table 54: MN-major (transpose) only for the 8-bit types; a 6- or
///   4-bit A or B must be K-major. Table 52: a transposed (MN-major) 8-bit B needs N in
///   [16, 256] step 16 (cta_group::1) or [32, 256] step 32 (cta_group::2);
/// - sparsity selector 0..3, only with sparse, and 0 for kind::f8f6f4 (9.7.16.10.8.4.5-6).
/// Not checkable here, and left to whoever builds the shared-memory descriptors (Table 51,
/// 9.7.16.10.1): a transposed operand of kind::f16 / f8f6f4 must not use 128B swizzle with
/// 32B atom, and one of kind::tf32 must use exactly that mode.
llvm::Expected<uint32_t> encodeTcgen05InstrDesc(const Tcgen05InstrDesc &d);

/// Shorthand for the common case: dense kind::f16, K-major A and B unless told otherwise.
llvm::Expected<uint32_t> encodeTcgen05InstrDescF16(MmaElem ab, MmaElem d, unsigned m, unsigned n,
                                                   unsigned ctaGroup = 1, Major aMajor = Major::K,
                                                   Major bMajor = Major::K);

/// Shorthand for dense kind::f8f6f4 (A and B types independent), K-major unless told otherwise.
llvm::Expected<uint32_t> encodeTcgen05InstrDescF8F6F4(MmaElem a, MmaElem b, MmaElem d, unsigned m,
                                                      unsigned n, unsigned ctaGroup = 1,
                                                      Major aMajor = Major::K,
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
