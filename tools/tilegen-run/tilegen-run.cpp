//===- tilegen-run.cpp - Load, check and time a tilegen kernel ------------===//
//
// tilegen-run KERNEL.cubin --m M --n N --k K [--check] [--bench] ...
// tilegen-run --dispatch TABLE.json --sweep LIST [--candidates] ...
//
// The parent process validates everything it can without a GPU (command line,
// manifest, sizes against the manifest's constraints and TMA's alignment),
// then runs each shape in a child process (Child.h) and prints the summary
// table and --json / --csv.
//
//===----------------------------------------------------------------------===//

#include "Child.h"
#include "Dispatch.h"
#include "FileIO.h"
#include "Manifest.h"
#include "Options.h"
#include "Report.h"
#include "tilegen/Version.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

using namespace tilegen::run;

static int fail(const Error &E) {
  std::fflush(stdout);
  std::fprintf(stderr, "tilegen-run: error: %s\n", E.message().c_str());
  return E.code();
}

static int runMain(int Argc, char **Argv);

// A failed write of the report to standard output (a full disk, a closed pipe) is an error,
// with exit status 2 unless the run had failed already.
int main(int Argc, char **Argv) {
  int Rc = runMain(Argc, Argv);
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    int Errno = errno;
    std::fprintf(stderr, "tilegen-run: error: cannot write standard output: %s\n",
                 Errno ? std::strerror(Errno) : "write error");
    return Rc != ExitPass ? Rc : ExitUsage;
  }
  return Rc;
}

static int runMain(int Argc, char **Argv) {
  Options Opts;
  if (Error E = parseOptions(Argc, Argv, Opts))
    return fail(E);
  if (Opts.Help) {
    std::fputs(usageText().c_str(), stdout);
    return ExitPass;
  }
  if (Opts.Version) {
    std::printf("tilegen-run %s\n", TILEGEN_VERSION_STRING);
    return ExitPass;
  }

  // The runs: a shape and the kernel that runs it (one kernel, or a dispatch
  // table's pick; with --candidates every candidate of the nearest entry).
  DispatchTable Table;
  std::vector<Manifest> Single(1);
  const std::vector<Manifest> *Kernels = &Single;
  if (!Opts.DispatchArg.empty()) {
    if (Error E = loadDispatch(Opts.DispatchArg, Table))
      return fail(E);
    Kernels = &Table.Kernels;
  } else if (Error E = loadManifest(Opts.CubinArg, Single[0])) {
    return fail(E);
  }

  std::vector<Problem> Shapes;
  std::vector<std::string> SweepFiles;
  if (Opts.Sweep.empty()) {
    Shapes.push_back(Opts.Size);
  } else if (Error E = expandSweep(Opts.Sweep, Shapes, &SweepFiles)) {
    return fail(E);
  }

  // A result file must not be a file the run reads (through another name or a link).
  {
    std::vector<std::pair<std::string, std::string>> Inputs; // path, what it is
    if (!Opts.DispatchArg.empty())
      Inputs.push_back({Table.Path, "dispatch table"});
    for (const Manifest &M : *Kernels) {
      Inputs.push_back({M.Path, "manifest"});
      Inputs.push_back({M.CubinPath, "cubin"});
    }
    for (const std::string &F : SweepFiles)
      Inputs.push_back({F, "sweep file"});
    for (const auto &Out : {std::make_pair(Opts.JsonGiven, &Opts.JsonOut),
                            std::make_pair(Opts.CsvGiven, &Opts.CsvOut)}) {
      if (!Out.first)
        continue;
      const char *Option = Out.second == &Opts.JsonOut ? "--json" : "--csv";
      for (const auto &In : Inputs)
        if (Error E = checkNotSameFile(*Out.second, Option, In.first, In.second))
          return fail(E);
    }
  }

  struct Run {
    Problem P;
    size_t Kernel = 0;
    bool Runnable = false;
    bool Pad = false; ///< runs zero-padded (--pad, or the table's pick)
  };
  // Whether kernel K runs P: as it is, or (AllowPad) zero-padded.
  auto runnable = [&](size_t K, const Problem &P, bool AllowPad, bool &Pad) -> Error {
    Pad = false;
    TG_TRY(checkBlockExpRange(Opts, (*Kernels)[K], P,
                              Opts.HaveAlpha ? Opts.Alpha : (*Kernels)[K].Alpha));
    Error E = checkProblem((*Kernels)[K], P);
    if (!E || !AllowPad)
      return E;
    Problem Padded;
    if (Error PE = paddedProblem((*Kernels)[K], P, Padded))
      return PE;
    if (Padded == P)
      return E;
    TG_TRY(checkProblem((*Kernels)[K], Padded));
    Pad = true;
    return Error::success();
  };
  std::vector<Run> Runs;
  std::vector<Row> Rows;
  std::vector<std::string> Picks; ///< the table's choice per shape, printed below the header
  auto addRun = [&](const Problem &P, size_t K, const Error &E, bool Pad) {
    Run R{P, K, !E, Pad};
    Options KOpts = Opts;
    const Manifest &Man = (*Kernels)[K];
    if (!Opts.HaveAlpha)
      KOpts.Alpha = Man.Alpha;
    if (!Opts.HaveBeta)
      KOpts.Beta = Man.Beta;
    Row Base = baseRow(KOpts, Man, P);
    if (E) {
      Base["status"] = "skipped";
      Base["message"] = "skipped: " + E.message();
      std::printf("skip %s: %s\n", P.str().c_str(), E.message().c_str());
    }
    Runs.push_back(R);
    Rows.push_back(Base);
  };
  for (const Problem &P : Shapes) {
    if (Opts.DispatchArg.empty()) {
      bool Pad = false;
      Error E = runnable(0, P, Opts.Pad, Pad);
      if (E && Opts.Sweep.empty())
        return fail(E);
      addRun(P, 0, E, Pad);
    } else if (!Opts.Candidates) {
      size_t K = 0;
      bool Pad = false;
      Pick How;
      Error E = pickKernel(Table, P, K, Pad, &How);
      if (!E)
        E = checkBlockExpRange(Opts, Table.Kernels[K], P,
                               Opts.HaveAlpha ? Opts.Alpha : Table.Kernels[K].Alpha);
      if (E && Opts.Sweep.empty())
        return fail(E);
      if (!E) {
        const DispatchEntry &D = Table.Entries[How.Entry];
        char Est[64] = "";
        if (How.EstimateNs > 0)
          std::snprintf(Est, sizeof Est, "%.1f", How.EstimateNs / 1e3);
        Picks.push_back(
            "dispatch " + P.str() + ": kernel " + Table.Kernels[K].Kernel +
            (How.EstimateNs > 0
                 ? " (least time scaled from the near entries: " + std::string(Est) +
                       " us from entry " + D.Size.str() + ")"
             : K == D.Kernel ? " (nearest entry " + D.Size.str() + ", chosen by " + D.ChosenBy + ")"
                             : " (the nearest entry " + D.Size.str() + "'s kernel " +
                                   Table.Kernels[D.Kernel].Kernel +
                                   " breaks a constraint of this size)") +
            (Pad ? ", on zero-padded copies" : ""));
      }
      addRun(P, K, E, Pad);
    } else {
      const DispatchEntry &D = Table.Entries[nearestEntry(Table, P)];
      for (size_t K : D.Candidates) {
        bool Pad = false;
        Error E = runnable(K, P, /*AllowPad=*/true, Pad);
        addRun(P, K, E, Pad);
      }
    }
  }
  if (std::none_of(Runs.begin(), Runs.end(), [](const Run &R) { return R.Runnable; }))
    return fail(usageError(
        Opts.Sweep.empty() ? "no kernel of the table can run " + Opts.Size.str()
                           : "no shape of --sweep " + Opts.Sweep + " meets the constraints of " +
                                 (Opts.DispatchArg.empty() ? "kernel " + Single[0].Kernel
                                                           : "any kernel of " + Table.Path)));

  InputDistribution Dist;
  Dist.IntegerValued = Opts.IntInputs;
  Dist.Seed = Opts.Seed;
  Dist.BlockExpLo = Opts.BlockExpLo;
  Dist.BlockExpHi = Opts.BlockExpHi;
  const Manifest &First = (*Kernels)[Runs.front().Kernel];
  if (Opts.DispatchArg.empty())
    std::printf("tilegen-run: kernel %s (%s, %s), A %s, B %s, C/D %s, "
                "alpha %g, beta %g\n",
                First.Kernel.c_str(), First.Target.Name.c_str(),
                First.CubinPath.c_str(), operandText(First.A).c_str(),
                operandText(First.B).c_str(), operandText(First.C).c_str(),
                Opts.HaveAlpha ? Opts.Alpha : First.Alpha,
                Opts.HaveBeta ? Opts.Beta : First.Beta);
  else
    std::printf("tilegen-run: dispatch table %s (%zu kernels, %zu entries, %s), "
                "A %s, B %s, C/D %s\n",
                Table.Path.c_str(), Table.Kernels.size(), Table.Entries.size(),
                Table.Target.c_str(), operandText(First.A).c_str(),
                operandText(First.B).c_str(), operandText(First.C).c_str());
  std::printf("inputs: %s\n", describeInputs(First, Dist).c_str());
  for (const std::string &Pick : Picks)
    std::printf("%s\n", Pick.c_str());
  std::fflush(stdout);

  DeviceRow Dev;
  int Worst = ExitPass;
  bool Stop = false;
  // --json and --csv are written after every run too, with the rows of the shapes reached so
  // far: a sweep stopped midway (a time limit's SIGTERM, a lost machine) keeps what it
  // measured. The last write, below, has every row and reports errors.
  // Only a plain file, or a name not there yet: anything else (a FIFO, /dev/stdout, a symbolic
  // link, which may lead to a file another name also writes) gets the result once, at the end.
  auto plainFile = [](bool Given, const std::string &Path) {
    struct stat St;
    return Given && (::lstat(Path.c_str(), &St) != 0 ? errno == ENOENT : S_ISREG(St.st_mode));
  };
  bool JsonAsWeGo = plainFile(Opts.JsonGiven, Opts.JsonOut) && Runs.size() > 1;
  bool CsvAsWeGo = plainFile(Opts.CsvGiven, Opts.CsvOut) && Runs.size() > 1;
  auto writeSoFar = [&](size_t Reached) {
    std::vector<Row> Done(Rows.begin(), Rows.begin() + Reached);
    if (JsonAsWeGo && writeJson(Opts.JsonOut, Dev, Done))
      JsonAsWeGo = false;
    if (CsvAsWeGo && writeCsv(Opts.CsvOut, Done))
      CsvAsWeGo = false;
  };
  for (size_t I = 0; I < Runs.size(); ++I) {
    if (!Runs[I].Runnable)
      continue;
    if (Stop) {
      Rows[I]["status"] = "not-run";
      Rows[I]["message"] = "not run: an earlier shape found the GPU or driver "
                           "unusable";
      continue;
    }
    const Manifest &Man = (*Kernels)[Runs[I].Kernel];
    Options KOpts = Opts;
    KOpts.Pad = Runs[I].Pad;
    if (!Opts.DispatchArg.empty())
      KOpts.CubinArg = Man.Path; // what the reproduce command names
    if (!Opts.HaveAlpha)
      KOpts.Alpha = Man.Alpha;
    if (!Opts.HaveBeta)
      KOpts.Beta = Man.Beta;
    ShapeOutcome Res =
        Opts.NoFork ? runShapeInProcess(KOpts, Man, Runs[I].P, Dev.empty())
                    : runShapeContained(KOpts, Man, Runs[I].P, Dev);
    if (Dev.empty())
      Dev = Res.Dev;
    if (!Dev.empty())
      Res.R["gpu"] = Dev["gpu"];
    Rows[I] = Res.R;
    Worst = std::max(Worst, Res.ExitCode);
    Stop = Res.Fatal;
    if ((JsonAsWeGo || CsvAsWeGo) && !Stop && I + 1 < Runs.size())
      writeSoFar(I + 1);
  }

  size_t Count[6] = {0}; // pass, fail, ran, error, hang/timeout, skipped
  for (const Row &R : Rows) {
    auto It = R.find("status");
    std::string S = It == R.end() ? "" : It->second;
    if (S == "pass")
      ++Count[0];
    else if (S == "fail")
      ++Count[1];
    else if (S == "ran")
      ++Count[2];
    else if (S == "hang" || S == "timeout")
      ++Count[4];
    else if (S == "skipped")
      ++Count[5];
    else
      ++Count[3];
  }
  bool Timed = std::any_of(Rows.begin(), Rows.end(),
                           [](const Row &R) { return R.count("tflops"); });
  if (!Opts.Sweep.empty() || Timed) {
    std::printf("\n%s", formatTable(Rows).c_str());
    std::printf("%zu shape%s: %zu pass, %zu fail, %zu ran unchecked, %zu error, "
                "%zu hang, %zu skipped\n",
                Rows.size(), Rows.size() == 1 ? "" : "s", Count[0], Count[1],
                Count[2], Count[3], Count[4], Count[5]);
  }
  std::fflush(stdout);
  // Each file is written whole or not at all (FileIO.h); a failure to write
  // one does not keep the other from being written.
  int WriteFailed = ExitPass;
  if (Opts.JsonGiven)
    if (Error E = writeJson(Opts.JsonOut, Dev, Rows))
      WriteFailed = fail(E);
  if (Opts.CsvGiven)
    if (Error E = writeCsv(Opts.CsvOut, Rows))
      WriteFailed = fail(E);
  return std::max(Worst, WriteFailed);
}
