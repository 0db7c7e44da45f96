//===- ProblemModel.cpp - predicted time of a GEMM of one problem size ----===//
//
// ProblemModel.h says what each term is. The constants below are the model's own; the GPU's
// (SMs, clocks, tensor rate, DRAM bandwidth, L2, shared memory, warps) come from the target
// table and the per-slice latencies from PipelineCosts.cpp.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Analysis/ProblemModel.h"
#include "tilegen/Support/L2Lines.h"
#include "tilegen/Support/StreamKTail.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace tilegen;

//===----------------------------------------------------------------------===//
// Constants, each with its source.
//===----------------------------------------------------------------------===//

// The fixed cost of one launch as tilegen-run times it (CUDA events around the launch alone,
// after an L2 flush): calibrated once, from one measurement. The default example
// (examples/gemm_bf16.mlir, sm_90a) at M = 1, N = 8, K = 8 ran 0.00629 ms (median of 50, the
// run of 2026-11-29, commit 76855dd, bench/results-2026-11-29-final-sweep.csv); the model
// predicts its one tile of one K-slice at 1.05 us (first load, one slice of MMAs, the
// epilogue: 1924 cycles at 1.83 GHz), which leaves 5.24 us for launching, starting the CTA
// and retiring it. It is the only constant fitted to a measurement; bench/model_error.py
// leaves that row out of the model's error.
static constexpr double kLaunchSeconds = 5.24e-6;

// Shared memory the CUDA runtime reserves per resident block (CUDA C++ Programming Guide,
// compute capabilities: "1 KB of shared memory is reserved for system use" per block, cc 8.0
// and later).
static constexpr int64_t kReservedSmemPerBlock = 1024;

// Model evaluation limits (not physics): runs of at most kExactSlices slices are simulated
// slice by slice; longer ones from a prefix of kPrefixTiles tiles x kPrefixSlices slices, at
// the steady-state rate beyond it. The memory estimate counts at most kWavesCounted waves and
// scales their bytes to the rest.
static constexpr uint64_t kExactSlices = uint64_t(1) << 20;
static constexpr uint64_t kPrefixTiles = 8;
static constexpr uint64_t kPrefixSlices = 4096;
static constexpr uint64_t kWavesCounted = 100000;

// Bytes per cycle one SM can take from L2 into shared memory. An estimate, not a measurement:
// the value at which the H200's 128 x 256 tiles (48 KB a K-slice for 1024 cycles of MMAs) stay
// compute-bound, as measured, and 64 x 64 tiles (16 KB for 128 cycles) are limited by L2, as
// narrow tiles are; bench/model_error.py reports the model's error with it.
static constexpr double kL2BytesPerCyclePerSM = 64.0;

// wgmma issue efficiency: the share of the target's tensor rate the sm_90a kernels reach, as
// factors fitted to the 385 candidate timings of the 77-shape BF16 sweep on the H200
// (bench/RESULTS.md, 2026-11-30, bench/results-2026-11-30-dispatch-8da1098-candidates.csv):
// the median of measured / predicted time per kernel class, without these factors, was 1.10 for
// 128 x 256 tiles with two consumer warpgroups, 1.13 for N = 192, 1.25 for N = 128, about 1.45
// for 64-row tiles (one consumer); the CTA pair (cluster [2, 1, 1]) below. Not physics: the
// causes (wgmma issue and shared-memory operand reads for narrow N, a single dependent
// accumulator chain with one warpgroup, the pair's cross-CTA slot release) are not modelled one
// by one.
static constexpr double kWgmmaBase = 0.91;
static constexpr double kWgmmaN192 = 0.97, kWgmmaN128 = 0.88, kWgmmaN64 = 0.80;
static constexpr double kWgmmaOneIssuer = 0.90;
// The CTA pair: tiles of at least 128 x 128 from the same sweep's candidates that differ only
// in the cluster (median time with / without: 1.03); smaller tiles (64 rows or 64 columns)
// fitted as the others (1.2). Pairs along N and 2 x 2 clusters take the same factors, not fitted
// to their own times: with the cap on clusters of 4 (NVTarget) the 128 x 192 2 x 2 kernel's
// prediction came within 8% of an H100's times at eight shapes (bench/RESULTS.md, 2026-12-07).
static constexpr double kWgmmaPair = 0.97, kWgmmaPairSmallTile = 0.82;

// Stream-K with a split K (fewer tiles than CTAs): the split runs' median measured / predicted
// time in the same sweep was 1.5 (the fix-up's partial tiles, the split's shorter K loops and
// the flag waits cost more than the model's fix-up term): fitted the same way, as a factor on
// the MMA time of the split.
static constexpr double kStreamKSplit = 0.67;

// Promoted FP8 accumulation: the share of the MMA time one promotion per K-slice costs (the
// consumers' register additions and the wait for the slice's wgmmas), from the H200 runs of
// 2026-11-30 (bench/RESULTS.md): the per-tensor promoted 128 x 128 kernel promoting every
// 128-deep slice ran 1250 / 1227 TFLOP/s at 4096^3 / 8192^3 against 1365 / 1415 promoting every
// 512 (four slices), a ratio of 0.89, which 1 - c against 1 - c / 4 gives for c = 0.14. Block
// scales promote once per scale block the same way. A fitted share, not a count of cycles.
static constexpr double kPromotionCost = 0.14;

// Ping-pong (two consumer warpgroups, one tile each) with block scales: the 27 such candidate
// timings of the block-scaled FP8 sweep on the H200 (bench/RESULTS.md, 2026-12-05,
// bench/results-2026-12-05-fp8-blockscaled-candidates-711dc3d.csv; tiles 64 x 128..192 and
// 128 x 64) ran a median 1.48x the model's time without this factor, the cooperative tiles of
// the same sweep 1.04x; per-tensor promoted ping-pong (2026-12-01) stays within 10%. Fitted as
// the others; the cause has not been measured (no profile of these kernels yet).
static constexpr double kBlockScaledPingPong = 0.70;

static double wgmmaEfficiency(const GemmPlan &p, int64_t clusterSize) {
  double e = kWgmmaBase;
  if (p.promotes) {
    int64_t every = p.blockScales ? p.scaleBlockK : p.promotion ? p.promotion : p.tileK;
    e *= 1.0 - kPromotionCost * static_cast<double>(p.tileK) /
                   static_cast<double>(std::max<int64_t>(every, p.tileK));
  }
  e *= p.tileN >= 256 ? 1.0 : p.tileN >= 192 ? kWgmmaN192 : p.tileN >= 128 ? kWgmmaN128 : kWgmmaN64;
  if (p.accumulators == 1 && p.warpsM == 1) // a cooperative tile of one consumer warpgroup
    e *= kWgmmaOneIssuer;
  if (p.blockScales && p.accumulators == 2)
    e *= kBlockScaledPingPong;
  if (clusterSize >= 2)
    e *= p.tileM >= 128 && p.tileN >= 128 ? kWgmmaPair : kWgmmaPairSmallTile;
  return e;
}

// Rows of A and B off the 128-byte L2 lines (l2LineFactor, tilegen/Support/L2Lines.h): on the
// H200 a K = 5000 bf16 operand (pitch 10000 bytes, 16 mod 128) runs 128 x 256 tiles 1.37x
// slower than K = 5056 (pitch a multiple of 128), and CTA pairs sharing B through multicast
// (fewer box rows per CTA) 1.03x (bench/RESULTS.md, 2026-12-01).
static double lineFactor(uint64_t pitchBytes, int64_t spanBytes) {
  return spanBytes <= 0 ? 1.0 : l2LineFactor(pitchBytes, static_cast<uint64_t>(spanBytes));
}

// The share of the target's DRAM bandwidth a GEMM reaches, as this model uses it (each CTA's
// share in t_load and t_epi, and the DRAM time that bounds the run). The H200's rated 4.8 TB/s
// is the HBM3e pins' rate; a matrix streamed once under the flushed L2 of tilegen-run's timing
// reaches less, and the model's max(CTA time, DRAM time) counts no cost for the two not
// overlapping. Two sources agree: cuBLAS at M = 64 (B, N x K bf16, read once; the MMAs a few
// microseconds) in the dispatch sweeps of 2026-11-30 and 2026-12-01
// (bench/results-2026-11-30-dispatch-8da1098-candidates.csv and ...-12-01-dispatch-38c609e-...,
// cublas_ms_median less the 5.24 us launch) ran 2.4 to 3.7 TB/s over the six N x K, median
// 3.0 (0.62 of 4.8); and the share that scores those two sweeps' 780 candidate timings best
// (bench/candidates_table.py, bench/dispatch_model_error.py) is flat from 0.55 to 0.66. The
// table timed on 2026-12-01 at 77d1d77 (bench/results-2026-12-01-dispatch-77d1d77-candidates.csv),
// held out of both, scores best at 0.55. Measured on the H200 only; applied to every target.
static constexpr double kDramEfficiency = 0.6;

// Sustained tensor load: the H200 holds its rated clock for the first milliseconds of a GEMM,
// then its power limit lowers the clock. cuBLAS in the same two sweeps ran 790 to 830 TFLOP/s
// on every shape of 0.7 to 2.8 ms and 700 to 720 on the two longer ones (8192 x 8192 x 28672,
// 5.4 ms; 8192 x 57344 x 8192, 11 ms); a clock of 0.83 of the rated one after the first 2 ms
// gives both (0.87 and 0.86 of the shorter runs' rate). Applied to the busiest CTA's run.
static constexpr double kPowerWindowSeconds = 2e-3;
static constexpr double kSustainedClock = 0.83;

// Bytes of one f32 accumulator element (stream-K partial tiles are f32).
static constexpr double kPartialElemBytes = 4;

double tilegen::launchOverheadSeconds() { return kLaunchSeconds; }
double tilegen::streamKSplitEfficiency() { return kStreamKSplit; }
double tilegen::partialTileElemBytes() { return kPartialElemBytes; }

//===----------------------------------------------------------------------===//
// Input
//===----------------------------------------------------------------------===//

llvm::Expected<int64_t> tilegen::parseProblemDim(llvm::StringRef flag, llvm::StringRef text) {
  auto err = [&](const llvm::Twine &why) {
    // The text as written, with bytes that are not printable ASCII escaped (\xx).
    std::string shown;
    llvm::raw_string_ostream os(shown);
    llvm::printEscapedString(text, os);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--" + flag + " '" + shown + "': " + why);
  };
  llvm::StringRef digits = text;
  bool negative = digits.consume_front("-");
  llvm::APInt value;
  if (digits.empty() || !llvm::all_of(digits, llvm::isDigit) ||
      digits.getAsInteger(10, value))
    return err("not a whole number (expected 1 to " + llvm::Twine(kMaxProblemDim) + ")");
  if (negative && !value.isZero())
    return err("negative; a matrix dimension is at least 1");
  if (value.isZero())
    return err("zero; a matrix dimension is at least 1");
  if (value.getActiveBits() > 31)
    return err("above 2^31 - 1 = " + llvm::Twine(kMaxProblemDim) +
               " (the kernel takes M, N and K as 32-bit integers)");
  return static_cast<int64_t>(value.getZExtValue());
}

//===----------------------------------------------------------------------===//
// Layout: tiles, grid, residency, waves, memory
//===----------------------------------------------------------------------===//

static uint64_t ceilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

namespace {
struct Panels {
  uint64_t major = 0, minor = 0;
};
} // namespace

/// The distinct tile indices along the raster's major axis (grouped `swizzle` at a time) and
/// along its minor axis among tiles [first, first + count) of the raster order, as
/// Common.cpp's rasterTile numbers them.
static Panels panelsTouched(uint64_t first, uint64_t count, uint64_t major, uint64_t minor,
                            uint64_t swizzle) {
  const uint64_t g = std::min(major, swizzle);
  const uint64_t perGroup = minor * g;
  const uint64_t last = first + count - 1;
  const uint64_t g0 = first / perGroup, g1 = last / perGroup;
  Panels p;
  uint64_t lo0 = 0, hi1 = 0; // minor interval of the first group starts at lo0; last ends at hi1
  for (uint64_t gi = g0; gi <= g1; ++gi) {
    const uint64_t base = gi * perGroup;
    const uint64_t inGroup = std::min(major - gi * g, g);
    const uint64_t s = std::max(first, base) - base;
    const uint64_t e = std::min(last + 1, base + perGroup) - base; // [s, e) within the group
    p.major += std::min(inGroup, e - s);
    if (gi == g0)
      lo0 = s / inGroup;
    if (gi == g1)
      hi1 = (e - 1) / inGroup;
  }
  if (g0 == g1)
    p.minor = hi1 - lo0 + 1;
  else if (g1 - g0 >= 2)
    p.minor = minor;
  else // two groups: [lo0, minor - 1] and [0, hi1]
    p.minor = hi1 + 1 >= lo0 ? minor : (minor - lo0) + (hi1 + 1);
  return p;
}

ProblemLayout tilegen::layoutProblem(tile::GemmOp op, const GemmPlan &p, ProblemSize size,
                                     int64_t stages) {
  const NVTargetInfo &info = p.target.info();
  ProblemLayout l;
  l.size = size;
  const double m = static_cast<double>(size.m), n = static_cast<double>(size.n),
               k = static_cast<double>(size.k);
  l.flops = 2.0 * m * n * k;
  l.beta = op.getBeta().convertToDouble();
  l.tileM = p.tileM, l.tileN = p.tileN, l.tileK = p.tileK;
  l.ctaGroup = static_cast<int64_t>(op.getCtaGroup());
  l.clusterSize = 1;
  for (int64_t d : op.getCluster())
    l.clusterSize *= d;
  l.clusterM = op.getCluster()[0], l.clusterN = op.getCluster()[1];
  l.mmaEfficiency = p.family == MmaFamily::Wgmma ? wgmmaEfficiency(p, l.clusterSize) : 1.0;

  // Tiles.
  l.tilesM = ceilDiv(size.m, p.tileM);
  l.tilesN = ceilDiv(size.n, p.tileN);
  l.tiles = l.tilesM * l.tilesN; // < 2^62: each factor < 2^31
  l.partialM = size.m % p.tileM != 0;
  l.partialN = size.n % p.tileN != 0;
  l.kSlices = static_cast<int64_t>(ceilDiv(size.k, p.tileK));
  l.paddedFlops = 2.0 * static_cast<double>(l.tiles) * p.tileM * p.tileN *
                  static_cast<double>(l.kSlices) * p.tileK;

  // Residency.
  l.smCount = info.smCount;
  l.smemPerCta = p.smemFor(stages);
  l.residentBySmem = info.smemPerSM / (l.smemPerCta + kReservedSmemPerBlock);
  l.residentByThreads = p.threads > 0 ? info.residentWarps * 32 / p.threads : 0;
  l.resident = std::min(l.residentBySmem, l.residentByThreads);
  l.residentLimit = l.residentBySmem <= l.residentByThreads ? "shared memory" : "threads";

  // Grid, as tilegen-run sizes it (tools/tilegen-run/Manifest.cpp, gridSize): the manifest's
  // tiles are one CTA's rows (tileM / cta_group) by tileN; ctas_per_sm is 1.
  const uint64_t cl = static_cast<uint64_t>(l.clusterSize);
  const uint64_t ctaTiles = ceilDiv(size.m, p.tileM / l.ctaGroup) * l.tilesN;
  l.grid = op.getGrid();
  // Clusters of 4 fit fewer CTAs at once than there are SMs (NVTarget's quadClusterCtas); the
  // launcher caps a persistent grid of clusters there.
  l.quadClusterCtas = cl == 4 ? info.quadClusterCtas : 0;
  const uint64_t clusterCap = cl == 4 && info.quadClusterCtas
                                  ? uint64_t(info.quadClusterCtas)
                                  : uint64_t(info.smCount) / cl * cl;
  switch (l.grid) {
  case tile::Grid::Tiles:
    l.gridCtas = ceilDiv(ctaTiles, cl) * cl;
    break;
  case tile::Grid::Persistent:
    l.gridCtas = std::max(std::min<uint64_t>(std::min<uint64_t>(ctaTiles, info.smCount) / cl * cl,
                                             clusterCap),
                          cl);
    break;
  case tile::Grid::StreamK:
    l.gridCtas = std::max<uint64_t>(std::min<uint64_t>(info.smCount / cl * cl, clusterCap), cl);
    break;
  }
  const uint64_t group = static_cast<uint64_t>(l.ctaGroup);
  const uint64_t slots = std::max<uint64_t>(
      std::min<uint64_t>(uint64_t(info.smCount) * std::max<int64_t>(l.resident, 1) / cl * cl,
                         clusterCap * std::max<int64_t>(l.resident, 1)),
      cl);
  l.concurrentCtas = std::min(l.gridCtas, slots);
  l.waveTiles = std::max<uint64_t>(l.concurrentCtas / group, 1);

  // Waves and the busiest CTA.
  auto rounds = [&](uint64_t perWave) {
    l.waveTiles = perWave;
    l.waves = ceilDiv(l.tiles, perWave);
    l.lastWaveTiles = l.tiles - (l.waves - 1) * perWave;
    l.lastWaveFill = static_cast<double>(l.lastWaveTiles) / static_cast<double>(perWave);
  };
  if (l.grid == tile::Grid::StreamK) {
    // StreamK.cpp's split of the tail (tilegen/Support/StreamKTail.h).
    const uint64_t P = l.gridCtas;
    const StreamKTail tail = streamKTail(l.tiles, P, static_cast<uint64_t>(l.kSlices));
    if (tail.split) {
      const uint64_t dp = tail.wholeTiles, spread = tail.ctas;
      l.streamKSplit = true;
      l.wholeTiles = dp;
      l.splitCtas = spread;
      l.splitSlices = static_cast<int64_t>(tail.sliceShare);
      l.splitWays = static_cast<int64_t>(tail.ways);
      l.partialBytes = static_cast<double>(p.tileM / l.ctaGroup) * p.tileN * kPartialElemBytes;
      if (dp == 0)
        l.concurrentCtas = spread;
      l.waveTiles = dp == 0 ? l.tiles : P;
      l.waves = dp + 1;
      l.lastWaveTiles = spread; // CTAs at work
      l.lastWaveFill = static_cast<double>(spread) / static_cast<double>(P);
      l.busiestTiles = dp + 1;
    }
  }
  // A wgmma cluster (cluster [X, Y, 1], one CTA per tile: SM90.cpp) schedules units of X x Y
  // tiles: rank x + X y takes tile (X u + x, Y v + y), and a tile past M or N is zero-filled
  // and computed all the same. The grid is sized from the tiles (gridSize), so with fewer
  // tile rows than the cluster's (M = 64 on 64-row tiles: one row) there are more units than
  // clusters launched and every CTA runs ceil(units / clusters) tiles.
  const bool inUnits = l.clusterSize > 1 && l.ctaGroup == 1 && p.family == MmaFamily::Wgmma &&
                       l.grid != tile::Grid::StreamK;
  if (inUnits) {
    const uint64_t units = ceilDiv(l.tilesM, static_cast<uint64_t>(l.clusterM)) *
                           ceilDiv(l.tilesN, static_cast<uint64_t>(l.clusterN));
    l.clusterUnits = units;
    const uint64_t clusters = std::max<uint64_t>(l.concurrentCtas / cl, 1);
    l.waveTiles = l.concurrentCtas;
    l.waves = ceilDiv(units, clusters);
    l.lastWaveTiles = cl * (units - (l.waves - 1) * clusters);
    l.lastWaveFill = static_cast<double>(l.lastWaveTiles) / static_cast<double>(l.waveTiles);
    l.busiestTiles = l.waves;
  } else if (!l.streamKSplit) {
    rounds(l.waveTiles);
    if (l.grid == tile::Grid::Tiles && l.resident == 1) {
      l.freshCtaPerTile = true;
      l.busiestTiles = l.waves;
    } else if (l.grid == tile::Grid::Tiles) {
      // r resident CTAs take turns on one tensor core: one pipeline of r times the ring and
      // the accumulators (predictProblem) over the SM's share of the tiles.
      l.busiestTiles = ceilDiv(l.tiles * group, info.smCount);
    } else {
      l.busiestTiles = l.waves;
    }
  }

  // Memory.
  const double ea = static_cast<double>(sizeInBytes(1, op.getAType()));
  const double eb = static_cast<double>(sizeInBytes(1, op.getBType()));
  const double ec = static_cast<double>(sizeInBytes(1, op.getCType()));
  l.aBytes = m * k * ea;
  l.bBytes = k * n * eb;
  l.dWriteBytes = m * n * ec;
  l.cReadBytes = l.beta != 0 ? m * n * ec : 0;
  if (p.family != MmaFamily::MmaSync) { // TMA boxes; cp.async's 16-byte copies stay in a line
    // The contiguous dimension of each operand sets its row pitch.
    const uint64_t aInner = op.getALayout() == tile::Layout::Row ? size.k : size.m;
    const uint64_t bInner = op.getBLayout() == tile::Layout::Col ? size.k : size.n;
    const uint64_t aBits = static_cast<uint64_t>(elemBits(op.getAType()));
    const uint64_t bBits = static_cast<uint64_t>(elemBits(op.getBType()));
    l.aLineFactor = lineFactor(aInner * aBits / 8, p.swizzleBytes);
    l.bLineFactor = lineFactor(bInner * bBits / 8, p.swizzleBytes);
  }
  l.l2ToSmBytes = static_cast<double>(l.tilesN) * l.aBytes * l.aLineFactor +
                  static_cast<double>(l.tilesM) * l.bBytes * l.bLineFactor;
  l.l2Bytes = info.l2Bytes;
  l.operandsFitL2 = l.aBytes + l.bBytes <= static_cast<double>(info.l2Bytes);
  const bool rowRaster = op.getRaster() == tile::Raster::Row;
  const uint64_t major = rowRaster ? l.tilesM : l.tilesN, minor = rowRaster ? l.tilesN : l.tilesM;
  {
    const uint64_t W = l.waveTiles;
    const uint64_t nWaves = ceilDiv(l.tiles, W);
    const uint64_t counted = std::min(nWaves, kWavesCounted);
    double aPanels = 0, bPanels = 0;
    for (uint64_t w = 0; w < counted; ++w) {
      const uint64_t first = w * W;
      Panels t = panelsTouched(first, std::min(W, l.tiles - first), major, minor, op.getSwizzle());
      aPanels += static_cast<double>(rowRaster ? t.major : t.minor);
      bPanels += static_cast<double>(rowRaster ? t.minor : t.major);
    }
    l.wavesSampled = counted < nWaves;
    l.aPanelsPerWave = aPanels / static_cast<double>(counted);
    l.bPanelsPerWave = bPanels / static_cast<double>(counted);
    const double scale = static_cast<double>(nWaves) / static_cast<double>(counted);
    const double perWaveSum = scale * (aPanels * l.aBytes / static_cast<double>(l.tilesM) +
                                       bPanels * l.bBytes / static_cast<double>(l.tilesN));
    l.dramOperandBytes =
        l.operandsFitL2 ? l.aBytes + l.bBytes
                        : std::clamp(perWaveSum, l.aBytes + l.bBytes, l.l2ToSmBytes);
  }
  l.dramBytes = l.dramOperandBytes + l.cReadBytes + l.dWriteBytes;
  l.dramEfficiency = kDramEfficiency;
  l.dramBytesPerSecond =
      kDramEfficiency * info.dramBytesPerCyclePerSM * info.smCount * info.clockGHz * 1e9;
  return l;
}

//===----------------------------------------------------------------------===//
// Costs
//===----------------------------------------------------------------------===//

ProblemCosts tilegen::problemCosts(const ProblemLayout &l, const ModelCosts &table,
                                   const CostBreakdown &b, double clockGHz) {
  ProblemCosts c;
  c.clockGHz = clockGHz;
  c.shareBytesPerCycle = l.dramBytesPerSecond / static_cast<double>(l.concurrentCtas) /
                         (clockGHz * 1e9);
  const double ctaTiles = static_cast<double>(l.tiles) * static_cast<double>(l.ctaGroup);
  c.loadBytes = l.dramOperandBytes / (ctaTiles * static_cast<double>(l.kSlices));
  c.epilogueBytes = (l.cReadBytes + l.dWriteBytes) / ctaTiles;
  c.loadLatency = b.loadLatency;
  c.epilogueLatency = b.epilogueLatency;
  c.costs.mma = table.mma /
                (l.mmaEfficiency * (l.streamKSplit && l.wholeTiles == 0 ? kStreamKSplit : 1.0));
  c.costs.issue = table.issue;
  // L2 -> shared memory: a multicast operand is read from L2 once for the CTAs that share it
  // (B along the cluster's M extent, A along its N extent).
  const bool multicast = l.clusterSize > 1 && l.ctaGroup == 1;
  const double sharedB = multicast ? 1.0 - 1.0 / static_cast<double>(l.clusterM) : 0.0;
  const double sharedA = multicast ? 1.0 - 1.0 / static_cast<double>(l.clusterN) : 0.0;
  const double l2Bytes =
      l.l2ToSmBytes - static_cast<double>(l.tilesM) * l.bBytes * l.bLineFactor * sharedB -
      static_cast<double>(l.tilesN) * l.aBytes * l.aLineFactor * sharedA;
  c.l2SliceBytes = l2Bytes / (ctaTiles * static_cast<double>(l.kSlices));
  c.l2BytesPerCycle = kL2BytesPerCyclePerSM / static_cast<double>(std::max<int64_t>(1, l.resident));
  const double dramCycles = c.loadBytes / c.shareBytesPerCycle;
  const double l2Cycles = c.l2SliceBytes / c.l2BytesPerCycle;
  c.l2Cycles = l2Cycles;
  c.costs.load = b.loadLatency + dramCycles;
  // The SM's L2 port is a throughput limit, not a latency: slices cross it one after another,
  // like the copies' issue, so the transfer adds to t_issue (the steady state takes
  // max(S t_mma, S t_issue, t_load + t_mma) over S stages: PipelineModel.h).
  c.costs.issue = table.issue + l2Cycles;
  c.costs.epilogue = b.epilogueLatency + c.epilogueBytes / c.shareBytesPerCycle;
  return c;
}

//===----------------------------------------------------------------------===//
// Prediction
//===----------------------------------------------------------------------===//

namespace {
struct Run {
  double total = 0, fill = 0, perTile = 0;
  bool extrapolated = false;
};
} // namespace

static ModelSchedule simulate(uint64_t tiles, uint64_t slices, int stages, int accumulators,
                              const ModelCosts &c) {
  ModelShape shape;
  shape.stages = stages;
  shape.accumulators = accumulators;
  shape.tiles = static_cast<int>(tiles);
  shape.kSlices = static_cast<int>(slices);
  return simulatePipeline(shape, c);
}

/// One CTA over `tiles` tiles of `slices` K-slices each.
static Run runCycles(uint64_t tiles, uint64_t slices, int stages, int accumulators,
                     const ModelCosts &c) {
  Run r;
  if (tiles <= kExactSlices && slices <= kExactSlices && tiles * slices <= kExactSlices) {
    ModelSchedule s = simulate(tiles, slices, stages, accumulators, c);
    r.total = s.run;
    r.fill = s.mmaStart.front();
    const auto &e = s.epilogueDone;
    r.perTile = e.size() >= 2 ? e[e.size() - 1] - e[e.size() - 2] : s.run;
    return r;
  }
  // A prefix, then the steady state: the last tiles of the prefix give the time per tile
  // (averaged over several, as the accumulators make it periodic), and slices beyond the
  // prefix's run at the steady-state period / S each.
  r.extrapolated = true;
  const uint64_t tc = std::min(tiles, kPrefixTiles), kc = std::min(slices, kPrefixSlices);
  ModelSchedule s = simulate(tc, kc, stages, accumulators, c);
  r.fill = s.mmaStart.front();
  const auto &e = s.epilogueDone;
  const double perSlice = steadyStatePeriod(stages, c).period / stages;
  const double moreSlices = static_cast<double>(slices - kc) * perSlice;
  double perTile = s.run;
  if (tc >= 2) {
    const uint64_t d = tc / 2;
    perTile = (e[tc - 1] - e[tc - 1 - d]) / static_cast<double>(d);
  }
  r.perTile = perTile + moreSlices;
  r.total = s.run + static_cast<double>(tiles - tc) * perTile +
            static_cast<double>(tiles) * moreSlices;
  return r;
}

Prediction tilegen::predictProblem(const ProblemLayout &l, const ProblemCosts &pc, int stages,
                                   int accumulators, double flopsPerCycle) {
  Prediction out;
  const ModelCosts &c = pc.costs;
  const double hz = pc.clockGHz * 1e9;
  int S = stages, A = accumulators;
  if (l.grid == tile::Grid::Tiles && l.resident > 1) {
    S = static_cast<int>(std::min<int64_t>(int64_t(stages) * l.resident, kMaxModelCount));
    A = static_cast<int>(std::min<int64_t>(int64_t(accumulators) * l.resident, kMaxModelCount));
  }
  if (l.streamKSplit && l.wholeTiles > 0) {
    // Whole tiles, then the split tail: its slices at the steady-state time per slice, slowed
    // by the split's fitted factor, and the fix-up, whose partial tiles were just written and
    // come from L2 (the split-only case below charges DRAM: there the factor was fitted with it).
    Run r = runCycles(l.wholeTiles, static_cast<uint64_t>(l.kSlices), S, A, c);
    out.fixupCycles = static_cast<double>(l.splitWays) *
                      (pc.loadLatency + l.partialBytes / pc.l2BytesPerCycle);
    const double tail = r.perTile * static_cast<double>(l.splitSlices) /
                        static_cast<double>(l.kSlices) / kStreamKSplit;
    out.ctaCycles = r.total + tail + out.fixupCycles;
    out.fillCycles = r.fill;
    out.tileCycles = r.perTile;
    out.extrapolated = r.extrapolated;
    out.mmaCycles = (static_cast<double>(l.wholeTiles) * static_cast<double>(l.kSlices) +
                     static_cast<double>(l.splitSlices)) *
                    c.mma;
  } else if (l.streamKSplit) {
    Run r = runCycles(1, static_cast<uint64_t>(l.splitSlices), S, A, c);
    // The CTA that finishes a tile waits for its peers' partial tiles (written while it
    // works) and adds them: one store and splitWays - 1 loads of an f32 tile, each over this
    // CTA's share of the rated DRAM bandwidth, not kDramEfficiency's: kStreamKSplit's fit
    // counted this term at the rated bandwidth.
    out.fixupCycles = static_cast<double>(l.splitWays) *
                      (pc.loadLatency +
                       l.partialBytes / (pc.shareBytesPerCycle / l.dramEfficiency));
    out.ctaCycles = r.total + out.fixupCycles;
    out.fillCycles = r.fill;
    out.tileCycles = r.total;
    out.extrapolated = r.extrapolated;
    out.mmaCycles = static_cast<double>(l.splitSlices) * c.mma;
  } else if (l.freshCtaPerTile) {
    Run r = runCycles(1, static_cast<uint64_t>(l.kSlices), S, A, c);
    out.ctaCycles = static_cast<double>(l.busiestTiles) * r.total;
    out.fillCycles = r.fill;
    out.tileCycles = r.total;
    out.extrapolated = r.extrapolated;
    out.mmaCycles = static_cast<double>(l.busiestTiles) * static_cast<double>(l.kSlices) * c.mma;
  } else {
    Run r = runCycles(l.busiestTiles, static_cast<uint64_t>(l.kSlices), S, A, c);
    out.ctaCycles = r.total;
    out.fillCycles = r.fill;
    out.tileCycles = r.perTile;
    out.extrapolated = r.extrapolated;
    out.mmaCycles = static_cast<double>(l.busiestTiles) * static_cast<double>(l.kSlices) * c.mma;
  }
  out.launch = kLaunchSeconds;
  out.cta = out.ctaCycles / hz;
  if (out.cta > kPowerWindowSeconds) {
    out.sustainedClockLoss = (out.cta - kPowerWindowSeconds) * (1.0 / kSustainedClock - 1.0);
    out.cta += out.sustainedClockLoss;
  }
  out.dram = l.dramBytes / l.dramBytesPerSecond;
  out.binding = out.dram > out.cta ? "dram" : "compute";
  out.seconds = out.launch + std::max(out.cta, out.dram);
  out.tflops = l.flops / out.seconds / 1e12;
  out.ideal = l.flops / (static_cast<double>(l.smCount) * flopsPerCycle * l.mmaEfficiency * hz);
  out.waveLoss = std::max(0.0, out.mmaCycles / hz - out.ideal);
  out.pipelineLoss = std::max(0.0, out.cta - out.sustainedClockLoss - out.mmaCycles / hz);
  out.memoryExcess = std::max(0.0, out.dram - out.cta);
  struct Term {
    const char *name;
    double value;
  } terms[] = {{"mma", out.ideal},
               {"waves", out.waveLoss},
               {"pipeline", out.pipelineLoss},
               {"dram", out.memoryExcess},
               {"clock", out.sustainedClockLoss},
               {"launch", out.launch}};
  const Term *top = &terms[0];
  for (const Term &t : terms)
    if (t.value > top->value)
      top = &t;
  out.dominant = top->name;
  return out;
}
