//===- tilegen.cpp - the tilegen compiler driver --------------------------===//
//
//   tilegen desc.mlir --target=sm_90a --emit=cubin -o out/gemm.cubin
//
// Stops at any stage (--emit=tile|pipeline|nvvm-scf|nvvm|llvm|ptx|cubin). For cubin it runs ptxas
// with a time limit and writes the manifest (docs/manifest.md) beside the cubin. --keep DIR writes
// every stage of the run into DIR; --mlir-timing times the MLIR passes, the LLVM translation and
// optimisation, the PTX emission and ptxas.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Codegen/Input.h"
#include "tilegen/Codegen/Manifest.h"
#include "tilegen/Codegen/PTX.h"
#include "tilegen/Support/DecimalOption.h"
#include "tilegen/Support/InputFiles.h"
#include "tilegen/Support/OutputErrors.h"
#include "tilegen/Support/Suggest.h"
#include "tilegen/Codegen/Pipeline.h"
#include "tilegen/Codegen/Ptxas.h"
#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/InitAll.h"
#include "tilegen/Target/NVTarget.h"
#include "tilegen/Version.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <map>

using namespace mlir;
using namespace tilegen;
namespace cl = llvm::cl;

namespace {
enum class Emit { Tile, Pipeline, NVVMSCF, NVVM, LLVM, PTX, Cubin };
} // namespace

static cl::OptionCategory category("tilegen options");
static cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<description.mlir>"),
                                          cl::init("-"), cl::cat(category));
static cl::opt<std::string> outputFilename("o", cl::desc("output file (default: stdout; for "
                                                         "cubin: <kernel>.cubin)"),
                                           cl::value_desc("file"), cl::init(""),
                                           cl::cat(category));
static cl::opt<std::string> targetName("target",
                                       cl::desc("target: sm_80, sm_86, sm_89, sm_90, sm_90a, "
                                                "sm_100a, sm_103a, sm_120, sm_120a"),
                                       cl::init(""), cl::cat(category));
static cl::opt<Emit, false, tilegen::ValuesParser<Emit>> emit(
    "emit", cl::desc("stage to stop at"), cl::init(Emit::Cubin),
    cl::values(clEnumValN(Emit::Tile, "tile", "the checked description"),
               clEnumValN(Emit::Pipeline, "pipeline", "the tile.pipeline plan"),
               clEnumValN(Emit::NVVMSCF, "nvvm-scf",
                          "kernels as NVVM ops inside scf/arith loops (readable; not for "
                          "mlir-translate)"),
               clEnumValN(Emit::NVVM, "nvvm",
                          "kernels in the LLVM and NVVM dialects only (mlir-translate "
                          "--mlir-to-llvmir takes it)"),
               clEnumValN(Emit::LLVM, "llvm", "LLVM IR after LLVM's O3"),
               clEnumValN(Emit::PTX, "ptx", "PTX"),
               clEnumValN(Emit::Cubin, "cubin", "cubin and JSON manifest (runs ptxas)")),
    cl::cat(category));
static cl::opt<std::string> ptxasOptions("ptxas-options",
                                         cl::desc("extra options passed to ptxas"),
                                         cl::init(""), cl::cat(category));
static cl::opt<unsigned, false, tilegen::DecimalParser<unsigned>>
    ptxasTimeout("ptxas-timeout", cl::desc("seconds ptxas may run (default 120)"), cl::init(120),
                 cl::cat(category));
static cl::opt<bool> printPipeline(
    "print-pipeline",
    cl::desc("print the MLIR pass pipeline as a tilegen-opt command line, for replay"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string> keepDir(
    "keep",
    cl::desc("write every stage of this run into DIR (up to --emit): NAME.tile.mlir, "
             ".pipeline.mlir, .nvvm-scf.mlir, .nvvm.mlir, .ll, .ptx, .cubin, .json, .ptxas.log"),
    cl::value_desc("DIR"), cl::init(""), cl::cat(category));
static cl::opt<bool> verbose("v", cl::desc("print ptxas's full report"), cl::init(false),
                             cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tilegen") << message << "\n";
  return 1;
}

static void printVersion(llvm::raw_ostream &os) {
  os << "tilegen " TILEGEN_VERSION_STRING "\n";
  os << "  LLVM/MLIR " << LLVM_VERSION_STRING << " (NVPTX backend)\n";
  auto ptxas = findPtxas();
  if (ptxas) {
    os << "  ptxas " << ptxas->major << "." << ptxas->minor << " (" << ptxas->path << ": "
       << ptxas->versionLine << ")";
    // The targets this ptxas cannot assemble, grouped by the CUDA release each needs.
    std::map<std::pair<unsigned, unsigned>, SmallVector<StringRef>> tooOld;
    for (const NVTargetInfo &row : NVTarget::all()) {
      auto need = minimumPtxasFor(*NVTarget::parse(row.name));
      if (std::make_pair(ptxas->major, ptxas->minor) < need)
        tooOld[need].push_back(row.name);
    }
    std::string sep = " (too old for ";
    for (auto &[need, names] : tooOld) {
      os << sep << llvm::join(names, ", ") << ": needs CUDA " << need.first << "."
         << need.second;
      sep = "; for ";
    }
    os << (tooOld.empty() ? "" : ")") << "\n";
  } else {
    os << "  ptxas: " << llvm::toString(ptxas.takeError()) << "\n";
  }
}

/// A one-line summary of ptxas's -v report.
static std::string summarisePtxas(llvm::StringRef info) {
  std::string out;
  llvm::Regex regs("Used ([0-9]+) registers");
  llvm::Regex spills("([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads");
  llvm::Regex stack("([0-9]+) bytes stack frame");
  llvm::SmallVector<llvm::StringRef> m;
  if (regs.match(info, &m))
    out += m[1].str() + " registers";
  if (stack.match(info, &m))
    out += ", " + m[1].str() + " bytes stack frame";
  if (spills.match(info, &m))
    out += ", " + m[1].str() + " bytes spill stores, " + m[2].str() + " bytes spill loads";
  return out.empty() ? "no resource report" : out;
}

/// --help lists tilegen's options and the MLIR pass-manager, context and printer options
/// (`--mlir-print-ir-after-all`, `--mlir-timing`, ...), under their own heading; the LLVM
/// options linked in with the NVPTX backend are hidden from --help and --help-hidden but still
/// work.
static void hideUnrelatedOptions() {
  static cl::OptionCategory mlirCategory("MLIR options (pass manager, context, printer)");
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (name.starts_with("mlir-"))
      option->addCategory(mlirCategory);
  cl::HideUnrelatedOptions({&category, &mlirCategory});
}

namespace tilegen {
int explainMain(int argc, char **argv); // Explain.cpp
int tuneMain(int argc, char **argv);    // Tune.cpp

/// For a subcommand, after its options are parsed: LLVM lets a subcommand's command line set
/// the driver's options too, where they do nothing. Names the first one given (returns 1), else
/// returns 0.
int rejectDriverOptions(llvm::StringRef subcommand) {
  cl::Option *driverOptions[] = {&outputFilename, &targetName,    &emit,    &ptxasOptions,
                                 &ptxasTimeout,   &printPipeline, &keepDir, &verbose};
  for (cl::Option *o : driverOptions)
    if (o->getNumOccurrences())
      return fail("option " + llvm::Twine(o->ArgStr.size() == 1 ? "-" : "--") + o->ArgStr +
                  " is the compiler's; tilegen " + subcommand +
                  " does not take it (tilegen " + subcommand + " --help lists its options)");
  return 0;
}
} // namespace tilegen

// `tilegen verify-protocol ARGS`: the protocol checker, tilegen-verify beside this executable
// (docs/verify.md), run with ARGS; its exit status is ours.
static int verifyProtocolMain(int argc, char **argv) {
  std::string self = llvm::sys::fs::getMainExecutable(argv[0], (void *)&verifyProtocolMain);
  llvm::SmallString<256> tool(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(tool, "tilegen-verify");
  if (!llvm::sys::fs::can_execute(tool))
    return fail("verify-protocol needs tilegen-verify beside tilegen (" + tool +
                " is missing; build the tilegen-verify target)");
  llvm::SmallVector<llvm::StringRef> args = {tool};
  for (int i = 2; i < argc; ++i)
    args.push_back(argv[i]);
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(tool, args, std::nullopt, {}, 0, 0, &error);
  if (rc < 0)
    return fail("cannot run " + tool + ": " + error);
  return rc;
}

int main(int argc, char **argv) {
  checkStdoutAtExit("tilegen");
  // tilegen's version for every subcommand's --version as well.
  cl::SetVersionPrinter(printVersion);
  // A first word that is no file but close to a subcommand's name is a mistyped subcommand, not
  // a description to read.
  if (argc > 1) {
    llvm::StringRef first = argv[1];
    static constexpr llvm::StringRef subcommands[] = {"explain", "tune", "verify-protocol"};
    if (!first.starts_with("-") && !llvm::is_contained(subcommands, first) &&
        !llvm::sys::fs::exists(first)) {
      std::string hint = tilegen::didYouMean(first, subcommands);
      if (!hint.empty())
        return fail("'" + first + "' is neither a file nor a subcommand (explain, tune, "
                    "verify-protocol)" + hint);
    }
  }
  if (argc > 1 && llvm::StringRef(argv[1]) == "verify-protocol")
    return verifyProtocolMain(argc, argv);
  if (argc > 1 && llvm::StringRef(argv[1]) == "explain")
    return tilegen::explainMain(argc, argv); // parses argv[1] as its cl::SubCommand
  if (argc > 1 && llvm::StringRef(argv[1]) == "tune")
    return tilegen::tuneMain(argc, argv);
  llvm::InitLLVM y(argc, argv);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  hideUnrelatedOptions();
  cl::ParseCommandLineOptions(argc, argv,
                              "tilegen: GEMM pipeline descriptions to PTX and cubins\n");

  if (targetName.getNumOccurrences() && targetName.empty())
    return fail("--target is empty; known targets: " + NVTarget::knownNames());
  if (!targetName.empty() && !NVTarget::parse(targetName))
    return fail("unknown --target '" + targetName + "'; known targets: " +
                NVTarget::knownNames() + NVTarget::suggest(targetName));

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point into the description; a generic dump of the op adds nothing unless
  // asked for (--mlir-print-op-on-diagnostic).
  if (!cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic")->getNumOccurrences())
    context.printOpOnDiagnostic(false);

  // --mlir-timing: one report for the whole run (printed when `timingManager` goes away, after
  // `timing` has stopped).
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  // No output may be the input: a description overwritten by its PTX or cubin is lost.
  auto overwritesInput = [&](llvm::StringRef out) {
    return inputFilename != "-" && !out.empty() && out != "-" && isSameFile(out, inputFilename);
  };
  if (overwritesInput(outputFilename))
    return fail("-o " + outputFilename + " is the input file; writing it would overwrite the "
                "description");

  std::string errorMessage;
  auto file = readDescription(inputFilename, kMaxDescriptionBytes, errorMessage);
  if (!file)
    return fail(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  TimingScope parseTiming = timing.nest("parse the description");
  OwningOpRef<ModuleOp> module = parseInput(sourceMgr, &context);
  parseTiming.stop();
  if (!module)
    return 1;
  // Nothing to compile is an error at every stage, not an empty module at some.
  if (module->getBody()->empty())
    return fail("the input has no tile.gemm: nothing to compile");
  // A plan (tile.pipeline) was resolved for one target; --target cannot move it to another.
  if (!targetName.empty()) {
    llvm::StringRef want = NVTarget::parse(targetName)->name();
    bool mismatch = false;
    module->walk([&](tile::PipelineOp p) {
      if (p.getTarget() == want)
        return;
      p.emitOpError() << "was planned for target " << p.getTarget() << "; --target=" << targetName
                      << " asks for another: a plan holds its target's instructions and sizes "
                         "(compile the description with --target="
                      << targetName << " instead)";
      mismatch = true;
    });
    if (mismatch)
      return 1;
  }

  auto openOutput = [&](llvm::StringRef path) -> std::unique_ptr<llvm::ToolOutputFile> {
    if (isFifoWithoutReader(path)) {
      fail("cannot write '" + path + "': a FIFO that no process reads (writing would wait "
           "forever)");
      return nullptr;
    }
    std::string err;
    auto out = openOutputFile(path.empty() ? "-" : path, &err);
    if (!out)
      fail(err);
    return out;
  };

  // --keep: DIR/NAME.<stage>, NAME the kernel's (the input file's when it holds several).
  std::string keepBase;
  if (!keepDir.empty()) {
    if (auto ec = llvm::sys::fs::create_directories(keepDir))
      return fail("--keep: cannot create directory '" + keepDir + "': " + ec.message());
    if (!llvm::sys::fs::is_directory(keepDir))
      return fail("--keep: '" + keepDir + "' is a file, not a folder (--keep=DIR writes "
                  "DIR/NAME.<stage>)");
    auto &ops = module->getBody()->getOperations();
    auto sym = ops.size() == 1 ? ops.front().getAttrOfType<StringAttr>(
                                     SymbolTable::getSymbolAttrName())
                               : StringAttr();
    std::string name = sym ? sym.str()
                       : inputFilename == "-"
                           ? std::string("stdin")
                           : llvm::sys::path::stem(inputFilename).str();
    llvm::SmallString<256> base(keepDir.getValue());
    llvm::sys::path::append(base, name);
    keepBase = base.str().str();
  }
  auto keep = [&](llvm::StringRef suffix,
                  llvm::function_ref<void(llvm::raw_ostream &)> write) -> bool {
    if (keepBase.empty())
      return true;
    std::string path = keepBase + "." + suffix.str();
    if (overwritesInput(path))
      return fail("--keep: " + path + " is the input file; writing it would overwrite it"), false;
    auto out = openOutput(path);
    if (!out)
      return false;
    write(out->os());
    return keepOutput(*out, "tilegen");
  };
  auto printModule = [&](ModuleOp m) {
    return [m](llvm::raw_ostream &os) mutable {
      m.print(os);
      os << "\n"; // as tilegen-opt ends its output
    };
  };

  // The MLIR part: one pass manager from the description to the last MLIR stage asked for, or,
  // with --keep, one per stage so that each can be written.
  auto runPasses = [&](ModuleOp m, std::optional<Stage> from, Stage to) -> LogicalResult {
    PassManager pm(&context, ModuleOp::getOperationName());
    buildTilegenPipeline(pm, PipelineOptions{targetName}, to, from);
    if (failed(applyPassManagerCLOptions(pm)))
      return fail("cannot apply the pass-manager options"), failure();
    TimingScope passTiming = timing.nest("MLIR passes");
    pm.enableTiming(passTiming);
    return pm.run(m);
  };
  Stage stop = emit == Emit::Tile       ? Stage::Tile
               : emit == Emit::Pipeline ? Stage::Pipeline
               : emit == Emit::NVVMSCF  ? Stage::NVVM
                                        : Stage::LLVM;
  if (printPipeline) {
    // The pass manager is anchored on builtin.module and prints its own
    // `builtin.module(...)` wrapper.
    PassManager pm(&context, ModuleOp::getOperationName());
    buildTilegenPipeline(pm, PipelineOptions{targetName}, stop);
    llvm::errs() << "tilegen-opt --pass-pipeline='";
    pm.printAsTextualPipeline(llvm::errs());
    llvm::errs() << "'\n";
  }
  if (keepBase.empty()) {
    if (failed(runPasses(*module, std::nullopt, stop)))
      return 1;
  } else {
    // The checked description is a side branch (the expansion starts from the description as
    // written): it is resolved on a copy unless the run stops there.
    if (emit == Emit::Tile) {
      if (failed(runPasses(*module, std::nullopt, Stage::Tile)))
        return 1;
      if (!keep("tile.mlir", printModule(*module)))
        return 1;
    } else {
      OwningOpRef<ModuleOp> checked = module->clone();
      if (failed(runPasses(*checked, std::nullopt, Stage::Tile)) ||
          !keep("tile.mlir", printModule(*checked)))
        return 1;
      struct Step {
        Stage to;
        Emit emittedAt;
        llvm::StringLiteral suffix;
      };
      static constexpr Step steps[] = {{Stage::Pipeline, Emit::Pipeline, "pipeline.mlir"},
                                       {Stage::NVVM, Emit::NVVMSCF, "nvvm-scf.mlir"},
                                       {Stage::LLVM, Emit::NVVM, "nvvm.mlir"}};
      std::optional<Stage> at;
      for (const Step &step : steps) {
        if (emit < step.emittedAt)
          break;
        if (failed(runPasses(*module, at, step.to)) ||
            !keep(step.suffix, printModule(*module)))
          return 1;
        at = step.to;
      }
    }
  }

  if (emit <= Emit::NVVM) {
    auto out = openOutput(outputFilename);
    if (!out)
      return 1;
    printModule(*module)(out->os());
    return keepOutput(*out, "tilegen") ? 0 : 1;
  }

  // One target for the whole module.
  SmallVector<LLVM::LLVMFuncOp> kernels = findKernels(*module);
  if (kernels.empty())
    return fail("the input has no tile.gemm: nothing to compile");
  // The kernels are this run's own (parseInput takes descriptions and plans only), each with
  // the target its plan was checked for.
  auto targetOf = [](LLVM::LLVMFuncOp k) {
    auto attr = k->getAttrOfType<StringAttr>("tilegen.target");
    return attr ? attr.getValue() : StringRef();
  };
  StringRef kernelTarget = targetOf(kernels.front());
  for (LLVM::LLVMFuncOp k : kernels)
    if (targetOf(k) != kernelTarget)
      return fail("kernels for different targets in one file (" + kernelTarget + " and " +
                  targetOf(k) + "); pass --target or split the file");
  std::optional<NVTarget> parsedTarget = NVTarget::parse(kernelTarget);
  if (!parsedTarget)
    return fail("tilegen bug: kernel '" + kernels.front().getSymName() +
                "' carries no known target ('" + kernelTarget + "')");
  NVTarget target = *parsedTarget;

  llvm::LLVMContext llvmContext;
  TimingScope llvmTiming = timing.nest("LLVM translation and O3");
  auto llvmModule = translateToLLVMIR(*module, target, llvmContext);
  llvmTiming.stop();
  if (!llvmModule)
    return fail(llvm::toString(llvmModule.takeError()));
  auto printLLVM = [&](llvm::raw_ostream &os) { (*llvmModule)->print(os, nullptr); };
  if (!keep("ll", printLLVM))
    return 1;
  if (emit == Emit::LLVM) {
    auto out = openOutput(outputFilename);
    if (!out)
      return 1;
    printLLVM(out->os());
    return keepOutput(*out, "tilegen") ? 0 : 1;
  }
  TimingScope ptxTiming = timing.nest("PTX emission (NVPTX codegen)");
  auto ptx = emitPTX(**llvmModule, target);
  ptxTiming.stop();
  if (!ptx)
    return fail(llvm::toString(ptx.takeError()));
  if (!keep("ptx", [&](llvm::raw_ostream &os) { os << *ptx; }))
    return 1;
  if (emit == Emit::PTX) {
    auto out = openOutput(outputFilename);
    if (!out)
      return 1;
    out->os() << *ptx;
    return keepOutput(*out, "tilegen") ? 0 : 1;
  }

  // cubin + manifest.
  if (kernels.size() != 1)
    return fail("--emit=cubin writes one kernel and its manifest; this file has " +
                llvm::Twine(kernels.size()) + " tile.gemm ops (split the file)");
  std::string cubinPath = outputFilename.empty()
                              ? (kernels.front().getSymName() + ".cubin").str()
                              : outputFilename.getValue();
  if (cubinPath == "-")
    return fail("--emit=cubin needs a file name (-o out/NAME.cubin)");
  llvm::SmallString<256> manifestPath(cubinPath);
  llvm::sys::path::replace_extension(manifestPath, "json");
  {
    llvm::sys::fs::file_status st;
    // (A folder is refused below, as a path ptxas cannot write.)
    if (!llvm::sys::fs::status(cubinPath, st) &&
        st.type() != llvm::sys::fs::file_type::regular_file &&
        st.type() != llvm::sys::fs::file_type::directory_file)
      return fail("-o " + cubinPath + " is not a regular file: ptxas writes the cubin there and "
                  "tilegen reads it back (write it to a file, then copy it)");
  }
  if (manifestPath == cubinPath)
    return fail("-o " + cubinPath + ": the manifest is written beside the cubin as NAME.json, so "
                "the cubin cannot be named *.json (use -o NAME.cubin)");
  if (overwritesInput(manifestPath))
    return fail("-o " + cubinPath + ": its manifest " + manifestPath +
                " is the input file; writing it would overwrite the description");
  if (!keepBase.empty())
    for (const char *suffix : {".cubin", ".json"})
      if (overwritesInput(keepBase + suffix))
        return fail("--keep: " + keepBase + suffix +
                    " is the input file; writing it would overwrite it");
  llvm::StringRef dir = llvm::sys::path::parent_path(cubinPath);
  if (!dir.empty())
    if (auto ec = llvm::sys::fs::create_directories(dir))
      return fail("cannot create directory '" + dir + "': " + ec.message());
  auto ptxas = findPtxas();
  if (!ptxas)
    return fail(llvm::toString(ptxas.takeError()));
  TimingScope ptxasTiming = timing.nest("ptxas");
  auto result = runPtxas(*ptxas, *ptx, target, cubinPath, ptxasOptions, ptxasTimeout);
  ptxasTiming.stop();
  if (!result)
    return fail(llvm::toString(result.takeError()));
  std::string manifest =
      manifestJSON(kernels.front(), llvm::sys::path::filename(cubinPath));
  {
    auto out = openOutput(manifestPath);
    if (!out)
      return 1;
    out->os() << manifest;
    if (!keepOutput(*out, "tilegen"))
      return 1;
  }
  if (!keepBase.empty()) {
    // The cubin under the kept name; the manifest names the cubin beside it.
    std::string keptCubin = keepBase + ".cubin";
    if (auto ec = llvm::sys::fs::copy_file(cubinPath, keptCubin))
      return fail("--keep: cannot copy " + cubinPath + " to " + keptCubin + ": " +
                  ec.message());
    std::string keptManifest =
        manifestJSON(kernels.front(), llvm::sys::path::filename(keptCubin));
    if (!keep("json", [&](llvm::raw_ostream &os) { os << keptManifest; }) ||
        !keep("ptxas.log", [&](llvm::raw_ostream &os) { os << result->info; }))
      return 1;
  }
  if (verbose)
    llvm::errs() << result->info;
  // ptxas reports what costs speed (wgmma serialisation, register spills) as "info" lines with
  // a code; show them even without -v, as warnings.
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(result->info).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::StringRef text;
    if (line.contains("Potential Performance Loss"))
      text = line.drop_until([](char c) { return c == '('; }).trim();
    else if (size_t at = line.find("warning"); at != llvm::StringRef::npos)
      text = line.drop_front(at + llvm::StringRef("warning").size()).ltrim(" :").trim();
    else
      continue;
    llvm::WithColor::warning(llvm::errs(), "tilegen")
        << "ptxas: " << (text.empty() ? line.trim() : text) << "\n";
  }
  // Spills cost local-memory traffic in the main loop: say so, not only in the summary.
  {
    llvm::Regex spills("([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads");
    llvm::SmallVector<llvm::StringRef> m;
    if (spills.match(result->info, &m) && (m[1] != "0" || m[2] != "0"))
      llvm::WithColor::warning(llvm::errs(), "tilegen")
          << "ptxas: the kernel spills registers (" << m[1] << " bytes spill stores, " << m[2]
          << " bytes spill loads), which slows it; a smaller tile or fewer stages may avoid it\n";
  }
  llvm::outs() << "tilegen: wrote " << cubinPath << " and " << manifestPath << " ("
               << kernels.front().getSymName() << ", " << target.name() << "; ptxas: "
               << summarisePtxas(result->info) << ")\n";
  return 0;
}
