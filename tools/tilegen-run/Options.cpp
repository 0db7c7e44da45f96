//===- Options.cpp - tilegen-run command line -----------------------------===//

#include "Options.h"
#include "FileIO.h"
#include "Json.h"

#include "tilegen/Support/ShapeLists.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

using namespace tilegen::run;

std::string tilegen::run::usageText() {
  return R"(usage: tilegen-run KERNEL.cubin --m M --n N --k K [options]
       tilegen-run KERNEL.cubin --sweep LIST|FILE [options]
       tilegen-run --dispatch TABLE.json (--m M --n N --k K | --sweep LIST) [options]

Loads KERNEL.cubin and its manifest KERNEL.json (same stem; passing the .json
also works), runs D = alpha * A x B + beta * C on the GPU, and optionally
checks and times it. Each shape runs in a child process, so a kernel that
faults or hangs is reported and a sweep goes on.

options:
  --m M --n N --k K   problem size, each in [1, 2^31 - 1] (the kernel takes
                      them as i32), at most 2^31 - 1 output tiles
  --check             compare with a reference (host fp64 when M*N*K <= 2^30,
                      else cuBLAS's A x B in fp32, alpha/beta on the host;
                      for fp8 operands cuBLASLt's scaled product, or the host
                      when cuBLASLt cannot take the case)
  --ref auto|host|cublas
                      force the --check reference (cublas: cuBLASLt for fp8)
  --bench             time with CUDA events against cuBLAS (same shapes,
                      types, layouts, alpha, beta); fp8 kernels against
                      cuBLASLt with the same scale modes and output type
  --iters N           timed runs (default 50)
  --warmup N          untimed runs first (default 10)
  --sweep LIST|FILE   comma-separated: square (1k..16k cubed), llm, odd, all,
                      or a file (a regular file of at most 16 MiB, or a
                      pipe) with one "M N K" per line: decimal digits,
                      separated by spaces, tabs or commas (or MxNxK); #
                      starts a comment
  --dispatch TABLE    a dispatch table of tilegen tune (docs/dispatch.md)
                      instead of one kernel: each shape runs the kernel the
                      table picks for it
  --candidates        with --dispatch: run every candidate kernel of the
                      table entry nearest each shape (the timing run that
                      tilegen tune --measurements reads)
  --alpha X --beta Y  epilogue scalars: 0 or normal f32 values, 1.2e-38 <=
                      |x| <= 3.4e38 (default: the manifest's)
  --seed S            input seed (default 1)
  --int-inputs        integer inputs in [-3, 3]; exact results are checked
                      bit for bit
  --block-exp LO,HI   the range of the exponent e of each scale block of
                      scaled and block-scaled operands (below; default
                      -4,4; |LO|, |HI| <= 30): -8,-4 draws blocks of
                      magnitude 2^-8 ... 2^-4, as model weights have;
                      with --check, a range whose results would all be
                      subnormal or all infinite in D's type is refused
  --timeout SEC       kill a shape that runs longer (default 300; 0 = never;
                      at most 604800, a week)
  --device I          GPU ordinal (default 0)
  --json FILE         write results as JSON
  --csv FILE          write results as CSV (both written whole at the end: a
                      temporary file beside FILE, renamed onto it; a
                      symbolic link's target is replaced, a FIFO or
                      character device written to; never an input file)
  --pad               run a size the kernel does not take as it is (N or K
                      off the 16-byte rule, say) on zero-padded copies of
                      its tensors: each launch copies A, B (and C) into
                      buffers padded to the kernel's multiples and D back,
                      and is timed with the copies; with --dispatch this is
                      automatic for sizes no kernel takes as they are
  --no-fork           run in this process (for debuggers; no --timeout)
  --help              this text
  --version           tilegen-run's version (the project's)

inputs: uniform in [-1, 1] rounded to the operand type (unscaled fp8 too).
  Scaled fp8 operands: x = n * 2^e, n ~ N(0, 1) per element, e uniform in
  [LO, HI] (--block-exp) per scale block (0 per tensor); each block's f32
  scale is amax / fp8 max (448 e4m3, 57344 e5m2) and its codes x / scale
  rounded to nearest even with saturation. With --int-inputs: integer codes
  in [-3, 3], scales 0.5, 1 or 2 per block. Block-scaled operands (MXFP8,
  MXFP6, MXFP4, NVFP4): x drawn the same way per scale block, quantised by
  the OCP MX rule (NVFP4: its two-level rule).

The cubin must be an ELF file for CUDA (e_machine 190) with all its sections
inside it; PTX, fat binaries and truncated files are refused before the driver
sees them. A manifest is at most 4 MiB of strict JSON (docs/manifest.md).

exit codes: 0 pass, 1 check failed, 2 usage/manifest/size/output error,
            3 CUDA driver/GPU/cuBLAS error or kernel fault, 4 hang/timeout
)";
}

const char *tilegen::run::refKindName(RefKind R) {
  switch (R) {
  case RefKind::Auto:
    return "auto";
  case RefKind::Host:
    return "host";
  case RefKind::Cublas:
    return "cublas";
  }
  return "?";
}

static bool parseInt64(const std::string &S, int64_t &Out) {
  if (S.empty())
    return false;
  errno = 0;
  char *End = nullptr;
  long long V = std::strtoll(S.c_str(), &End, 10);
  if (errno || *End != '\0')
    return false;
  Out = V;
  return true;
}

/// Parses a matrix size (M, N or K): decimal digits only (no sign, space or
/// other base), an integer in [1, 2^31 - 1]. On failure, Why says what is
/// wrong ("not an integer", ...).
static bool parseSize(const std::string &S, const char *Dim, int64_t &Out,
                      std::string &Why) {
  const bool Negative = !S.empty() && S[0] == '-';
  const std::string Digits = Negative ? S.substr(1) : S;
  if (Digits.empty() ||
      Digits.find_first_not_of("0123456789") != std::string::npos) {
    Why = "not an integer";
    return false;
  }
  size_t First = Digits.find_first_not_of('0');
  if (Negative || First == std::string::npos) {
    Why = "not positive";
    return false;
  }
  // At most 10 significant digits fit the test below without overflow.
  if (Digits.size() - First > 10 || std::stoll(Digits.substr(First)) > INT32_MAX) {
    Why = std::string("more than 2^31 - 1: the kernel takes ") + Dim +
          " as a 32-bit signed integer";
    return false;
  }
  Out = std::stoll(Digits.substr(First));
  return true;
}

/// Whether S is a plain decimal number: an optional sign, digits with at most one '.' (at least
/// one digit), and an optional exponent of an 'e' or 'E', an optional sign and digits. strtod
/// alone also takes leading spaces, hexadecimal, "inf" and "nan".
static bool isDecimalNumber(const std::string &S) {
  size_t I = 0, N = S.size();
  auto digits = [&] {
    size_t From = I;
    while (I < N && S[I] >= '0' && S[I] <= '9')
      ++I;
    return I - From;
  };
  if (I < N && (S[I] == '+' || S[I] == '-'))
    ++I;
  size_t Mantissa = digits();
  if (I < N && S[I] == '.') {
    ++I;
    Mantissa += digits();
  }
  if (Mantissa == 0)
    return false;
  if (I < N && (S[I] == 'e' || S[I] == 'E')) {
    ++I;
    if (I < N && (S[I] == '+' || S[I] == '-'))
      ++I;
    if (digits() == 0)
      return false;
  }
  return I == N;
}

static bool parseDouble(const std::string &S, double &Out) {
  if (!isDecimalNumber(S))
    return false;
  errno = 0;
  char *End = nullptr;
  double V = std::strtod(S.c_str(), &End);
  if (errno || *End != '\0' || !std::isfinite(V))
    return false;
  Out = V;
  return true;
}

Error tilegen::run::parseOptions(int Argc, char **Argv, Options &Opts) {
  Opts.Self = Argc > 0 ? Argv[0] : "tilegen-run";
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  auto bad = [](const std::string &Msg) {
    return usageError(Msg + " (see tilegen-run --help)");
  };
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string A = Args[I];
    std::string Value;
    bool HasInline = false;
    if (A.size() > 2 && A.compare(0, 2, "--") == 0) {
      size_t Eq = A.find('=');
      if (Eq != std::string::npos) {
        Value = A.substr(Eq + 1);
        A = A.substr(0, Eq);
        HasInline = true;
      }
    }
    auto takeValue = [&](std::string &Out) -> Error {
      if (HasInline) {
        Out = Value;
        return Error::success();
      }
      if (I + 1 >= Args.size())
        return bad("option " + A + " needs a value");
      // The next word is another option, not this one's value (--json --check would write a
      // file named --check); a value that starts with -- is given inline, --json=--x.
      if (Args[I + 1].size() > 2 && Args[I + 1].compare(0, 2, "--") == 0)
        return bad("option " + A + " needs a value, found the option '" + Args[I + 1] +
                   "' (write " + A + "=VALUE for a value that starts with --)");
      Out = Args[++I];
      return Error::success();
    };
    auto takeInt = [&](int64_t Min, int64_t Max, int64_t &Out) -> Error {
      std::string V;
      TG_TRY(takeValue(V));
      if (!parseInt64(V, Out) || Out < Min || Out > Max)
        return bad("option " + A + ": expected an integer in [" +
                   std::to_string(Min) + ", " + std::to_string(Max) +
                   "], found '" + V + "'");
      return Error::success();
    };
    // alpha and beta reach the kernel as f32 parameters: 0 or a normal f32
    // number. A smaller magnitude is subnormal in f32 or rounds to 0, so the
    // kernel would not scale by the value asked for (and may flush it to 0).
    auto takeF32 = [&](double &Out) -> Error {
      std::string V;
      TG_TRY(takeValue(V));
      if (!parseDouble(V, Out) || std::fabs(Out) > kMaxF32Scalar)
        return bad("option " + A +
                   ": expected a finite number in the range of f32 (|x| <= "
                   "3.4028235e38), found '" + V + "'");
      if (Out != 0 && std::fabs(Out) < double(FLT_MIN))
        return bad("option " + A + ": '" + V +
                   "' is below the smallest normal f32 number (|x| >= "
                   "1.1754944e-38, or 0): the kernel takes it as an f32, where it is "
                   "subnormal or 0");
      return Error::success();
    };
    auto noValue = [&]() -> Error {
      if (HasInline)
        return bad("option " + A + " takes no value");
      return Error::success();
    };

    int64_t X;
    if (A == "--help" || A == "-h") {
      Opts.Help = true;
    } else if (A == "--version") {
      TG_TRY(noValue());
      Opts.Version = true;
    } else if (A == "--m" || A == "--n" || A == "--k") {
      std::string V, Why;
      TG_TRY(takeValue(V));
      const char *Dim = A == "--m" ? "M" : A == "--n" ? "N" : "K";
      if (!parseSize(V, Dim, X, Why))
        return bad("option " + A + ": expected an integer in [1, " +
                   std::to_string(INT32_MAX) + "], found '" + V + "' (" + Why + ")");
      if (A == "--m")
        Opts.Size.M = X, Opts.HaveM = true;
      else if (A == "--n")
        Opts.Size.N = X, Opts.HaveN = true;
      else
        Opts.Size.K = X, Opts.HaveK = true;
    } else if (A == "--check") {
      TG_TRY(noValue());
      Opts.Check = true;
    } else if (A == "--bench") {
      TG_TRY(noValue());
      Opts.Bench = true;
    } else if (A == "--int-inputs") {
      TG_TRY(noValue());
      Opts.IntInputs = true;
    } else if (A == "--block-exp") {
      std::string V;
      TG_TRY(takeValue(V));
      size_t Comma = V.find(',');
      int64_t Lo = 0, Hi = 0;
      if (Comma == std::string::npos || !parseInt64(V.substr(0, Comma), Lo) ||
          !parseInt64(V.substr(Comma + 1), Hi) || Lo < -MaxBlockExp || Hi > MaxBlockExp ||
          Lo > Hi)
        return bad("option --block-exp: expected LO,HI, integers with -" +
                   std::to_string(MaxBlockExp) + " <= LO <= HI <= " +
                   std::to_string(MaxBlockExp) + " (the range of each scale block's "
                   "exponent; products and sums then stay within f32 for the cuBLAS "
                   "reference), found '" + V + "'");
      Opts.BlockExpLo = int(Lo);
      Opts.BlockExpHi = int(Hi);
      Opts.BlockExpGiven = true;
    } else if (A == "--no-fork") {
      TG_TRY(noValue());
      Opts.NoFork = true;
    } else if (A == "--pad") {
      TG_TRY(noValue());
      Opts.Pad = true;
    } else if (A == "--json") {
      TG_TRY(takeValue(Opts.JsonOut));
      Opts.JsonGiven = true;
    } else if (A == "--csv") {
      TG_TRY(takeValue(Opts.CsvOut));
      Opts.CsvGiven = true;
    } else if (A == "--sweep") {
      TG_TRY(takeValue(Opts.Sweep));
      if (Opts.Sweep.empty())
        return bad("option --sweep: the list or sweep file name is empty");
    } else if (A == "--dispatch") {
      TG_TRY(takeValue(Opts.DispatchArg));
      if (Opts.DispatchArg.empty())
        return bad("option --dispatch needs a table file");
    } else if (A == "--candidates") {
      TG_TRY(noValue());
      Opts.Candidates = true;
    } else if (A == "--timeout") {
      std::string V;
      TG_TRY(takeValue(V));
      Opts.TimeoutGiven = true;
      // The deadline is kept in nanoseconds of a 64-bit clock: at most a week.
      if (!parseDouble(V, Opts.TimeoutSec) || Opts.TimeoutSec < 0 ||
          Opts.TimeoutSec > MaxTimeoutSec)
        return bad("option --timeout: expected seconds in [0, " +
                   std::to_string(static_cast<long>(MaxTimeoutSec)) + "] (0 = none), found '" +
                   V + "'");
    } else if (A == "--alpha") {
      TG_TRY(takeF32(Opts.Alpha));
      Opts.HaveAlpha = true;
    } else if (A == "--beta") {
      TG_TRY(takeF32(Opts.Beta));
      Opts.HaveBeta = true;
    } else if (A == "--seed") {
      TG_TRY(takeInt(0, INT64_MAX, X));
      Opts.Seed = static_cast<uint64_t>(X);
    } else if (A == "--iters") {
      TG_TRY(takeInt(1, 1000000, X));
      Opts.Iters = static_cast<int>(X);
    } else if (A == "--warmup") {
      TG_TRY(takeInt(0, 1000000, X));
      Opts.Warmup = static_cast<int>(X);
    } else if (A == "--device") {
      TG_TRY(takeInt(0, 1023, X));
      Opts.Device = static_cast<int>(X);
    } else if (A == "--ref") {
      std::string V;
      TG_TRY(takeValue(V));
      if (V == "auto")
        Opts.Ref = RefKind::Auto;
      else if (V == "host")
        Opts.Ref = RefKind::Host;
      else if (V == "cublas")
        Opts.Ref = RefKind::Cublas;
      else
        return bad("option --ref: expected auto, host or cublas, found '" + V +
                   "'");
    } else if (A.size() > 1 && A[0] == '-') {
      return bad("unknown option '" + A + "'");
    } else {
      if (!Opts.CubinArg.empty())
        return bad("more than one kernel given: '" + Opts.CubinArg +
                   "' and '" + A + "'");
      Opts.CubinArg = A;
    }
  }
  if (Opts.Help || Opts.Version)
    return Error::success();
  if (!Opts.DispatchArg.empty() && !Opts.CubinArg.empty())
    return bad("--dispatch and a kernel ('" + Opts.CubinArg +
               "') exclude each other: the table picks the kernel");
  if (Opts.Candidates && Opts.DispatchArg.empty())
    return bad("--candidates needs --dispatch TABLE");
  if (Opts.CubinArg.empty() && Opts.DispatchArg.empty())
    return bad("missing the kernel: give KERNEL.cubin (with KERNEL.json "
               "beside it) or --dispatch TABLE");
  bool AnySize = Opts.HaveM || Opts.HaveN || Opts.HaveK;
  if (!Opts.Sweep.empty() && AnySize)
    return bad("--sweep and --m/--n/--k exclude each other");
  if (Opts.Sweep.empty()) {
    std::string Missing;
    if (!Opts.HaveM)
      Missing += " --m";
    if (!Opts.HaveN)
      Missing += " --n";
    if (!Opts.HaveK)
      Missing += " --k";
    if (!Missing.empty())
      return bad("missing problem size:" + Missing + " (or use --sweep)");
  }
  if (Opts.NoFork && Opts.TimeoutGiven)
    return bad("--no-fork cannot enforce --timeout (a hung kernel can only be stopped from "
               "another process); drop one of the two");
  if (Opts.NoFork && !Opts.Sweep.empty())
    return bad("--no-fork cannot be used with --sweep (a faulting kernel "
               "would end the sweep)");
  // Results are written at the end; a directory that is not there should not
  // cost a whole sweep.
  if (Opts.JsonGiven)
    TG_TRY(checkOutputPath(Opts.JsonOut, "--json"));
  if (Opts.CsvGiven)
    TG_TRY(checkOutputPath(Opts.CsvOut, "--csv"));
  if (Opts.JsonGiven && Opts.CsvGiven && Opts.JsonOut == Opts.CsvOut)
    return bad("--json and --csv name the same file '" + Opts.JsonOut + "'");
  if (Opts.JsonGiven && Opts.CsvGiven)
    TG_TRY(checkNotSameFile(Opts.CsvOut, "--csv", Opts.JsonOut, "--json file"));
  return Error::success();
}

namespace {

/// Splits a sweep-file line (its comment and a final CR removed) into fields:
/// separated by spaces, tabs or commas, or one field "MxNxK". Every other byte
/// (a sign, a NUL, another space character) belongs to a field, which
/// parseSize then refuses naming it.
std::vector<std::string> shapeFields(const std::string &Line) {
  std::vector<std::string> Words;
  std::string W;
  for (char C : Line) {
    if (C == ' ' || C == '\t' || C == ',') {
      if (!W.empty())
        Words.push_back(W);
      W.clear();
    } else {
      W += C;
    }
  }
  if (!W.empty())
    Words.push_back(W);
  // "64x128x256": three fields joined by 'x' (not "0x40 64 64": there "0x40" is a field).
  if (Words.size() == 1 && std::count(Words[0].begin(), Words[0].end(), 'x') == 2) {
    std::string One = Words[0];
    Words.clear();
    size_t Start = 0;
    for (size_t X = One.find('x'); Start <= One.size();
         Start = X + 1, X = One.find('x', Start)) {
      Words.push_back(One.substr(Start, X == std::string::npos ? std::string::npos
                                                              : X - Start));
      if (X == std::string::npos)
        break;
    }
  }
  return Words;
}

Error readShapeFile(const std::string &Path, std::vector<Problem> &Shapes,
                    std::vector<std::string> *Files) {
  std::string Text;
  int OpenErrno = 0;
  // Not only regular files: --sweep <(...) is a pipe.
  if (Error E = readInputFile(Path, "sweep file", MaxSweepFileBytes,
                              /*RegularOnly=*/false, Text, &OpenErrno)) {
    if (OpenErrno != ENOENT)
      return E;
    return usageError("--sweep: '" + Path +
                      "' is neither a built-in list (square, llm, odd, all) "
                      "nor a readable file: " +
                      std::strerror(OpenErrno));
  }
  // A UTF-8 byte-order mark, as some editors write one, is not part of the first line.
  if (Text.compare(0, 3, "\xEF\xBB\xBF") == 0)
    Text.erase(0, 3);
  unsigned LineNo = 0;
  size_t Before = Shapes.size();
  for (size_t Pos = 0; Pos < Text.size();) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string::npos)
      End = Text.size();
    std::string Line = Text.substr(Pos, End - Pos);
    Pos = End + 1;
    ++LineNo;
    size_t Hash = Line.find('#');
    if (Hash != std::string::npos)
      Line = Line.substr(0, Hash);
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    std::vector<std::string> Words = shapeFields(Line);
    if (Words.empty())
      continue;
    Problem P;
    int64_t *Dst[3] = {&P.M, &P.N, &P.K};
    std::string Why;
    if (Words.size() != 3)
      Why = std::to_string(Words.size()) + " value" + (Words.size() == 1 ? "" : "s");
    for (unsigned I = 0; Why.empty() && I < 3; ++I) {
      const char *Dim = I == 0 ? "M" : I == 1 ? "N" : "K";
      std::string V;
      if (!parseSize(Words[I], Dim, *Dst[I], V))
        Why = std::string(Dim) + " = " +
              (Words[I].find_first_not_of("-0123456789") != std::string::npos ||
                       Words[I].size() > 40
                   ? json::quoteForMessage(Words[I], 40)
                   : Words[I]) +
              " is " + V;
    }
    if (!Why.empty())
      return usageError("sweep file " + Path + ":" + std::to_string(LineNo) +
                        ": expected \"M N K\" (three positive integers), found " +
                        json::quoteForMessage(Line) + ": " + Why);
    Shapes.push_back(P);
  }
  if (Shapes.size() == Before)
    return usageError("sweep file " + Path + ": no shapes in it" +
                      (Text.empty() ? " (it is empty)" : ""));
  if (Files)
    Files->push_back(Path);
  return Error::success();
}

} // namespace

Error tilegen::run::expandSweep(const std::string &Spec,
                                std::vector<Problem> &Shapes,
                                std::vector<std::string> *Files) {
  size_t Index = 0;
  for (size_t From = 0; From <= Spec.size(); ++Index) {
    size_t Comma = std::min(Spec.find(',', From), Spec.size());
    std::string Item = Spec.substr(From, Comma - From);
    From = Comma + 1;
    if (Item.empty())
      return usageError("--sweep '" + Spec + "': item " + std::to_string(Index + 1) +
                        " is empty (a list is names or files separated by single commas)");
    bool Found = false;
    for (const NamedShapeList &L : namedShapeLists()) {
      if (Item == L.name || Item == "all") {
        for (const ShapeTriple &T : L.shapes)
          Shapes.push_back({T.m, T.n, T.k});
        Found = true;
      }
    }
    if (!Found)
      TG_TRY(readShapeFile(Item, Shapes, Files));
  }
  if (Shapes.empty())
    return usageError("--sweep: no shapes in '" + Spec + "'");
  return Error::success();
}

Error tilegen::run::checkBlockExpRange(const Options &Opts, const Manifest &Man,
                                       const Problem &P, double Alpha) {
  // Operands whose scale blocks draw an exponent e from --block-exp (a per-tensor scale
  // has e = 0); --int-inputs draws small integer codes instead.
  int Scaled = 0;
  for (const OperandInfo *O : {&Man.A, &Man.B})
    Scaled += O->Scale.Gran == ScaleGranularity::Block || O->Scale.blockScaled();
  if (!Opts.Check || Opts.IntInputs || Alpha == 0)
    return Error::success();
  const ElemType Out = Man.C.Type;
  const double Base = std::fabs(Alpha) * std::sqrt(double(P.K));
  const double MinNormal = outputMinNormal(Out), MaxFinite = outputMaxFinite(Out);
  auto fmt3 = [](double V) {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "%.3g", V);
    return std::string(Buf);
  };
  if (Scaled == 0) {
    // Unscaled inputs (magnitude about 1): alpha alone decides, where C does not add to D.
    const double Beta = Opts.HaveBeta ? Opts.Beta : Man.Beta;
    if (Beta != 0)
      return Error::success();
    const std::string Typical = "the typical result |alpha| x sqrt(K) (K = " +
                                std::to_string(P.K) + ") is " + fmt3(Base);
    if (Base < MinNormal)
      return usageError("alpha " + fmt3(Alpha) + ": " + Typical +
                        ", below the smallest normal " + elemTypeName(Out) + " value " +
                        fmt3(MinNormal) + ": D would hold subnormals and zeros, too coarse "
                        "for --check; use |alpha| >= " +
                        fmt3(MinNormal / std::sqrt(double(P.K))));
    if (Base > MaxFinite)
      return usageError("alpha " + fmt3(Alpha) + ": " + Typical + ", beyond the largest "
                        "finite " + elemTypeName(Out) + " value " + fmt3(MaxFinite) +
                        ": D would hold infinities, nothing for --check to compare; use "
                        "|alpha| <= " + fmt3(MaxFinite / std::sqrt(double(P.K))));
    return Error::success();
  }
  const double Largest = Base * std::ldexp(1.0, Scaled * Opts.BlockExpHi);
  const double Smallest = Base * std::ldexp(1.0, Scaled * Opts.BlockExpLo);
  auto fmt = [](double V) {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "%.3g", V);
    return std::string(Buf);
  };
  const std::string Range = "--block-exp " + std::to_string(Opts.BlockExpLo) + "," +
                            std::to_string(Opts.BlockExpHi) +
                            (Opts.BlockExpGiven ? "" : " (the default)");
  const std::string Typical = "the typical result |alpha| x 2^(" +
                              std::string(Scaled == 2 ? "2 e" : "e") + ") x sqrt(K) (alpha " +
                              fmt(Alpha) + ", K = " + std::to_string(P.K) + ")";
  if (Largest < MinNormal) {
    int Need = int(std::ceil(std::log2(MinNormal / Base) / Scaled));
    return usageError(Range + ": " + Typical + " is at most " + fmt(Largest) +
                      " (e = HI), below the smallest normal " + elemTypeName(Out) + " value " +
                      fmt(MinNormal) + ": D would hold subnormals and zeros, too coarse for "
                      "--check; raise HI to " + std::to_string(Need) + " or more");
  }
  if (Smallest > MaxFinite) {
    int Need = int(std::floor(std::log2(MaxFinite / Base) / Scaled));
    return usageError(Range + ": " + Typical + " is at least " + fmt(Smallest) +
                      " (e = LO), beyond the largest finite " + elemTypeName(Out) + " value " +
                      fmt(MaxFinite) + ": D would hold infinities, nothing for --check to "
                      "compare; lower LO to " + std::to_string(Need) + " or less");
  }
  return Error::success();
}

std::string tilegen::run::shellQuote(const std::string &S) {
  if (!S.empty() &&
      S.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789_-./=:+,") == std::string::npos)
    return S;
  std::string Q = "'";
  for (char C : S)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

static std::string formatDouble(double D) {
  std::ostringstream OS;
  OS.precision(17);
  OS << D;
  return OS.str();
}

std::string tilegen::run::reproduceCommand(const Options &Opts,
                                           const Problem &P) {
  std::string C = shellQuote(Opts.Self) + " " + shellQuote(Opts.CubinArg);
  C += " --m " + std::to_string(P.M) + " --n " + std::to_string(P.N) +
       " --k " + std::to_string(P.K);
  if (Opts.Check)
    C += " --check";
  if (Opts.Bench)
    C += " --bench --iters " + std::to_string(Opts.Iters) + " --warmup " +
         std::to_string(Opts.Warmup);
  if (Opts.Ref != RefKind::Auto)
    C += std::string(" --ref ") + refKindName(Opts.Ref);
  C += " --alpha " + formatDouble(Opts.Alpha) + " --beta " +
       formatDouble(Opts.Beta);
  C += " --seed " + std::to_string(Opts.Seed);
  if (Opts.IntInputs)
    C += " --int-inputs";
  if (Opts.BlockExpGiven)
    C += " --block-exp " + std::to_string(Opts.BlockExpLo) + "," +
         std::to_string(Opts.BlockExpHi);
  if (Opts.Pad)
    C += " --pad";
  if (Opts.Device != 0)
    C += " --device " + std::to_string(Opts.Device);
  return C;
}
