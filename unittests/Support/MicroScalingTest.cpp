//===- MicroScalingTest.cpp - narrow formats and block scaling vs the specs -===//
//
// Expected values are worked out by hand from the specifications cited next to them, not
// computed by the code under test: OCP Microscaling Formats (MX) v1.0 (section 5.3.3 FP4
// E2M1, 5.3.2 FP6 E2M3/E3M2, 5.4.1 E8M0, 6.3 block conversion), OCP 8-bit Floating Point
// (OFP8) v1.0 (E4M3, E5M2 tables), NVIDIA's NVFP4 description (16-element blocks, E4M3
// scale, f32 per tensor). Prints one line per failure and "N passed, M failed"; exits 1 on any
// failure. Plain C++: no LLVM.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Support/MicroScaling.h"

#include <cmath>
#include <cstdio>

using namespace tilegen::mx;

static unsigned passed = 0, failed = 0;

static void expectEq(double got, double want, const char *what, int line) {
  bool ok = std::isnan(want) ? std::isnan(got) : got == want;
  if (!ok) {
    std::printf("FAIL line %d: %s: got %.17g, expected %.17g\n", line, what, got, want);
    ++failed;
    return;
  }
  ++passed;
}
static void expectCode(unsigned got, unsigned want, const char *what, int line) {
  if (got != want) {
    std::printf("FAIL line %d: %s: got 0x%02x, expected 0x%02x\n", line, what, got, want);
    ++failed;
    return;
  }
  ++passed;
}
#define EQ(got, want) expectEq((got), (want), #got, __LINE__)
#define CODE(got, want) expectCode((got), (want), #got, __LINE__)

// The global layout of block scales the native block-scaled kernels read (scale atoms of 128 x
// 4). PTX ISA 9.1, 9.7.16.10.7.2-3 (the scale factor matrices in Tensor Memory for M = 128 and
// .scale_vec::1X/2X/4X: row r's scales at lane r % 32 of each 32-lane partition, column r / 32
// of the 4 that hold them, one byte per scale block selected by the scale factor ID) with
// 9.7.16.8.3 (tcgen05.cp .32x128b.warpx4: 16-byte source row i to lane i of every partition,
// bytes 4 c .. 4 c + 3 to column c). Hand-worked: row 0 block 0 -> byte 0; row 1 -> 16 (the
// next source row); row 32 -> 4 (the next TMEM column); row 33 block 2 -> 16 + 4 + 2 = 22; row
// 127 block 3 -> 31 * 16 + 3 * 4 + 3 = 511; with 10 blocks per row (3 atoms along K), block 4
// is the second atom (512) and row 128 the second row of atoms (3 x 512 = 1536).
static void testScaleAtoms() {
  EQ(double(scaleAtomByteOffset(0, 0, 4)), 0);
  EQ(double(scaleAtomByteOffset(1, 0, 4)), 16);
  EQ(double(scaleAtomByteOffset(32, 0, 4)), 4);
  EQ(double(scaleAtomByteOffset(33, 2, 4)), 22);
  EQ(double(scaleAtomByteOffset(127, 3, 4)), 511);
  EQ(double(scaleAtomByteOffset(0, 4, 10)), 512);
  EQ(double(scaleAtomByteOffset(128, 0, 10)), 1536);
  EQ(double(scaleAtomByteOffset(130, 9, 10)), 1536 + 1024 + 2 * 16 + 1);
  EQ(double(scaleAtomTensorBytes(128, 4)), 512);
  EQ(double(scaleAtomTensorBytes(129, 10)), 2 * 3 * 512);
  // Every (row, block) of a 300 x 10 tensor: within its atom, the byte a tcgen05.cp source row
  // holds maps to the lane, column and byte the ISA's figures give, and no two scales share a
  // byte.
  const uint64_t rows = 300, blocks = 10;
  std::vector<int> seen(scaleAtomTensorBytes(rows, blocks), 0);
  bool layout = true, distinct = true;
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < blocks; ++c) {
      uint64_t off = scaleAtomByteOffset(r, c, blocks);
      uint64_t atom = off / 512, in = off % 512;
      layout &= atom == (r / 128) * 3 + c / 4;
      layout &= in / 16 == r % 32 && (in % 16) / 4 == (r % 128) / 32 && in % 4 == c % 4;
      distinct &= seen[off]++ == 0;
    }
  EQ(layout, true);
  EQ(distinct, true);
  // The kernels' 3-D tensor map over it (manifest dims atom_row_bytes, atom_rows, M_atoms:
  // strides 1, 16 and 16 x 32 x atomsK bytes) addresses the same byte: element (b, 32 kAtom +
  // r % 32, r / 128) with b = ((r % 128) / 32) * 4 + c % 4.
  bool tma = true;
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < blocks; ++c) {
      uint64_t b = ((r % 128) / 32) * 4 + c % 4, y = 32 * (c / 4) + r % 32, z = r / 128;
      tma &= b + 16 * y + 16 * 32 * 3 * z == scaleAtomByteOffset(r, c, blocks);
    }
  EQ(tma, true);
  // packScaleAtoms: codes land at their offsets, padding (rows 300..383, blocks 10, 11) is 0.
  std::vector<uint8_t> codes(rows * blocks);
  for (uint64_t i = 0; i < codes.size(); ++i)
    codes[i] = uint8_t(1 + i % 251);
  std::vector<uint8_t> atoms = packScaleAtoms(codes.data(), rows, blocks);
  bool placed = atoms.size() == scaleAtomTensorBytes(rows, blocks);
  unsigned nonzero = 0;
  for (uint64_t r = 0; placed && r < rows; ++r)
    for (uint64_t c = 0; c < blocks; ++c)
      placed &= atoms[scaleAtomByteOffset(r, c, blocks)] == codes[r * blocks + c];
  for (uint8_t a : atoms)
    nonzero += a != 0;
  EQ(placed, true);
  EQ(double(nonzero), double(rows * blocks));
}

int main() {
  testScaleAtoms();
  const double nan = std::nan("");

  // MX v1.0 5.3.3: FP4 E2M1, bias 1; codes 0..7 are 0, 0.5 (subnormal), 1, 1.5, 2, 3, 4, 6;
  // bit 3 is the sign; no Inf/NaN.
  const double e2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (unsigned c = 0; c < 8; ++c) {
    EQ(decode(c, Format::E2M1), e2m1[c]);
    EQ(decode(c | 8, Format::E2M1), -e2m1[c]);
    CODE(encode(e2m1[c], Format::E2M1), c);
  }
  CODE(encode(-6, Format::E2M1), 0xF);
  // Round to nearest even: 0.25 lies between 0 (even) and 0.5; 0.75 between 0.5 and 1 (1 has
  // mantissa 0); 2.5 -> 2; 5 -> 4; 3.5 -> 4; anything past 6 saturates (no Inf).
  CODE(encode(0.25, Format::E2M1), 0x0);
  CODE(encode(0.26, Format::E2M1), 0x1);
  CODE(encode(0.75, Format::E2M1), 0x2);
  CODE(encode(2.5, Format::E2M1), 0x4);
  CODE(encode(5.0, Format::E2M1), 0x6);
  CODE(encode(3.5, Format::E2M1), 0x6);
  CODE(encode(7.0, Format::E2M1), 0x7);
  CODE(encode(1e30, Format::E2M1), 0x7);
  CODE(encode(-1e30, Format::E2M1), 0xF);
  CODE(encode(-0.0, Format::E2M1), 0x8);

  // MX v1.0 5.3.2: FP6 E2M3 (bias 1): max normal S.11.111 = 2^2 x 1.875 = 7.5, min normal
  // 2^0 = 1, max subnormal 0.875, min subnormal 2^0 x 0.125 = 0.125.
  EQ(decode(0x1F, Format::E2M3), 7.5);
  EQ(decode(0x08, Format::E2M3), 1.0);
  EQ(decode(0x07, Format::E2M3), 0.875);
  EQ(decode(0x01, Format::E2M3), 0.125);
  EQ(decode(0x21, Format::E2M3), -0.125);
  CODE(encode(7.5, Format::E2M3), 0x1F);
  CODE(encode(100, Format::E2M3), 0x1F);
  CODE(encode(0.0625, Format::E2M3), 0x00); // tie between 0 and 0.125: even is 0
  CODE(encode(3.125, Format::E2M3), 0x14); // tie between 3 (S.10.100, even) and 3.25
  // FP6 E3M2 (bias 3): max normal S.111.11 = 2^4 x 1.75 = 28, min normal 2^-2 = 0.25, max
  // subnormal 0.1875, min subnormal 2^-2 x 0.25 = 0.0625.
  EQ(decode(0x1F, Format::E3M2), 28.0);
  EQ(decode(0x04, Format::E3M2), 0.25);
  EQ(decode(0x03, Format::E3M2), 0.1875);
  EQ(decode(0x01, Format::E3M2), 0.0625);
  CODE(encode(28, Format::E3M2), 0x1F);
  CODE(encode(30, Format::E3M2), 0x1F);
  CODE(encode(-0.0625, Format::E3M2), 0x21);

  // OFP8 v1.0 E4M3: bias 7, max S.1111.110 = 448, NaN S.1111.111, min subnormal 2^-9,
  // min normal 2^-6; E5M2: bias 15, max S.11110.11 = 57344, Inf S.11111.00, min subnormal
  // 2^-16.
  EQ(decode(0x7E, Format::E4M3), 448.0);
  EQ(decode(0x7F, Format::E4M3), nan);
  EQ(decode(0x01, Format::E4M3), 0x1p-9);
  EQ(decode(0x08, Format::E4M3), 0x1p-6);
  EQ(decode(0x38, Format::E4M3), 1.0);
  EQ(decode(0xB8, Format::E4M3), -1.0);
  CODE(encode(448, Format::E4M3), 0x7E);
  CODE(encode(464, Format::E4M3), 0x7E);         // tie between 448 and 480 (NaN code): even
  CODE(encode(1000, Format::E4M3, false), 0x7F); // no Inf: NaN without saturation
  CODE(encode(1000, Format::E4M3, true), 0x7E);
  CODE(encode(0x1p-10, Format::E4M3), 0x00); // half the min subnormal: tie to 0
  EQ(decode(0x7B, Format::E5M2), 57344.0);
  EQ(decode(0x7C, Format::E5M2), INFINITY);
  EQ(decode(0x01, Format::E5M2), 0x1p-16);
  CODE(encode(1e6, Format::E5M2, false), 0x7C);
  CODE(encode(1e6, Format::E5M2, true), 0x7B);

  // MX v1.0 5.4.1: E8M0, bias 127, unsigned, no zero: 0x00 = 2^-127, 0x7F = 1, 0xFE = 2^127,
  // 0xFF = NaN.
  EQ(decode(0x00, Format::E8M0), 0x1p-127);
  EQ(decode(0x7F, Format::E8M0), 1.0);
  EQ(decode(0x80, Format::E8M0), 2.0);
  EQ(decode(0xFE, Format::E8M0), 0x1p127);
  EQ(decode(0xFF, Format::E8M0), nan);
  CODE(encode(1.0, Format::E8M0), 0x7F);
  CODE(encode(0.25, Format::E8M0), 0x7D);
  CODE(encode(1.4, Format::E8M0), 0x7F);
  CODE(encode(1.5, Format::E8M0), 0x80);

  // MX v1.0 6.3: shared exponent = floor(log2(amax)) - emax(element); E2M1 emax = 2.
  // amax = 5: floor(log2 5) = 2 -> X = 2^0 (code 127); 5 / 1 = 5 -> 4 (tie to even).
  // amax = 13: floor(log2 13) = 3 -> X = 2; 13 / 2 = 6.5 -> clamped to 6.
  {
    const double block[4] = {5.0, -1.0, 0.3, 0.0};
    uint8_t scale, codes[4];
    quantiseMxBlock(block, 4, Format::E2M1, scale, codes);
    CODE(scale, 0x7F);
    CODE(codes[0], 0x6);
    CODE(codes[1], 0xA);
    CODE(codes[2], 0x1); // 0.3 -> 0.5 (nearer than 0)
    CODE(codes[3], 0x0);
  }
  {
    const double block[2] = {13.0, -0.75};
    uint8_t scale, codes[2];
    quantiseMxBlock(block, 2, Format::E2M1, scale, codes);
    CODE(scale, 0x80);
    CODE(codes[0], 0x7);
    CODE(codes[1], 0x9); // -0.375 -> -0.5
  }
  // MXFP8 E4M3 (emax 8): amax = 1000 -> floor(log2) = 9 -> X = 2; 1000 / 2 = 500 -> clamped
  // to 448. amax = 0.001 -> floor(log2) = -10 -> X = 2^-18.
  {
    const double block[1] = {1000.0};
    uint8_t scale, code;
    quantiseMxBlock(block, 1, Format::E4M3, scale, &code);
    CODE(scale, 0x80);
    CODE(code, 0x7E);
    CODE(mxScaleCode(0.001, Format::E4M3), 127 - 18);
    CODE(mxScaleCode(0.0, Format::E4M3), 0x00);
    // Clamped to E8M0's range: 2^-140 would need exponent -150.
    CODE(mxScaleCode(0x1p-140, Format::E4M3), 0x00);
    // E5M2 emax 15, E3M2 emax 4, E2M3 emax 2.
    CODE(mxScaleCode(1.0, Format::E5M2), 127 - 15);
    CODE(mxScaleCode(1.0, Format::E3M2), 127 - 4);
    CODE(mxScaleCode(1.0, Format::E2M3), 127 - 2);
  }

  // NVFP4: tensor amax 2688 = 448 x 6 gives g = 1; a block of amax 3 gets the E4M3 scale
  // 3 / 6 = 0.5 (code 0x30) and the elements 3 / 0.5 = 6, -1 / 0.5 = -2.
  {
    EQ(nvfp4TensorScale(2688.0), 1.0);
    EQ(nvfp4TensorScale(0.0), 1.0);
    const double block[2] = {3.0, -1.0};
    uint8_t scale, codes[2];
    quantiseNvfp4Block(block, 2, 1.0, scale, codes);
    CODE(scale, 0x30);
    CODE(codes[0], 0x7);
    CODE(codes[1], 0xC);
    // g = 0.5: block amax 12 -> s = e4m3(12 / 3) = 4 (0x48); 12 / (4 x 0.5) = 6.
    const double block2[1] = {12.0};
    quantiseNvfp4Block(block2, 1, 0.5, scale, codes);
    CODE(scale, 0x48);
    CODE(codes[0], 0x7);
    // An all-zero block: scale 0, elements 0.
    const double zeros[2] = {0.0, 0.0};
    quantiseNvfp4Block(zeros, 2, 1.0, scale, codes);
    CODE(scale, 0x00);
    CODE(codes[0], 0x0);
  }

  // Packing: element 2i in the low nibble.
  {
    const uint8_t codes[3] = {0x1, 0xF, 0x7};
    uint8_t packed[2] = {0xAA, 0xAA};
    packE2M1(codes, 3, packed);
    CODE(packed[0], 0xF1);
    CODE(packed[1], 0x07);
    CODE(unpackE2M1(packed, 1), 0xF);
    CODE(unpackE2M1(packed, 2), 0x7);
    uint64_t bytes = 0;
    storageBytes(3, Format::E2M1, bytes);
    EQ(double(bytes), 2.0);
    storageBytes(3, Format::E3M2, bytes);
    EQ(double(bytes), 3.0);
  }

  // Every code round-trips (encode(decode(c)) == c) for every finite code of every format.
  for (Format f : {Format::E2M1, Format::E2M3, Format::E3M2, Format::E4M3, Format::E5M2,
                   Format::E8M0}) {
    const FormatInfo &info = formatInfo(f);
    unsigned bad = 0;
    for (unsigned c = 0; c < (1u << info.bits); ++c) {
      double v = decode(uint8_t(c), f);
      if (std::isnan(v) || std::isinf(v))
        continue;
      if (encode(v, f) != c)
        ++bad;
    }
    expectCode(bad, 0, info.name, __LINE__);
  }

  std::printf("%u passed, %u failed\n", passed, failed);
  return failed ? 1 : 0;
}
