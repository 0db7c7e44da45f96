//===- tilegen-verify.cpp - check the synchronisation protocol of a tilegen kernel -----===//
//
//   tilegen-verify KERNEL.ptx [--manifest KERNEL.json] [--m M --n N --k K] [--sms S]
//                  [--schedules R] [--seed S] [--explore-steps B]
//                  [--mutate=KIND[:SITE|:all]] [--list-mutations] [--trace-mma FILE]
//
// Simulates the kernel's PTX for a small problem and checks its barriers, asynchronous copies
// and MMAs (docs/verify.md). Exit status: 0 when the kernel verifies; 1 when the checker finds
// an error (printed with its witness); 2 for bad input. With --mutate=KIND:all every site of
// the mutation kind is planted in turn and the status is 0 when every one is caught.
//
//===--------------------------------------------------------------------------------------===//

#include "tilegen/Support/DecimalOption.h"
#include "tilegen/Version.h"
#include "tilegen/Verify/Mutate.h"
#include "tilegen/Verify/Protocol.h"
#include "tilegen/Support/InputFiles.h"
#include "tilegen/Support/OutputErrors.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace tilegen::verify;

static cl::OptionCategory category("tilegen-verify options");
static cl::opt<std::string> input(cl::Positional, cl::desc("<kernel.ptx>"), cl::Required,
                                  cl::cat(category));
static cl::opt<std::string> manifestPath(
    "manifest", cl::desc("the kernel's manifest (default: the PTX path with .json)"),
    cl::cat(category));
static cl::opt<int64_t, false, tilegen::DecimalParser<int64_t>> optM("m", cl::desc("problem M (default: two tiles' worth)"),
                             cl::init(0), cl::cat(category));
static cl::opt<int64_t, false, tilegen::DecimalParser<int64_t>> optN("n", cl::desc("problem N (default: one tile)"), cl::init(0),
                             cl::cat(category));
static cl::opt<int64_t, false, tilegen::DecimalParser<int64_t>> optK("k", cl::desc("problem K (default: ten K-slices)"), cl::init(0),
                             cl::cat(category));
static cl::opt<unsigned, false, tilegen::DecimalParser<unsigned>> optSms("sms", cl::desc("SMs of the simulated GPU (persistent and "
                                                "stream-K grids)"),
                                cl::init(0), cl::cat(category));
static cl::opt<unsigned, false, tilegen::DecimalParser<unsigned>> optSchedules(
    "schedules", cl::desc("random schedules per problem and beta value (default 4)"),
    cl::init(4), cl::cat(category));
static cl::opt<uint64_t, false, tilegen::DecimalParser<uint64_t>> optSeed("seed", cl::desc("first random seed"), cl::init(1),
                                 cl::cat(category));
static cl::opt<uint64_t, false, tilegen::DecimalParser<uint64_t>> optMaxSteps("max-steps",
                                     cl::desc("scheduling steps per schedule before the "
                                              "checker reports a livelock"),
                                     cl::init(20'000'000), cl::cat(category));
static cl::opt<uint64_t, false, tilegen::DecimalParser<uint64_t>> optExploreSteps(
    "explore-steps",
    cl::desc("bound of the exhaustive exploration, in scheduling steps over all its runs "
             "(default 1000000; 0: off)"),
    cl::init(1'000'000), cl::cat(category));
static cl::opt<std::string> optMutate(
    "mutate",
    cl::desc("plant a bug first: KIND[:SITE|:all], KIND one of drop-fence, drop-arrive, "
             "flip-parity, expect-tx, shrink-init, swap-wait-release, drop-wait-group, "
             "drop-warp-sync"),
    cl::cat(category));
static cl::opt<bool> optList("list-mutations",
                             cl::desc("list every mutation site of every kind and exit"),
                             cl::cat(category));
static cl::opt<bool> optPrintMutated("print-mutated",
                                     cl::desc("print the mutated PTX instead of checking it"),
                                     cl::cat(category));
static cl::opt<int64_t, false, tilegen::DecimalParser<int64_t>> optTrace("trace-thread",
                                 cl::desc("print every statement this thread (index in the "
                                          "grid) executes, with integer results"),
                                 cl::init(-1), cl::Hidden, cl::cat(category));
static cl::opt<std::string> optTraceMma(
    "trace-mma",
    cl::desc("write every wgmma, tcgen05.mma and tcgen05.cp of the first schedule of each "
             "problem, per CTA and warpgroup, with its descriptors decoded, to this file ('-': "
             "standard output); for comparing two builds of a kernel"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<bool> optTime("time", cl::desc("print the checker's time"), cl::cat(category));

static int fail(const Twine &msg) {
  WithColor::error(errs(), "tilegen-verify") << msg << "\n";
  return 2;
}

static std::string firstLine(StringRef s) { return s.take_until([](char c) {
  return c == '\n'; }).str(); }

int main(int argc, char **argv) {
  tilegen::checkStdoutAtExit("tilegen-verify", 2);
  InitLLVM y(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tilegen-verify " TILEGEN_VERSION_STRING "\n";
  });
  cl::ParseCommandLineOptions(argc, argv,
                              "tilegen-verify: check the synchronisation of a tilegen kernel\n");
  // Problem sizes given on the command line: the kernels take them as i32.
  for (auto *o : {&optM, &optN, &optK})
    if (o->getNumOccurrences() && (*o < 1 || *o > INT32_MAX))
      return fail(formatv("--{0} {1}: a problem size must be in [1, {2}] (the kernel takes "
                          "32-bit sizes)",
                          o->ArgStr, int64_t(*o), INT32_MAX)
                      .str());
  std::string why;
  auto ptxBuf = tilegen::readInputFile(input, 256ull << 20, why);
  if (!ptxBuf)
    return fail("cannot read '" + input + "': " + why);
  std::string mpath = manifestPath;
  if (mpath.empty()) {
    SmallString<256> p(input.getValue());
    sys::path::replace_extension(p, "json");
    mpath = std::string(p);
  }
  auto manBuf = tilegen::readInputFile(mpath, 16ull << 20, why);
  if (!manBuf)
    return fail("cannot read the manifest '" + mpath + "': " + why + " (pass --manifest)");
  auto config = readManifest((*manBuf)->getBuffer());
  if (!config)
    return fail(mpath + ": " + toString(config.takeError()));
  StringRef text = (*ptxBuf)->getBuffer();
  auto kernel = parsePTX(text);
  if (!kernel)
    return fail(input + ": " + toString(kernel.takeError()));
  // The manifest describes the launch (grid, block, parameters) of one kernel for one target:
  // checking another kernel's PTX against it would report errors of the pairing, not of the
  // kernel.
  if (kernel->name != config->kernel || kernel->target != config->target)
    return fail(formatv("the manifest '{0}' is for kernel '{1}' on {2}, but '{3}' has kernel "
                        "'{4}' on {5} (pass the manifest written with this PTX)",
                        mpath, config->kernel, config->target, input, kernel->name,
                        kernel->target)
                    .str());

  VerifyOptions opt;
  opt.m = optM;
  opt.n = optN;
  opt.k = optK;
  opt.smCount = optSms;
  opt.randomSchedules = optSchedules;
  opt.seed = optSeed;
  opt.maxSteps = optMaxSteps;
  opt.exploreSteps = optExploreSteps;
  opt.traceThread = optTrace;
  opt.traceMma = !optTraceMma.empty();
  if (opt.traceMma && !optMutate.empty())
    return fail("--trace-mma and --mutate cannot be combined (trace the PTX printed by "
                "--print-mutated instead)");

  if (optList) {
    for (MutationKind kind : allMutationKinds()) {
      auto sites = mutationSites(*kernel, kind);
      outs() << mutationName(kind) << ": " << sites.size() << " site(s)\n";
      for (size_t i = 0; i < sites.size(); ++i)
        outs() << formatv("  {0}: line {1}: {2}\n", i, kernel->stmts[sites[i].stmt].line,
                          kernel->stmts[sites[i].stmt].text);
    }
    return 0;
  }

  auto check = [&](const Kernel &k, double &seconds) {
    auto t0 = std::chrono::steady_clock::now();
    VerifyResult r = verifyProtocol(k, *config, opt);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };

  if (optMutate.empty()) {
    // The trace's file is opened first: a path that cannot be written fails before the run.
    std::unique_ptr<raw_fd_ostream> traceFile;
    if (opt.traceMma && optTraceMma != "-") {
      std::error_code ec;
      traceFile = std::make_unique<raw_fd_ostream>(optTraceMma, ec);
      if (ec)
        return fail("cannot write the MMA trace '" + optTraceMma + "': " + ec.message());
    }
    double s;
    VerifyResult r = check(*kernel, s);
    outs() << input << ": " << r.report;
    if (optTime)
      outs() << formatv("time: {0:f2} s\n", s);
    if (opt.traceMma && !traceFile)
      outs() << r.mmaTrace;
    if (traceFile) {
      *traceFile << r.mmaTrace;
      traceFile->close();
      if (traceFile->has_error()) {
        std::string why = traceFile->error().message();
        traceFile->clear_error();
        return fail("cannot write the MMA trace '" + optTraceMma + "': " + why);
      }
    }
    return r.ok ? 0 : 1;
  }

  auto [kindName, siteSpec] = StringRef(optMutate).split(':');
  auto kind = parseMutationKind(kindName);
  if (!kind)
    return fail("unknown mutation kind '" + kindName + "'");
  auto sites = mutationSites(*kernel, *kind);
  if (sites.empty())
    return fail(formatv("the kernel has no site for mutation {0}", kindName).str());
  std::vector<size_t> chosen;
  bool all = siteSpec == "all";
  if (all) {
    for (size_t i = 0; i < sites.size(); ++i)
      chosen.push_back(i);
  } else {
    unsigned n = 0;
    if (!siteSpec.empty() && siteSpec.getAsInteger(10, n))
      return fail("mutation site '" + siteSpec + "' is not a number or 'all'");
    if (n >= sites.size())
      return fail(formatv("mutation {0} has {1} site(s); site {2} does not exist", kindName,
                          sites.size(), n)
                      .str());
    chosen.push_back(n);
  }
  unsigned caught = 0;
  for (size_t i : chosen) {
    std::string what;
    std::string mutated = applyMutation(text, *kernel, *kind, sites[i], what);
    if (optPrintMutated) {
      outs() << mutated;
      return 0;
    }
    auto mk = parsePTX(mutated);
    if (!mk)
      return fail("the mutated PTX does not parse (" + what + "): " + toString(mk.takeError()));
    double s;
    VerifyResult r = check(*mk, s);
    if (!all) {
      outs() << "mutation " << what << "\n" << input << ": " << r.report;
      if (optTime)
        outs() << formatv("time: {0:f2} s\n", s);
      return r.ok ? 0 : 1;
    }
    caught += !r.ok;
    outs() << formatv("site {0}: {1}\n  {2}: {3}\n", i, what, r.ok ? "MISSED" : "caught",
                      r.ok ? std::string("the mutated kernel verifies") : firstLine(r.report));
  }
  outs() << formatv("{0}: caught {1} of {2} site(s)\n", kindName, caught, chosen.size());
  return caught == chosen.size() ? 0 : 1;
}
