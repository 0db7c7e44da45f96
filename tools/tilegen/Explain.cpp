//===- Explain.cpp - tilegen explain: the pipeline model of a description --===//
//
//   tilegen explain desc.mlir --target=sm_90a [--svg out.svg]
//   tilegen explain desc.mlir --target=sm_100a --stages=3 --accumulators=1 --json
//   tilegen explain --costs load=12,mma=4,epilogue=8,issue=1 --tiles=3 --k-slices=6 --json
//   tilegen explain desc.mlir --target=sm_90a --m 4096 --n 4096 --k 4096 [--json]
//
// Evaluates the seed's max-plus recurrences (lib/Analysis/PipelineModel) for a description on a
// target, with costs from the target table (lib/Analysis/PipelineCosts) or given by --costs,
// and reports the shared-memory and TMEM budget, the steady-state period and what binds it,
// the tensor core's busy share, the fewest stages that feed it and a timeline. With a problem
// size (--m, --n, --k) it predicts the kernel's time and TFLOP/s for it
// (lib/Analysis/ProblemModel): tiles, grid, waves, the busiest CTA's run, DRAM traffic.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Analysis/PipelineCosts.h"
#include "tilegen/Analysis/PipelineModel.h"
#include "tilegen/Analysis/ProblemModel.h"
#include "tilegen/Analysis/Timeline.h"
#include "tilegen/Codegen/Input.h"
#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/InitAll.h"
#include "tilegen/Pipeline/GemmPlan.h"
#include "tilegen/Support/DecimalOption.h"
#include "tilegen/Target/NVTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "tilegen/Support/InputFiles.h"
#include "tilegen/Support/ShapeLists.h"
#include "tilegen/Support/OutputErrors.h"
#include "llvm/Support/WithColor.h"

#include <optional>

using namespace mlir;
using namespace tilegen;
namespace cl = llvm::cl;

namespace tilegen {
int explainMain(int argc, char **argv);
int rejectDriverOptions(llvm::StringRef subcommand); // tilegen.cpp
} // namespace tilegen

// The options live in their own subcommand, so that `--target` and the positional input do not
// collide with the compiler driver's options of the same names.
static cl::SubCommand explainCommand(
    "explain", "evaluate the pipeline model of a description (tilegen explain --help)");
static cl::OptionCategory explainCategory("tilegen explain options");
static cl::opt<std::string> descFile(cl::Positional, cl::desc("[<description.mlir>]"),
                                     cl::init(""), cl::sub(explainCommand),
                                     cl::cat(explainCategory));
static cl::opt<std::string>
    explainTarget("target",
                  cl::desc("target the description is resolved for (default: its own target "
                           "field)"),
                  cl::init(""), cl::sub(explainCommand), cl::cat(explainCategory));
static cl::opt<std::string> costsOption(
    "costs",
    cl::desc("costs of one K-slice, overriding the target table's: "
             "load=L,mma=M,epilogue=E,issue=I (any subset with a description, all four "
             "without)"),
    cl::init(""), cl::sub(explainCommand), cl::cat(explainCategory));
static cl::opt<int, false, tilegen::DecimalParser<int>> tilesOption(
    "tiles",
    cl::desc("output tiles one CTA computes (default 3; with --m/--n/--k, the busiest CTA's)"),
    cl::init(3), cl::sub(explainCommand), cl::cat(explainCategory));
static cl::opt<int, false, tilegen::DecimalParser<int>> kSlicesOption(
    "k-slices",
    cl::desc("K-slices per tile (default: K = 4096 over the tile's K with a description, 6 "
             "without; with --m/--n/--k, K over the tile's K)"),
    cl::init(0), cl::sub(explainCommand), cl::cat(explainCategory));
static cl::opt<int, false, tilegen::DecimalParser<int>> stagesOption("stages",
                                 cl::desc("ring stages (overrides the description's)"),
                                 cl::init(0), cl::sub(explainCommand),
                                 cl::cat(explainCategory));
static cl::opt<int, false, tilegen::DecimalParser<int>>
    accumulatorsOption("accumulators",
                       cl::desc("accumulator buffers (overrides the description's)"),
                       cl::init(0), cl::sub(explainCommand), cl::cat(explainCategory));
static cl::opt<bool> jsonOption("json", cl::desc("print one JSON object instead of text"),
                                cl::init(false), cl::sub(explainCommand),
                                cl::cat(explainCategory));
static cl::opt<bool>
    jsonScheduleOption("json-schedule",
                       cl::desc("with --json, add the whole schedule (L, M, D per slice, E "
                                "per tile)"),
                       cl::init(false), cl::sub(explainCommand), cl::cat(explainCategory));
static cl::opt<std::string> svgOption("svg",
                                      cl::desc("also draw the timeline as SVG into this file"),
                                      cl::value_desc("file"), cl::init(""),
                                      cl::sub(explainCommand), cl::cat(explainCategory));
static cl::opt<int, false, tilegen::DecimalParser<int>> timelineTilesOption("timeline-tiles",
                                        cl::desc("tiles the timelines show (default 3)"),
                                        cl::init(3), cl::sub(explainCommand),
                                        cl::cat(explainCategory));
static cl::opt<std::string> mOption("m",
                                    cl::desc("problem size: rows of A and D (1 to 2^31 - 1); with "
                                             "--n and --k, predict the kernel's time"),
                                    cl::value_desc("M"), cl::init(""), cl::sub(explainCommand),
                                    cl::cat(explainCategory));
static cl::opt<std::string> nOption("n", cl::desc("problem size: columns of B and D"),
                                    cl::value_desc("N"), cl::init(""), cl::sub(explainCommand),
                                    cl::cat(explainCategory));
static cl::opt<std::string> kOption("k", cl::desc("problem size: the reduction dimension"),
                                    cl::value_desc("K"), cl::init(""), cl::sub(explainCommand),
                                    cl::cat(explainCategory));
static cl::opt<std::string> clockOption(
    "clock-ghz",
    cl::desc("with --m/--n/--k, the SM clock that turns cycles into time (default: the "
             "target's rated tensor clock, 1.83 on sm_90a)"),
    cl::value_desc("GHz"), cl::init(""), cl::sub(explainCommand), cl::cat(explainCategory));
static cl::opt<int, false, tilegen::DecimalParser<int>> widthOption("width",
                                cl::desc("columns of the text timeline (default 100)"),
                                cl::init(100), cl::sub(explainCommand),
                                cl::cat(explainCategory));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tilegen explain") << message << "\n";
  return 1;
}

namespace {
/// --costs as given: each field set only when named.
struct CostOverrides {
  std::optional<double> load, mma, epilogue, issue;
  bool any() const { return load || mma || epilogue || issue; }
};

/// Everything the report prints, whichever way the costs came.
struct Explained {
  // From a description (absent with --costs alone).
  std::optional<GemmPlan> plan;
  mutable tile::GemmOp op; // MLIR op handles are values; accessors are non-const
  CostBreakdown breakdown;
  int64_t stagesToFeedAuto = 0, stagesFit = 0;
  std::string stagesSource; ///< "auto", "description", "--stages" or "default" (no description)
  std::string target;       ///< may be empty
  llvm::SmallVector<std::string> overridden; ///< cost names --costs replaced
  std::string unit;                           ///< "cycles" or "units"
  ModelShape shape;
  ModelCosts costs;
  int kSlicesFromK = 0; ///< the K the default k-slices stand for (0: not defaulted)
  // With --m/--n/--k: the problem, its costs and the prediction. The model's shape (above) is
  // then the busiest CTA's run, or a window of it when the run is long (windowed).
  std::optional<ProblemLayout> problem;
  ProblemCosts problemCosts;
  Prediction prediction;
  bool windowed = false;
};
} // namespace

/// Parses `load=12,mma=4,...`; names the bad item on error.
static llvm::Expected<CostOverrides> parseCosts(llvm::StringRef text) {
  CostOverrides out;
  auto err = [](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
  };
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',');
  for (llvm::StringRef raw : items) {
    llvm::StringRef item = raw.trim();
    auto [name, value] = item.split('=');
    name = name.trim();
    value = value.trim();
    if (item.empty() || !item.contains('=') || name.empty() || value.empty())
      return err("--costs item '" + item +
                 "': expected NAME=VALUE with NAME one of load, mma, epilogue, issue");
    std::optional<double> *slot = name == "load"       ? &out.load
                                  : name == "mma"      ? &out.mma
                                  : name == "epilogue" ? &out.epilogue
                                  : name == "issue"    ? &out.issue
                                                       : nullptr;
    if (!slot)
      return err("--costs item '" + item + "': unknown cost '" + name +
                 "'; known: load, mma, epilogue, issue");
    if (*slot)
      return err("--costs item '" + item + "': " + name + " is given twice");
    double v;
    if (value.getAsDouble(v) || !std::isfinite(v))
      return err("--costs item '" + item + "': '" + value + "' is not a finite number");
    if (v < 0)
      return err("--costs item '" + item + "': " + name + " = " + value +
                 " is negative; costs are times, >= 0");
    if (name == "mma" && v == 0)
      return err("--costs item '" + item + "': mma must be > 0 (the tensor core's time per "
                                           "slice)");
    *slot = v;
  }
  return out;
}


static std::string num(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    return llvm::formatv("{0:F0}", v).str();
  if (std::fabs(v) >= 100)
    return llvm::formatv("{0:F0}", v).str();
  return llvm::formatv("{0:F2}", v).str();
}

static std::string percent(double share) {
  return llvm::formatv("{0:F1}%", 100.0 * share).str();
}

/// Decimal units for traffic (bandwidths are decimal GB/s): "805.3 MB", "4.2 GB", "512 B".
static std::string bytesText(double bytes) {
  if (bytes < 1e3)
    return llvm::formatv("{0:F0} B", bytes).str();
  const char *units[] = {"KB", "MB", "GB", "TB", "PB", "EB", "ZB"};
  int u = 0;
  double v = bytes / 1e3;
  while (v >= 1e3 && u < 6)
    v /= 1e3, ++u;
  return llvm::formatv("{0:F1} {1}", v, units[u]).str();
}

/// "1 tile", "4 tiles".
static std::string count(uint64_t n, llvm::StringRef noun) {
  return llvm::formatv("{0} {1}{2}", n, noun, n == 1 ? "" : "s").str();
}

static std::string flopText(double flops) {
  if (flops < 1e6)
    return llvm::formatv("{0:F0} flop", flops).str();
  if (flops < 1e12)
    return llvm::formatv("{0:F3} GFLOP", flops / 1e9).str();
  if (flops < 1e18)
    return llvm::formatv("{0:F3} TFLOP", flops / 1e12).str();
  return llvm::formatv("{0:E3} flop", flops).str();
}

static std::string mib(uint64_t bytes) {
  return llvm::formatv("{0} MiB", bytes / (1024 * 1024)).str();
}

static std::string timeText(double seconds) {
  if (seconds < 1e-3)
    return llvm::formatv("{0:F1} us", seconds * 1e6).str();
  if (seconds < 1)
    return llvm::formatv("{0:F3} ms", seconds * 1e3).str();
  if (seconds < 1e6)
    return llvm::formatv("{0:F3} s", seconds).str();
  return llvm::formatv("{0:E3} s", seconds).str();
}

/// Writes the shared-memory and TMEM budget of `ex.plan` with ex.shape's stages/accumulators.
static void printBudget(llvm::raw_ostream &os, const Explained &ex) {
  const GemmPlan &p = *ex.plan;
  const SmemMap &m = p.smem;
  int64_t elem = sizeInBytes(1, ex.op.getAType());
  int64_t rowsA = p.tileM / ex.op.getCtaGroup(), colsB = p.tileN / ex.op.getCtaGroup();
  int64_t limit = p.target.smemPerBlock();
  int64_t total = p.smemFor(ex.shape.stages);
  os << "shared memory per block (target " << p.target.name() << " allows " << formatBytes(limit)
     << ")\n";
  if (p.upcastA)
    os << llvm::formatv("  A slice   {0} x {1} x {2} bits = {3} (converted to bf16)\n", rowsA,
                        p.tileK, tilegen::elemBits(ex.op.getAType()), formatBytes(m.aSliceBytes));
  else
    os << llvm::formatv("  A slice   {0} x {1} x {2} B = {3}\n", rowsA, p.tileK, elem,
                        formatBytes(m.aSliceBytes));
  if (p.upcastB)
    os << llvm::formatv("  B slice   {0} x {1} x {2} bits = {3} ({4}converted to bf16)\n",
                        colsB, p.tileK, tilegen::elemBits(ex.op.getBType()),
                        formatBytes(m.bSliceBytes),
                        tilegen::elemBits(ex.op.getBType()) < 8 ? "packed; " : "");
  else
    os << llvm::formatv("  B slice   {0} x {1} x {2} B = {3}\n", colsB, p.tileK, elem,
                        formatBytes(m.bSliceBytes));
  os << llvm::formatv("  stage     {0} (A + B, slots aligned to {1} B)\n", formatBytes(m.slotBytes),
                      p.tmaRing() ? 1024 : 128);
  os << llvm::formatv("  ring      {0} stages x {1} = {2}\n", ex.shape.stages,
                      formatBytes(m.slotBytes), formatBytes(ex.shape.stages * m.slotBytes));
  int64_t barriers = total - ex.shape.stages * m.slotBytes - m.epilogueBytes - m.convertBytes -
                     m.ringOffset;
  if (p.tmaRing())
    os << llvm::formatv("  barriers  {0} (full and empty per stage{1}, two per accumulator)\n",
                        formatBytes(barriers),
                        m.convertSlots ? " and per converted slice" : "");
  if (m.epilogueBytes)
    os << llvm::formatv("  epilogue  {0} (C staging for the TMA store)\n",
                        formatBytes(m.epilogueBytes));
  if (p.upcastRegisters)
    os << "  convert   none: the consumers convert their rows of B into wgmma's register "
          "operand (the tile computed transposed, D^T = B^T A^T); the conversion's time is not "
          "in the costs below\n";
  if (m.convertBytes)
    os << llvm::formatv("  convert   {0} ({1} bf16 slices of {2} that warps 1-3 of the producer "
                        "warpgroup convert into beside the MMAs; the conversion's time is not "
                        "in the costs below)\n",
                        formatBytes(m.convertBytes), m.convertSlots,
                        p.upcastA ? "A and B" : "B");
  os << llvm::formatv("  total     {0} of {1}: {2}; at most {3} stages fit\n", formatBytes(total),
                      formatBytes(limit), total <= limit ? "fits" : "DOES NOT FIT", ex.stagesFit);
  if (p.family == MmaFamily::Tcgen05) {
    int64_t columns = ex.shape.accumulators * p.tileN;
    os << llvm::formatv("TMEM: {0} accumulators x {1} columns (f32, N = {1}) = {2} of {3} "
                        "columns{4}\n",
                        ex.shape.accumulators, p.tileN, columns, p.target.tmemColumns(),
                        columns > (int64_t)p.target.tmemColumns() ? ": DOES NOT FIT" : "");
  }
}

static void printCosts(llvm::raw_ostream &os, const Explained &ex) {
  auto mark = [&](llvm::StringRef name) {
    return llvm::is_contained(ex.overridden, name) ? "  [--costs]" : "";
  };
  if (!ex.plan) {
    os << "costs per K-slice (from --costs, in model units)\n";
    os << "  mma       " << num(ex.costs.mma) << "\n  load      " << num(ex.costs.load)
       << "\n  issue     " << num(ex.costs.issue) << "\n  epilogue  "
       << num(ex.costs.epilogue) << "\n";
    return;
  }
  const GemmPlan &p = *ex.plan;
  const CostBreakdown &b = ex.breakdown;
  const NVTargetInfo &info = p.target.info();
  if (ex.problem) {
    const ProblemLayout &l = *ex.problem;
    const ProblemCosts &pc = ex.problemCosts;
    os << llvm::formatv("costs per K-slice for this problem, in cycles of one SM at {0} GHz:\n"
                        "  {1} flop/cycle per SM{2}{3}; DRAM {4} GB/s{7} shared by {5} CTAs at "
                        "work = {6} B/cycle each\n",
                        pc.clockGHz, num(info.tensorFlopsPerCyclePerSM),
                        b.mmaSyncHalved ? " (halved for mma.sync)" : "",
                        b.rate != 1.0 ? llvm::formatv(" x {0} for {1}", num(b.rate),
                                                      ex.op.getAType())
                                            .str()
                                      : std::string(),
                        num(l.dramBytesPerSecond / 1e9), l.concurrentCtas,
                        num(pc.shareBytesPerCycle),
                        llvm::formatv(" ({0} of the rated {1})", num(l.dramEfficiency),
                                      num(l.dramBytesPerSecond / l.dramEfficiency / 1e9))
                            .str());
    os << llvm::formatv("  mma       {0} flop / {1} flop/cycle{2} = {3}{4}\n",
                        num(b.flopsPerSlice), num(b.flopsPerCycle),
                        l.mmaEfficiency != 1.0
                            ? llvm::formatv(" / {0} (wgmma efficiency)", num(l.mmaEfficiency))
                                  .str()
                            : std::string(),
                        num(ex.costs.mma), mark("mma"));
    os << llvm::formatv("  load      {0} latency + {1} B from DRAM (a slice's average) / {2} "
                        "B/cycle = {3}{4}\n",
                        num(pc.loadLatency), num(pc.loadBytes), num(pc.shareBytesPerCycle),
                        num(ex.costs.load), mark("load"));
    std::string l2 = llvm::formatv(" + {0} B from L2 / {1} B/cycle", num(pc.l2SliceBytes),
                                   num(pc.l2BytesPerCycle))
                         .str();
    if (l.aLineFactor != 1.0 || l.bLineFactor != 1.0)
      l2 += llvm::formatv(" (box rows off the 128-byte lines: A x {0}, B x {1} lines)",
                          num(l.aLineFactor), num(l.bLineFactor))
                .str();
    if (p.copy == tile::Copy::Tma)
      os << llvm::formatv("  issue     one TMA copy per slice x {0}{1} = {2}{3}\n",
                          num(b.issuePerLoad), l2, num(ex.costs.issue), mark("issue"));
    else
      os << llvm::formatv("  issue     {0} cp.async per thread x {1}{2} = {3}{4}\n",
                          num(b.issueInstructions), num(b.issuePerLoad), l2,
                          num(ex.costs.issue), mark("issue"));
    os << llvm::formatv("  epilogue  {0} latency + {1} B ({2}, a tile's average) / {3} B/cycle "
                        "= {4}{5}\n",
                        num(pc.epilogueLatency), num(pc.epilogueBytes),
                        l.cReadBytes > 0 ? "C read and D written" : "D written",
                        num(pc.shareBytesPerCycle), num(ex.costs.epilogue), mark("epilogue"));
    return;
  }
  os << llvm::formatv("costs per K-slice, in cycles of one SM, from the target table's {0} "
                      "row:\n  {1} flop/cycle per SM{2}{5}, {3} B/cycle per SM of DRAM bandwidth, "
                      "{4} GHz\n",
                      p.target.name(), num(info.tensorFlopsPerCyclePerSM),
                      b.mmaSyncHalved ? " (halved for mma.sync)" : "",
                      num(b.bytesPerCycle), info.clockGHz,
                      b.rate != 1.0 ? llvm::formatv(" x {0} for {1}", num(b.rate),
                                                    ex.op.getAType())
                                          .str()
                                    : std::string());
  os << llvm::formatv("  mma       {0} flop / {1} flop/cycle = {2}{3}\n", num(b.flopsPerSlice),
                      num(b.flopsPerCycle), num(ex.costs.mma), mark("mma"));
  os << llvm::formatv("  load      {0} latency + {1} B / {2} B/cycle = {3}{4}\n",
                      num(b.loadLatency), num(b.sliceBytes), num(b.bytesPerCycle),
                      num(ex.costs.load), mark("load"));
  if (p.copy == tile::Copy::Tma)
    os << llvm::formatv("  issue     one TMA copy per slice x {0} = {1}{2}\n",
                        num(b.issuePerLoad), num(ex.costs.issue), mark("issue"));
  else
    os << llvm::formatv("  issue     {0} cp.async per thread x {1} = {2}{3}\n",
                        num(b.issueInstructions), num(b.issuePerLoad), num(ex.costs.issue),
                        mark("issue"));
  os << llvm::formatv("  epilogue  {0} latency + {1} B / {2} B/cycle = {3}{4}\n",
                      num(b.epilogueLatency), num(b.epilogueBytes), num(b.bytesPerCycle),
                      num(ex.costs.epilogue), mark("epilogue"));
}

static const char *gridName(tile::Grid g) { return tile::stringifyGrid(g).data(); }

/// The problem-size report: tiles, grid, waves, the busiest CTA, memory and the prediction.
static void printProblem(llvm::raw_ostream &os, const Explained &ex) {
  const ProblemLayout &l = *ex.problem;
  const Prediction &pr = ex.prediction;
  const GemmPlan &p = *ex.plan;
  os << llvm::formatv("problem: M {0} x N {1} x K {2} = {3}\n", l.size.m, l.size.n, l.size.k,
                      flopText(l.flops));
  llvm::SmallVector<llvm::StringRef> edges;
  if (l.partialM)
    edges.push_back("last tile row");
  if (l.partialN)
    edges.push_back("last tile column");
  if (l.size.k % l.tileK)
    edges.push_back("last K-slice");
  std::string partial =
      edges.empty() ? std::string("no partial tiles")
                    : llvm::formatv("partial: {0}; edge tiles do whole-tile MMAs, {1} of the "
                                    "flops are padding",
                                    llvm::join(edges, ", "),
                                    percent(1.0 - l.flops / l.paddedFlops))
                          .str();
  os << llvm::formatv("  tiles     {0} x {1} = {2} of {3} x {4} ({5})\n", l.tilesM, l.tilesN,
                      count(l.tiles, "tile"), l.tileM, l.tileN, partial);
  // What the model predicts, the runner and the GPU may still refuse: say so.
  if (l.tiles > uint64_t(INT32_MAX))
    os << "  note      more than 2^31 - 1 output tiles: tilegen-run refuses this problem (the "
          "kernel counts tiles in 32 bits); the prediction is the model's alone\n";
  {
    // Each size is below 2^31, so the products are exact in 64 bits.
    int64_t m = l.size.m, n = l.size.n, k = l.size.k;
    if (m * k > kMaxOperandElements || k * n > kMaxOperandElements ||
        m * n > kMaxOperandElements)
      os << "  note      an operand of more than 2^40 elements: more than any GPU's memory "
            "holds (tilegen tune refuses such shapes)\n";
  }
  const char *gridRule = l.grid == tile::Grid::Tiles        ? "one CTA per tile"
                         : l.grid == tile::Grid::Persistent ? "min(tiles, SMs), each looping "
                                                              "over tiles"
                                                            : "one per SM";
  os << llvm::formatv("  grid      {0}: {1} ({2}; {3} SMs{4})\n", gridName(l.grid),
                      count(l.gridCtas, "CTA"), gridRule, l.smCount,
                      l.clusterSize == 4 && l.quadClusterCtas
                          ? llvm::formatv(", clusters of 4, of which the part holds {0} CTAs "
                                          "at once",
                                          l.quadClusterCtas)
                                .str()
                      : l.clusterSize > 1 ? llvm::formatv(", clusters of {0}", l.clusterSize).str()
                                          : std::string());
  os << llvm::formatv("  resident  {0} per SM, limited by {1} ({2} + 1 KB reserved of {3} "
                      "per SM allows {4}; {5} threads allow {6})\n",
                      count(l.resident, "CTA"), l.residentLimit, formatBytes(l.smemPerCta),
                      formatBytes(p.target.info().smemPerSM), l.residentBySmem, p.threads,
                      l.residentByThreads);
  if (l.streamKSplit && l.wholeTiles > 0)
    os << llvm::formatv("  waves     {0}: {1} of whole tiles on {2} CTAs, then stream_k splits "
                        "the last {3} tiles' {4} K-slices\n            over {5} CTAs (at most {6} "
                        "each; a tile summed from {7} parts)\n",
                        l.waves, count(l.wholeTiles, "wave"), l.gridCtas, l.tiles % l.gridCtas,
                        (l.tiles % l.gridCtas) * static_cast<uint64_t>(l.kSlices), l.splitCtas,
                        l.splitSlices, l.splitWays);
  else if (l.streamKSplit)
    os << llvm::formatv("  waves     1: {0} tiles fewer than {1} CTAs, so stream_k splits their "
                        "{2} K-slices over {3} CTAs\n            (at most {4} each; a tile "
                        "summed from {5} parts)\n",
                        l.tiles, l.gridCtas, l.tiles * static_cast<uint64_t>(l.kSlices),
                        l.splitCtas, l.splitSlices, l.splitWays);
  else if (l.clusterUnits > 0)
    os << llvm::formatv("  waves     {0}: the clusters take units of {4} x {5} tiles (a tile "
                        "past M or N computed all the same),\n            {1} / {2} clusters at "
                        "a time = {0}, the last {3} full\n",
                        count(l.waves, "wave"), count(l.clusterUnits, "unit"),
                        l.waveTiles / static_cast<uint64_t>(l.clusterSize),
                        percent(l.lastWaveFill), l.clusterM, l.clusterN);
  else
    os << llvm::formatv("  waves     {0} / {1} at a time = {2}, the last {3} full ({4} of "
                        "{1})\n",
                        count(l.tiles, "tile"), l.waveTiles, count(l.waves, "wave"),
                        percent(l.lastWaveFill), l.lastWaveTiles);
  os << llvm::formatv("  K loop    {0} K-slices of {1} per tile (K = {2})\n", l.kSlices, l.tileK,
                      l.size.k);
  std::string busiest;
  if (l.streamKSplit && l.wholeTiles > 0)
    busiest = llvm::formatv("{0}, {1} cycles each in steady state, then {2} K-slices and the "
                            "fix-up of {3} partial tiles ({4} cycles)",
                            count(l.wholeTiles, "whole tile"), num(pr.tileCycles),
                            l.splitSlices, l.splitWays, num(pr.fixupCycles))
                  .str();
  else if (l.streamKSplit)
    busiest = llvm::formatv("{0} K-slices, then the fix-up of {1} partial tiles ({2} cycles)",
                            l.splitSlices, l.splitWays, num(pr.fixupCycles))
                  .str();
  else if (l.freshCtaPerTile)
    busiest = llvm::formatv("{0} CTAs in turn on one SM, {1} cycles each (a cold start per "
                            "tile)",
                            l.busiestTiles, num(pr.tileCycles))
                  .str();
  else if (l.grid == tile::Grid::Tiles)
    busiest = llvm::formatv("an SM with {0} ({1} resident CTAs sharing its tensor core, taken "
                            "as one CTA with {1}x the stages and accumulators), {2} cycles per "
                            "tile",
                            count(l.busiestTiles, "tile"), l.resident, num(pr.tileCycles))
                  .str();
  else
    busiest = llvm::formatv("{0}, {1} cycles per tile in steady state",
                            count(l.busiestTiles, "tile"), num(pr.tileCycles))
                  .str();
  os << llvm::formatv("  busiest   {0}\n            = {1} cycles = {2} at {3} GHz; first MMA "
                      "after {4} cycles{5}\n",
                      busiest, num(pr.ctaCycles), timeText(pr.cta), ex.problemCosts.clockGHz,
                      num(pr.fillCycles),
                      pr.extrapolated ? "; extrapolated from a simulated prefix" : "");

  os << llvm::formatv("memory: DRAM {0} GB/s ({1} of the rated {2}), L2 {3}\n",
                      num(l.dramBytesPerSecond / 1e9), num(l.dramEfficiency),
                      num(l.dramBytesPerSecond / l.dramEfficiency / 1e9), mib(l.l2Bytes));
  if (l.operandsFitL2)
    os << llvm::formatv("  A {0} + B {1} fit in L2: each read from DRAM once\n",
                        bytesText(l.aBytes), bytesText(l.bBytes));
  else
    os << llvm::formatv("  A {0} + B {1} exceed L2: no reuse across waves; a wave of {2} tiles "
                        "({3} raster, groups of {4})\n  touches {5} A row panels and {6} B "
                        "column panels on average{7}\n",
                        bytesText(l.aBytes), bytesText(l.bBytes), l.waveTiles,
                        tile::stringifyRaster(ex.op.getRaster()), ex.op.getSwizzle(),
                        llvm::formatv("{0:F1}", l.aPanelsPerWave).str(),
                        llvm::formatv("{0:F1}", l.bPanelsPerWave).str(),
                        l.wavesSampled ? " (first waves counted, scaled to all)" : "");
  os << llvm::formatv("  operands  {0} from DRAM of {1} the CTAs load ({2})\n",
                      bytesText(l.dramOperandBytes), bytesText(l.l2ToSmBytes),
                      percent(l.dramOperandBytes / l.l2ToSmBytes));
  os << llvm::formatv("  epilogue  D {0} written; {1}\n", bytesText(l.dWriteBytes),
                      l.cReadBytes > 0
                          ? llvm::formatv("C {0} read (beta = {1})", bytesText(l.cReadBytes),
                                          l.beta)
                                .str()
                          : std::string("C not read (beta = 0)"));
  os << llvm::formatv("  DRAM      {0} / {1} GB/s = {2}\n", bytesText(l.dramBytes),
                      num(l.dramBytesPerSecond / 1e9), timeText(pr.dram));
  os << llvm::formatv("prediction: launch {0} + max(busiest CTA {1}, DRAM {2}) = {3} = {4} "
                      "TFLOP/s\n",
                      timeText(pr.launch), timeText(pr.cta), timeText(pr.dram),
                      timeText(pr.seconds), llvm::formatv("{0:F1}", pr.tflops).str());
  os << llvm::formatv("  {0} binds; the terms: tensor cores of all SMs on 2 M N K {1}, partial "
                      "tiles and idle SMs {2},\n  pipeline (fill, loads, epilogues{3}) {4}, "
                      "DRAM beyond compute {5}, launch {6}{7}; largest: {8}\n",
                      pr.binding, timeText(pr.ideal), timeText(pr.waveLoss),
                      l.streamKSplit ? ", fix-up" : "", timeText(pr.pipelineLoss),
                      timeText(pr.memoryExcess), timeText(pr.launch),
                      pr.sustainedClockLoss > 0
                          ? ", the power-limited clock after 2 ms " +
                                timeText(pr.sustainedClockLoss)
                          : std::string(),
                      pr.dominant);
}

static void printText(llvm::raw_ostream &os, const Explained &ex, const ModelSchedule &s,
                      const PeriodTerms &period, int feed) {
  if (ex.plan) {
    const GemmPlan &p = *ex.plan;
    os << llvm::formatv("tilegen explain: @{0} on {1} ({2})\n", ex.op.getSymName(),
                        p.target.name(), p.target.info().gpus);
    os << llvm::formatv("  {0}, {1}, copy = {2}, {3} threads, tile {4} x {5} x {6}, cta_group "
                        "{7}\n",
                        familyName(p.family), tile::stringifySchedule(p.schedule),
                        tile::stringifyCopy(p.copy), p.threads, p.tileM, p.tileN, p.tileK,
                        ex.op.getCtaGroup());
    // The L2 hints change how the L2 keeps the operands, which the model does not count.
    for (auto [operand, hint] :
         {std::pair{"A", ex.op.getCacheA()}, std::pair{"B", ex.op.getCacheB()}})
      if (hint)
        os << llvm::formatv("  {0}'s loads carry the L2 hint {1} (not in the model: it "
                            "predicts the kernel as without; time it)\n",
                            operand, tile::stringifyCacheHint(*hint));
    os << "\n";
    printBudget(os, ex);
    os << "\n";
  } else {
    os << "tilegen explain: the pipeline model with the costs of --costs\n\n";
  }
  printCosts(os, ex);
  os << "\n";

  const ModelShape &sh = ex.shape;
  os << "stages: " << sh.stages;
  if (ex.stagesSource == "auto")
    os << " (auto: fewest that keep the tensor core fed = " << ex.stagesToFeedAuto
       << (ex.overridden.empty() ? "" : " with the target table's costs")
       << ", fit = " << ex.stagesFit << ")";
  else if (ex.stagesSource == "description")
    os << " (from the description)";
  else
    os << " (" << ex.stagesSource << ")";
  os << "; accumulators: " << sh.accumulators << "\n";
  if (ex.plan && ex.op.getAccumulators() != static_cast<uint64_t>(sh.accumulators))
    os << llvm::formatv("  (the description builds {0} accumulator(s); explaining {1} as "
                        "asked)\n",
                        ex.op.getAccumulators(), sh.accumulators);
  if (ex.plan && ex.plan->schedule == tile::Schedule::Multistage)
    os << "  schedule = multistage: the same warps load, multiply and store; the model's "
          "engines\n  are their roles, so it is optimistic where they contend\n";
  if (ex.plan && ex.plan->family == MmaFamily::MmaSync &&
      ex.plan->schedule == tile::Schedule::WarpSpecialized) {
    const GemmPlan &p = *ex.plan;
    int64_t groupWarps = p.warpsM * p.warpsN;
    os << llvm::formatv("  schedule = warp_specialized with mma.sync: one TMA producer warp and "
                        "{0} consumer warps\n  ({1}), {2} registers per thread at one CTA of "
                        "{3} warps per SM\n",
                        groupWarps * p.accumulators,
                        p.accumulators == 2
                            ? llvm::formatv("two groups of [{0}, {1}] taking tiles in turn",
                                            p.warpsM, p.warpsN)
                                  .str()
                            : llvm::formatv("[{0}, {1}] over the tile", p.warpsM, p.warpsN)
                                  .str(),
                        p.mmaRegs, p.threads / 32);
  }
  os << llvm::formatv("steady state: {0} slices take max(S t_mma = {1}, S t_issue = {2}, "
                      "t_load + t_mma = {3})\n  = {4} {5}: {6} binds{7}\n",
                      sh.stages, num(period.mma), num(period.issue), num(period.loadMma),
                      num(period.period), ex.unit, period.binding,
                      llvm::StringRef(period.binding) == "mma" && period.loadMma == period.period
                          ? " (load+mma ties: the ring is exactly deep enough)"
                          : "");
  double steadyBusy = period.period > 0 ? sh.stages * ex.costs.mma / period.period : 0;
  os << llvm::formatv("  tensor core busy {0} of the steady state; fewest stages that keep it "
                      "fed: {1}\n",
                      percent(steadyBusy), feed);
  if (ex.costs.issue > ex.costs.mma)
    os << "  (the issue stream is slower than the MMA: no ring depth feeds the tensor core)\n";
  os << llvm::formatv("run{7}: {0} x {1} K-slices{2} = {3} {4}\n  tensor core busy {5} "
                      "({6} of {3})\n",
                      count(sh.tiles, "tile"), sh.kSlices,
                      ex.kSlicesFromK ? llvm::formatv(" (K = {0})", ex.kSlicesFromK).str()
                                      : std::string(),
                      num(s.run), ex.unit, percent(s.busy()), num(s.mmaBusy),
                      !ex.problem     ? ""
                      : ex.windowed   ? " (the busiest CTA's first tiles and slices)"
                                      : " (the busiest CTA)");
  if (ex.plan) {
    const CostBreakdown &b = ex.breakdown;
    double intensity = b.flopsPerSlice / b.sliceBytes;
    double ridge = b.flopsPerCycle / b.bytesPerCycle;
    os << llvm::formatv("memory: the tile does {0} flop per loaded byte; the SM's ridge is {1} "
                        "flop/byte\n ",
                        num(intensity), num(ridge));
    if (intensity < ridge && ex.problem)
      os << llvm::formatv(" it needs {0}x reuse from L2 to be compute-bound (the problem's "
                          "DRAM\n  traffic and its L2 reuse are below)\n",
                          llvm::formatv("{0:F1}", ridge / intensity).str());
    else if (intensity < ridge)
      os << llvm::formatv(" it needs {0}x reuse from L2 to be compute-bound (the model "
                          "counts\n  bandwidth in t_load only, not as a ceiling)\n",
                          llvm::formatv("{0:F1}", ridge / intensity).str());
    else
      os << " compute-bound even from DRAM\n";
  }
  if (ex.problem) {
    os << "\n";
    printProblem(os, ex);
  }
  os << "\n";
  printTextTimeline(os, s, timelineTilesOption, widthOption, ex.unit);
}

static void printJSON(llvm::raw_ostream &os, const Explained &ex, const ModelSchedule &s,
                      const PeriodTerms &period, int feed) {
  llvm::json::OStream j(os, 2);
  const ModelShape &sh = ex.shape;
  j.object([&] {
    if (ex.plan)
      j.attribute("description", ex.op.getSymName());
    else
      j.attribute("description", nullptr);
    if (ex.target.empty())
      j.attribute("target", nullptr);
    else
      j.attribute("target", ex.target);
    j.attribute("unit", ex.unit);
    j.attribute("stages", sh.stages);
    j.attribute("stages_source", ex.stagesSource);
    j.attribute("accumulators", sh.accumulators);
    j.attribute("tiles", sh.tiles);
    j.attribute("k_slices", sh.kSlices);
    j.attributeObject("costs", [&] {
      j.attribute("load", ex.costs.load);
      j.attribute("mma", ex.costs.mma);
      j.attribute("epilogue", ex.costs.epilogue);
      j.attribute("issue", ex.costs.issue);
    });
    j.attributeArray("costs_overridden", [&] {
      for (const std::string &name : ex.overridden)
        j.value(name);
    });
    j.attribute("period", period.period);
    j.attribute("binding", period.binding);
    j.attributeObject("period_terms", [&] {
      j.attribute("mma", period.mma);
      j.attribute("issue", period.issue);
      j.attribute("load+mma", period.loadMma);
    });
    j.attribute("steady_busy", sh.stages * ex.costs.mma / period.period);
    j.attribute("stages_to_feed", feed);
    j.attribute("run_units", s.run);
    j.attribute("mma_units", s.mmaBusy);
    j.attribute("busy", s.busy());
    double window = s.lastWindowPeriod();
    if (window >= 0)
      j.attribute("last_window_period", window);
    else
      j.attribute("last_window_period", nullptr);
    if (ex.plan) {
      const GemmPlan &p = *ex.plan;
      j.attribute("family", familyName(p.family));
      j.attribute("schedule", tile::stringifySchedule(p.schedule));
      // The operands' L2 hints ("normal": none), which the model does not count.
      j.attribute("cache_a",
                  tile::stringifyCacheHint(ex.op.getCacheA().value_or(tile::CacheHint::Normal)));
      j.attribute("cache_b",
                  tile::stringifyCacheHint(ex.op.getCacheB().value_or(tile::CacheHint::Normal)));
      if (p.mmaRegs)
        j.attribute("mma_regs", p.mmaRegs);
      j.attribute("stages_auto_feed", ex.stagesToFeedAuto);
      j.attribute("stages_fit", ex.stagesFit);
      int64_t total = p.smemFor(sh.stages);
      j.attributeObject("smem", [&] {
        j.attribute("a_slice_bytes", p.smem.aSliceBytes);
        j.attribute("b_slice_bytes", p.smem.bSliceBytes);
        j.attribute("stage_bytes", p.smem.slotBytes);
        j.attribute("ring_bytes", sh.stages * p.smem.slotBytes);
        j.attribute("barrier_bytes",
                    total - sh.stages * p.smem.slotBytes - p.smem.epilogueBytes);
        j.attribute("epilogue_bytes", p.smem.epilogueBytes);
        j.attribute("total_bytes", total);
        j.attribute("limit_bytes", (int64_t)p.target.smemPerBlock());
        j.attribute("fits", total <= (int64_t)p.target.smemPerBlock());
      });
      if (p.family == MmaFamily::Tcgen05)
        j.attributeObject("tmem", [&] {
          j.attribute("columns", (int64_t)sh.accumulators * p.tileN);
          j.attribute("limit", (int64_t)p.target.tmemColumns());
        });
    }
    if (ex.problem) {
      const ProblemLayout &l = *ex.problem;
      const ProblemCosts &pc = ex.problemCosts;
      const Prediction &pr = ex.prediction;
      j.attributeObject("problem", [&] {
        j.attribute("m", l.size.m);
        j.attribute("n", l.size.n);
        j.attribute("k", l.size.k);
        j.attribute("flops", l.flops);
        j.attribute("beta", l.beta);
        j.attributeArray("tile", [&] {
          j.value(l.tileM);
          j.value(l.tileN);
          j.value(l.tileK);
        });
        j.attribute("tiles_m", (int64_t)l.tilesM);
        j.attribute("tiles_n", (int64_t)l.tilesN);
        j.attribute("tiles", (int64_t)l.tiles);
        j.attribute("partial_m", l.partialM);
        j.attribute("partial_n", l.partialN);
        j.attribute("k_slices", l.kSlices);
        j.attribute("padded_flops", l.paddedFlops);
        j.attribute("grid", gridName(l.grid));
        j.attribute("grid_ctas", (int64_t)l.gridCtas);
        j.attribute("sm_count", (int64_t)l.smCount);
        j.attribute("cluster_size", l.clusterSize);
        j.attribute("cluster_m", l.clusterM);
        j.attribute("cluster_n", l.clusterN);
        if (l.clusterUnits > 0)
          j.attribute("cluster_units", (int64_t)l.clusterUnits);
        j.attribute("cta_group", l.ctaGroup);
        j.attribute("smem_per_cta", l.smemPerCta);
        j.attribute("resident_per_sm", l.resident);
        j.attribute("resident_limit", l.residentLimit);
        j.attribute("concurrent_ctas", (int64_t)l.concurrentCtas);
        j.attribute("wave_tiles", (int64_t)l.waveTiles);
        j.attribute("waves", (int64_t)l.waves);
        j.attribute("last_wave_tiles", (int64_t)l.lastWaveTiles);
        j.attribute("last_wave_fill", l.lastWaveFill);
        j.attribute("busiest_tiles", (int64_t)l.busiestTiles);
        j.attribute("fresh_cta_per_tile", l.freshCtaPerTile);
        if (l.streamKSplit)
          j.attributeObject("stream_k_split", [&] {
            j.attribute("whole_tiles_before", (int64_t)l.wholeTiles);
            j.attribute("ctas", (int64_t)l.splitCtas);
            j.attribute("slices_per_cta", l.splitSlices);
            j.attribute("ways", l.splitWays);
            j.attribute("partial_bytes", l.partialBytes);
            j.attribute("fixup_cycles", pr.fixupCycles);
          });
        else
          j.attribute("stream_k_split", nullptr);
        j.attribute("clock_ghz", pc.clockGHz);
        j.attribute("dram_share_bytes_per_cycle", pc.shareBytesPerCycle);
        j.attribute("load_dram_bytes_per_slice", pc.loadBytes);
        j.attribute("mma_efficiency", l.mmaEfficiency);
        j.attribute("load_l2_bytes_per_slice", pc.l2SliceBytes);
        j.attribute("a_line_factor", l.aLineFactor);
        j.attribute("b_line_factor", l.bLineFactor);
        j.attribute("l2_share_bytes_per_cycle", pc.l2BytesPerCycle);
        j.attribute("issue_l2_cycles", pc.l2Cycles);
        j.attribute("epilogue_bytes_per_tile", pc.epilogueBytes);
        j.attributeObject("memory", [&] {
          j.attribute("a_bytes", l.aBytes);
          j.attribute("b_bytes", l.bBytes);
          j.attribute("c_read_bytes", l.cReadBytes);
          j.attribute("d_write_bytes", l.dWriteBytes);
          j.attribute("l2_to_sm_operand_bytes", l.l2ToSmBytes);
          j.attribute("dram_operand_bytes", l.dramOperandBytes);
          j.attribute("dram_bytes", l.dramBytes);
          j.attribute("l2_bytes", (int64_t)l.l2Bytes);
          j.attribute("operands_fit_l2", l.operandsFitL2);
          j.attribute("a_panels_per_wave", l.aPanelsPerWave);
          j.attribute("b_panels_per_wave", l.bPanelsPerWave);
          j.attribute("waves_sampled", l.wavesSampled);
          j.attribute("dram_bytes_per_second", l.dramBytesPerSecond);
          j.attribute("dram_efficiency", l.dramEfficiency);
        });
        j.attributeObject("busiest_cta", [&] {
          j.attribute("cycles", pr.ctaCycles);
          j.attribute("mma_cycles", pr.mmaCycles);
          j.attribute("fill_cycles", pr.fillCycles);
          j.attribute("tile_cycles", pr.tileCycles);
          j.attribute("extrapolated", pr.extrapolated);
        });
        j.attributeObject("time", [&] {
          j.attribute("launch_seconds", pr.launch);
          j.attribute("cta_seconds", pr.cta);
          j.attribute("dram_seconds", pr.dram);
          j.attribute("ideal_seconds", pr.ideal);
          j.attribute("wave_loss_seconds", pr.waveLoss);
          j.attribute("pipeline_loss_seconds", pr.pipelineLoss);
          j.attribute("memory_excess_seconds", pr.memoryExcess);
          j.attribute("clock_loss_seconds", pr.sustainedClockLoss);
          j.attribute("seconds", pr.seconds);
          j.attribute("tflops", pr.tflops);
          j.attribute("binding", pr.binding);
          j.attribute("dominant", pr.dominant);
        });
      });
    }
    if (jsonScheduleOption)
      j.attributeObject("schedule_times", [&] {
        auto array = [&](llvm::StringRef name, const std::vector<double> &v) {
          j.attributeArray(name, [&] {
            for (double x : v)
              j.value(x);
          });
        };
        array("load_start", s.loadStart);
        array("mma_start", s.mmaStart);
        array("mma_done", s.mmaDone);
        array("epilogue_done", s.epilogueDone);
      });
  });
  os << "\n";
}

/// Fills `ex` from a description file: plan, costs, stages. Returns non-zero on error (the
/// diagnostics are already printed).
static int explainDescription(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                              OwningOpRef<ModuleOp> &module, Explained &ex) {
  std::string errorMessage;
  auto file = readDescription(descFile, kMaxDescriptionBytes, errorMessage);
  if (!file)
    return fail(errorMessage);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  module = parseInput(sourceMgr, &context);
  if (!module)
    return 1;
  llvm::SmallVector<tile::GemmOp> ops;
  module->walk([&](tile::GemmOp op) { ops.push_back(op); });
  if (ops.empty())
    return fail("'" + descFile + "' has no tile.gemm: nothing to explain");
  if (ops.size() > 1)
    return fail("'" + descFile + "' has " + llvm::Twine(ops.size()) +
                " tile.gemm ops; explain takes one (split the file)");
  ex.op = ops.front();
  FailureOr<NVTarget> target = targetFor(ex.op, explainTarget);
  if (failed(target))
    return 1;
  FailureOr<GemmPlan> plan = resolveGemm(ex.op, *target);
  if (failed(plan))
    return 1;
  ex.plan = *plan;
  ex.target = target->name().str();
  ex.unit = "cycles";
  ex.costs = costsFor(ex.op, *ex.plan, &ex.breakdown);
  ex.stagesToFeedAuto = std::max(2, fewestStagesToFeed(ex.costs));
  ex.stagesFit = stagesThatFit(*ex.plan);
  ex.shape.stages = static_cast<int>(ex.plan->stages);
  ex.stagesSource = ex.plan->stagesWereAuto ? "auto" : "description";
  ex.shape.accumulators = static_cast<int>(ex.plan->accumulators);
  ex.kSlicesFromK = 4096;
  ex.shape.kSlices = static_cast<int>((4096 + ex.plan->tileK - 1) / ex.plan->tileK);
  return 0;
}

int tilegen::explainMain(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::HideUnrelatedOptions(explainCategory, explainCommand);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tilegen explain: the pipeline model (max-plus recurrences of a warp-specialised GEMM) of a "
      "description\n"
      "\n"
      "  tilegen explain DESC [--target=T] [--svg FILE]\n"
      "  tilegen explain DESC --target=T --costs load=L,mma=M,epilogue=E,issue=I --tiles=T\n"
      "                  --k-slices=K [--stages=S] [--accumulators=A] --json\n"
      "  tilegen explain --costs load=L,mma=M,epilogue=E,issue=I [--stages=S] ... --json\n"
      "  tilegen explain DESC --target=T --m M --n N --k K [--clock-ghz=F] [--json]\n"
      "\n"
      "With --m, --n and --k (each 1 to 2^31 - 1) it predicts the kernel's time and TFLOP/s for\n"
      "that problem: output tiles, the grid tilegen-run launches, CTAs resident per SM, waves,\n"
      "the busiest CTA's run through the pipeline model, DRAM traffic with an L2 reuse\n"
      "estimate, and launch + max(busiest CTA, DRAM) with every term shown.\n");
  if (int rc = rejectDriverOptions("explain"))
    return rc;

  if (explainTarget.getNumOccurrences() && explainTarget.empty())
    return fail("--target is empty; known targets: " + NVTarget::knownNames());
  if (!explainTarget.empty() && !NVTarget::parse(explainTarget))
    return fail("unknown --target '" + explainTarget + "'; known targets: " +
                NVTarget::knownNames() + NVTarget::suggest(explainTarget));
  CostOverrides overrides;
  if (costsOption.getNumOccurrences()) {
    auto parsed = parseCosts(costsOption);
    if (!parsed)
      return fail(llvm::toString(parsed.takeError()));
    overrides = *parsed;
  }

  // The problem size: all three or none, each a whole number from 1 to 2^31 - 1.
  std::optional<ProblemSize> problem;
  double clockGHz = 0;
  {
    struct Dim {
      const char *flag;
      cl::opt<std::string> &opt;
      int64_t *field;
    };
    ProblemSize size;
    Dim dims[] = {{"m", mOption, &size.m}, {"n", nOption, &size.n}, {"k", kOption, &size.k}};
    llvm::SmallVector<llvm::StringRef> given, missing;
    for (Dim &d : dims)
      (d.opt.getNumOccurrences() ? given : missing).push_back(d.flag);
    if (!given.empty()) {
      if (!missing.empty())
        return fail("--m, --n and --k go together; missing: --" + llvm::join(missing, ", --"));
      for (Dim &d : dims) {
        llvm::Expected<int64_t> v = parseProblemDim(d.flag, d.opt);
        if (!v)
          return fail(llvm::toString(v.takeError()));
        *d.field = *v;
      }
      if (descFile.empty())
        return fail("--m, --n and --k need a description: the tile, the grid and the types "
                    "come from it");
      if (tilesOption.getNumOccurrences() || kSlicesOption.getNumOccurrences())
        return fail("--tiles and --k-slices follow from --m, --n and --k; give one or the "
                    "other");
      problem = size;
    }
    if (clockOption.getNumOccurrences()) {
      if (!problem)
        return fail("--clock-ghz needs a problem size (--m, --n, --k)");
      double v;
      if (llvm::StringRef(clockOption).getAsDouble(v) || !std::isfinite(v) || v < 0.1 ||
          v > 10)
        return fail("--clock-ghz '" + clockOption + "': expected a clock from 0.1 to 10 GHz");
      clockGHz = v;
    }
  }

  // The context outlives `ex`, which holds the description's op.
  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagHandler;
  OwningOpRef<ModuleOp> module;

  Explained ex;
  if (!descFile.empty()) {
    DialectRegistry registry;
    registerAllDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
    context->printOpOnDiagnostic(false);
    diagHandler = std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, context.get());
    if (int rc = explainDescription(*context, sourceMgr, module, ex))
      return rc;
  } else {
    if (!costsOption.getNumOccurrences())
      return fail("nothing to explain: give a description (tilegen explain DESC "
                  "--target=T) or the costs (--costs load=L,mma=M,epilogue=E,issue=I)");
    llvm::SmallVector<llvm::StringRef> missing;
    if (!overrides.load)
      missing.push_back("load");
    if (!overrides.mma)
      missing.push_back("mma");
    if (!overrides.epilogue)
      missing.push_back("epilogue");
    if (!overrides.issue)
      missing.push_back("issue");
    if (!missing.empty())
      return fail("--costs without a description needs load, mma, epilogue and issue; "
                  "missing: " +
                  llvm::join(missing, ", "));
    ex.target = explainTarget;
    ex.unit = "units";
    // The seed's defaults: four stages, two accumulators, 6 K-slices per tile.
    ex.stagesSource = "default";
    ex.shape.stages = 4;
    ex.shape.accumulators = 2;
    ex.shape.kSlices = 6;
  }

  if (timelineTilesOption < 1 || timelineTilesOption > 1000)
    return fail("--timeline-tiles = " + llvm::Twine(timelineTilesOption.getValue()) +
                " must be from 1 to 1000");
  if (widthOption < 41 || widthOption > 10000)
    return fail("--width = " + llvm::Twine(widthOption.getValue()) +
                " must be from 41 (the row labels take 12 columns) to 10000");

  // Overrides: --stages, --accumulators; with a problem size its costs and the busiest CTA's
  // run; then --costs, --tiles, --k-slices.
  if (stagesOption.getNumOccurrences()) {
    ex.shape.stages = stagesOption;
    ex.stagesSource = "--stages";
  }
  if (accumulatorsOption.getNumOccurrences())
    ex.shape.accumulators = accumulatorsOption;
  if (problem) {
    if (ex.shape.stages < 1 || ex.shape.stages > kMaxModelCount || ex.shape.accumulators < 1 ||
        ex.shape.accumulators > kMaxModelCount)
      return fail(llvm::formatv("stages = {0}, accumulators = {1}: each must be from 1 to {2}",
                                ex.shape.stages, ex.shape.accumulators, kMaxModelCount)
                      .str());
    ProblemLayout layout = layoutProblem(ex.op, *ex.plan, *problem, ex.shape.stages);
    const NVTargetInfo &info = ex.plan->target.info();
    if (layout.resident < 1)
      return fail(llvm::formatv("a CTA of {0} threads and {1} of shared memory (+ 1 KB "
                                "reserved) does not fit on an SM of {2} ({3} resident "
                                "threads, {4} of shared memory): nothing to predict",
                                ex.plan->threads, formatBytes(layout.smemPerCta),
                                ex.target, info.residentWarps * 32,
                                formatBytes(info.smemPerSM))
                      .str());
    ex.problemCosts = problemCosts(layout, ex.costs, ex.breakdown,
                                   clockGHz > 0 ? clockGHz : info.ratedClockGHz);
    ex.costs = ex.problemCosts.costs;
    // The model's shape is the busiest CTA's run when it is short enough to draw and print;
    // else its first tiles and slices (the prediction extrapolates the whole run).
    int64_t tiles = static_cast<int64_t>(std::min<uint64_t>(layout.busiestTiles, 1 << 20));
    // (A split after whole tiles draws the whole tiles; the tail is in the prediction.)
    bool splitOnly = layout.streamKSplit && layout.wholeTiles == 0;
    if (layout.streamKSplit && layout.wholeTiles > 0)
      tiles = static_cast<int64_t>(std::min<uint64_t>(layout.wholeTiles, 1 << 20));
    int64_t slices = splitOnly ? layout.splitSlices : layout.kSlices;
    if (layout.freshCtaPerTile)
      tiles = 1;
    if (tiles * slices > (1 << 20)) {
      ex.windowed = true;
      tiles = std::min<int64_t>(tiles, 3);
      slices = std::min<int64_t>(slices, (1 << 20) / 3);
    }
    ex.shape.tiles = static_cast<int>(tiles);
    ex.shape.kSlices = static_cast<int>(slices);
    ex.kSlicesFromK = !splitOnly && !ex.windowed ? static_cast<int>(problem->k) : 0;
    ex.problem = layout;
  }
  auto apply = [&](const std::optional<double> &v, double &field, llvm::StringRef name) {
    if (!v)
      return;
    field = *v;
    if (ex.plan)
      ex.overridden.push_back(name.str());
  };
  apply(overrides.load, ex.costs.load, "load");
  apply(overrides.mma, ex.costs.mma, "mma");
  apply(overrides.epilogue, ex.costs.epilogue, "epilogue");
  apply(overrides.issue, ex.costs.issue, "issue");
  if (!ex.problem)
    ex.shape.tiles = tilesOption;
  if (kSlicesOption.getNumOccurrences()) {
    ex.shape.kSlices = kSlicesOption;
    ex.kSlicesFromK = 0;
  }
  if (llvm::Error e = checkModel(ex.shape, ex.costs))
    return fail(llvm::toString(std::move(e)));
  if (ex.plan) {
    // The budget of what is explained, not of what the description asked for.
    ex.plan->accumulators = ex.shape.accumulators;
    ex.plan->stages = ex.shape.stages;
  }
  if (ex.problem) {
    ex.problemCosts.costs = ex.costs; // with --costs applied
    ex.prediction = predictProblem(*ex.problem, ex.problemCosts, ex.shape.stages,
                                   ex.shape.accumulators, ex.breakdown.flopsPerCycle);
  }

  // The drawn and listed outputs write every slice they show: bound them (the text timeline
  // scales to --width and needs no bound).
  constexpr int64_t kMaxListedSlices = 200'000;
  if (!svgOption.empty() && !descFile.empty() && descFile != "-" &&
      isSameFile(svgOption, descFile))
    return fail("--svg " + svgOption + " is the input file; writing it would overwrite the "
                "description");
  if (!svgOption.empty()) {
    int64_t drawn = int64_t(std::min<int>(timelineTilesOption, ex.shape.tiles)) * ex.shape.kSlices;
    if (drawn > kMaxDrawnSlices)
      return fail(llvm::formatv("--svg draws every K-slice of the tiles it shows: {0} x {1} = "
                                "{2} slices, at most {3} (lower --timeline-tiles or --k-slices)",
                                std::min<int>(timelineTilesOption, ex.shape.tiles),
                                ex.shape.kSlices, drawn, kMaxDrawnSlices)
                      .str());
  }
  if (jsonScheduleOption && jsonOption) {
    int64_t listed = int64_t(ex.shape.tiles) * ex.shape.kSlices;
    if (listed > kMaxListedSlices)
      return fail(llvm::formatv("--json-schedule lists every slice of the run: tiles x k-slices "
                                "= {0} x {1} = {2}, at most {3} (lower --tiles or --k-slices)",
                                ex.shape.tiles, ex.shape.kSlices, listed, kMaxListedSlices)
                      .str());
  }

  ModelSchedule s = simulatePipeline(ex.shape, ex.costs);
  PeriodTerms period = steadyStatePeriod(ex.shape.stages, ex.costs);
  int feed = fewestStagesToFeed(ex.costs);

  if (!svgOption.empty()) {
    if (isFifoWithoutReader(svgOption))
      return fail("--svg " + svgOption + ": a FIFO that no process reads (writing would wait "
                  "forever)");
    std::string err;
    auto out = openOutputFile(svgOption, &err);
    if (!out)
      return fail(err);
    std::string title = llvm::formatv("{0}{1} stages, {2} accumulators, {3} tiles x {4} "
                                      "K-slices: run {5} {6}, tensor core busy {7}",
                                      ex.plan ? ("@" + ex.op.getSymName() + " on " +
                                                 ex.target + ": ")
                                                    .str()
                                              : std::string(),
                                      ex.shape.stages, ex.shape.accumulators, ex.shape.tiles,
                                      ex.shape.kSlices, num(s.run), ex.unit,
                                      percent(s.busy()));
    writeTimelineSVG(out->os(), s, timelineTilesOption, title, ex.unit);
    if (!keepOutput(*out, "tilegen explain"))
      return 1;
  }
  if (jsonOption)
    printJSON(llvm::outs(), ex, s, period, feed);
  else
    printText(llvm::outs(), ex, s, period, feed);
  return 0;
}
