//===- Options.h - tilegen-run command line ---------------------*- C++ -*-===//

#ifndef TILEGEN_RUN_OPTIONS_H
#define TILEGEN_RUN_OPTIONS_H

#include "Error.h"
#include "Manifest.h"
#include "Numeric.h"

#include <string>
#include <vector>

namespace tilegen {
namespace run {

/// Which reference --check compares against.
enum class RefKind { Auto, Host, Cublas };

struct Options {
  std::string Self; ///< argv[0], for the reproduce commands
  std::string CubinArg;
  std::string DispatchArg; ///< --dispatch TABLE (instead of CubinArg)
  bool Candidates = false; ///< --candidates: every candidate of the nearest entry
  Problem Size;
  bool HaveM = false, HaveN = false, HaveK = false;
  bool Check = false, Bench = false;
  std::string JsonOut, CsvOut;
  bool JsonGiven = false, CsvGiven = false;
  double TimeoutSec = 300; ///< per shape; 0 = none
  bool TimeoutGiven = false; ///< --timeout was on the command line
  bool HaveAlpha = false, HaveBeta = false;
  double Alpha = 1, Beta = 0; ///< effective values (manifest's unless given)
  uint64_t Seed = 1;
  bool IntInputs = false;
  /// --block-exp LO,HI: the range of the per-block exponent e of scaled and block-scaled
  /// operands (Numeric.h); given on the command line or the default.
  int BlockExpLo = DefaultBlockExpLo, BlockExpHi = DefaultBlockExpHi;
  bool BlockExpGiven = false;
  std::string Sweep;
  int Iters = 50, Warmup = 10;
  int Device = 0;
  RefKind Ref = RefKind::Auto;
  bool NoFork = false;
  /// --pad: run the kernel on a zero-padded copy of a problem it does not take as it is
  /// (Manifest.h, paddedProblem); a dispatch table sets it per shape when it picks a kernel so.
  bool Pad = false;
  bool Help = false;
  bool Version = false;
};

/// The largest |LO|, |HI| of --block-exp.
constexpr int64_t MaxBlockExp = 30;
/// The longest --timeout, in seconds (a week).
constexpr double MaxTimeoutSec = 7 * 24 * 3600;
/// The largest sweep file tilegen-run reads.
constexpr uint64_t MaxSweepFileBytes = uint64_t(16) << 20;

/// Parses argv (usage errors exit with code 2).
Error parseOptions(int Argc, char **Argv, Options &Opts);
std::string usageText();

/// Expands a --sweep argument: comma-separated built-in names (square, llm,
/// odd, all) and files of "M N K" lines (decimal digits, fields separated by
/// spaces, tabs or commas, or written MxNxK; # starts a comment). The files
/// read are appended to *Files when given.
Error expandSweep(const std::string &Spec, std::vector<Problem> &Shapes,
                  std::vector<std::string> *Files = nullptr);

/// With --check, refuses a --block-exp range (the default one too) whose results for
/// kernel Man at size P would all lie outside the output type's normal range: the typical
/// result |alpha| x 2^(e_A + e_B) x sqrt(K) (the sum of K products of N(0, 1) draws scaled by
/// the blocks' exponents) below the smallest normal value even at e = HI, or beyond the
/// largest finite one even at e = LO. Alpha is the effective alpha. Without scale blocks and
/// with beta = 0, the same for alpha alone: |alpha| x sqrt(K) outside the normal range.
Error checkBlockExpRange(const Options &Opts, const Manifest &Man, const Problem &P,
                         double Alpha);

/// The command line that reproduces one shape's run.
std::string reproduceCommand(const Options &Opts, const Problem &P);

/// Quotes S for a POSIX shell if needed.
std::string shellQuote(const std::string &S);

const char *refKindName(RefKind R);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_OPTIONS_H
