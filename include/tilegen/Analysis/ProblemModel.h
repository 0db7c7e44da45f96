//===- ProblemModel.h - predicted time of a GEMM of one problem size -*- C++ -*-===//
//
// `tilegen explain DESC --target=T --m M --n N --k K`: the time of the kernel a description
// compiles to, for one problem size, from the pipeline model of one CTA (PipelineModel.h, with
// the per-slice costs of PipelineCosts.h) and the target table (NVTarget.h):
//
//   tiles     T = ceil(M / tileM) x ceil(N / tileN). A partial (edge) tile does a whole tile's
//             MMA work, as the tensor core computes whole tiles; its copies move only the bytes
//             inside the matrices (TMA and cp.async fill the rest of the slot with zeros).
//   grid      the CTAs tilegen-run launches (docs/manifest.md): `tiles` one per tile (rounded up
//             to the cluster size), `persistent` min(T, SMs), `stream_k` SMs (both rounded down
//             to the cluster size, at least one cluster).
//   resident  CTAs per SM: the fewest that shared memory (the kernel's dynamic shared memory
//             plus 1 KB reserved per block) and threads (resident warps) allow.
//   waves     the rounds the grid takes over the tiles and the share of workers busy in the
//             last one (persistent: tile i runs on CTA i mod grid; tiles: CTAs fill the SMs'
//             resident slots in order).
//   memory    A and B bytes read from DRAM: each once when A + B fit in L2; otherwise, for
//             every wave, the A row panels and B column panels its tiles touch in the raster
//             order (tiles of one wave share panels through L2, consecutive waves do not). C is
//             read when beta != 0, D is written. DRAM time = these bytes / DRAM bandwidth.
//   costs     t_mma as PipelineCosts over the MMA efficiency (wgmma: fitted factors, below); t_issue = the copies' issue (PipelineCosts) + the
//             slice's bytes from L2 (B halved when a CTA pair multicasts it) over this CTA's
//             share of its SM's L2 bandwidth (a throughput limit: slices cross it in turn);
//             t_load = DRAM latency + this CTA's average DRAM bytes per K-slice over its share
//             of DRAM bandwidth (bandwidth / CTAs at work); t_epi = store latency + the
//             tile's C and D bytes over the same share.
//   busiest   the CTA with the most tiles, by the recurrences: persistent and non-splitting
//             stream_k, one CTA over its tiles; tiles, one fresh CTA per tile, one after
//             another on an SM; stream_k splitting its last wave, the whole tiles of the full
//             waves, the largest share of the tail's K-slices and then the fix-up that adds
//             the partial tiles (StreamK.cpp's rule).
//   time      t_launch + max(busiest CTA's cycles / the clock, DRAM time): loads overlap the
//             MMAs, so whichever of the SM and DRAM takes longer sets the time. DRAM bandwidth
//             is the share a GEMM reaches (0.6 of the rated); a CTA pair runs units of two
//             tile rows (ceil(units / pairs) tiles each); beyond the first 2 ms the clock is
//             the power-limited one (0.83 of the rated). ProblemModel.cpp gives the sources.
//
// Every constant is in ProblemModel.cpp's first block with its source; the target's facts are
// the target table's. Sizes are 64-bit and products (flops, bytes) are doubles: M, N, K up to
// 2^31 - 1 neither overflow nor make the model run long (large runs are extrapolated from a
// simulated prefix at the steady-state rate).
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_ANALYSIS_PROBLEMMODEL_H
#define TILEGEN_ANALYSIS_PROBLEMMODEL_H

#include "tilegen/Analysis/PipelineCosts.h"
#include "tilegen/Analysis/PipelineModel.h"
#include "tilegen/Pipeline/GemmPlan.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace tilegen {

/// The largest M, N or K: the kernels take them as 32-bit signed integers.
inline constexpr int64_t kMaxProblemDim = 2147483647;

/// Parses a problem dimension given as `--<flag> <text>`: a decimal integer from 1 to
/// kMaxProblemDim. Fails naming the flag, the text and the rule.
llvm::Expected<int64_t> parseProblemDim(llvm::StringRef flag, llvm::StringRef text);

struct ProblemSize {
  int64_t m = 0, n = 0, k = 0;
};

/// What follows from the problem size, the plan and the target alone (not the costs).
struct ProblemLayout {
  ProblemSize size;
  double flops = 0; ///< 2 M N K
  double beta = 0;
  int64_t tileM = 0, tileN = 0, tileK = 0; ///< the description's (a CTA pair's with cta_group 2)
  int64_t ctaGroup = 1, clusterSize = 1;
  /// The cluster's extent along M and N (clusterSize = clusterM x clusterN).
  int64_t clusterM = 1, clusterN = 1;
  /// wgmma: the share of the tensor rate the kernel's MMA issue reaches (ProblemModel.cpp's
  /// fitted factors: narrow N, one issuing warpgroup, a CTA pair); 1 for other families.
  double mmaEfficiency = 1.0;
  uint64_t tilesM = 0, tilesN = 0, tiles = 0; ///< output tiles
  bool partialM = false, partialN = false;     ///< the last tile row / column is partial
  int64_t kSlices = 0;                         ///< ceil(K / tileK)
  double paddedFlops = 0; ///< the flops the tensor cores do: whole tiles, whole slices

  tile::Grid grid = tile::Grid::Tiles;
  unsigned smCount = 0;
  uint64_t gridCtas = 0;       ///< CTAs launched
  unsigned quadClusterCtas = 0; ///< clusters of 4: CTAs the part holds at once (0: not capped)
  int64_t smemPerCta = 0;      ///< dynamic shared memory of one CTA
  int64_t resident = 0;        ///< CTAs resident per SM
  std::string residentLimit;   ///< "shared memory" or "threads"
  int64_t residentBySmem = 0, residentByThreads = 0;
  uint64_t concurrentCtas = 0; ///< CTAs at work at once (they share DRAM bandwidth)
  uint64_t waveTiles = 0;      ///< tiles in flight at once (a wave)
  uint64_t waves = 0;          ///< rounds over the tiles
  uint64_t lastWaveTiles = 0;  ///< tiles (or stream-K CTAs) at work in the last round
  double lastWaveFill = 0;     ///< lastWaveTiles / waveTiles
  /// wgmma clusters: the units (blocks of clusterM x clusterN tiles) the clusters take (0
  /// otherwise); waves are rounds of units over the clusters.
  uint64_t clusterUnits = 0;

  // The busiest CTA.
  uint64_t busiestTiles = 0;     ///< tiles it computes (tiles grid: CTAs one SM runs in turn)
  bool freshCtaPerTile = false;  ///< tiles grid with one resident CTA: every tile starts cold

  // stream_k splitting its last wave (StreamK.cpp): after wholeTiles whole tiles per CTA (full
  // waves), the tail tiles' K-slices split over splitCtas CTAs, the busiest taking splitSlices
  // of them, a tile summed from splitWays parts.
  bool streamKSplit = false;
  uint64_t wholeTiles = 0;
  uint64_t splitCtas = 0;
  int64_t splitSlices = 0, splitWays = 0;
  double partialBytes = 0; ///< one f32 partial tile

  // Memory, in bytes.
  double aBytes = 0, bBytes = 0;     ///< A and B as stored (each element once)
  double cReadBytes = 0, dWriteBytes = 0;
  /// TMA box rows: the 128-byte L2 lines a row of A's (B's) box touches on average, over
  /// those of a row starting on a line (1 when the row pitch is a multiple of 128 bytes, up to
  /// 2 when it is a multiple of 16 only); the L2 -> shared memory bytes are counted in lines.
  double aLineFactor = 1, bLineFactor = 1;
  double l2ToSmBytes = 0;            ///< A and B bytes the CTAs load (tilesN A + tilesM B)
  double dramOperandBytes = 0;       ///< of which read from DRAM (the L2 reuse estimate)
  double dramBytes = 0;              ///< operands + C + D
  double aPanelsPerWave = 0, bPanelsPerWave = 0; ///< averages over the waves counted
  bool operandsFitL2 = false;
  bool wavesSampled = false;         ///< too many waves: the first ones counted, scaled
  uint64_t l2Bytes = 0;
  double dramBytesPerSecond = 0; ///< the share a GEMM reaches: dramEfficiency x the rated
  double dramEfficiency = 1;
};

/// Lays out `size` for `plan` (resolved from `op`) with `stages` ring stages.
ProblemLayout layoutProblem(tile::GemmOp op, const GemmPlan &plan, ProblemSize size,
                            int64_t stages);

/// The per-slice costs for this problem, in cycles at `clockGHz`: t_mma and t_issue from the
/// target table's costs, t_load and t_epi from the problem's DRAM bytes and the CTAs sharing
/// DRAM (see the file comment).
struct ProblemCosts {
  ModelCosts costs;
  double clockGHz = 0;
  double shareBytesPerCycle = 0; ///< one CTA's share of DRAM bandwidth
  double loadBytes = 0;          ///< DRAM bytes of one K-slice of one CTA (average)
  double l2SliceBytes = 0;       ///< L2 -> shared memory bytes of one K-slice of one CTA
  double l2BytesPerCycle = 0;    ///< one CTA's share of its SM's L2 bandwidth
  double l2Cycles = 0;           ///< l2SliceBytes / l2BytesPerCycle, part of t_issue
  double epilogueBytes = 0;      ///< C and D bytes of one tile of one CTA (average)
  double loadLatency = 0, epilogueLatency = 0;
};
ProblemCosts problemCosts(const ProblemLayout &layout, const ModelCosts &tableCosts,
                          const CostBreakdown &breakdown, double clockGHz);

/// The predicted time and its terms.
struct Prediction {
  // The busiest CTA, in cycles.
  double ctaCycles = 0;    ///< its whole run
  double mmaCycles = 0;    ///< of which the tensor core is busy
  double fillCycles = 0;   ///< until its first MMA starts
  double tileCycles = 0;   ///< one tile in steady state (or the one tile)
  double fixupCycles = 0;  ///< stream-K partial tiles
  bool extrapolated = false; ///< a long run extrapolated from a simulated prefix
  // Seconds.
  double launch = 0, cta = 0, dram = 0;
  double ideal = 0;        ///< 2 M N K over every SM's tensor rate: the floor
  double waveLoss = 0;     ///< busiest CTA's MMA time - ideal: partial tiles and idle SMs
  double pipelineLoss = 0; ///< busiest CTA's time - its MMA time: fill, loads, epilogues
  double memoryExcess = 0; ///< max(0, dram - cta)
  /// The busiest CTA's run beyond the first 2 ms at the power-limited clock (ProblemModel.cpp):
  /// the time that adds, part of cta.
  double sustainedClockLoss = 0;
  double seconds = 0;      ///< launch + max(cta, dram)
  double tflops = 0;       ///< 2 M N K / seconds / 1e12
  const char *binding = "compute"; ///< "compute" (the busiest CTA) or "dram"
  const char *dominant = "mma";    ///< the largest term: launch, mma, waves, pipeline, dram, clock
};

/// Runs the busiest CTA through the recurrences with `costs` and combines the terms.
/// `flopsPerCycle` is one SM's tensor rate (CostBreakdown::flopsPerCycle).
Prediction predictProblem(const ProblemLayout &layout, const ProblemCosts &costs, int stages,
                          int accumulators, double flopsPerCycle);

/// The fixed time of one launch as tilegen-run times it (ProblemModel.cpp says where it comes
/// from).
double launchOverheadSeconds();

/// A stream-K split's K-slices run at this fraction of the steady state's rate (fitted), and
/// a partial tile is stored in f32 (bytes per element): what a dispatch table's slice terms
/// carry to tilegen-run's scaled rule.
double streamKSplitEfficiency();
double partialTileElemBytes();

} // namespace tilegen

#endif // TILEGEN_ANALYSIS_PROBLEMMODEL_H
