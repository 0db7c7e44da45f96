//===- tilegen-run.cpp - Load, check and time a tilegen kernel ------------===//
//
// tilegen-run KERNEL.cubin --m M --n N --k K [--check] [--bench] ...
//
// The parent process validates everything it can without a GPU (command line,
// manifest, sizes against the manifest's constraints and TMA's alignment),
// then runs each shape in a child process (Child.h) and prints the summary
// table and --json / --csv.
//
//===----------------------------------------------------------------------===//

#include "Child.h"
#include "Manifest.h"
#include "Options.h"
#include "Report.h"

#include <algorithm>
#include <cstdio>

using namespace tilegen::run;

static int fail(const Error &E) {
  std::fflush(stdout);
  std::fprintf(stderr, "tilegen-run: error: %s\n", E.message().c_str());
  return E.code();
}

int main(int Argc, char **Argv) {
  Options Opts;
  if (Error E = parseOptions(Argc, Argv, Opts))
    return fail(E);
  if (Opts.Help) {
    std::fputs(usageText().c_str(), stdout);
    return ExitPass;
  }

  Manifest Man;
  if (Error E = loadManifest(Opts.CubinArg, Man))
    return fail(E);
  if (!Opts.HaveAlpha)
    Opts.Alpha = Man.Alpha;
  if (!Opts.HaveBeta)
    Opts.Beta = Man.Beta;

  std::vector<Problem> Shapes;
  if (Opts.Sweep.empty()) {
    Shapes.push_back(Opts.Size);
  } else if (Error E = expandSweep(Opts.Sweep, Shapes)) {
    return fail(E);
  }

  std::vector<Row> Rows;
  std::vector<bool> Runnable;
  for (const Problem &P : Shapes) {
    Error E = checkProblem(Man, P);
    if (E && Opts.Sweep.empty())
      return fail(E);
    Runnable.push_back(!E);
    Row R = baseRow(Opts, Man, P);
    if (E) {
      R["status"] = "skipped";
      R["message"] = "skipped: " + E.message();
      std::printf("skip %s: %s\n", P.str().c_str(), E.message().c_str());
    }
    Rows.push_back(R);
  }
  if (std::none_of(Runnable.begin(), Runnable.end(), [](bool B) { return B; }))
    return fail(usageError("no shape of --sweep " + Opts.Sweep +
                           " meets the constraints of kernel " + Man.Kernel));

  InputDistribution Dist;
  Dist.IntegerValued = Opts.IntInputs;
  Dist.Seed = Opts.Seed;
  std::printf("tilegen-run: kernel %s (%s, %s), A %s, B %s, C/D %s, "
              "alpha %g, beta %g\n",
              Man.Kernel.c_str(), Man.Target.Name.c_str(),
              Man.CubinPath.c_str(), operandText(Man.A).c_str(),
              operandText(Man.B).c_str(), operandText(Man.C).c_str(), Opts.Alpha,
              Opts.Beta);
  std::printf("inputs: %s\n", describeInputs(Man, Dist).c_str());
  std::fflush(stdout);

  DeviceRow Dev;
  int Worst = ExitPass;
  bool Stop = false;
  for (size_t I = 0; I < Shapes.size(); ++I) {
    if (!Runnable[I])
      continue;
    if (Stop) {
      Rows[I]["status"] = "not-run";
      Rows[I]["message"] = "not run: an earlier shape found the GPU or driver "
                           "unusable";
      continue;
    }
    ShapeOutcome Res =
        Opts.NoFork ? runShapeInProcess(Opts, Man, Shapes[I], Dev.empty())
                    : runShapeContained(Opts, Man, Shapes[I], Dev);
    if (Dev.empty())
      Dev = Res.Dev;
    if (!Dev.empty())
      Res.R["gpu"] = Dev["gpu"];
    Rows[I] = Res.R;
    Worst = std::max(Worst, Res.ExitCode);
    Stop = Res.Fatal;
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
