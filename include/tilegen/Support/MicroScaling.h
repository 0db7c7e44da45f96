//===- MicroScaling.h - narrow float formats and block scaling --*- C++ -*-===//
//
// Encode, decode and quantise the narrow floating-point formats of block-scaled GEMM, and the
// block quantisation of MXFP8, MXFP6, MXFP4 and NVFP4. Plain C++ (no LLVM): tilegen-run uses it
// to generate quantised inputs and their FP64 reference on a machine without LLVM.
//
// Formats (OCP Microscaling Formats (MX) Specification v1.0, section 5.3, and the OCP 8-bit
// Floating Point Specification (OFP8) v1.0 for E4M3/E5M2):
//
//   format  bits  exp bias  largest finite  smallest subnormal  inf  NaN
//   E2M1    4     1         6               0.5                 no   no
//   E2M3    6     1         7.5             0.125               no   no
//   E3M2    6     3         28              0.0625              no   no
//   E4M3    8     7         448             2^-9                no   S.1111.111
//   E5M2    8     15        57344           2^-16               yes  yes
//   E8M0    8     127       2^127           (no zero: 2^-127)   no   0xFF
//
// Codes hold the format's bits in the low bits of a byte, sign in the top bit of the format
// (bit 3 for E2M1, bit 5 for E2M3/E3M2, bit 7 for the 8-bit ones). E8M0 is unsigned: an
// exponent only, value 2^(code - 127).
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_SUPPORT_MICROSCALING_H
#define TILEGEN_SUPPORT_MICROSCALING_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tilegen {
namespace mx {

enum class Format { E2M1, E2M3, E3M2, E4M3, E5M2, E8M0 };

struct FormatInfo {
  Format format;
  const char *name; ///< manifest name: "e2m1", "e2m3", "e3m2", "e4m3", "e5m2", "e8m0"
  unsigned bits;    ///< storage width of one element
  unsigned expBits, manBits;
  int bias;
  /// Exponent of the largest normal value (emax of the OCP MX spec, section 6.3): 2 for E2M1
  /// and E2M3, 4 for E3M2, 8 for E4M3, 15 for E5M2.
  int emax;
  double maxFinite;
  bool hasInf;
  bool isSigned;
};

const FormatInfo &formatInfo(Format f);
/// Parses a manifest name ("e2m1"); false if unknown.
bool parseFormat(const std::string &name, Format &out);

/// The exact value of a code (NaN and infinities as doubles).
double decode(uint8_t code, Format f);

/// Encodes `x` with round to nearest, ties to even. `saturate`: finite values beyond the
/// largest finite one (and infinities) become +-max (as cvt ... .satfinite does); otherwise
/// they become +-inf (E5M2) or NaN (E4M3), and are clamped for the formats without either
/// (E2M1, E2M3, E3M2 always saturate). NaN becomes the format's NaN (E2M1/E2M3/E3M2 have none:
/// they encode NaN as +-max, which callers should not rely on). Negative zero keeps its sign.
/// E8M0 (unsigned, no zero): rounds log2|x| to the nearest integer exponent in [-127, 127]
/// (ties away from zero in the exponent's mantissa sense, i.e. at 1.5 x 2^e up), 0 -> 2^-127.
uint8_t encode(double x, Format f, bool saturate = true);

/// Rounds `x` to the nearest value of `f` (encode, then decode).
inline double quantise(double x, Format f, bool saturate = true) {
  return decode(encode(x, f, saturate), f);
}

//===----------------------------------------------------------------------===//
// Block scaling
//===----------------------------------------------------------------------===//

/// The scale of one MX block (OCP MX v1.0 section 6.3, "Conversion from vector of scalar
/// elements to MX-compliant format"): X = 2^(floor(log2(amax)) - emax(element)), clamped to
/// E8M0's range [2^-127, 2^127]; an all-zero block (amax = 0) gets X = 2^-127 (code 0), the
/// smallest scale, whose elements are all zero. Returns the E8M0 code.
uint8_t mxScaleCode(double amax, Format element);

/// Quantises `n` values as one MX block: writes the E8M0 scale code to `scaleCode` and the
/// element codes to `codes`: each is x / X rounded to nearest even and clamped to the largest
/// finite element value (section 6.3: values that overflow after scaling are clamped).
void quantiseMxBlock(const double *x, size_t n, Format element, uint8_t &scaleCode,
                     uint8_t *codes);

/// NVFP4's two-level scaling (NVIDIA's NVFP4 description: E2M1 elements, one E4M3 scale per 16
/// elements, one f32 per tensor). With amax_t the tensor's largest magnitude, the per-tensor
/// decode scale is g = amax_t / (448 x 6) (1 when amax_t = 0); each block's E4M3 scale is
/// s = e4m3(amax_b / (6 g)) (round to nearest even, saturating); its elements are
/// e2m1(x / (s g)) (0 if s is 0). The value is then e2m1 x s x g.
double nvfp4TensorScale(double amaxTensor);
void quantiseNvfp4Block(const double *x, size_t n, double tensorScale, uint8_t &scaleCode,
                        uint8_t *codes);

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

/// Bytes of `count` elements of a format, rounded up (4-bit: two per byte; 6-bit formats are
/// stored one per byte, unpacked, as the tensor cores' f8f6f4 kinds read them from memory).
/// Returns false on overflow.
bool storageBytes(uint64_t count, Format f, uint64_t &bytes);

/// Packs 4-bit codes two per byte: element 2i in bits [0, 4), element 2i + 1 in bits [4, 8)
/// (the order the tensor cores and TMA's 4-bit types read). `n` may be odd (the last high
/// nibble is 0).
void packE2M1(const uint8_t *codes, size_t n, uint8_t *out);
/// The code of element `i` of a packed E2M1 buffer.
inline uint8_t unpackE2M1(const uint8_t *packed, size_t i) {
  return (packed[i / 2] >> ((i % 2) * 4)) & 0xF;
}

/// Block scales as the native block-scaled kernels read them from global memory (tcgen05 on the
/// sm_100a family, mma.sync on sm_120a; the manifest's "layout": "scale_atoms_128x4",
/// docs/sm100a.md "Scale atoms"). The scales of a tensor of `rows` rows (rows of A, columns of
/// B) with `kBlocks` scale blocks along K each are stored as atoms of 128 rows x 4 blocks, 512
/// bytes: atom (i, j) holds rows 128 i ... 128 i + 127 and blocks 4 j ... 4 j + 3 and starts at
/// byte (i * ceil(kBlocks / 4) + j) * 512; inside it row r, block c is at byte
/// (r % 32) * 16 + ((r % 128) / 32) * 4 + c. That puts, after tcgen05.cp.32x128b.warpx4 (16-byte
/// source row i to TMEM lane i, 4 bytes per column), row r's scale c at lane r % 32, column
/// r / 32, byte c: the layout of PTX ISA 9.7.16.10.7.2-3 for M = 128 (and the 128 x 4 blocks
/// cuBLAS documents for its block-scaling factors). Atoms past the last row or block are
/// padding (0 here). Byte offset of (row, block) in such a tensor:
inline uint64_t scaleAtomByteOffset(uint64_t row, uint64_t block, uint64_t kBlocks) {
  uint64_t atomsK = (kBlocks + 3) / 4;
  return ((row / 128) * atomsK + block / 4) * 512 + (row % 32) * 16 + ((row % 128) / 32) * 4 +
         block % 4;
}
/// Bytes of the atom tensor: ceil(rows / 128) x ceil(kBlocks / 4) atoms of 512 bytes.
inline uint64_t scaleAtomTensorBytes(uint64_t rows, uint64_t kBlocks) {
  return (rows + 127) / 128 * ((kBlocks + 3) / 4) * 512;
}
/// Rearranges row-major scale codes (`codes[r * kBlocks + c]`) into the atom tensor, padding
/// zero.
std::vector<uint8_t> packScaleAtoms(const uint8_t *codes, uint64_t rows, uint64_t kBlocks);

} // namespace mx
} // namespace tilegen

#endif // TILEGEN_SUPPORT_MICROSCALING_H
