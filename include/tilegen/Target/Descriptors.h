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
// sm_100a: block-scaled tcgen05.mma (.kind::mxf8f6f4, .kind::mxf4, .kind::mxf4nvf4)
//===----------------------------------------------------------------------===//
//
// Sources (PTX ISA 9.0/9.1, CUDA 13.0 numbering):
//   instruction descriptor ........ 9.7.16.4.2, the tables "Instruction descriptor format for
//                                   .kind::mxf8f6f4" and "... for .kind::mxf4 and
//                                   .kind::mxf4nvf4"
//   shapes (M, N, K) .............. 9.7.16.2.1, Table 39 rows for the three kinds
//   scale vector sizes / types .... 9.7.16.10.7.1, "Valid combinations of scale_vectorsize
//                                   and shapes" and "... with types and MMA-Kind"
//   scale factor A / B IDs ........ 9.7.16.10.7.2-3 (layouts of the scale factor matrices)
//   tcgen05.cp .................... 9.7.16.8.3 (shapes .128x256b, .4x256b, .128x128b,
//                                   .64x128b with .warpx2::02_13/01_23, .32x128b with .warpx4)
// Cross-checked with CUTLASS's cute/arch/mma_sm100_desc.hpp (UMMA::InstrDescriptorBlockScaled,
// whose 5-bit "M >> 4" at 24-28 is the ISA's 2-bit "M >> 7" at 27-28 with bits 24-26 zero:
// the same bits for M = 128 and 256).

/// The block-scaled kinds (9.7.16.10.9.1). K per instruction, dense (Table 39): mxf8f6f4 32,
/// mxf4 and mxf4nvf4 64. D is always f32.
enum class Tcgen05ScaledKind { MXF8F6F4, MXF4, MXF4NVF4 };

/// Element type of the scale factors (.stype): UE8M0 (OCP MX, an 8-bit power of two) or UE4M3
/// (NVFP4; .kind::mxf4nvf4 only).
enum class ScaleElem { UE8M0, UE4M3 };

/// .scale_vec::NX: how many scale factors each row of A (column of B) has per instruction.
/// 1X: mxf8f6f4 (one per 32 K); 2X: mxf4 / mxf4nvf4 (one per 32 K of a K = 64 MMA, the
/// alias .block32); 4X: mxf4nvf4 (one per 16 K, the alias .block16).
enum class ScaleVec { X1 = 1, X2 = 2, X4 = 4 };

/// K of one dense instruction of the kind (Table 39): 32 or 64.
unsigned tcgen05ScaledK(Tcgen05ScaledKind kind);

/// Elements of K covered by one scale factor: K / vec (32 for 1X and 2X, 16 for 4X).
unsigned tcgen05ScaleBlock(Tcgen05ScaledKind kind, ScaleVec vec);

/// Bits one operand element occupies in shared memory (what the smem descriptor and TMA box
/// see): 8 for every type of .kind::mxf8f6f4 (9.7.16.4.3 "packing formats": e2m3/e3m2/e2m1
/// are read from 16-byte chunks of 16 elements, padded, the forms TMA writes with the
/// 16U6_ALIGN16B / 16U4_ALIGN16B types), 4 for e2m1 under .kind::mxf4 / .kind::mxf4nvf4
/// (packed, two per byte). Either way one instruction's K is 32 bytes of each K-major row.
unsigned tcgen05SmemElemBits(Tcgen05ScaledKind kind);

struct Tcgen05ScaledInstrDesc {
  Tcgen05ScaledKind kind = Tcgen05ScaledKind::MXF8F6F4;
  MmaElem aType = MmaElem::E4M3;
  MmaElem bType = MmaElem::E4M3;
  ScaleElem scaleType = ScaleElem::UE8M0;
  ScaleVec scaleVec = ScaleVec::X1;
  unsigned m = 128;
  unsigned n = 256;
  unsigned ctaGroup = 1;
  Major aMajor = Major::K; ///< MN-major sets "transpose A" (bit 15)
  Major bMajor = Major::K; ///< MN-major sets "transpose B" (bit 16)
  bool negateA = false;
  bool negateB = false;
  unsigned sfaId = 0; ///< scale factor A ID, bits 29-30
  unsigned sfbId = 0; ///< scale factor B ID, bits 4-5
};

/// Encodes the block-scaled instruction descriptor (9.7.16.4.2):
///   [0,2) 0   [2] sparse (dense: 0)   [3] 0   [4,6) scale factor B ID   [6] 0
///   [7,10) atype   [10,13) btype (mxf4/mxf4nvf4: [10,12), bit 12 zero)   [13] negate A
///   [14] negate B   [15] transpose A   [16] transpose B   [17,23) N >> 3
///   [23] scale type (UE4M3 0, UE8M0 1)   [24,27) 0   [27,29) M >> 7
///   [29,31) scale factor A ID   [31] K (mxf4/mxf4nvf4: 0 = K 64, 1 = K 96; mxf8f6f4: 0).
/// Type codes: mxf8f6f4 E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5 (A and B independent);
/// mxf4 / mxf4nvf4 E2M1 1.
/// Validates:
/// - shapes (Table 39, dense): cta_group::1 M = 128, N in [8, 256] step 8; cta_group::2
///   M in {128, 256}, N in [16, 256] step 16 (K = 96 is sm_103a-only and not modelled);
/// - kind x types x scale type x scale_vec (9.7.16.10.7.1): mxf8f6f4: any of the five
///   types, UE8M0, 1X; mxf4: E2M1, UE8M0, 2X; mxf4nvf4: E2M1, UE8M0 with 2X or 4X, UE4M3
///   with 4X;
/// - transpose: mxf4 / mxf4nvf4 "No Transpose = 0" only; mxf8f6f4 as kind::f8f6f4 (only
///   8-bit types MN-major, and Table 52's N steps for an MN-major 8-bit B);
/// - IDs (9.7.16.10.7.2-3): 1X any byte 0..3; 2X a half word, 0 or 2; 4X only 0.
llvm::Expected<uint32_t> encodeTcgen05ScaledInstrDesc(const Tcgen05ScaledInstrDesc &d);

/// Scale factors in shared memory and Tensor Memory (9.7.16.10.7.2-3 with tcgen05.cp's
/// .32x128b.warpx4):
///
/// One "scale atom" holds the scale factors of 128 rows (of A; columns of B) for 4
/// consecutive scale blocks along K: 512 bytes, row r in [0, 128), block j in [0, 4) at
///   scaleAtomOffset(r, j) = (r % 32) * 16 + (r / 32) * 4 + j.
/// tcgen05.cp.32x128b.warpx4 copies those 32 rows of 16 bytes into 4 TMEM columns of all
/// four 32-lane partitions (the ISA requires the scale factors duplicated to every lane
/// partition): lane 32 q + (r % 32), column c0 + r / 32, byte j. So an MMA with M = 128
/// (per CTA) finds row r's scale at lane r % 32, column c0 + r / 32, byte j: the layout of
/// the figures, with the ID selecting the byte (1X), half word (2X) or the whole word (4X).
/// An N-wide B uses ceil(N / 128) atoms side by side: column c0 + 4 * (n / 128) +
/// (n % 128) / 32.
constexpr unsigned kScaleAtomRows = 128;
constexpr unsigned kScaleAtomBlocks = 4;
constexpr unsigned kScaleAtomBytes = 512;
constexpr unsigned kScaleAtomColumns = 4;

/// Byte offset of (row, block) in a scale atom; an error outside 128 x 4.
llvm::Expected<uint32_t> scaleAtomOffset(unsigned row, unsigned block);

/// Where instruction `mmaIndex` (0-based, counting consecutive MMAs along K from a K
/// position that starts a scale atom) reads its scale factors: the atom along K (each atom
/// covers 4 scale blocks) and the scale factor ID. 1X: atom i / 4, ID i % 4 (bytes);
/// 2X: atom i / 2, ID 2 * (i % 2) (half words); 4X: atom i, ID 0.
struct ScaleStep {
  unsigned atom;
  unsigned id;
};
llvm::Expected<ScaleStep> tcgen05ScaleStep(Tcgen05ScaledKind kind, ScaleVec vec,
                                           unsigned mmaIndex);

/// The shared-memory descriptor tcgen05.cp reads a scale atom with (Table 40 format, no
/// swizzle): the 32 rows of 16 bytes are 4 core matrices of 8 x 16 B, 128 bytes apart
/// (SBO = 128); there is one 16-byte column, so LBO is unused (0).
llvm::Expected<uint64_t> encodeTcgen05ScaleCopyDesc(uint32_t smemAddr);

//===----------------------------------------------------------------------===//
// sm_120a: block-scaled mma.sync (9.7.14.3, "Block Scaling for mma.sync")
//===----------------------------------------------------------------------===//
//
// mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32 and
// .kind::mxf4nvf4.block_scale.scale_vec::{2X,4X}.m16n8k64 take, besides the fragments of the
// unscaled shapes, one 32-bit scale-a-data and scale-b-data register per thread and two
// immediates each, {byte-id, thread-id}: every thread passes a register, the instruction reads
// the scale of row m of A (column n of B) from one byte (1X), half word (2X) or word (4X,
// byte-id 0) of one thread's register (Table 37 "Valid values for various selector
// components"). thread-id-a in {0, 1} picks the thread pair of each quad that provides SF_A
// (lanes with lane % 4 in {0, 1}, or {2, 3}); thread-id-b in {0..3} picks the one thread of
// each quad that provides SF_B (lane % 4 == thread-id-b). Within the pair, Figure 43 gives
// rows 0-7 to the lower lane and rows 8-15 to the upper one (quad q holds rows q and q + 8):
//   A, row m in [0, 16):  lane 4 * (m % 8) + 2 * tidA + m / 8
//   B, column n in [0, 8): lane 4 * n + tidB
// byte-id is 0..3 (1X), 0 or 2 (2X), 0 (4X). The lane that provides a scale is not the lane
// that holds the row's accumulators; the emitter loads, per lane, the scale word of the row
// or column that lane must provide.

/// Lane that provides the A scale of row m (< 16) with thread-id tid (0 or 1).
llvm::Expected<unsigned> mmaSyncScaleLaneA(unsigned row, unsigned tid);
/// Lane that provides the B scale of column n (< 8) with thread-id tid (0..3).
llvm::Expected<unsigned> mmaSyncScaleLaneB(unsigned col, unsigned tid);
/// Validates a byte-id for a scale_vec (1X: 0..3, 2X: 0 or 2, 4X: 0).
llvm::Error checkMmaSyncScaleByteId(ScaleVec vec, unsigned byteId);

//===----------------------------------------------------------------------===//
// sm_120a: 6- and 4-bit operands of mma.sync .kind::f8f6f4 / .kind::mxf8f6f4 in registers
//===----------------------------------------------------------------------===//
//
// 9.7.14.5.14 ("mma", Description): with .kind::f8f6f4 or .kind::mxf8f6f4 each 4- or 6-bit
// element is packed in an 8-bit container: .e2m1 in the central 4 bits (bits 5..2, 2 bits of
// padding above and below), .e3m2 / .e2m3 in the lower 6 bits (bits 5..0, 2 bits of padding
// above). The fragments are those of the 8-bit types (9.7.14.5.10: four containers per 32-bit
// register, the element with the lower index in the lower byte). ldmatrix's .b8x16.b4x16_p64
// and .b8x16.b6x16_p32 forms (9.7.14.5.15) widen 16 packed elements of a row to 16 bytes; the
// 4-bit value lands in bits 3..0 of its byte (CUTLASS, cute/atom/mma_traits_sm120.hpp,
// fp4_shift_A/B), the 6-bit value in bits 5..0, where the MMA wants it. An e2m1 register is
// therefore shifted left by 2; the mask makes every padding bit 0.

/// The 8-bit container of a `bits`-bit (4 or 6) element with code `code` (its low bits).
uint8_t f8f6f4Container(unsigned bits, uint8_t code);
constexpr unsigned kE2M1ContainerShift = 2;
constexpr uint32_t kE2M1ContainerMask = 0x3C3C3C3C;
/// Four e2m1 containers from an ldmatrix .b8x16.b4x16_p64 register (value in bits 3..0 of each
/// byte): (word << 2) & 0x3C3C3C3C.
constexpr uint32_t e2m1ContainersFromLdmatrix(uint32_t word) {
  return (word << kE2M1ContainerShift) & kE2M1ContainerMask;
}

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
