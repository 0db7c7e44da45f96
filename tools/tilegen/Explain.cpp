//===- Explain.cpp - tilegen explain: the pipeline model of a description --===//
//
//   tilegen explain desc.mlir --target=sm_90a [--svg out.svg]
//   tilegen explain desc.mlir --target=sm_100a --stages=3 --accumulators=1 --json
//   tilegen explain --costs load=12,mma=4,epilogue=8,issue=1 --tiles=3 --k-slices=6 --json
//
// Evaluates the seed's max-plus recurrences (lib/Analysis/PipelineModel) for a description on a
// target, with costs from the target table (lib/Analysis/PipelineCosts) or given by --costs,
// and reports the shared-memory and TMEM budget, the steady-state period and what binds it,
// the tensor core's busy share, the fewest stages that feed it and a timeline.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Analysis/PipelineCosts.h"
#include "tilegen/Analysis/PipelineModel.h"
#include "tilegen/Analysis/Timeline.h"
#include "tilegen/Codegen/Input.h"
#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/InitAll.h"
#include "tilegen/Pipeline/GemmPlan.h"
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
#include "llvm/Support/WithColor.h"

#include <optional>

using namespace mlir;
using namespace tilegen;
namespace cl = llvm::cl;

namespace tilegen {
int explainMain(int argc, char **argv);
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
static cl::opt<int> tilesOption("tiles",
                                cl::desc("output tiles one CTA computes (default 3)"),
                                cl::init(3), cl::sub(explainCommand), cl::cat(explainCategory));
static cl::opt<int> kSlicesOption(
    "k-slices",
    cl::desc("K-slices per tile (default: K = 4096 over the tile's K with a description, 6 "
             "without)"),
    cl::init(0), cl::sub(explainCommand), cl::cat(explainCategory));
static cl::opt<int> stagesOption("stages",
                                 cl::desc("ring stages (overrides the description's)"),
                                 cl::init(0), cl::sub(explainCommand),
                                 cl::cat(explainCategory));
static cl::opt<int>
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
static cl::opt<int> timelineTilesOption("timeline-tiles",
                                        cl::desc("tiles the timelines show (default 3)"),
                                        cl::init(3), cl::sub(explainCommand),
                                        cl::cat(explainCategory));
static cl::opt<int> widthOption("width",
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
  os << llvm::formatv("  A slice   {0} x {1} x {2} B = {3}\n", rowsA, p.tileK, elem,
                      formatBytes(m.aSliceBytes));
  os << llvm::formatv("  B slice   {0} x {1} x {2} B = {3}\n", colsB, p.tileK, elem,
                      formatBytes(m.bSliceBytes));
  os << llvm::formatv("  stage     {0} (A + B, slots aligned to {1} B)\n", formatBytes(m.slotBytes),
                      p.family == MmaFamily::MmaSync ? 128 : 1024);
  os << llvm::formatv("  ring      {0} stages x {1} = {2}\n", ex.shape.stages,
                      formatBytes(m.slotBytes), formatBytes(ex.shape.stages * m.slotBytes));
  int64_t barriers = total - ex.shape.stages * m.slotBytes - m.epilogueBytes - m.ringOffset;
  if (p.family != MmaFamily::MmaSync)
    os << llvm::formatv("  barriers  {0} (full and empty per stage, two per accumulator)\n",
                        formatBytes(barriers));
  if (m.epilogueBytes)
    os << llvm::formatv("  epilogue  {0} (C staging for the TMA store)\n",
                        formatBytes(m.epilogueBytes));
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

static void printText(llvm::raw_ostream &os, const Explained &ex, const ModelSchedule &s,
                      const PeriodTerms &period, int feed) {
  if (ex.plan) {
    const GemmPlan &p = *ex.plan;
    os << llvm::formatv("tilegen explain: @{0} on {1} ({2})\n", ex.op.getSymName(),
                        p.target.name(), p.target.info().gpus);
    os << llvm::formatv("  {0}, {1}, copy = {2}, {3} threads, tile {4} x {5} x {6}, cta_group "
                        "{7}\n\n",
                        familyName(p.family), tile::stringifySchedule(p.schedule), tile::stringifyCopy(p.copy), p.threads, p.tileM,
                        p.tileN, p.tileK, ex.op.getCtaGroup());
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
  if (ex.plan && ex.plan->family == MmaFamily::MmaSync)
    os << "  schedule = multistage: the same warps load, multiply and store; the model's "
          "engines\n  are their roles, so it is optimistic where they contend\n";
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
  os << llvm::formatv("run: {0} tiles x {1} K-slices{2} = {3} {4}\n  tensor core busy {5} "
                      "({6} of {3})\n",
                      sh.tiles, sh.kSlices,
                      ex.kSlicesFromK ? llvm::formatv(" (K = {0})", ex.kSlicesFromK).str()
                                      : std::string(),
                      num(s.run), ex.unit, percent(s.busy()), num(s.mmaBusy));
  if (ex.plan) {
    const CostBreakdown &b = ex.breakdown;
    double intensity = b.flopsPerSlice / b.sliceBytes;
    double ridge = b.flopsPerCycle / b.bytesPerCycle;
    os << llvm::formatv("memory: the tile does {0} flop per loaded byte; the SM's ridge is {1} "
                        "flop/byte\n ",
                        num(intensity), num(ridge));
    if (intensity < ridge)
      os << llvm::formatv(" it needs {0}x reuse from L2 to be compute-bound (the model "
                          "counts\n  bandwidth in t_load only, not as a ceiling)\n",
                          llvm::formatv("{0:F1}", ridge / intensity).str());
    else
      os << " compute-bound even from DRAM\n";
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
  auto file = openInputFile(descFile, &errorMessage);
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
      "  tilegen explain --costs load=L,mma=M,epilogue=E,issue=I [--stages=S] ... --json\n");

  if (!explainTarget.empty() && !NVTarget::parse(explainTarget))
    return fail("unknown --target '" + explainTarget + "'; known targets: " +
                NVTarget::knownNames());
  CostOverrides overrides;
  if (costsOption.getNumOccurrences()) {
    auto parsed = parseCosts(costsOption);
    if (!parsed)
      return fail(llvm::toString(parsed.takeError()));
    overrides = *parsed;
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

  if (timelineTilesOption < 1)
    return fail("--timeline-tiles = " + llvm::Twine(timelineTilesOption.getValue()) +
                " must be at least 1");
  if (widthOption < 41)
    return fail("--width = " + llvm::Twine(widthOption.getValue()) +
                " must be at least 41 (the row labels take 12 columns)");

  // Overrides: --costs, --stages, --accumulators, --tiles, --k-slices.
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
  if (stagesOption.getNumOccurrences()) {
    ex.shape.stages = stagesOption;
    ex.stagesSource = "--stages";
  }
  if (accumulatorsOption.getNumOccurrences())
    ex.shape.accumulators = accumulatorsOption;
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

  ModelSchedule s = simulatePipeline(ex.shape, ex.costs);
  PeriodTerms period = steadyStatePeriod(ex.shape.stages, ex.costs);
  int feed = fewestStagesToFeed(ex.costs);

  if (!svgOption.empty()) {
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
    out->keep();
  }
  if (jsonOption)
    printJSON(llvm::outs(), ex, s, period, feed);
  else
    printText(llvm::outs(), ex, s, period, feed);
  return 0;
}
