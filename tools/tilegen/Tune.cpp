//===- Tune.cpp - tilegen tune: a dispatch table for a list of shapes -----===//
//
//   tilegen tune DESC --target=T --shapes LIST -o DIR [--top=N] [--measure=auto|never|always]
//                [--measurements FILE] [--runner PATH] [--clusters LIST]
//
// For each description of DESC, variants over the fields that decide how a problem size maps
// onto the GPU (tile M and N, accumulator buffers, grid, the cluster: --clusters) are resolved
// for the target; the illegal ones drop out with the resolver's reason. Fallbacks for strides
// that break the 16-byte rule (mma.sync with operand alignments of 4, 2 and 1 elements) are
// compiled too, for problems no ranked kernel can take. For every shape of LIST the
// pipeline model (`tilegen explain --m --n --k`) predicts each legal variant's time; the best
// --top per shape (and the description as written) are compiled to DIR/kernels/NAME.{cubin,json}
// beside the variant's description NAME.mlir (a resumed run reuses a kernel whose NAME.mlir is
// the same and whose cubin is newer than the tilegen binary). DIR/dispatch.json
// (docs/dispatch.md) maps each shape to the predicted-fastest kernel and lists its candidates.
//
// Measured: with a GPU (or --measure=always), tilegen-run (beside tilegen, or --runner) checks
// and times every candidate of every shape (`--dispatch DIR/dispatch.json --candidates`), and
// each entry takes the fastest measured kernel whose results were right; --measurements FILE reads such a run made elsewhere (a GPU
// machine without LLVM). Interrupted runs resume: a kernel whose NAME.mlir matches the variant
// is not compiled again, and every file is written whole or not at all.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Analysis/PipelineCosts.h"
#include "tilegen/Analysis/ProblemModel.h"
#include "tilegen/Codegen/Input.h"
#include "tilegen/Codegen/Manifest.h"
#include "tilegen/Codegen/PTX.h"
#include "tilegen/Codegen/Pipeline.h"
#include "tilegen/Codegen/Ptxas.h"
#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/InitAll.h"
#include "tilegen/Pipeline/GemmPlan.h"
#include "tilegen/Support/DecimalOption.h"
#include "tilegen/Support/InputFiles.h"
#include "tilegen/Support/JsonDepth.h"
#include "tilegen/Support/ShapeLists.h"
#include "tilegen/Target/NVTarget.h"
#include "tilegen/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace mlir;
using namespace tilegen;
namespace cl = llvm::cl;

namespace tilegen {
int tuneMain(int argc, char **argv);
int rejectDriverOptions(llvm::StringRef subcommand); // tilegen.cpp
} // namespace tilegen

static cl::SubCommand tuneCommand(
    "tune", "rank kernel variants per problem size and write a dispatch table (tilegen tune "
            "--help)");
static cl::OptionCategory tuneCategory("tilegen tune options");
static cl::opt<std::string> tuneInput(cl::Positional, cl::desc("<description.mlir>"),
                                      cl::init(""), cl::sub(tuneCommand), cl::cat(tuneCategory));
static cl::opt<std::string> tuneTarget("target",
                                       cl::desc("target (default: each description's own)"),
                                       cl::init(""), cl::sub(tuneCommand),
                                       cl::cat(tuneCategory));
static cl::opt<std::string>
    shapesOption("shapes",
                 cl::desc("problem sizes: comma-separated names (square, llm, odd, all) and "
                          "files of \"M N K\" lines"),
                 cl::value_desc("list"), cl::init(""), cl::sub(tuneCommand),
                 cl::cat(tuneCategory));
static cl::opt<std::string> outDir("o", cl::desc("output folder (dispatch.json, kernels/)"),
                                   cl::value_desc("dir"), cl::init(""), cl::sub(tuneCommand),
                                   cl::cat(tuneCategory));
static cl::opt<int, false, tilegen::DecimalParser<int>> topOption("top",
                              cl::desc("kernels kept per shape, best predicted first (1 to 16, "
                                       "default 4; the description as written is kept too, "
                                       "and with --measurements as many of the fastest "
                                       "timed)"),
                              cl::init(4), cl::sub(tuneCommand), cl::cat(tuneCategory));
namespace {
enum class Measure { Auto, Never, Always };
} // namespace
static cl::opt<Measure, false, tilegen::ValuesParser<Measure>> measureOption(
    "measure", cl::desc("time the candidates with tilegen-run"),
    cl::values(clEnumValN(Measure::Auto, "auto", "when this machine has an NVIDIA GPU (default)"),
               clEnumValN(Measure::Never, "never", "rank by the model alone"),
               clEnumValN(Measure::Always, "always", "always; fail without a GPU")),
    cl::init(Measure::Auto), cl::sub(tuneCommand), cl::cat(tuneCategory));
static cl::opt<std::string>
    measurementsOption("measurements",
                       cl::desc("a tilegen-run --json file of a `--dispatch DIR/dispatch.json "
                                "--candidates --bench` run: choose by its times (variants it "
                                "timed are candidates)"),
                       cl::value_desc("file"), cl::init(""), cl::sub(tuneCommand),
                       cl::cat(tuneCategory));
static cl::opt<std::string> runnerOption("runner",
                                         cl::desc("tilegen-run to measure with (default: the "
                                                  "one beside tilegen), or a program taking "
                                                  "its arguments that runs it on a GPU "
                                                  "elsewhere; with --measure=always it runs "
                                                  "without a GPU here"),
                                         cl::value_desc("path"), cl::init(""),
                                         cl::sub(tuneCommand), cl::cat(tuneCategory));
static cl::opt<std::string>
    clustersOption("clusters",
                   cl::desc("cluster shapes the variants try, X x Y CTAs along M and N "
                            "(comma-separated from 1x1, 2x1, 1x2, 2x2; default 1x1,2x1; "
                            "targets without them drop the variants)"),
                   cl::value_desc("list"), cl::init("1x1,2x1"), cl::sub(tuneCommand),
                   cl::cat(tuneCategory));
static cl::opt<std::string> ptxasOptionsTune("ptxas-options",
                                             cl::desc("extra options passed to ptxas"),
                                             cl::init(""), cl::sub(tuneCommand),
                                             cl::cat(tuneCategory));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tilegen tune") << message << "\n";
  return 1;
}

namespace {
/// One kernel variant of a description.
struct Variant {
  std::string name;
  bool fallback = false; ///< for strides TMA cannot take: not ranked, always compiled
  std::string text;      ///< its description, as compiled
  std::string summary;   ///< "tile = [128, 256, 64], accumulators = 1, ..."
  mutable tile::GemmOp op; ///< in the scratch module (op handles are values)
  std::optional<GemmPlan> plan;
  ModelCosts costs;
  CostBreakdown breakdown;
  bool asWritten = false; ///< the description itself
  std::optional<size_t> deeper;   ///< its sibling with a deeper ring (index into the variants)
  std::optional<size_t> deeperOf; ///< the variant this one is the deeper sibling of
  std::optional<size_t> hinted;   ///< its twin whose B loads are marked L2 evict_first
  std::optional<size_t> hintedOf; ///< the variant this one is the hinted twin of
  /// One K-slice in the model's cycles, for the table's "slice" (tilegen-run's scaled rule):
  /// the tensor core's time, the copies' issue without the L2 transfer, and the L2 -> shared
  /// memory bytes per cycle of one CTA. 0 until ranked; left out for cp.async-fed kernels,
  /// whose 16-byte copies do not straddle L2 lines.
  double sliceMma = 0, sliceIssue = 0, sliceL2 = 0;
  /// Stream-K only: a partial tile's fix-up (written and read back through L2) in cycles.
  double sliceFixup = 0;
};

struct Candidate {
  size_t variant = 0;
  double predicted = 0; ///< seconds
  double predictedCta = 0; ///< seconds: the busiest CTA's part of `predicted`
  std::optional<double> measured; ///< seconds (median)
  std::optional<double> estimated; ///< seconds: untimed beside timed ones (see --measurements)
  std::string failure;  ///< a measurement that did not pass
  bool joined = false;  ///< a candidate by its time in --measurements, not by the model
};

struct Entry {
  ProblemSize size;
  std::vector<Candidate> candidates; ///< best predicted first
  size_t chosen = 0;                 ///< index into candidates
  bool measured = false;
};
} // namespace

/// An unmeasured candidate beats the fastest measured one of its shape only when its predicted
/// time, scaled by the measured candidates' measured / predicted, is below this fraction of it.
constexpr double kUnmeasuredMargin = 0.9;

/// The most shapes one table is tuned for (a table entry takes about 1.2 KB with three
/// candidates, so the table stays well inside the 16 MiB tilegen-run reads).
constexpr size_t kMaxTuneShapes = 4096;

/// Reads --shapes: built-in names and files of "M N K" lines (# comments; x or , separate).
static LogicalResult readShapes(llvm::StringRef spec, std::vector<ProblemSize> &out) {
  llvm::SmallVector<llvm::StringRef> items;
  spec.split(items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    bool named = false;
    for (const NamedShapeList &list : namedShapeLists())
      if (item == list.name || item == "all") {
        for (const ShapeTriple &s : list.shapes)
          out.push_back({s.m, s.n, s.k});
        named = true;
      }
    if (named)
      continue;
    std::string why;
    auto buffer = readInputFile(item, 16u << 20, why);
    if (!buffer) {
      fail("--shapes: '" + item + "' is neither a named list (square, llm, odd, all) nor a "
           "readable file: " + why);
      return failure();
    }
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef text = (*buffer)->getBuffer();
    // A UTF-8 byte-order mark, as some editors write one, is not part of the first line.
    text.consume_front("\xEF\xBB\xBF");
    text.split(lines, '\n');
    size_t before = out.size();
    for (size_t i = 0; i < lines.size(); ++i) {
      llvm::StringRef line = lines[i].split('#').first.trim();
      if (line.empty())
        continue;
      std::string words = line.str();
      for (char &c : words)
        if (c == 'x' || c == ',' || c == '\t')
          c = ' ';
      llvm::SmallVector<llvm::StringRef> parts;
      llvm::StringRef(words).split(parts, ' ', -1, /*KeepEmpty=*/false);
      std::string where = (item + ":" + llvm::Twine(i + 1)).str();
      if (parts.size() != 3) {
        fail(where + ": expected \"M N K\" (three integers from 1 to 2^31 - 1), found '" +
             line + "'");
        return failure();
      }
      ProblemSize s;
      int64_t *dims[3] = {&s.m, &s.n, &s.k};
      const char *names[3] = {"m", "n", "k"};
      for (int d = 0; d < 3; ++d) {
        auto v = parseProblemDim(names[d], parts[d]);
        if (!v) {
          // parseProblemDim names a command-line flag ("--m 'text': why"); here it is a field.
          std::string why = llvm::toString(v.takeError());
          size_t at = why.find("': ");
          std::string shown;
          llvm::raw_string_ostream os(shown);
          llvm::printEscapedString(parts[d], os);
          fail(where + ": " + llvm::StringRef(names[d]).upper() + " = " + shown + ": " +
               (at == std::string::npos ? why : why.substr(at + 3)));
          return failure();
        }
        *dims[d] = *v;
      }
      // Each factor is below 2^31, so the products are exact in 64 bits.
      struct {
        const char *name, *dims;
        int64_t elements;
      } operands[3] = {{"A", "M x K", s.m * s.k}, {"B", "K x N", s.k * s.n},
                       {"D", "M x N", s.m * s.n}};
      for (const auto &o : operands)
        if (o.elements > kMaxOperandElements) {
          fail(where + ": " + o.name + " of " + o.dims + " = " + llvm::Twine(o.elements) +
               " elements is more than any GPU's memory holds (at most 2^40 elements per "
               "operand)");
          return failure();
        }
      out.push_back(s);
    }
    if (out.size() == before) {
      fail("--shapes: '" + item + "' has no shapes");
      return failure();
    }
  }
  if (out.empty()) {
    fail("--shapes is empty");
    return failure();
  }
  // One entry per size, in first-seen order.
  std::set<std::tuple<int64_t, int64_t, int64_t>> seen;
  std::vector<ProblemSize> unique;
  for (ProblemSize s : out)
    if (seen.insert({s.m, s.n, s.k}).second)
      unique.push_back(s);
  out = std::move(unique);
  if (out.size() > kMaxTuneShapes) {
    fail("--shapes: " + llvm::Twine(out.size()) + " distinct shapes, at most " +
         llvm::Twine(kMaxTuneShapes) +
         " (each is a table entry whose candidates are timed; tilegen-run reads tables of at "
         "most 16 MiB): tune on a sample, and the table's rule picks for the shapes between");
    return failure();
  }
  return success();
}

/// The promotion intervals a variant of `base` tries: the description's, and for FP8 with
/// per-tensor (or no) scales and promoted accumulation also 512 K elements (the tensor core
/// keeps four 128-deep K-slices between promotions: fewer register additions per flop, partial
/// sums 512 deep; bench/RESULTS.md has its error against the per-slice promotion).
static std::vector<std::optional<int64_t>> promotionsOf(tile::GemmOp base) {
  std::vector<std::optional<int64_t>> out = {base.getPromotion()
                                                 ? std::optional<int64_t>(*base.getPromotion())
                                                 : std::nullopt};
  std::optional<Elem> a = elemOf(base.getAType());
  bool blockScales = (base.getScaleAAttr() && !base.getScaleAAttr().isTensor()) ||
                     (base.getScaleBAttr() && !base.getScaleBAttr().isTensor());
  bool fast = base.getAccumulation() == tile::Accumulation::Fast;
  if (a && elemInfo(*a).fp8 && !blockScales && !fast && out.front() != 512)
    out.push_back(512);
  return out;
}

using ClusterShape = std::pair<int64_t, int64_t>;

/// --clusters: "XxY" items, X and Y 1 or 2, each once.
static LogicalResult readClusters(llvm::StringRef spec, std::vector<ClusterShape> &out) {
  llvm::SmallVector<llvm::StringRef> items;
  spec.split(items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef raw : items) {
    llvm::StringRef item = raw.trim();
    auto [x, y] = item.split('x');
    int64_t cx = 0, cy = 0;
    if (x.getAsInteger(10, cx) || y.getAsInteger(10, cy) || cx < 1 || cx > 2 || cy < 1 ||
        cy > 2) {
      fail("--clusters: '" + item + "' is no cluster shape: XxY with X and Y 1 or 2 (1x1, "
                                    "2x1, 1x2, 2x2)");
      return failure();
    }
    if (llvm::is_contained(out, ClusterShape{cx, cy})) {
      fail("--clusters: '" + item + "' is listed twice");
      return failure();
    }
    out.push_back({cx, cy});
  }
  if (out.empty()) {
    fail("--clusters is empty: list at least one of 1x1, 2x1, 1x2, 2x2");
    return failure();
  }
  return success();
}

/// The variants of `base`: tile M x N, accumulators, grid, cluster (each of `clusters`) and
/// (FP8, promoted) the promotion interval. The description as written is the first; a variant
/// that resolves to the same kernel as an earlier one is dropped.
static std::vector<tile::GemmOp> variantsOf(OpBuilder &b, ModuleOp scratch, tile::GemmOp base,
                                            llvm::ArrayRef<ClusterShape> clusters) {
  std::vector<tile::GemmOp> ops;
  b.setInsertionPointToEnd(scratch.getBody());
  ops.push_back(cast<tile::GemmOp>(b.clone(*base)));
  int64_t tileK = base.getTileK();
  std::vector<std::optional<int64_t>> promotions = promotionsOf(base);
  const int64_t ms[] = {64, 128, 256};
  // N in steps of 16 (the TMA-store epilogue writes 32-, 64- or 128-byte column chunks): a
  // width between the powers of two that fills the SMs' last wave (256 x 9216 runs 128 x 144
  // tiles in one wave of 128 CTAs, 128 x 128 in 1.1 waves; 256 x 7168 128 x 112 in 128 CTAs).
  // Variants are only ranked by the model; the top few per shape are compiled.
  const int64_t ns[] = {64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256};
  for (std::optional<int64_t> promotion : promotions)
  for (int64_t m : ms)
    for (int64_t n : ns)
      for (int64_t accumulators : {1, 2})
        for (tile::Grid grid : {tile::Grid::Persistent, tile::Grid::StreamK})
          for (auto [cx, cy] : clusters) {
            auto op = cast<tile::GemmOp>(b.clone(*base));
            if (promotion)
              op.setPromotion(*promotion);
            else
              op.removePromotionAttr();
            op.setTile(ArrayRef<int64_t>{m, n, tileK});
            op.setAccumulators(accumulators);
            op.setGrid(grid);
            op.setStages(0);
            op.setWarps(ArrayRef<int64_t>{});
            op.setMma(ArrayRef<int64_t>{});
            // Clusters: B multicast along M (cx), A along N (cy).
            op.setCluster(ArrayRef<int64_t>{cx, cy, 1});
            op.setMulticast(wgmmaClusterMulticast({cx, cy, 1}));
            ops.push_back(op);
          }
  return ops;
}

/// The fallbacks of `base` for problems whose strides break the 16-byte rule of TMA and
/// 16-byte copies: the mma.sync pipeline (schedule = multistage) with operand alignments of 4,
/// 2 and 1 elements, on 128 x 128 tiles with 64-byte K-slice rows.
static std::vector<tile::GemmOp> fallbacksOf(OpBuilder &b, ModuleOp scratch, tile::GemmOp base) {
  std::vector<tile::GemmOp> ops;
  b.setInsertionPointToEnd(scratch.getBody());
  int64_t bits = elemInfo(*elemOf(base.getAType())).bits;
  for (int64_t x : {4, 2, 1}) {
    auto op = cast<tile::GemmOp>(b.clone(*base));
    op.setTile(ArrayRef<int64_t>{128, 128, 512 / bits});
    op.setAccumulators(1);
    op.setGrid(tile::Grid::Tiles);
    op.setSchedule(tile::Schedule::Multistage);
    op.setCopy(tile::Copy::Auto);
    op.setStages(0);
    op.setWarps(ArrayRef<int64_t>{});
    op.setMma(ArrayRef<int64_t>{});
    op.setCluster(ArrayRef<int64_t>{1, 1, 1});
    op.setMulticast(tile::Multicast::None);
    op.removeCacheAAttr(); // the hints ride TMA loads; these copy with cp.async
    op.removeCacheBAttr();
    op.setAlignment(ArrayRef<int64_t>{x, x});
    ops.push_back(op);
  }
  return ops;
}

static std::string variantName(tile::GemmOp op, bool asWritten, bool fallback) {
  if (asWritten)
    return op.getSymName().str();
  std::optional<ArrayRef<int64_t>> align = op.getAlignment();
  if (fallback && align)
    return (op.getSymName() + "_align" + llvm::Twine((*align)[0])).str();
  ArrayRef<int64_t> t = op.getTile();
  std::string name = (op.getSymName() + "_" + llvm::Twine(t[0]) + "x" + llvm::Twine(t[1]) +
                      "x" + llvm::Twine(t[2]) + "_a" + llvm::Twine(op.getAccumulators()) + "_" +
                      tile::stringifyGrid(op.getGrid()))
                         .str();
  ArrayRef<int64_t> cluster = op.getCluster();
  if (cluster[0] == 2 && cluster[1] == 1)
    name += "_pair";
  else if (cluster[0] * cluster[1] * cluster[2] > 1)
    name += "_c" + std::to_string(cluster[0]) + "x" + std::to_string(cluster[1]);
  if (std::optional<uint64_t> promotion = op.getPromotion())
    name += "_p" + std::to_string(*promotion);
  if (!op.hasAutoStages())
    name += "_s" + std::to_string(op.getStages());
  for (auto [operand, hint] : {std::pair{"a", op.getCacheA()}, std::pair{"b", op.getCacheB()}})
    if (hint)
      name += std::string("_") + operand + (*hint == tile::CacheHint::EvictFirst ? "ef" : "el");
  return name;
}

static std::string variantSummary(tile::GemmOp op, const GemmPlan &plan) {
  ArrayRef<int64_t> t = op.getTile();
  std::string text =
      llvm::formatv("tile = [{0}, {1}, {2}], stages = {3}, accumulators = {4}, grid = {5}, "
                    "cluster = [{6}, {7}, 1]",
                    t[0], t[1], t[2], plan.stages, plan.accumulators,
                    tile::stringifyGrid(op.getGrid()), op.getCluster()[0], op.getCluster()[1])
          .str();
  if (std::optional<uint64_t> promotion = op.getPromotion())
    text += ", promotion = " + std::to_string(*promotion);
  if (std::optional<tile::CacheHint> hint = op.getCacheA())
    text += ", cache_a = " + tile::stringifyCacheHint(*hint).str();
  if (std::optional<tile::CacheHint> hint = op.getCacheB())
    text += ", cache_b = " + tile::stringifyCacheHint(*hint).str();
  if (std::optional<ArrayRef<int64_t>> align = op.getAlignment())
    text += llvm::formatv(", schedule = {0}, alignment = [{1}, {2}]",
                          tile::stringifySchedule(plan.schedule), (*align)[0], (*align)[1])
                .str();
  return text;
}

/// Writes `text` to `path` whole: a temporary beside it, then a rename.
static LogicalResult writeAtomically(const std::string &path, llvm::StringRef text) {
  std::string tmp = path + ".tmp";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmp, ec);
    if (ec) {
      fail("cannot write '" + tmp + "': " + ec.message());
      return failure();
    }
    os << text;
    os.close();
    if (os.has_error()) {
      fail("cannot write '" + tmp + "': " + os.error().message());
      os.clear_error();
      return failure();
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    fail("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
    return failure();
  }
  return success();
}

/// The modification time of a file, if it has one.
static std::optional<llvm::sys::TimePoint<>> modified(const llvm::Twine &path) {
  llvm::sys::fs::file_status st;
  if (llvm::sys::fs::status(path, st))
    return std::nullopt;
  return st.getLastModificationTime();
}

/// Whether an earlier run's kernel files are whole: the cubin a CUDA ELF file (magic, 64-bit
/// class, machine EM_CUDA = 190) and the manifest JSON naming this kernel's cubin. A run killed
/// while writing, or files damaged since, are compiled again instead of entering the table.
static bool kernelFilesIntact(const std::string &stem, const std::string &name) {
  std::string why;
  auto cubin = readInputFile(stem + ".cubin", 256u << 20, why);
  if (!cubin)
    return false;
  llvm::StringRef bytes = (*cubin)->getBuffer();
  if (bytes.size() < 64 || !bytes.starts_with("\x7f" "ELF") || bytes[4] != 2 ||
      bytes[5] != 1 || uint8_t(bytes[18]) != 190 || bytes[19] != 0)
    return false;
  // The section and program header tables (ELF64, little-endian) lie inside the file: a file
  // cut short loses them.
  auto le = [&](size_t at, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i)
      v |= uint64_t(uint8_t(bytes[at + i])) << (8 * i);
    return v;
  };
  uint64_t phoff = le(0x20, 8), shoff = le(0x28, 8);
  uint64_t phentsize = le(0x36, 2), phnum = le(0x38, 2);
  uint64_t shentsize = le(0x3A, 2), shnum = le(0x3C, 2);
  if (shnum == 0 || shoff > bytes.size() || shentsize * shnum > bytes.size() - shoff ||
      phoff > bytes.size() || phentsize * phnum > bytes.size() - phoff)
    return false;
  auto manifest = readInputFile(stem + ".json", 16u << 20, why);
  if (!manifest)
    return false;
  auto parsed = parseJsonBounded((*manifest)->getBuffer());
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return false;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  return root && root->getString("cubin") == name + ".cubin";
}

/// Compiles one variant into `dir`/NAME.{cubin,json,mlir}, unless NAME.mlir already holds the
/// same description and the cubin and manifest are there, whole (a resumed run).
static LogicalResult compileVariant(MLIRContext &context, const Variant &v, const NVTarget &target,
                                    const PtxasTool &ptxas, const std::string &dir,
                                    std::optional<llvm::sys::TimePoint<>> compilerTime,
                                    bool &reused) {
  std::string stem = dir + "/" + v.name;
  reused = false;
  // Reused when the description is the same and the cubin is newer than this tilegen (a
  // rebuilt compiler compiles again).
  if (auto old = llvm::MemoryBuffer::getFile(stem + ".mlir", /*IsText=*/true)) {
    auto cubinTime = modified(stem + ".cubin");
    if ((*old)->getBuffer() == v.text && cubinTime && compilerTime &&
        *cubinTime > *compilerTime && kernelFilesIntact(stem, v.name)) {
      reused = true;
      return success();
    }
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(v.op.getLoc());
  OpBuilder b(&context);
  b.setInsertionPointToEnd(module->getBody());
  b.clone(*v.op);
  PassManager pm(&context, ModuleOp::getOperationName());
  buildTilegenPipeline(pm, PipelineOptions{target.name().str()}, Stage::LLVM);
  if (failed(pm.run(*module))) {
    fail("variant " + v.name + " (" + v.summary + ") did not compile");
    return failure();
  }
  SmallVector<LLVM::LLVMFuncOp> kernels = findKernels(*module);
  if (kernels.size() != 1) {
    fail("tilegen bug: variant " + v.name + " lowered to " + llvm::Twine(kernels.size()) +
         " kernels");
    return failure();
  }
  llvm::LLVMContext llvmContext;
  auto llvmModule = translateToLLVMIR(*module, target, llvmContext);
  if (!llvmModule) {
    fail(llvm::toString(llvmModule.takeError()));
    return failure();
  }
  auto ptx = emitPTX(**llvmModule, target);
  if (!ptx) {
    fail(llvm::toString(ptx.takeError()));
    return failure();
  }
  std::string tmpCubin = stem + ".cubin.tmp";
  auto result = runPtxas(ptxas, *ptx, target, tmpCubin, ptxasOptionsTune, 120);
  if (!result) {
    fail("variant " + v.name + ": " + llvm::toString(result.takeError()));
    return failure();
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmpCubin, stem + ".cubin")) {
    fail("cannot rename '" + tmpCubin + "': " + ec.message());
    return failure();
  }
  if (failed(writeAtomically(stem + ".json", manifestJSON(kernels.front(), v.name + ".cubin"))))
    return failure();
  // Last: the description marks the kernel complete for a resumed run.
  return writeAtomically(stem + ".mlir", v.text);
}

/// Reads a tilegen-run --json file: median milliseconds per (kernel, m, n, k) of the rows that
/// ran without failing, and the status of the others.
/// One candidate's run: its median (ms), the vendor's median timed in the same process (ms;
/// cuBLAS or cuBLASLt, absent when not timed), or why it has no time.
struct Measurement {
  double ms = 0;
  std::optional<double> vendorMs;
  std::string failure;
};
using Measurements = std::map<std::tuple<std::string, int64_t, int64_t, int64_t>, Measurement>;

/// What a measurements file says of its run as a whole: the rows that tell of a kernel (passed,
/// ran, or failed), and whether
/// the runner stopped early (rows "not-run": the GPU or driver became unusable), with the
/// message of the row that stopped it.
struct RunSummary {
  size_t rows = 0;
  bool stopped = false;
  std::string stoppedBy;
};

static LogicalResult readMeasurements(const std::string &path, Measurements &out,
                                      RunSummary &summary) {
  std::string why;
  auto buffer = readInputFile(path, 256u << 20, why);
  if (!buffer) {
    fail("--measurements: cannot read '" + path + "': " + why);
    return failure();
  }
  auto parsed = parseJsonBounded((*buffer)->getBuffer());
  if (!parsed) {
    fail("--measurements: '" + path + "' is not JSON: " + llvm::toString(parsed.takeError()));
    return failure();
  }
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *rows = root ? root->getArray("rows") : nullptr;
  if (!root || root->getString("format") != "tilegen-run-results" || !rows) {
    fail("--measurements: '" + path + "' is no tilegen-run --json file (format "
         "\"tilegen-run-results\" with \"rows\")");
    return failure();
  }
  if (const llvm::json::Value *version = root->get("version");
      !version || version->getAsInteger() != std::optional<int64_t>(1)) {
    fail("--measurements: '" + path + "': \"version\" = " +
         (version ? llvm::formatv("{0}", *version).str() : std::string("missing")) +
         "; this tilegen reads tilegen-run --json files of version 1");
    return failure();
  }
  // A number as tilegen-run writes it (a JSON number; null or absent: none). Anything else is
  // an error, reported by the caller through `bad`.
  auto number = [](const llvm::json::Object &o, llvm::StringRef key,
                   bool &bad) -> std::optional<double> {
    const llvm::json::Value *v = o.get(key);
    if (!v || v->kind() == llvm::json::Value::Null)
      return std::nullopt;
    if (auto d = v->getAsNumber())
      return *d;
    bad = true;
    return std::nullopt;
  };
  static constexpr llvm::StringLiteral kStatuses[] = {"pass",    "fail",    "ran",     "error",
                                                      "hang",    "timeout", "skipped", "not-run"};
  // A time must be a positive, finite number of milliseconds within the dispatch table's
  // bound (1e15 ns).
  constexpr double kMaxMs = 1e9;
  std::optional<std::tuple<std::string, int64_t, int64_t, int64_t>> lastError;
  std::string lastErrorMessage;
  for (size_t ri = 0; ri < rows->size(); ++ri) {
    const llvm::json::Object *row = (*rows)[ri].getAsObject();
    std::string where = ("--measurements: '" + path + "': rows[" + llvm::Twine(ri) + "]").str();
    if (!row) {
      fail(where + " is not an object");
      return failure();
    }
    auto kernel = row->getString("kernel");
    if (!kernel) {
      fail(where + " has no \"kernel\" name");
      return failure();
    }
    // A row without sizes (null: a run that never started) has nothing to say of a shape.
    const char *names[3] = {"m", "n", "k"};
    if (llvm::any_of(names, [&](const char *d) {
          const llvm::json::Value *raw = row->get(d);
          return !raw || raw->kind() == llvm::json::Value::Null;
        }))
      continue;
    int64_t dims[3];
    for (int d = 0; d < 3; ++d) {
      bool bad = false;
      auto v = number(*row, names[d], bad);
      if (!v || !(*v >= 1 && *v <= double(INT32_MAX)) || *v != std::floor(*v)) {
        std::string shown = "missing";
        if (const llvm::json::Value *raw = row->get(names[d]))
          shown = llvm::formatv("{0}", *raw).str();
        fail(where + ": \"" + names[d] + "\" = " + shown +
             " is not a problem size (an integer from 1 to 2^31 - 1)");
        return failure();
      }
      dims[d] = int64_t(*v);
    }
    std::string status = row->getString("status").value_or("").str();
    if (!llvm::is_contained(kStatuses, status)) {
      const llvm::json::Value *raw = row->get("status");
      fail(where + ": \"status\" = " +
           (raw ? llvm::formatv("{0}", *raw).str() : std::string("missing")) +
           " is not one of tilegen-run's (" +
           llvm::join(llvm::map_range(kStatuses, [](llvm::StringLiteral l) { return l.str(); }),
                      ", ") +
           ")");
      return failure();
    }
    for (const char *field : {"ms_median", "cublas_ms_median", "cublaslt_ms_median"}) {
      bool bad = false;
      (void)number(*row, field, bad);
      if (bad) {
        fail(where + ": \"" + field + "\" = " + llvm::formatv("{0}", *row->get(field)).str() +
             " is not a number of milliseconds");
        return failure();
      }
    }
    bool ignored = false;
    auto ms = number(*row, "ms_median", ignored);
    auto vendor = number(*row, "cublas_ms_median", ignored);
    if (!vendor)
      vendor = number(*row, "cublaslt_ms_median", ignored);
    for (auto [field, value] : {std::pair{"ms_median", ms}, std::pair{"vendor median", vendor}})
      if (value && !(std::isfinite(*value) && *value >= 0 && *value <= kMaxMs)) {
        fail(where + ": " + field + " = " + llvm::formatv("{0:e}", *value) +
             " is not a time in milliseconds from 0 to 1e9");
        return failure();
      }
    if (vendor && !(*vendor > 0))
      vendor.reset();
    auto key = std::make_tuple(kernel->str(), dims[0], dims[1], dims[2]);
    // "not-run": the runner stopped before it because the GPU or driver became unusable; the
    // error row before it is that, not its kernel's failure. "timeout": a phase off the GPU
    // (the host's reference) ran out of time. Neither says anything of a kernel. A run that
    // passed without a time (no --bench) says nothing of its speed either.
    if (status == "not-run") {
      if (!summary.stopped && lastError) {
        summary.stoppedBy = lastErrorMessage;
        if (auto e = out.find(*lastError); e != out.end() && e->second.failure == "error")
          out.erase(e);
      }
      summary.stopped = true;
      continue;
    }
    if (status == "timeout")
      continue;
    bool ran = status == "pass" || status == "ran";
    ++summary.rows;
    if (status == "error") {
      lastError = key;
      lastErrorMessage = row->getString("message").value_or("").str();
    }
    auto it = out.find(key);
    bool failedBefore = it != out.end() && !it->second.failure.empty();
    if (ran) {
      // A later timed run of the same kernel and shape replaces an earlier one; it does not
      // undo a failed one (wrong results once are wrong results).
      if (ms && *ms > 0 && !failedBefore)
        out[key] = {*ms, vendor, ""};
    } else if (!failedBefore) {
      out[key] = {0, std::nullopt, status.empty() ? "no status" : status};
    }
  }
  return success();
}

/// Seconds as the table's nanoseconds: positive and at most 1e15, the bound tilegen-run reads
/// (the shape and measurement checks keep every time far inside it; this only keeps the
/// conversion defined).
static int64_t tableNs(double seconds) {
  double ns = seconds * 1e9;
  if (!(ns >= 1))
    return 1;
  return ns >= 1e15 ? int64_t(1e15) : static_cast<int64_t>(std::llround(ns));
}

static std::string dispatchJSON(const std::vector<Variant> &variants,
                                const std::vector<size_t> &compiled,
                                const std::vector<Entry> &entries, const NVTarget &target,
                                llvm::StringRef description) {
  llvm::json::Array kernels, fallbacks;
  for (size_t i : compiled) {
    const Variant &v = variants[i];
    kernels.push_back(llvm::json::Object{{"name", v.name},
                                         {"cubin", "kernels/" + v.name + ".cubin"},
                                         {"manifest", "kernels/" + v.name + ".json"},
                                         {"description", "kernels/" + v.name + ".mlir"},
                                         {"variant", v.summary},
                                         {"as_written", v.asWritten},
                                         {"fallback", v.fallback}});
    if (v.sliceMma > 0 && v.sliceL2 > 0) {
      llvm::json::Object slice{{"mma_cycles", std::round(v.sliceMma * 10) / 10},
                               {"issue_cycles", std::round(v.sliceIssue * 10) / 10},
                               {"l2_bytes_per_cycle", v.sliceL2},
                               {"k", v.plan->tileK}};
      if (v.sliceFixup > 0) {
        slice["fixup_cycles"] = std::round(v.sliceFixup * 10) / 10;
        slice["split_efficiency"] = streamKSplitEfficiency();
      }
      kernels.back().getAsObject()->insert({"slice", std::move(slice)});
    }
    if (v.fallback)
      fallbacks.push_back(v.name);
  }
  llvm::json::Array rows;
  for (const Entry &e : entries) {
    llvm::json::Array cands;
    for (const Candidate &c : e.candidates) {
      llvm::json::Object o{{"kernel", variants[c.variant].name},
                           {"predicted_ns", tableNs(c.predicted)}};
      if (c.measured)
        o["measured_ns"] = tableNs(*c.measured);
      if (c.estimated)
        o["estimated_ns"] = tableNs(*c.estimated);
      if (!c.failure.empty())
        o["measurement"] = c.failure;
      cands.push_back(std::move(o));
    }
    rows.push_back(llvm::json::Object{
        {"m", e.size.m},
        {"n", e.size.n},
        {"k", e.size.k},
        {"kernel", variants[e.candidates[e.chosen].variant].name},
        {"chosen_by", e.measured ? "measured" : "model"},
        {"candidates", std::move(cands)}});
  }
  llvm::json::Object root{
      {"format", "tilegen-dispatch"},
      {"version", 1},
      {"target", target.name()},
      {"description", description},
      {"tilegen_version", TILEGEN_VERSION_STRING},
      {"rule", "the entry of the problem's size; else, among the timed candidates of the "
               "near entries (the nearest by the sum over M, N, K of |log2(x / x_entry)| and "
               "those at most one octave farther, at most three), the one whose time scaled "
               "to the problem by its waves of tiles on sm_count SMs (and by its K-slice's "
               "time at the problem's rows' offsets from the L2 lines, where the kernel has "
               "\"slice\") is least; else the "
               "nearest entry's kernel, else its first candidate whose constraints the "
               "problem meets, else the next nearest entry's, else the first fallback whose "
               "constraints it meets (docs/dispatch.md)"},
      {"sm_count", static_cast<int64_t>(target.info().smCount)},
      {"launch_ns", static_cast<int64_t>(std::llround(launchOverheadSeconds() * 1e9))},
      {"kernels", std::move(kernels)},
      {"fallbacks", std::move(fallbacks)},
      {"entries", std::move(rows)}};
  // What clusters of 4 hold at once on the target's part, where measured (the model's cap).
  if (target.info().quadClusterCtas)
    root["quad_cluster_ctas"] = static_cast<int64_t>(target.info().quadClusterCtas);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return text;
}

/// Whether this machine has an NVIDIA GPU the driver exposes.
static bool haveGpu() { return llvm::sys::fs::exists("/dev/nvidia0"); }

int tilegen::tuneMain(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::HideUnrelatedOptions(tuneCategory, tuneCommand);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tilegen tune: rank kernel variants of a description per problem size with the model,\n"
      "compile the best, optionally time them, and write a dispatch table\n"
      "\n"
      "  tilegen tune DESC --target=T --shapes=LIST -o DIR [--top=N] [--measure=auto|never|"
      "always]\n"
      "  tilegen tune DESC --target=T --shapes=LIST -o DIR --measurements=FILE\n"
      "\n"
      "Writes DIR/dispatch.json and DIR/kernels/NAME.{cubin,json,mlir}; run a shape with\n"
      "`tilegen-run --dispatch DIR/dispatch.json --m M --n N --k K` (docs/dispatch.md).\n");
  if (int rc = rejectDriverOptions("tune"))
    return rc;
  if (tuneInput.empty())
    return fail("no description given (tilegen tune DESC --target=T --shapes=LIST -o DIR)");
  if (shapesOption.empty())
    return fail("--shapes is required: named lists (square, llm, odd, all) or files of "
                "\"M N K\" lines");
  if (outDir.empty())
    return fail("-o DIR is required: the folder of the dispatch table and its kernels");
  if (llvm::sys::fs::exists(outDir) && !llvm::sys::fs::is_directory(outDir))
    return fail("-o " + outDir + " is a file, not a folder (tune writes DIR/dispatch.json and "
                "DIR/kernels/)");
  if (tuneTarget.getNumOccurrences() && tuneTarget.empty())
    return fail("--target is empty; known targets: " + NVTarget::knownNames());
  std::vector<ClusterShape> clusters;
  if (failed(readClusters(clustersOption, clusters)))
    return 1;
  if (topOption < 1 || topOption > 16)
    return fail("--top = " + llvm::Twine(topOption.getValue()) + ": must be from 1 to 16");
  if (!tuneTarget.empty() && !NVTarget::parse(tuneTarget))
    return fail("unknown --target '" + tuneTarget + "'; known targets: " +
                NVTarget::knownNames() + NVTarget::suggest(tuneTarget));
  std::vector<ProblemSize> shapes;
  if (failed(readShapes(shapesOption, shapes)))
    return 1;
  // Nothing tune writes may be one of its inputs (the measurements file it reads is the one it
  // would write only when it measures, which a given file stops).
  {
    std::vector<std::pair<std::string, std::string>> inputs = {{"the description", tuneInput}};
    llvm::SmallVector<llvm::StringRef> items;
    llvm::StringRef(shapesOption).split(items, ',');
    for (llvm::StringRef item : items)
      inputs.push_back({"a --shapes file", item.trim().str()});
    std::vector<std::pair<std::string, std::string>> withMeasurements = inputs;
    if (!measurementsOption.empty())
      withMeasurements.push_back({"the --measurements file", measurementsOption});
    for (const char *name : {"dispatch.json", "shapes.txt", "candidates.json", "measurements.json"})
      for (const auto &[what, in] :
           llvm::StringRef(name) == "measurements.json" ? inputs : withMeasurements)
        if (isSameFile(outDir + "/" + name, in))
          return fail("-o " + outDir + ": tune writes " + outDir + "/" + name + ", which is " +
                      what + " (" + in + "); give another -o folder or move the file");
    llvm::SmallString<256> descDir(tuneInput);
    llvm::sys::path::remove_filename(descDir);
    if (descDir.empty())
      descDir = ".";
    if (isSameFile(outDir + "/kernels", descDir))
      return fail("-o " + outDir + ": tune writes its kernels into " + outDir +
                  "/kernels, which holds the description (" + tuneInput +
                  "); give another -o folder or move the file");
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  std::string errorMessage;
  auto file = readDescription(tuneInput, kMaxDescriptionBytes, errorMessage);
  if (!file)
    return fail(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> input;
  {
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    input = parseInput(sourceMgr, &context);
    if (!input)
      return 1;
  }
  SmallVector<tile::GemmOp> bases;
  input->walk([&](tile::GemmOp op) { bases.push_back(op); });
  if (bases.empty())
    return fail("'" + tuneInput + "' has no tile.gemm: nothing to tune");

  // The variants, resolved for the target with their diagnostics silenced: a variant the
  // target cannot run is not a candidate. The description as written must resolve.
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(UnknownLoc::get(&context));
  OpBuilder b(&context);
  std::vector<Variant> variants;
  std::optional<NVTarget> target;
  std::set<std::string> names;
  size_t illegal = 0;
  for (tile::GemmOp base : bases) {
    auto baseTarget = [&]() -> FailureOr<NVTarget> {
      SourceMgrDiagnosticHandler handler(sourceMgr, &context);
      return targetFor(base, tuneTarget);
    }();
    if (failed(baseTarget))
      return 1;
    if (target && target->name() != baseTarget->name())
      return fail("descriptions for different targets (" + target->name() + " and " +
                  baseTarget->name() + "); a dispatch table is for one target: pass --target");
    target = *baseTarget;
    std::vector<tile::GemmOp> ops = variantsOf(b, *scratch, base, clusters);
    size_t ranked = ops.size();
    for (tile::GemmOp op : fallbacksOf(b, *scratch, base))
      ops.push_back(op);
    std::set<std::string> summaries;
    // The deeper-ring op inserted after the variant just pushed (at that index).
    std::optional<std::pair<Operation *, size_t>> deeperBase;
    // The hinted twins inserted, and the index of the variant each is the twin of.
    llvm::DenseMap<Operation *, size_t> hintedBase;
    for (size_t i = 0; i < ops.size(); ++i) {
      tile::GemmOp op = ops[i];
      bool asWritten = i == 0;
      if (deeperBase && deeperBase->first != op.getOperation())
        deeperBase.reset();
      FailureOr<GemmPlan> plan = failure();
      if (asWritten) {
        SourceMgrDiagnosticHandler handler(sourceMgr, &context);
        if (succeeded(op.verify()))
          plan = resolveGemm(op, *target);
        if (failed(plan))
          return 1;
      } else {
        ScopedDiagnosticHandler silence(&context, [](Diagnostic &) { return success(); });
        if (succeeded(op.verify()))
          plan = resolveGemm(op, *target);
      }
      if (failed(plan)) {
        ++illegal;
        op->erase();
        continue;
      }
      Variant v;
      v.op = op;
      v.plan = *plan;
      v.asWritten = asWritten;
      v.fallback = i >= ranked;
      v.summary = variantSummary(op, *plan);
      if (!summaries.insert(v.summary).second) {
        op->erase();
        continue;
      }
      v.name = variantName(op, asWritten, v.fallback);
      if (!names.insert(v.name).second)
        return fail("two kernels would be named '" + v.name + "' (rename a description)");
      // A ranked variant (or the description as written) whose automatic ring is as deep as
      // fits, short of the depth the model wants to keep the tensor core fed, has a deeper
      // sibling where an explicit stage count narrows the epilogue's staging to make room
      // (GemmPlan): the deepest up to that depth, next in line (cloned before this one is
      // renamed, so that it is named from the description). Measured besides: the model
      // predicts the two alike where its steady state is fed.
      Operation *deeperOp = nullptr;
      if (!v.fallback && plan->stagesWereAuto) {
        int64_t want = std::max(2, fewestStagesToFeed(costsFor(op, *plan)));
        for (int64_t s = want; s > plan->stages; --s) {
          auto deeper = cast<tile::GemmOp>(b.clone(*op));
          deeper.setStages(s);
          ScopedDiagnosticHandler silence(&context, [](Diagnostic &) { return success(); });
          if (succeeded(deeper.verify()) && succeeded(resolveGemm(deeper, *target))) {
            ops.insert(ops.begin() + i + 1, deeper);
            deeperOp = deeper;
            ++ranked;
            break;
          }
          deeper->erase();
        }
      }
      // Each ranked TMA-fed variant without a hint for B has a twin whose B loads are marked
      // L2 evict_first, after it (and after its deeper sibling): the model predicts the two
      // alike, while on the GPU the hint moves some shapes by several percent either way (the
      // weights of a GEMM with few rows stream through L2 once; bench/RESULTS.md). Measured
      // besides.
      if (!v.fallback && !op.getCacheB() && plan->copy == tile::Copy::Tma) {
        auto twin = cast<tile::GemmOp>(b.clone(*op));
        twin.setCacheBAttr(tile::CacheHintAttr::get(&context, tile::CacheHint::EvictFirst));
        ops.insert(ops.begin() + i + 1 + (deeperOp ? 1 : 0), twin);
        hintedBase[twin.getOperation()] = variants.size();
        ++ranked;
      }
      if (auto it = hintedBase.find(op.getOperation()); it != hintedBase.end()) {
        v.hintedOf = it->second;
        variants[it->second].hinted = variants.size();
      }
      op.setSymName(v.name);
      op.setTarget(target->name());
      llvm::raw_string_ostream os(v.text);
      op->print(os);
      os << "\n";
      v.costs = costsFor(op, *v.plan, &v.breakdown);
      if (deeperBase && deeperBase->first == op.getOperation()) {
        v.deeperOf = deeperBase->second;
        variants[deeperBase->second].deeper = variants.size();
      }
      deeperBase.reset();
      if (deeperOp)
        deeperBase = {deeperOp, variants.size()};
      variants.push_back(std::move(v));
    }
  }
  llvm::errs() << "tilegen tune: " << variants.size() << " variants of " << bases.size()
               << " description" << (bases.size() == 1 ? "" : "s") << " run on "
               << target->name() << " ("
               << llvm::count_if(variants, [](const Variant &v) { return v.deeperOf.has_value(); })
               << " with a deeper ring; " << illegal
               << " others do not), " << shapes.size()
               << " shape" << (shapes.size() == 1 ? "" : "s") << "\n";

  // A measurements file given is read before the ranking: its timed variants are candidates.
  std::optional<Measurements> given;
  RunSummary givenRun;
  if (!measurementsOption.empty()) {
    given.emplace();
    if (failed(readMeasurements(measurementsOption, *given, givenRun)))
      return 1;
  }

  // Rank per shape by the model.
  const NVTargetInfo &info = target->info();
  std::vector<Entry> entries;
  std::vector<bool> keep(variants.size(), false);
  for (ProblemSize size : shapes) {
    Entry e;
    e.size = size;
    std::vector<Candidate> all;
    for (size_t i = 0; i < variants.size(); ++i) {
      Variant &v = variants[i];
      if (v.fallback)
        continue;
      ProblemLayout layout = layoutProblem(v.op, *v.plan, size, v.plan->stages);
      if (layout.resident < 1)
        continue;
      ProblemCosts pc = problemCosts(layout, v.costs, v.breakdown, info.ratedClockGHz);
      if (v.plan->family != MmaFamily::MmaSync && layout.mmaEfficiency > 0) {
        v.sliceMma = v.costs.mma / layout.mmaEfficiency;
        v.sliceIssue = v.costs.issue;
        v.sliceL2 = pc.l2BytesPerCycle;
        if (layout.grid == tile::Grid::StreamK)
          v.sliceFixup = pc.loadLatency + static_cast<double>(v.plan->tileM / layout.ctaGroup) *
                                              static_cast<double>(v.plan->tileN) *
                                              partialTileElemBytes() / pc.l2BytesPerCycle;
      }
      Prediction pr = predictProblem(layout, pc, static_cast<int>(v.plan->stages),
                                     static_cast<int>(v.plan->accumulators),
                                     v.breakdown.flopsPerCycle);
      Candidate c;
      c.variant = i;
      c.predicted = pr.seconds;
      c.predictedCta = pr.cta;
      all.push_back(c);
    }
    // Best predicted first. Among equal predictions (a time DRAM bounds for many tiles) the
    // simpler schedule first, whose costs beyond the model's terms are fewest: persistent
    // before stream-K (fix-up traffic, flag waits), smaller clusters before larger (the
    // cross-CTA slot releases), one accumulator set before two (ping-pong's turn-taking); then
    // the one whose busiest CTA is done first, which leaves the most slack to the bound.
    auto rank = [&](const Candidate &c) {
      tile::GemmOp op = variants[c.variant].op;
      return std::make_tuple(c.predicted, op.getGrid() == tile::Grid::StreamK,
                             op.getCluster()[0] * op.getCluster()[1], op.getAccumulators(),
                             c.predictedCta);
    };
    auto byRank = [&](const Candidate &x, const Candidate &y) { return rank(x) < rank(y); };
    std::stable_sort(all.begin(), all.end(), byRank);
    // The best --top, skipping variants the model cannot tell from one already taken (the
    // same prediction and the same busiest CTA, each within 0.1%: measuring both would teach
    // nothing the first does not), and the description as written. Then the best of each grid
    // kind the top left out: the model's stream-K terms (fix-up traffic, the split of a short
    // last wave) are its least certain, so each shape measures at least one kernel of each
    // kind where both run.
    size_t taken = 0;
    auto gridOf = [&](const Candidate &c) { return variants[c.variant].op.getGrid(); };
    auto close = [](double x, double y) { return std::abs(x - y) <= 1e-3 * std::max(x, y); };
    auto isSame = [&](const Candidate &c) {
      return llvm::any_of(e.candidates, [&](const Candidate &o) {
        return o.variant == c.variant ||
               (close(o.predicted, c.predicted) && close(o.predictedCta, c.predictedCta));
      });
    };
    for (const Candidate &c : all) {
      bool same = isSame(c);
      if (variants[c.variant].asWritten) {
        e.candidates.push_back(c);
      } else if (taken < (size_t)topOption.getValue() && !same) {
        e.candidates.push_back(c);
        ++taken;
      }
    }
    for (tile::Grid grid : {tile::Grid::Persistent, tile::Grid::StreamK}) {
      bool present = llvm::any_of(e.candidates, [&](const Candidate &o) {
        return !variants[o.variant].asWritten && gridOf(o) == grid;
      });
      if (present)
        continue;
      for (const Candidate &c : all)
        if (!variants[c.variant].asWritten && gridOf(c) == grid && !isSame(c)) {
          e.candidates.push_back(c);
          break;
        }
    }
    // Likewise a deeper ring: the model predicts a variant and its deeper sibling alike where
    // its steady state is fed, while a deeper ring keeps more loads in flight, which it does not
    // count. The best-ranked candidate with such a sibling brings it.
    for (const Candidate &c : std::vector<Candidate>(e.candidates)) {
      std::optional<size_t> sib = variants[c.variant].deeper;
      if (!sib)
        continue;
      auto it = llvm::find_if(all, [&](const Candidate &o) { return o.variant == *sib; });
      if (it == all.end()) // the sibling cannot run this shape
        continue;
      if (llvm::none_of(e.candidates, [&](const Candidate &o) { return o.variant == *sib; }))
        e.candidates.push_back(*it);
      break;
    }
    // And the L2 hint: the two best-ranked candidates with a hinted twin bring it.
    size_t twins = 0;
    for (const Candidate &c : std::vector<Candidate>(e.candidates)) {
      std::optional<size_t> twin = variants[c.variant].hinted;
      if (!twin)
        continue;
      auto it = llvm::find_if(all, [&](const Candidate &o) { return o.variant == *twin; });
      if (it == all.end())
        continue;
      if (llvm::none_of(e.candidates, [&](const Candidate &o) { return o.variant == *twin; }))
        e.candidates.push_back(*it);
      if (++twins == 2)
        break;
    }
    // Variants timed on this shape in --measurements compete too, however the model ranks
    // them: the best --top of them by their time relative to the vendor's timed beside them
    // (rows without one left out where others have it; by the time where none has), so that a
    // table re-chosen from earlier runs keeps the kernels the GPU ran fastest where the model
    // put them lower. They are the model's misses: the calibration of untimed candidates
    // below leaves them out.
    if (given) {
      std::vector<std::pair<double, size_t>> timed; // (score, index into all)
      std::vector<std::pair<const Measurement *, size_t>> found;
      for (size_t a = 0; a < all.size(); ++a) {
        auto it = given->find({variants[all[a].variant].name, size.m, size.n, size.k});
        if (it != given->end() && it->second.failure.empty())
          found.push_back({&it->second, a});
      }
      bool relative = llvm::any_of(found, [](auto &f) { return f.first->vendorMs.has_value(); });
      for (auto &[m, a] : found)
        if (!relative || m->vendorMs)
          timed.push_back({relative ? m->ms / *m->vendorMs : m->ms, a});
      std::stable_sort(timed.begin(), timed.end(),
                       [](auto &x, auto &y) { return x.first < y.first; });
      size_t added = 0;
      for (const std::pair<double, size_t> &t : timed) {
        if (added == (size_t)topOption.getValue())
          break;
        ++added;
        Candidate c = all[t.second];
        c.joined = true;
        if (llvm::none_of(e.candidates,
                          [&](const Candidate &o) { return o.variant == c.variant; }))
          e.candidates.push_back(c);
      }
    }
    std::stable_sort(e.candidates.begin(), e.candidates.end(), byRank);
    if (e.candidates.empty())
      return fail(llvm::formatv("no variant fits on {0} for {1} x {2} x {3}", target->name(),
                                size.m, size.n, size.k)
                      .str());
    for (const Candidate &c : e.candidates)
      keep[c.variant] = true;
    entries.push_back(std::move(e));
  }

  // Compile what some shape keeps.
  std::string kernelDir = outDir + "/kernels";
  if (std::error_code ec = llvm::sys::fs::create_directories(kernelDir))
    return fail("cannot create '" + kernelDir + "': " + ec.message());
  if (!llvm::sys::fs::is_directory(kernelDir))
    return fail("cannot create '" + kernelDir + "': a file of that name is in the way");
  auto ptxas = findPtxas();
  if (!ptxas)
    return fail(llvm::toString(ptxas.takeError()));
  std::vector<size_t> compiled;
  for (size_t i = 0; i < variants.size(); ++i)
    if (keep[i] || variants[i].fallback)
      compiled.push_back(i);
  size_t reusedCount = 0;
  std::optional<llvm::sys::TimePoint<>> compilerTime = modified(
      llvm::sys::fs::getMainExecutable(argv[0], reinterpret_cast<void *>(&tuneMain)));
  bool tty = llvm::sys::Process::StandardErrIsDisplayed();
  for (size_t j = 0; j < compiled.size(); ++j) {
    const Variant &v = variants[compiled[j]];
    std::string line = llvm::formatv("[{0}/{1}] {2}", j + 1, compiled.size(), v.name).str();
    if (tty)
      llvm::errs() << "\r\033[K" << line;
    else
      llvm::errs() << line << "\n";
    bool reused = false;
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    if (failed(compileVariant(context, v, *target, *ptxas, kernelDir, compilerTime, reused)))
      return 1;
    reusedCount += reused;
  }
  if (tty)
    llvm::errs() << "\r\033[K";
  llvm::errs() << "tilegen tune: " << compiled.size() << " kernels in " << kernelDir << " ("
               << reusedCount << " from an earlier run)\n";

  std::string table = outDir + "/dispatch.json";
  std::string shapesFile = outDir + "/shapes.txt";
  std::string description = llvm::sys::path::filename(tuneInput).str();
  auto writeTableTo = [&](const std::string &path) {
    return writeAtomically(path,
                           dispatchJSON(variants, compiled, entries, *target, description));
  };
  auto writeTable = [&]() { return writeTableTo(table); };
  for (Entry &e : entries)
    e.chosen = 0;
  // Measuring here: tilegen-run times the candidates of the model's table, written apart
  // (candidates.json) so that dispatch.json is replaced only by the table chosen on the times.
  // Without measurements, the model's table is the table. With a measurements file given, the
  // table is written once, after the choice.
  // A --runner given with --measure=always may reach a GPU elsewhere (a wrapper that runs
  // tilegen-run there): it runs without one here.
  bool measureHere = measurementsOption.empty() && measureOption != Measure::Never &&
                     (haveGpu() || (measureOption == Measure::Always && !runnerOption.empty()));
  std::string candidatesTable = outDir + "/candidates.json";
  if (measureHere ? failed(writeTableTo(candidatesTable))
                  : measurementsOption.empty() && failed(writeTable()))
    return 1;
  {
    std::string text = "# the shapes of dispatch.json, for tilegen-run --sweep\n";
    for (const Entry &e : entries)
      text += llvm::formatv("{0} {1} {2}\n", e.size.m, e.size.n, e.size.k).str();
    if (failed(writeAtomically(shapesFile, text)))
      return 1;
  }

  // Measurements: given, or taken now with tilegen-run.
  std::string measurements = measurementsOption;
  if (measurements.empty() && measureOption != Measure::Never) {
    if (!measureHere) {
      if (measureOption == Measure::Always)
        return fail("--measure=always: this machine has no NVIDIA GPU (/dev/nvidia0 is "
                    "absent); the table at " +
                    table + " ranks by the model alone");
      llvm::errs() << "tilegen tune: no GPU here (/dev/nvidia0 is absent): the table ranks by "
                      "the model alone; time it on a GPU with\n  tilegen-run --dispatch "
                   << table << " --candidates --sweep " << shapesFile
                   << " --check --bench --json DIR/measurements.json\nand choose by the times with "
                      "tilegen tune ... --measurements DIR/measurements.json\n";
    } else {
      std::string runner = runnerOption;
      if (runner.empty()) {
        std::string self =
            llvm::sys::fs::getMainExecutable(argv[0], reinterpret_cast<void *>(&tuneMain));
        runner = (llvm::sys::path::parent_path(self) + "/tilegen-run").str();
      }
      if (!llvm::sys::fs::can_execute(runner))
        return fail("cannot run '" + runner + "' to measure (pass --runner, or --measure=never)");
      measurements = outDir + "/measurements.json";
      // Checked as well as timed: a candidate that computes wrong results is never chosen.
      llvm::SmallVector<llvm::StringRef> args = {
          runner, "--dispatch", candidatesTable, "--candidates", "--sweep", shapesFile,
          "--check", "--bench", "--json", measurements};
      llvm::errs() << "tilegen tune: measuring: " << llvm::join(args, " ") << "\n";
      std::string err;
      llvm::sys::fs::remove(measurements);
      int rc = llvm::sys::ExecuteAndWait(runner, args, std::nullopt, {}, 0, 0, &err);
      // Exit 1, 3 or 4 (wrong results, a CUDA error or fault, a hang) is a candidate's: its
      // row says so and the others still count. Anything else, or no results, is the run's.
      bool candidatesFailed = rc == 1 || rc == 3 || rc == 4;
      // ExecuteAndWait: -1 the runner could not start, -2 a signal ended it (err names it).
      std::string how = rc == -2   ? "was ended by a signal (" + err + ")"
                        : rc < 0   ? "could not run (" + err + ")"
                        : rc != 0 && !candidatesFailed
                            ? "failed (exit " + std::to_string(rc) + ")"
                            : "exited " + std::to_string(rc) + " but wrote no " + measurements;
      if ((rc != 0 && !candidatesFailed) || !llvm::sys::fs::exists(measurements))
        return fail("the runner " + runner + " " + how +
                    "; no table written (the candidates it was to time: " + candidatesTable +
                    ")");
      if (candidatesFailed)
        llvm::errs() << "tilegen tune: tilegen-run exited " << rc
                     << ": some candidates failed their runs (wrong results, a CUDA error or a "
                        "hang; " << measurements << " says which); they are not chosen\n";
    }
  }
  if (!measurements.empty()) {
    Measurements times;
    RunSummary run;
    if (given) {
      times = std::move(*given);
      run = givenRun;
    } else if (failed(readMeasurements(measurements, times, run))) {
      return 1;
    }
    // Measured here, a run the GPU or driver stopped, or one in which nothing ran, is the
    // run's failure, not the candidates'.
    if (measurementsOption.empty() && (run.stopped || run.rows == 0))
      return fail("tilegen-run " +
                  std::string(run.stopped ? "stopped early: the GPU or driver became unusable"
                                          : "ran no candidate") +
                  (run.stoppedBy.empty() ? "" : " (" + run.stoppedBy + ")") +
                  "; no table written (" + measurements + " has its rows)");
    size_t measuredEntries = 0, keptByModel = 0, changed = 0;
    std::vector<std::string> allFailed;
    for (Entry &e : entries) {
      // Each candidate ran in its own process, minutes apart on a GPU whose clocks drift at
      // its power limit; the vendor's GEMM timed beside it (alternating runs) in the same
      // process measures that drift. When every timed candidate has it, they compete on
      // their time relative to it (the ratio the runner reports), else on their own time.
      std::vector<const Measurement *> got(e.candidates.size(), nullptr);
      for (size_t c = 0; c < e.candidates.size(); ++c) {
        Candidate &cand = e.candidates[c];
        auto it = times.find(
            {variants[cand.variant].name, e.size.m, e.size.n, e.size.k});
        if (it == times.end())
          continue;
        if (!it->second.failure.empty()) {
          cand.failure = it->second.failure;
          if (cand.failure == "fail")
            llvm::errs() << "tilegen tune: warning: " << variants[cand.variant].name
                         << " computed wrong results at " << e.size.m << "x" << e.size.n << "x"
                         << e.size.k << " (tilegen-run --check failed); it is not chosen there\n";
          continue;
        }
        cand.measured = it->second.ms * 1e-3;
        got[c] = &it->second;
      }
      bool relative = llvm::any_of(got, [](const Measurement *x) { return x; }) &&
                      llvm::all_of(got, [](const Measurement *x) { return !x || x->vendorMs; });
      std::optional<size_t> best;
      auto score = [&](size_t c) { return relative ? got[c]->ms / *got[c]->vendorMs : got[c]->ms; };
      for (size_t c = 0; c < e.candidates.size(); ++c)
        if (got[c] && (!best || score(c) < score(*best)))
          best = c;
      if (!best) {
        // Nothing timed: the model's choice stands, unless its run failed; then the best
        // predicted candidate whose run did not fail. A shape whose candidates all failed
        // has no kernel to enter (reported below, with every other such shape).
        ++keptByModel;
        if (e.candidates[e.chosen].failure.empty())
          continue;
        auto ok = llvm::find_if(e.candidates, [](const Candidate &c) { return c.failure.empty(); });
        if (ok == e.candidates.end()) {
          std::string failures;
          for (const Candidate &c : e.candidates)
            failures += (failures.empty() ? "" : ", ") + variants[c.variant].name + ": " + c.failure;
          allFailed.push_back(std::to_string(e.size.m) + "x" + std::to_string(e.size.n) + "x" +
                              std::to_string(e.size.k) + " (" + failures + ")");
          continue;
        }
        e.chosen = static_cast<size_t>(ok - e.candidates.begin());
        changed += e.chosen != 0;
        continue;
      }
      // Candidates that did not run (a measurements file made for another table, a run cut
      // short) still compete, on the model's prediction scaled by how the model fared on the
      // ones that ran (the median of score / predicted, the score being what the timed ones
      // compete on): one slow timed kernel must not beat untimed ones the model puts far ahead
      // of it. Far: by more than the model's error (10%), so that a measurement wins every
      // close call. The table records each such candidate's estimated time (its prediction
      // scaled by the median of measured / predicted, over the margin), which tilegen-run's
      // rule for sizes between entries uses in place of a measurement.
      auto median = [](std::vector<double> x) {
        std::sort(x.begin(), x.end());
        return x.size() % 2 ? x[x.size() / 2] : (x[x.size() / 2 - 1] + x[x.size() / 2]) / 2;
      };
      std::vector<double> scoreCalib, timeCalib;
      for (size_t c = 0; c < e.candidates.size(); ++c)
        if (got[c] && e.candidates[c].predicted > 0 && !e.candidates[c].joined) {
          scoreCalib.push_back(score(c) / e.candidates[c].predicted);
          timeCalib.push_back(*e.candidates[c].measured / e.candidates[c].predicted);
        }
      std::optional<size_t> unmeasuredBest;
      if (!scoreCalib.empty()) {
        double fScore = median(scoreCalib), fTime = median(timeCalib);
        for (size_t c = 0; c < e.candidates.size(); ++c) {
          Candidate &cand = e.candidates[c];
          if (got[c] || !cand.failure.empty() || !(cand.predicted > 0))
            continue;
          cand.estimated = cand.predicted * fTime / kUnmeasuredMargin;
          // A deeper sibling or a hinted twin is predicted as its base: where the base was
          // timed, the prediction says nothing more of it.
          const Variant &cv = variants[cand.variant];
          std::optional<size_t> base = cv.deeperOf ? cv.deeperOf : cv.hintedOf;
          if (base && llvm::any_of(llvm::seq<size_t>(0, e.candidates.size()), [&](size_t o) {
                return got[o] && e.candidates[o].variant == *base;
              }))
            continue;
          if (cand.predicted * fScore < kUnmeasuredMargin * score(*best) &&
              (!unmeasuredBest || cand.predicted < e.candidates[*unmeasuredBest].predicted))
            unmeasuredBest = c;
        }
      }
      if (unmeasuredBest) {
        e.chosen = *unmeasuredBest;
        changed += *unmeasuredBest != 0;
        ++keptByModel;
        continue;
      }
      e.measured = true;
      changed += *best != 0;
      e.chosen = *best;
      ++measuredEntries;
    }
    if (!allFailed.empty()) {
      // No table: one would enter a kernel whose run failed; an earlier one stays.
      std::string list;
      for (const std::string &f : allFailed)
        list += "\n  " + f;
      return fail((measurementsOption.empty() ? "" : "--measurements: ") +
                  llvm::Twine("every candidate of ") + llvm::Twine(allFailed.size()) +
                  " shape" + (allFailed.size() == 1 ? "" : "s") +
                  " failed its run; no kernel to enter for " +
                  (allFailed.size() == 1 ? "it" : "them") + ", no table written:" + list);
    }
    if (failed(writeTable()))
      return 1;
    llvm::errs() << "tilegen tune: " << measuredEntries << " of " << entries.size()
                 << " shapes chosen by measurement";
    if (keptByModel)
      llvm::errs() << ", " << keptByModel
                   << " by the model (no candidate timed, or one without a time predicted more "
                      "than 10% ahead of the best timed one)";
    llvm::errs() << " (" << changed << " differ from the model's first choice)\n";
  }
  llvm::outs() << "tilegen tune: wrote " << table << " (" << entries.size() << " shapes, "
               << compiled.size() << " kernels, " << target->name() << ")\n";
  return 0;
}
