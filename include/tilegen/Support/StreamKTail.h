//===- StreamKTail.h - which stream-K tails are split, and how ---*- C++ -*-===//
//
// The rule by which a grid = stream_k kernel (lib/Conversion/TileToNVVM/StreamK.cpp, which
// emits it as IR) splits the K-slices of its last tiles, as the pipeline model
// (ProblemModel.cpp) and the dispatch tables' scaled rule (tilegen-run's Dispatch.cpp) count
// it. One definition for both; the kernel's IR and Python's mirror (python/tilegen/
// _dispatch.py) follow it and its tests pin all three. Plain C++, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_SUPPORT_STREAMKTAIL_H
#define TILEGEN_SUPPORT_STREAMKTAIL_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tilegen {

/// How T tiles of kTiles K-slices each run on P CTAs: floor(T / P) waves of whole tiles, then
/// the r = T mod P tiles left. Those are split when they fill at most half a wave, a tile over
/// at most min(max(kTiles / 8, 1), 16) CTAs: with no full wave over r x min(floor(P / r),
/// that) CTAs (every tile in the same whole number of parts, two or more), after full waves
/// over min(P, r x that) CTAs when that is at least 10/9 CTAs a tile.
struct StreamKTail {
  bool split = false;
  uint64_t wholeTiles = 0;  ///< floor(T / P): the waves of whole tiles
  uint64_t tailTiles = 0;   ///< r
  uint64_t ctas = 0;        ///< S: the CTAs the split tail's slices are spread over
  uint64_t sliceShare = 0;  ///< ceil(r kTiles / S): the busiest CTA's split slices
  uint64_t ways = 0;        ///< partial tiles summed for a tile (one more where chunks straddle)
};

inline StreamKTail streamKTail(uint64_t tiles, uint64_t ctas, uint64_t kTiles) {
  StreamKTail t;
  if (ctas == 0)
    return t;
  const uint64_t P = ctas, r = tiles % P, dp = tiles / P;
  t.wholeTiles = dp;
  t.tailTiles = r;
  const uint64_t split = std::min<uint64_t>(std::max<uint64_t>(kTiles / 8, 1), 16);
  const uint64_t spread = dp == 0 ? r * std::min<uint64_t>(P / std::max<uint64_t>(r, 1), split)
                                  : std::min(P, r * split);
  if (!(r > 0 && kTiles > 0 && spread * 9 >= r * 10 && (dp == 0 ? spread >= 2 * r : 2 * r <= P)))
    return t;
  t.split = true;
  t.ctas = spread;
  const uint64_t R = r * kTiles;
  t.sliceShare = (R + spread - 1) / spread;
  // Parts per tile: kTiles / (R / S) chunks, one more where chunk and tile edges differ.
  const double parts = static_cast<double>(kTiles) * static_cast<double>(spread) /
                       static_cast<double>(R);
  const bool aligned = R % spread == 0 && R / spread > 0 && kTiles % (R / spread) == 0;
  t.ways = static_cast<uint64_t>(
      std::min<double>(static_cast<double>(spread), aligned ? parts : std::ceil(parts) + 1));
  return t;
}

} // namespace tilegen

#endif // TILEGEN_SUPPORT_STREAMKTAIL_H
