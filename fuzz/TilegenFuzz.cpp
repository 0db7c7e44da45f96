//===- TilegenFuzz.cpp - libFuzzer target: one description through tilegen --===//
//
//   build-sanitize/bin/tilegen-fuzz CORPUS_DIR SEED_DIR -timeout=10 -rss_limit_mb=4096
//   build-sanitize/bin/tilegen-fuzz crash-<sha1>          (replays one input)
//
// Runs one input (format: FuzzInput.h; the first line says target and stage) the way
// tools/tilegen/tilegen.cpp does, with the same library functions: parseInput (nesting bound,
// parse, verify, descriptions and plans only), the pass pipeline of buildTilegenPipeline
// (resolve, plan, lower, to the LLVM dialect), findKernels, translateToLLVMIR, emitPTX and
// manifestJSON; before the pipeline, the core of `tilegen explain` (targetFor, resolveGemm,
// costsFor, the problem-size model of --m/--n/--k, checkModel, simulatePipeline, the
// timelines) when the file has one description, as explain requires.
// Diagnostics go to a handler that counts them; nothing is printed unless a check fails.
//
// A finding is a sanitizer report, a crash, a timeout (-timeout), an out-of-memory
// (-rss_limit_mb), or one of these checks, each an abort() from its own function (so that
// libFuzzer's dedup token tells them apart) after a line "tilegen-fuzz: FINDING <kind>: ...":
//   silent-failure     parsing or the pass pipeline failed without an error diagnostic
//   error-but-success  an error diagnostic was emitted but the pipeline succeeded
//   round-trip         --emit=tile/pipeline output that tilegen cannot read back
//   recheck            the --emit=tile output (the description with every choice written
//                      back) does not plan exactly as the input did (`tile.pipeline` text,
//                      without its `description` copy)
//   kernel-target      a lowered kernel without a known tilegen.target (the driver calls it a
//                      tilegen bug)
//   translation        translateToLLVMIR or emitPTX failed after the pipeline succeeded
//   manifest           a manifest that is not JSON or that tilegen-run's reader rejects
//   ptxas              ptxas rejected the PTX
// Since tilegen reads only descriptions and plans, every failure after a successful pipeline is
// tilegen's.
//
// Work grows with the kernels of a file, and size alone would turn into timeouts: a file with more
// than four descriptions and plans is planned, not lowered (lowering a large kernel to the LLVM
// dialect takes up to 0.7 s under the sanitizers), and one with more than two kernels stops
// after the pass pipeline (translation and PTX cost a second or two per kernel).
//
// ptxas is a subprocess (0.3-1 s), so it runs only on PTX whose hash (with the target) it has
// not seen assemble: in this process, and across processes through the file named by
// $TILEGEN_FUZZ_PTXAS_CACHE (one hex hash per line, appended after each success; scripts/fuzz.sh
// keeps it in the build folder). $TILEGEN_FUZZ_PTXAS=off skips ptxas. ptxas runs with -v -O3
// (as tilegen does) and a limit of at most 8 s that ends 9 s after the input started (so that
// ptxas's time does not turn an input into a timeout under scripts/fuzz.sh's -timeout=10; an
// input whose own work left ptxas less than a second skips it); a ptxas that runs out of time is
// not a finding.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"

#include "Manifest.h" // tools/tilegen-run

#include "tilegen/Analysis/PipelineCosts.h"
#include "tilegen/Analysis/PipelineModel.h"
#include "tilegen/Analysis/ProblemModel.h"
#include "tilegen/Analysis/Timeline.h"
#include "tilegen/Codegen/Input.h"
#include "tilegen/Codegen/Manifest.h"
#include "tilegen/Codegen/PTX.h"
#include "tilegen/Codegen/Pipeline.h"
#include "tilegen/Codegen/Ptxas.h"
#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/InitAll.h"
#include "tilegen/Pipeline/GemmPlan.h"
#include "tilegen/Target/NVTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <sys/time.h>

using namespace mlir;
using namespace tilegen;
using tilegen::fuzz::Emit;
using tilegen::fuzz::FuzzOptions;

//===----------------------------------------------------------------------===//
// Options line
//===----------------------------------------------------------------------===//

llvm::StringRef tilegen::fuzz::emitName(Emit emit) {
  switch (emit) {
  case Emit::Tile:
    return "tile";
  case Emit::Pipeline:
    return "pipeline";
  case Emit::NVVM:
    return "nvvm";
  case Emit::LLVM:
    return "llvm";
  case Emit::PTX:
    return "ptx";
  }
  return "ptx";
}

FuzzOptions tilegen::fuzz::parseOptions(llvm::StringRef text) {
  FuzzOptions o;
  llvm::StringRef line = text.take_until([](char c) { return c == '\n'; });
  if (!line.consume_front("//"))
    return o;
  llvm::SmallVector<llvm::StringRef> words;
  line.split(words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef word : words) {
    std::pair<llvm::StringRef, llvm::StringRef> kv = word.trim().split('=');
    llvm::StringRef key = kv.first, value = kv.second;
    auto integer = [&](std::optional<int> &out) {
      int v;
      if (!value.getAsInteger(10, v))
        out = v;
    };
    if (key == "target") {
      o.target = value == "none" ? "" : value.str();
      o.badTarget = !o.target.empty() && !NVTarget::parse(o.target);
    } else if (key == "emit") {
      o.emit = value == "tile"       ? Emit::Tile
               : value == "pipeline" ? Emit::Pipeline
               : value == "nvvm"     ? Emit::NVVM
               : value == "llvm"     ? Emit::LLVM
                                     : Emit::PTX;
    } else if (key == "stages") {
      integer(o.stages);
    } else if (key == "accumulators") {
      integer(o.accumulators);
    } else if (key == "tiles") {
      integer(o.tiles);
    } else if (key == "k-slices") {
      integer(o.kSlices);
    } else if (key == "timeline-tiles") {
      integer(o.timelineTiles);
    } else if (key == "width") {
      integer(o.width);
    } else if (key == "m" || key == "n" || key == "k") {
      (key == "m" ? o.m : key == "n" ? o.n : o.k) = value.str();
    } else if (key == "clock-ghz") {
      o.clockGHz = value.str();
    } else if (key == "load" || key == "mma" || key == "epilogue" || key == "issue") {
      double v;
      if (!value.getAsDouble(v))
        (key == "load" ? o.load : key == "mma" ? o.mma : key == "epilogue" ? o.epilogue : o.issue) = v;
    }
  }
  return o;
}

//===----------------------------------------------------------------------===//
// Findings
//===----------------------------------------------------------------------===//

namespace {
/// The input being run, for the report of a finding.
struct Current {
  llvm::StringRef text;
  const FuzzOptions *options = nullptr;
  std::chrono::steady_clock::time_point start;
};
Current current;

/// Counts the diagnostics of one run and keeps the first error's text.
struct DiagnosticCounter {
  unsigned errors = 0;
  std::string firstError;
  void reset() {
    errors = 0;
    firstError.clear();
  }
};
} // namespace

static void reportFinding(llvm::StringRef kind, const llvm::Twine &message) {
  const FuzzOptions &o = *current.options;
  llvm::errs() << "tilegen-fuzz: FINDING " << kind << ": " << message << "\n"
               << "tilegen-fuzz: replay with: build/bin/tilegen INPUT"
               << (o.target.empty() ? std::string() : " --target=" + o.target)
               << " --emit=" << (o.emit == Emit::PTX ? "cubin -o /tmp/x.cubin" : fuzz::emitName(o.emit))
               << "\n";
  llvm::errs().flush();
}

// One function per kind: each is a distinct frame in the stack trace, so libFuzzer's
// DEDUP_TOKEN separates the kinds.
[[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void silentFailure(const llvm::Twine &m) {
  reportFinding("silent-failure", m);
  std::abort();
}
[[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void errorButSuccess(const llvm::Twine &m) {
  reportFinding("error-but-success", m);
  std::abort();
}
[[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void roundTripFailure(const llvm::Twine &m) {
  reportFinding("round-trip", m);
  std::abort();
}
[[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void recheckFailure(const llvm::Twine &m) {
  reportFinding("recheck", m);
  std::abort();
}
[[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void kernelTarget(const llvm::Twine &m) {
  reportFinding("kernel-target", m);
  std::abort();
}
[[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void translationFailure(const llvm::Twine &m) {
  reportFinding("translation", m);
  std::abort();
}
[[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void manifestFailure(const llvm::Twine &m) {
  reportFinding("manifest", m);
  std::abort();
}
[[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void ptxasRejection(const llvm::Twine &m) {
  reportFinding("ptxas", m);
  std::abort();
}

//===----------------------------------------------------------------------===//
// ptxas, once per PTX
//===----------------------------------------------------------------------===//

/// runPtxas and findPtxas register their temporary files with llvm::sys::RemoveFileOnSignal,
/// which installs LLVM's handlers for SIGABRT, SIGINT, SIGTERM, SIGILL, SIGFPE, SIGBUS, SIGSEGV
/// and the other fatal signals. Installed by LLVMFuzzerInitialize (findPtxas), they kept
/// libFuzzer from installing its own (it does not replace a handler it finds, SIGSEGV aside),
/// and LLVM's handler falls back to the default action: every abort() (each finding below,
/// llvm_unreachable, report_fatal_error) ended the process by SIGABRT with no "deadly signal"
/// report and no crash-* input, and fork mode counted a crash and showed nothing (seen: a
/// process that had run ptxas, sent SIGABRT, exited 134 without a report). So the handlers that
/// were there before (none at initialization; libFuzzer's and ASan's later) go back after
/// findPtxas and after each ptxas run.
static void restoreFuzzerSignalHandlers() { llvm::sys::unregisterHandlers(); }

namespace {
class PtxasOnce {
public:
  PtxasOnce() {
    const char *mode = std::getenv("TILEGEN_FUZZ_PTXAS");
    if (mode && llvm::StringRef(mode) == "off")
      return;
    auto found = findPtxas();
    restoreFuzzerSignalHandlers(); // findPtxas ran `ptxas --version`
    if (!found) {
      llvm::errs() << "tilegen-fuzz: not running ptxas: " << llvm::toString(found.takeError())
                   << "\n";
      return;
    }
    tool = *found;
    if (const char *path = std::getenv("TILEGEN_FUZZ_PTXAS_CACHE")) {
      cachePath = path;
      if (auto buf = llvm::MemoryBuffer::getFile(cachePath)) {
        llvm::SmallVector<llvm::StringRef> lines;
        (*buf)->getBuffer().split(lines, '\n', -1, false);
        for (llvm::StringRef line : lines) {
          uint64_t h;
          if (!line.trim().getAsInteger(16, h))
            seen.insert(h);
        }
      }
    }
  }

  /// Assembles `ptx` for `target` unless this PTX assembled before; aborts on a rejection.
  void check(llvm::StringRef ptx, const NVTarget &target) {
    if (!tool)
      return;
    uint64_t h = llvm::hash_combine(target.name(), ptx);
    if (seen.contains(h))
      return;
    // ptxas gets what is left of the input's time (kPtxasEnd after its start), at most
    // kPtxasLimit: its time counts towards libFuzzer's -timeout, and a slow ptxas is not
    // tilegen's bug.
    constexpr int kPtxasLimit = 8, kPtxasEnd = 9;
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - current.start).count();
    int limit = std::min(kPtxasLimit, static_cast<int>(kPtxasEnd - elapsed));
    if (limit < 1)
      return;
    // runPtxas's limit is an alarm() (llvm::sys::ExecuteAndWait), which replaces libFuzzer's
    // -timeout timer (setitimer, the same ITIMER_REAL) and cancels it on return; without the
    // timer put back, no input after the first ptxas run of a process would time out.
    struct itimerval fuzzerTimer;
    bool haveTimer = getitimer(ITIMER_REAL, &fuzzerTimer) == 0;
    auto result = runPtxas(*tool, ptx, target, "/dev/null", "", limit);
    if (haveTimer)
      setitimer(ITIMER_REAL, &fuzzerTimer, nullptr);
    restoreFuzzerSignalHandlers();
    if (!result) {
      std::string message = llvm::toString(result.takeError());
      if (llvm::StringRef(message).contains("did not finish"))
        return; // slow ptxas is not tilegen's bug
      ptxasRejection(message);
    }
    seen.insert(h);
    if (!cachePath.empty()) {
      std::error_code ec;
      llvm::raw_fd_ostream os(cachePath, ec, llvm::sys::fs::OF_Append);
      if (!ec)
        os << llvm::format_hex_no_prefix(h, 16) << "\n";
    }
  }

private:
  std::optional<PtxasTool> tool;
  std::string cachePath;
  llvm::DenseSet<uint64_t> seen;
};
} // namespace

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

static DialectRegistry &registry() {
  static DialectRegistry *r = [] {
    auto *reg = new DialectRegistry();
    registerAllDialects(*reg);
    registerAllTranslations(*reg);
    return reg;
  }();
  return *r;
}

static PtxasOnce &ptxas() {
  static PtxasOnce *p = new PtxasOnce();
  return *p;
}

/// The core of `tilegen explain` (tools/tilegen/Explain.cpp: explainDescription, then
/// explainMain from the option checks to the timelines) on one description, printing into
/// nothing. It mirrors that code step by step, because the tool keeps it, and its report
/// printers, to itself; keep the two in step until they move into lib/Analysis.
static void explainModel(tile::GemmOp op, const FuzzOptions &o) {
  // explainDescription.
  FailureOr<NVTarget> target = targetFor(op, o.target);
  if (failed(target))
    return;
  FailureOr<GemmPlan> plan = resolveGemm(op, *target);
  if (failed(plan))
    return;
  CostBreakdown breakdown;
  ModelCosts costs = costsFor(op, *plan, &breakdown);
  (void)std::max(2, fewestStagesToFeed(costs));
  (void)stagesThatFit(*plan);
  ModelShape shape;
  shape.stages = static_cast<int>(plan->stages);
  shape.accumulators = static_cast<int>(plan->accumulators);
  shape.kSlices = static_cast<int>((4096 + plan->tileK - 1) / plan->tileK);

  // explainMain: the problem size (--m/--n/--k, all three or none) and --clock-ghz.
  std::optional<ProblemSize> problem;
  double clockGHz = 0;
  if (o.m || o.n || o.k) {
    if (!o.m || !o.n || !o.k || o.tiles || o.kSlices)
      return;
    ProblemSize size;
    for (auto [flag, text, field] :
         {std::tuple<const char *, const std::optional<std::string> &, int64_t *>{"m", o.m,
                                                                                 &size.m},
          {"n", o.n, &size.n},
          {"k", o.k, &size.k}}) {
      llvm::Expected<int64_t> v = parseProblemDim(flag, *text);
      if (!v) {
        llvm::consumeError(v.takeError());
        return;
      }
      *field = *v;
    }
    problem = size;
  }
  if (o.clockGHz) {
    double v;
    if (!problem || llvm::StringRef(*o.clockGHz).getAsDouble(v) || !std::isfinite(v) ||
        v < 0.1 || v > 10)
      return;
    clockGHz = v;
  }
  int timelineTiles = o.timelineTiles.value_or(3), width = o.width.value_or(100);
  if (timelineTiles < 1 || timelineTiles > 1000 || width < 41 || width > 10000)
    return;
  if (o.stages)
    shape.stages = *o.stages;
  if (o.accumulators)
    shape.accumulators = *o.accumulators;
  std::optional<ProblemLayout> layout;
  ProblemCosts pc;
  if (problem) {
    if (shape.stages < 1 || shape.stages > kMaxModelCount || shape.accumulators < 1 ||
        shape.accumulators > kMaxModelCount)
      return;
    layout = layoutProblem(op, *plan, *problem, shape.stages);
    if (layout->resident < 1)
      return;
    pc = problemCosts(*layout, costs, breakdown,
                      clockGHz > 0 ? clockGHz : plan->target.info().ratedClockGHz);
    costs = pc.costs;
    int64_t tiles = static_cast<int64_t>(std::min<uint64_t>(layout->busiestTiles, 1 << 20));
    int64_t slices = layout->streamKSplit ? layout->splitSlices : layout->kSlices;
    if (layout->freshCtaPerTile)
      tiles = 1;
    if (tiles * slices > (1 << 20)) {
      tiles = std::min<int64_t>(tiles, 3);
      slices = std::min<int64_t>(slices, (1 << 20) / 3);
    }
    shape.tiles = static_cast<int>(tiles);
    shape.kSlices = static_cast<int>(slices);
  }
  // --costs, as parseCosts reads them (checkModel bounds them further).
  for (auto [given, field, isMma] :
       {std::tuple<std::optional<double>, double *, bool>{o.load, &costs.load, false},
        {o.mma, &costs.mma, true},
        {o.epilogue, &costs.epilogue, false},
        {o.issue, &costs.issue, false}}) {
    if (!given)
      continue;
    if (!std::isfinite(*given) || *given < 0 || (isMma && *given == 0))
      return;
    *field = *given;
  }
  if (!problem)
    shape.tiles = o.tiles.value_or(3);
  if (o.kSlices)
    shape.kSlices = *o.kSlices;
  if (llvm::Error e = checkModel(shape, costs)) {
    llvm::consumeError(std::move(e));
    return;
  }
  plan->accumulators = shape.accumulators;
  plan->stages = shape.stages;
  (void)plan->smemFor(shape.stages);
  if (layout) {
    pc.costs = costs;
    Prediction prediction = predictProblem(*layout, pc, shape.stages, shape.accumulators,
                                           breakdown.flopsPerCycle);
    (void)prediction;
  }
  ModelSchedule schedule = simulatePipeline(shape, costs);
  PeriodTerms period = steadyStatePeriod(shape.stages, costs);
  (void)period;
  (void)fewestStagesToFeed(costs);
  (void)schedule.busy();
  (void)schedule.lastWindowPeriod();
  llvm::raw_null_ostream null;
  printTextTimeline(null, schedule, timelineTiles, width, "cycles");
  // --svg: refused past kMaxDrawnSlices drawn slices.
  if (int64_t(std::min(timelineTiles, shape.tiles)) * shape.kSlices <= kMaxDrawnSlices)
    writeTimelineSVG(null, schedule, timelineTiles, "fuzz", "cycles");
}

/// Parses `text` (the printed output of a stage) in a fresh context; reports a round-trip
/// failure with the first error.
static void checkRoundTrip(llvm::StringRef printed, llvm::StringRef stage) {
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  std::string firstError;
  context.getDiagEngine().registerHandler([&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
      firstError = d.str();
    return success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(printed, "printed"),
                               llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseInput(sourceMgr, &context);
  if (!module)
    roundTripFailure("the --emit=" + stage + " output does not parse back: " + firstError +
                     "\n--- output ---\n" + printed);
}

/// `text` planned for `target` (tilegen --emit=pipeline), printed without the plans'
/// `description` attributes; std::nullopt with the first error if it does not plan.
static std::optional<std::string> planOf(llvm::StringRef text, llvm::StringRef target,
                                         std::string &firstError) {
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  context.getDiagEngine().registerHandler([&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
      firstError = d.str();
    return success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "input"),
                               llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseInput(sourceMgr, &context);
  if (!module)
    return std::nullopt;
  PassManager pm(&context, ModuleOp::getOperationName());
  buildTilegenPipeline(pm, PipelineOptions{target.str()}, Stage::Pipeline);
  if (failed(pm.run(*module)))
    return std::nullopt;
  module->walk([](tile::PipelineOp plan) { plan->removeAttr("description"); });
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  return printed;
}

/// The checked description (`printed`, the --emit=tile output of `input`) must plan exactly as
/// the input does: the choices written back are the ones that were made.
static void checkRecheck(llvm::StringRef input, llvm::StringRef printed, llvm::StringRef target) {
  std::string inputError, printedError;
  std::optional<std::string> fromInput = planOf(input, target, inputError);
  if (!fromInput)
    return; // planning fails after checking: not this check's business
  std::optional<std::string> fromPrinted = planOf(printed, target, printedError);
  if (!fromPrinted)
    recheckFailure("the --emit=tile output does not plan, the input does: " + printedError +
                   "\n--- --emit=tile output ---\n" + printed);
  if (*fromInput != *fromPrinted)
    recheckFailure("the --emit=tile output plans differently from the input\n--- input's "
                   "plan ---\n" +
                   *fromInput + "\n--- the --emit=tile output's plan ---\n" + *fromPrinted);
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registry();
  ptxas();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  FuzzOptions o = fuzz::parseOptions(text);
  current = {text, &o, std::chrono::steady_clock::now()};
  if (o.badTarget)
    return -1; // tilegen refuses an unknown --target before reading the input

  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  DiagnosticCounter diags;
  context.getDiagEngine().registerHandler([&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error) {
      if (!diags.errors++)
        diags.firstError = d.str();
    }
    return success();
  });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "input"),
                               llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseInput(sourceMgr, &context);
  if (!module) {
    if (!diags.errors)
      silentFailure("parsing failed without an error diagnostic");
    return 0;
  }
  llvm::SmallVector<tile::GemmOp> gemms(module->getBody()->getOps<tile::GemmOp>());

  // `tilegen explain`, which takes a file with one description.
  if (gemms.size() == 1)
    explainModel(gemms.front(), o);

  diags.reset();
  Stage stop = o.emit == Emit::Tile       ? Stage::Tile
               : o.emit == Emit::Pipeline ? Stage::Pipeline
               : o.emit == Emit::NVVM     ? Stage::NVVM
                                          : Stage::LLVM;
  // Lowering costs each kernel the same whatever else the file holds: past four kernels, plan
  // only (the pipeline's own stages are what is checked then).
  constexpr size_t kMostLoweredKernels = 4;
  size_t plans = llvm::range_size(module->getBody()->getOps<tile::PipelineOp>());
  bool plannedOnly = stop > Stage::Pipeline && gemms.size() + plans > kMostLoweredKernels;
  if (plannedOnly)
    stop = Stage::Pipeline;
  PassManager pm(&context, ModuleOp::getOperationName());
  buildTilegenPipeline(pm, PipelineOptions{o.target}, stop);
  if (failed(pm.run(*module))) {
    if (!diags.errors)
      silentFailure("the pass pipeline failed without an error diagnostic");
    return 0;
  }
  if (diags.errors)
    errorButSuccess("the pass pipeline succeeded after the error: " + diags.firstError);
  if (plannedOnly)
    return 0;

  if (o.emit == Emit::Tile || o.emit == Emit::Pipeline || o.emit == Emit::NVVM) {
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os);
    if (o.emit != Emit::NVVM)
      checkRoundTrip(printed, fuzz::emitName(o.emit));
    if (o.emit == Emit::Tile)
      checkRecheck(text, printed, o.target);
    return 0;
  }

  // The driver from here on (tools/tilegen/tilegen.cpp).
  SmallVector<LLVM::LLVMFuncOp> kernels = findKernels(*module);
  if (kernels.empty())
    return 0; // "the input has no tile.gemm"
  // Translation and PTX cost a second or two per kernel and nothing in them depends on how many
  // kernels a file has: with more than two, only the MLIR part is run, so that the size of a
  // file does not turn into timeouts.
  if (kernels.size() > 2)
    return 0;
  for (LLVM::LLVMFuncOp k : kernels) {
    auto attr = k->getAttrOfType<StringAttr>("tilegen.target");
    if (!attr || !NVTarget::parse(attr.getValue()))
      kernelTarget("kernel @" + k.getSymName() + " carries no known tilegen.target");
  }
  StringRef kernelTarget = kernels.front()->getAttrOfType<StringAttr>("tilegen.target");
  for (LLVM::LLVMFuncOp k : kernels)
    if (k->getAttrOfType<StringAttr>("tilegen.target").getValue() != kernelTarget)
      return 0; // "kernels for different targets in one file"
  NVTarget target = *NVTarget::parse(kernelTarget);

  llvm::LLVMContext llvmContext;
  auto llvmModule = translateToLLVMIR(*module, target, llvmContext);
  if (!llvmModule)
    translationFailure("translateToLLVMIR: " + llvm::toString(llvmModule.takeError()) + " " +
                       diags.firstError);

  // The manifests: JSON, and accepted by tilegen-run's reader.
  for (LLVM::LLVMFuncOp k : kernels) {
    std::string cubinName = (k.getSymName() + ".cubin").str();
    std::string manifest = manifestJSON(k, cubinName);
    if (auto parsed = llvm::json::parse(manifest); !parsed)
      manifestFailure("manifestJSON wrote invalid JSON (" + llvm::toString(parsed.takeError()) +
                      "):\n" + manifest);
    run::Manifest m;
    // A refusal the runner declares ("not supported yet": kernels it cannot launch yet, such
    // as the native block-scaled ones with scale atoms) is a stated limit, not a finding.
    if (run::Error e = run::parseManifest(manifest, "manifest.json", m);
        e && e.message().find("not supported yet") == std::string::npos)
      manifestFailure("tilegen-run rejects the manifest tilegen wrote: " + e.message() +
                      "\n" + manifest);
  }

  if (o.emit == Emit::LLVM) {
    llvm::raw_null_ostream null;
    (*llvmModule)->print(null, nullptr);
    return 0;
  }
  auto ptx = emitPTX(**llvmModule, target);
  if (!ptx)
    translationFailure("emitPTX: " + llvm::toString(ptx.takeError()));
  ptxas().check(*ptx, target);
  return 0;
}
