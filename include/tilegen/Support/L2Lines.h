//===- L2Lines.h - L2 lines a TMA box row touches ---------------*- C++ -*-===//
//
// The pipeline model (ProblemModel.cpp) and the dispatch tables' scaled rule (tilegen-run's
// Dispatch.cpp) count the L2 -> shared memory traffic of a TMA box by the 128-byte L2 lines its
// rows touch. One definition for both. Plain C++, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_SUPPORT_L2LINES_H
#define TILEGEN_SUPPORT_L2LINES_H

#include <cstdint>
#include <numeric>

namespace tilegen {

/// The 128-byte L2 lines a box row of `spanBytes` (at most 128) touches on average, over the
/// one line of a row that starts on a line, when consecutive rows are `pitchBytes` apart and
/// the tensor starts on a line: rows start at the multiples of gcd(pitch mod 128, 128) within a
/// line (gcd(0, 128) = 128: every row on a line), and one starting at offset o spans
/// ceil((o + span) / 128) lines. A span of 0 or over 128 bytes counts 1.
inline double l2LineFactor(uint64_t pitchBytes, uint64_t spanBytes) {
  constexpr uint64_t kLine = 128;
  if (spanBytes == 0 || spanBytes > kLine)
    return 1.0;
  const uint64_t g = std::gcd(pitchBytes % kLine, kLine);
  uint64_t lines = 0, rows = 0;
  for (uint64_t o = 0; o < kLine; o += g, ++rows)
    lines += (o + spanBytes + kLine - 1) / kLine;
  return static_cast<double>(lines) / static_cast<double>(rows);
}

} // namespace tilegen

#endif // TILEGEN_SUPPORT_L2LINES_H
