//===- Dispatch.cpp - dispatch tables: problem size -> kernel -------------===//

#include "Dispatch.h"
#include "FileIO.h"
#include "Json.h"
#include "tilegen/Support/L2Lines.h"
#include "tilegen/Support/StreamKTail.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <sys/stat.h>

using namespace tilegen::run;

static Error bad(const std::string &Path, const std::string &What) {
  return usageError("dispatch table " + Path + ": " + What);
}

static Error readString(const json::Value &Obj, const std::string &Key,
                        const std::string &Path, const std::string &Where,
                        std::string &Out) {
  const json::Value *V = Obj.get(Key);
  if (!V || !V->isString() || V->getString().empty())
    return bad(Path, Where + "\"" + Key + "\" must be a non-empty string" +
                         (!V               ? std::string(", missing")
                          : V->isString() ? std::string(", found \"\"")
                                          : std::string(", found ") + V->kindName()));
  Out = V->getString();
  return Error::success();
}

static Error readDim(const json::Value &Obj, const char *Key,
                     const std::string &Path, const std::string &Where,
                     int64_t &Out) {
  const json::Value *V = Obj.get(Key);
  if (!V || !V->isInteger() || V->getInteger() < 1 ||
      V->getInteger() > INT32_MAX)
    return bad(Path, Where + "\"" + Key +
                         "\" must be an integer from 1 to 2147483647" +
                         (V ? ", found " + (V->isNumber() ? V->numberText()
                                                          : std::string(V->kindName()))
                            : std::string(", missing")));
  Out = V->getInteger();
  return Error::success();
}

Error tilegen::run::parseDispatch(const std::string &Text,
                                  const std::string &Path,
                                  const std::string &Dir, bool LoadKernels,
                                  DispatchTable &T) {
  T = DispatchTable();
  T.Path = Path;
  json::Value Root;
  std::string Err;
  if (!json::parse(Text, Root, Err))
    return bad(Path, "not JSON: " + Err);
  if (!Root.isObject())
    return bad(Path, std::string("expected an object, found ") + Root.kindName());
  std::string Format;
  TG_TRY(readString(Root, "format", Path, "", Format));
  if (Format != "tilegen-dispatch")
    return bad(Path, "\"format\" is " + json::quoteForMessage(Format) +
                         ", not \"tilegen-dispatch\" (is this a manifest? "
                         "give a cubin without --dispatch)");
  const json::Value *Version = Root.get("version");
  if (!Version || !Version->isInteger() || Version->getInteger() != 1)
    return bad(Path, "\"version\" must be 1 (this tilegen-run reads version 1)");
  TG_TRY(readString(Root, "target", Path, "", T.Target));

  if (const json::Value *V = Root.get("sm_count")) {
    if (!V->isInteger() || V->getInteger() < 1 || V->getInteger() > 65535)
      return bad(Path, "\"sm_count\" must be an integer from 1 to 65535, found " +
                           (V->isNumber() ? V->numberText() : std::string(V->kindName())));
    T.SmCount = unsigned(V->getInteger());
  }
  if (const json::Value *V = Root.get("quad_cluster_ctas")) {
    if (!V->isInteger() || V->getInteger() < 4 || V->getInteger() > 65535 ||
        V->getInteger() % 4 != 0 || (T.SmCount && V->getInteger() > T.SmCount))
      return bad(Path, "\"quad_cluster_ctas\" must be a multiple of 4 from 4 to sm_count, found " +
                           (V->isNumber() ? V->numberText() : std::string(V->kindName())));
    T.QuadClusterCtas = unsigned(V->getInteger());
  }
  if (const json::Value *V = Root.get("launch_ns")) {
    if (!V->isNumber() || !(V->getNumber() >= 0) || V->getNumber() > 1e9)
      return bad(Path, "\"launch_ns\" must be a time in ns from 0 to 1e9, found " +
                           (V->isNumber() ? V->numberText() : std::string(V->kindName())));
    T.LaunchNs = V->getNumber();
  }

  const json::Value *Kernels = Root.get("kernels");
  if (!Kernels || !Kernels->isArray() || Kernels->getArray().empty())
    return bad(Path, "\"kernels\" must be a non-empty array");
  std::map<std::string, size_t> ByName;
  for (size_t I = 0; I < Kernels->getArray().size(); ++I) {
    const json::Value &K = Kernels->getArray()[I];
    std::string Where = "kernels[" + std::to_string(I) + "]: ";
    if (!K.isObject())
      return bad(Path, Where + "expected an object");
    std::string Name, ManifestPath, CubinPath;
    TG_TRY(readString(K, "name", Path, Where, Name));
    TG_TRY(readString(K, "manifest", Path, Where, ManifestPath));
    // "cubin" is optional (the manifest names its cubin too); when given, it must be that file.
    if (K.get("cubin"))
      TG_TRY(readString(K, "cubin", Path, Where, CubinPath));
    if (!ByName.emplace(Name, I).second)
      return bad(Path, Where + "kernel " + json::quoteForMessage(Name) +
                           " is listed twice");
    Manifest M;
    if (LoadKernels) {
      auto resolve = [&](const std::string &P) {
        return P[0] == '/' || Dir.empty() ? P : Dir + "/" + P;
      };
      std::string Full = resolve(ManifestPath);
      std::string TableCubin = CubinPath.empty() ? "" : resolve(CubinPath);
      if (Error E = loadManifest(Full, M))
        return bad(Path, Where + "kernel " + Name + ": " + E.message());
      struct stat TableSt;
      if (!TableCubin.empty() && ::stat(TableCubin.c_str(), &TableSt) != 0)
        return bad(Path, Where + "kernel " + Name + ": cannot read \"cubin\" " + TableCubin +
                             ": " + std::strerror(errno));
      // The manifest describes one cubin (its kernel, parameters and tile): the table's
      // "cubin" names that file, or the table is inconsistent.
      struct stat ManSt;
      if (!TableCubin.empty() &&
          (::stat(M.CubinPath.c_str(), &ManSt) != 0 || ManSt.st_dev != TableSt.st_dev ||
           ManSt.st_ino != TableSt.st_ino))
        return bad(Path, Where + "kernel " + Name + ": \"cubin\" is " + TableCubin +
                             ", but its manifest " + Full + " describes " + M.CubinPath +
                             " (the manifest's \"cubin\"); a table names each kernel's "
                             "own cubin");
      if (M.Kernel != Name)
        return bad(Path, Where + "the manifest " + Full + " is for kernel " +
                             M.Kernel + ", not " + Name);
      if (M.Target.Name != T.Target)
        return bad(Path, Where + "kernel " + Name + " is compiled for " +
                             M.Target.Name + "; the table is for " + T.Target +
                             " (tune again for one target per table)");
    } else {
      M.Kernel = Name;
    }
    // "slice": the kernel's K-slice in the model's cycles (optional; tune writes it).
    SliceTerms ST;
    if (const json::Value *SV = K.get("slice")) {
      if (!SV->isObject())
        return bad(Path, Where + "\"slice\" must be an object (mma_cycles, issue_cycles, "
                             "l2_bytes_per_cycle)");
      // A field's value for a message: its number, its kind, or "nothing" when absent.
      auto found = [](const json::Value *V) {
        return !V ? std::string("nothing")
                  : V->isNumber() ? V->numberText() : std::string(V->kindName());
      };
      struct Field { const char *Key; double *Out; double Min; };
      Field Fields[3] = {{"mma_cycles", &ST.MmaCycles, 0},
                         {"issue_cycles", &ST.IssueCycles, -1},
                         {"l2_bytes_per_cycle", &ST.L2BytesPerCycle, 0}};
      for (const Field &F : Fields) {
        const json::Value *V = SV->get(F.Key);
        if (!V || !V->isNumber() || !(V->getNumber() > F.Min) || V->getNumber() > 1e9)
          return bad(Path, Where + "\"slice\": \"" + F.Key + "\" must be a number " +
                               (F.Min < 0 ? "from 0" : "above 0") + " to 1e9, found " +
                               found(V));
        *F.Out = V->getNumber();
      }
      const json::Value *KV = SV->get("k");
      if (!KV || !KV->isInteger() || KV->getInteger() < 1 || KV->getInteger() > 65536)
        return bad(Path, Where + "\"slice\": \"k\" must be an integer from 1 to 65536 (the "
                             "tile's K), found " +
                             found(KV));
      ST.K = KV->getInteger();
      // Stream-K kernels: both or neither.
      const json::Value *FV = SV->get("fixup_cycles"), *EV = SV->get("split_efficiency");
      if (FV || EV) {
        if (!FV || !FV->isNumber() || !(FV->getNumber() >= 0) || FV->getNumber() > 1e9)
          return bad(Path, Where + "\"slice\": \"fixup_cycles\" must be a number from 0 to "
                               "1e9 beside \"split_efficiency\", found " +
                               found(FV));
        if (!EV || !EV->isNumber() || !(EV->getNumber() > 0) || EV->getNumber() > 1)
          return bad(Path, Where + "\"slice\": \"split_efficiency\" must be a number above "
                               "0 and at most 1 beside \"fixup_cycles\", found " +
                               found(EV));
        ST.FixupCycles = FV->getNumber();
        ST.SplitEfficiency = EV->getNumber();
      }
    }
    T.Slices.push_back(ST);
    T.Kernels.push_back(std::move(M));
  }

  auto kernelIndex = [&](const json::Value *V, const std::string &Where,
                         size_t &Out) -> Error {
    if (!V || !V->isString())
      return bad(Path, Where + "expected a kernel name (a string)");
    auto It = ByName.find(V->getString());
    if (It == ByName.end())
      return bad(Path, Where + "kernel " + json::quoteForMessage(V->getString()) +
                           " is not in \"kernels\"");
    Out = It->second;
    return Error::success();
  };

  if (const json::Value *F = Root.get("fallbacks")) {
    if (!F->isArray())
      return bad(Path, "\"fallbacks\" must be an array of kernel names");
    for (size_t I = 0; I < F->getArray().size(); ++I) {
      size_t K = 0;
      std::string Where = "fallbacks[" + std::to_string(I) + "]: ";
      TG_TRY(kernelIndex(&F->getArray()[I], Where, K));
      auto Seen = std::find(T.Fallbacks.begin(), T.Fallbacks.end(), K);
      if (Seen != T.Fallbacks.end())
        return bad(Path, Where + "kernel " + json::quoteForMessage(F->getArray()[I].getString()) +
                             " is listed twice (also fallbacks[" +
                             std::to_string(Seen - T.Fallbacks.begin()) + "])");
      T.Fallbacks.push_back(K);
    }
  }

  const json::Value *Entries = Root.get("entries");
  if (!Entries || !Entries->isArray() || Entries->getArray().empty())
    return bad(Path, "\"entries\" must be a non-empty array");
  for (size_t I = 0; I < Entries->getArray().size(); ++I) {
    const json::Value &E = Entries->getArray()[I];
    std::string Where = "entries[" + std::to_string(I) + "]: ";
    if (!E.isObject())
      return bad(Path, Where + "expected an object");
    DispatchEntry D;
    TG_TRY(readDim(E, "m", Path, Where, D.Size.M));
    TG_TRY(readDim(E, "n", Path, Where, D.Size.N));
    TG_TRY(readDim(E, "k", Path, Where, D.Size.K));
    TG_TRY(kernelIndex(E.get("kernel"), Where + "\"kernel\": ", D.Kernel));
    // One entry per size: a second would never be picked (the first of a size wins).
    for (size_t J = 0; J < T.Entries.size(); ++J)
      if (T.Entries[J].Size == D.Size)
        return bad(Path, Where + "size " + D.Size.str() + " (kernel " +
                             T.Kernels[D.Kernel].Kernel + ") has an entry already: entries[" +
                             std::to_string(J) + "] (kernel " +
                             T.Kernels[T.Entries[J].Kernel].Kernel +
                             "); a table has one entry per size");
    TG_TRY(readString(E, "chosen_by", Path, Where, D.ChosenBy));
    if (D.ChosenBy != "model" && D.ChosenBy != "measured")
      return bad(Path, Where + "\"chosen_by\" must be \"model\" or \"measured\"");
    const json::Value *Cands = E.get("candidates");
    if (!Cands || !Cands->isArray())
      return bad(Path, Where + "\"candidates\" must be an array");
    bool HasChosen = false;
    std::vector<double> MeasuredTimes, EstimatedTimes, PredictedTimes;
    for (size_t C = 0; C < Cands->getArray().size(); ++C) {
      const json::Value &CV = Cands->getArray()[C];
      std::string CW = Where + "candidates[" + std::to_string(C) + "]: ";
      if (!CV.isObject())
        return bad(Path, CW + "expected an object");
      size_t K = 0;
      TG_TRY(kernelIndex(CV.get("kernel"), CW + "\"kernel\": ", K));
      // Each candidate once: a repeated one would carry two times for one kernel.
      auto Seen = std::find(D.Candidates.begin(), D.Candidates.end(), K);
      if (Seen != D.Candidates.end())
        return bad(Path, CW + "kernel " + T.Kernels[K].Kernel + " is listed twice (also " +
                             "candidates[" + std::to_string(Seen - D.Candidates.begin()) +
                             "])");
      HasChosen |= K == D.Kernel;
      D.Candidates.push_back(K);
      double Times[3] = {-1, -1, -1};
      const char *Keys[3] = {"measured_ns", "predicted_ns", "estimated_ns"};
      for (int J = 0; J < 3; ++J) {
        const json::Value *V = CV.get(Keys[J]);
        if (!V)
          continue;
        if (!V->isNumber() || !(V->getNumber() > 0) || V->getNumber() > 1e15)
          return bad(Path, CW + "\"" + Keys[J] +
                               "\" must be a time in ns above 0 and at most 1e15, found " +
                               (V->isNumber() ? V->numberText() : std::string(V->kindName())));
        Times[J] = V->getNumber();
      }
      // "measurement": why the candidate's run gave no time (tune: "fail", "hang", ...).
      const json::Value *Failure = CV.get("measurement");
      if (Failure && (!Failure->isString() || Failure->getString().empty() ||
                      json::holdsControlCharacter(Failure->getString())))
        return bad(Path, CW + "\"measurement\" must be a non-empty string without control "
                             "characters (why the candidate's run failed)");
      if (Failure && K == D.Kernel)
        return bad(Path, CW + "kernel " + T.Kernels[K].Kernel + " is the entry's \"kernel\" "
                             "but its run failed (\"measurement\": " +
                             json::quoteForMessage(Failure->getString()) + ")");
      D.Failure.push_back(Failure ? Failure->getString() : std::string());
      MeasuredTimes.push_back(Failure ? -1 : Times[0]);
      PredictedTimes.push_back(Failure ? -1 : Times[1]);
      EstimatedTimes.push_back(Failure ? -1 : Times[2]);
    }
    // One kind of time per entry: the measured ones when any candidate was measured, with
    // tune's estimates for the untimed ones beside them (a bare prediction beside
    // measurements would not compare), else the predictions.
    bool AnyMeasured = std::any_of(MeasuredTimes.begin(), MeasuredTimes.end(),
                                   [](double X) { return X > 0; });
    D.TimeNs = AnyMeasured ? MeasuredTimes : PredictedTimes;
    if (AnyMeasured)
      for (size_t C = 0; C < D.TimeNs.size(); ++C)
        if (!(D.TimeNs[C] > 0))
          D.TimeNs[C] = EstimatedTimes[C];
    // The chosen kernel is one of the candidates it was chosen from (tune lists it first);
    // an entry without candidates stands for its kernel alone.
    if (!HasChosen && !D.Candidates.empty())
      return bad(Path, Where + "\"kernel\" " + T.Kernels[D.Kernel].Kernel +
                           " is not among the entry's \"candidates\" (the kernels it was "
                           "chosen from)");
    if (!HasChosen) {
      D.Candidates.insert(D.Candidates.begin(), D.Kernel);
      D.TimeNs.insert(D.TimeNs.begin(), -1);
      D.Failure.insert(D.Failure.begin(), std::string());
    }
    T.Entries.push_back(std::move(D));
  }
  return Error::success();
}

Error tilegen::run::loadDispatch(const std::string &Path, DispatchTable &T) {
  std::string Text;
  TG_TRY(readInputFile(Path, "dispatch table", MaxDispatchBytes,
                       /*RegularOnly=*/true, Text));
  size_t Slash = Path.find_last_of('/');
  std::string Dir = Slash == std::string::npos ? "." : Path.substr(0, Slash);
  if (Dir.empty())
    Dir = "/";
  return parseDispatch(Text, Path, Dir, /*LoadKernels=*/true, T);
}

/// The rule's distance (docs/dispatch.md): |log2(x / y)| summed over M, N and K, plus 1 for
/// each dimension that is a multiple of 64 in one problem and not in the other (rows of 128
/// bytes or more that start off the 128-byte L2 lines run other kernels best).
static double logDistance(const Problem &A, const Problem &B) {
  auto d = [](int64_t X, int64_t Y) {
    return std::fabs(std::log2(double(X)) - std::log2(double(Y))) +
           ((X % 64 == 0) != (Y % 64 == 0) ? 1.0 : 0.0);
  };
  return d(A.M, B.M) + d(A.N, B.N) + d(A.K, B.K);
}

/// Entries by distance to P, nearest first (stable: ties keep table order).
static std::vector<size_t> entriesByDistance(const DispatchTable &T,
                                             const Problem &P) {
  std::vector<std::pair<double, size_t>> D;
  for (size_t I = 0; I < T.Entries.size(); ++I)
    D.push_back({logDistance(T.Entries[I].Size, P), I});
  std::stable_sort(D.begin(), D.end(), [](const auto &X, const auto &Y) {
    return X.first < Y.first;
  });
  std::vector<size_t> Order;
  for (const auto &X : D)
    Order.push_back(X.second);
  return Order;
}

long tilegen::run::nearestEntry(const DispatchTable &T, const Problem &P) {
  std::vector<size_t> Order = entriesByDistance(T, P);
  return Order.empty() ? -1 : static_cast<long>(Order.front());
}

/// What the scaled rule takes a kernel's time at a size to be proportional to (after the
/// launch). The tiles of P on the table's SMs, as many at a time as the grid holds (SMs x
/// CTAs per SM, whole clusters; a cluster takes its manifest's cluster_tiles at a time). With
/// the kernel's slice terms: the busiest CTA's cycles, its waves of whole tiles times K-slices
/// times the slice's time at P (sliceCycles), and for a stream-K grid that splits the last
/// tiles' K-slices (streamKTail, tilegen/Support/StreamKTail.h) its share of the split slices
/// at the split's rate and the fix-up of the partial tiles it sums, as the pipeline model
/// counts a tail after full waves (with no full wave the model charges the fix-up at the CTA's
/// DRAM share; this rule, at L2's rate). Without slice terms: waves times one tile's work
/// (tile M x tile N x K), a split tail counting as its share: 1 / floor(slots / tiles) of a
/// wave with no full wave (a split of 16 ways at most and K long enough: kTiles >= 128),
/// tail / slots after full waves.
/// Negative when K's manifest has no tile.
static double waveWork(const DispatchTable &T, size_t K, const Problem &P) {
  const Manifest &M = T.Kernels[K];
  unsigned Sms = T.SmCount;
  if (!M.TileM || !M.TileN || !Sms)
    return -1;
  double TilesM = std::ceil(double(P.M) / M.TileM), TilesN = std::ceil(double(P.N) / M.TileN);
  double Tiles = TilesM * TilesN;
  double C = std::max(1u, M.clusterSize());
  double Slots = std::max(C, std::floor(double(Sms) * std::max(1u, M.CtasPerSM) / C) * C);
  // Clusters of 4 fit fewer CTAs than the SMs where the table says so (the launcher's cap).
  if (C == 4 && T.QuadClusterCtas)
    Slots = std::min(Slots, double(T.QuadClusterCtas) * std::max(1u, M.CtasPerSM));
  double Full = std::floor(Tiles / Slots), Rest = Tiles - Full * Slots;
  // Rounds of whole tiles: a cluster takes its X x Y tiles at a time (a tile past M or N is
  // computed all the same), so the rounds are units of them over the clusters that fit.
  double Units = std::ceil(TilesM / std::max(1u, M.ClusterTiles[0])) *
                 std::ceil(TilesN / std::max(1u, M.ClusterTiles[1]));
  double Rounds = std::ceil(Units / (Slots / C));
  double Slice = sliceCycles(T, K, P);
  if (Slice > 0) {
    const SliceTerms &S = T.Slices[K];
    double KT = std::ceil(double(P.K) / double(S.K));
    if (M.Rule != GridRule::StreamK)
      return Rounds * KT * Slice;
    if (Rest == 0)
      return Full * KT * Slice;
    // Tile counts and K-slices of problems tilegen-run takes (32-bit sizes) are exact here.
    tilegen::StreamKTail Tail = tilegen::streamKTail(uint64_t(Tiles), uint64_t(Slots), uint64_t(KT));
    if (!Tail.split)
      return (Full + 1) * KT * Slice;
    double Eff = S.SplitEfficiency > 0 ? S.SplitEfficiency : 1.0;
    return Full * KT * Slice + double(Tail.sliceShare) * Slice / Eff +
           double(Tail.ways) * S.FixupCycles;
  }
  double Waves;
  if (M.Rule == GridRule::StreamK)
    Waves = Rest == 0 || 2 * Rest > Slots ? std::ceil(Tiles / Slots)
            : Full == 0                   ? 1 / std::min(std::floor(Slots / Rest), 16.0)
                                          : Full + Rest / Slots;
  else
    Waves = Rounds;
  return Waves * double(M.TileM) * double(M.TileN) * double(P.K);
}

double tilegen::run::sliceCycles(const DispatchTable &T, size_t K, const Problem &P) {
  if (K >= T.Slices.size() || !T.Slices[K].present())
    return -1;
  const SliceTerms &S = T.Slices[K];
  // Each K-slice copies one box of A and one of B from L2 (the CTA's share of a multicast
  // box is its own box); a row of the box is its innermost extent, rows are the tensor's
  // innermost size apart.
  double L2Bytes = 0;
  for (const Param &Pm : T.Kernels[K].Params) {
    if (Pm.Kind != ParamKind::TensorMap || (Pm.Tens != Tensor::A && Pm.Tens != Tensor::B) ||
        Pm.Dims.empty() || Pm.Box.size() != Pm.Dims.size())
      continue;
    uint64_t Bits = elemBits(Pm.Elem);
    double Box = double(Bits) / 8;
    for (uint32_t X : Pm.Box)
      Box *= X;
    Dim Inner = Pm.Dims[0];
    uint64_t Extent = Inner == Dim::M ? P.M : Inner == Dim::N ? P.N : P.K;
    L2Bytes += Box * l2LineFactor(Extent * Bits / 8, uint64_t(Pm.Box[0]) * Bits / 8);
  }
  return std::max(S.MmaCycles, S.IssueCycles + L2Bytes / S.L2BytesPerCycle);
}

double tilegen::run::scaledTimeNs(const DispatchTable &T, size_t K, const Problem &Q,
                                  double TimeNs, const Problem &P) {
  double WQ = waveWork(T, K, Q), WP = waveWork(T, K, P);
  if (!(TimeNs > 0) || !(WQ > 0) || !(WP > 0))
    return -1;
  double Launch = std::min(T.LaunchNs, 0.9 * TimeNs);
  return Launch + (TimeNs - Launch) * WP / WQ;
}

/// The scaled rule (docs/dispatch.md): among the timed candidates of the entries at most one
/// octave (in the rule's distance) farther than the nearest, at most three entries, the one
/// whose time scaled to P is least; first those that take P as it is, then those that take it
/// zero-padded (scaled to the padded size). False when none has a time or takes P.
static bool pickScaled(const DispatchTable &T, const Problem &P,
                       const std::vector<size_t> &Order, const std::vector<bool> &Excluded,
                       size_t &Kernel, bool &Pad, Pick &How) {
  if (!T.SmCount || Order.empty())
    return false;
  double D0 = logDistance(T.Entries[Order.front()].Size, P);
  for (int Padded = 0; Padded < 2; ++Padded) {
    double Best = 0;
    bool Found = false;
    for (size_t I = 0; I < Order.size() && I < 3; ++I) {
      const DispatchEntry &D = T.Entries[Order[I]];
      if (logDistance(D.Size, P) > D0 + 1.0)
        break;
      for (size_t C = 0; C < D.Candidates.size(); ++C) {
        if (!(D.TimeNs[C] > 0) || Excluded[D.Candidates[C]])
          continue;
        size_t K = D.Candidates[C];
        Problem Run = P;
        if (!Padded) {
          if (checkProblem(T.Kernels[K], P))
            continue;
        } else {
          if (paddedProblem(T.Kernels[K], P, Run) || Run == P || checkProblem(T.Kernels[K], Run))
            continue;
        }
        double Est = scaledTimeNs(T, K, D.Size, D.TimeNs[C], Run);
        if (Est > 0 && (!Found || Est < Best)) {
          Found = true;
          Best = Est;
          Kernel = K;
          How = Pick{Order[I], Est};
        }
      }
    }
    if (Found) {
      Pad = Padded;
      return true;
    }
  }
  return false;
}

Error tilegen::run::pickKernel(const DispatchTable &T, const Problem &P,
                               size_t &Kernel, bool &Pad, Pick *HowOut) {
  std::vector<size_t> Order = entriesByDistance(T, P);
  Pick How;
  if (!Order.empty())
    How.Entry = Order.front();
  if (HowOut)
    *HowOut = How;
  Pad = false;
  // Kernels whose run failed at the nearest entry (wrong results, a fault, a hang; not a
  // size they could not take) run nothing near it.
  std::vector<bool> Excluded(T.Kernels.size(), false);
  std::string ExcludedWhy;
  if (!Order.empty()) {
    const DispatchEntry &N = T.Entries[Order.front()];
    for (size_t C = 0; C < N.Candidates.size(); ++C)
      if (!N.Failure[C].empty() && N.Failure[C] != "skipped") {
        Excluded[N.Candidates[C]] = true;
        ExcludedWhy += "\n  " + T.Kernels[N.Candidates[C]].Kernel + ": its run at the nearest "
                       "entry " + N.Size.str() + " failed (" + N.Failure[C] + ")";
      }
  }
  // A size between entries: the scaled rule. The size of an entry: that entry's choice.
  if (!Order.empty() && !(T.Entries[Order.front()].Size == P) &&
      pickScaled(T, P, Order, Excluded, Kernel, Pad, How)) {
    if (HowOut)
      *HowOut = How;
    return Error::success();
  }
  std::string Why = ExcludedWhy;
  std::vector<bool> Tried(T.Kernels.size(), false);
  std::vector<size_t> Ranked;
  for (size_t E : Order) {
    const DispatchEntry &D = T.Entries[E];
    if (!Excluded[D.Kernel])
      Ranked.push_back(D.Kernel);
    for (size_t C = 0; C < D.Candidates.size(); ++C)
      if (D.Failure[C].empty() && !Excluded[D.Candidates[C]])
        Ranked.push_back(D.Candidates[C]);
  }
  // The first of Order that takes P as it is (each kernel tried once over both passes).
  auto firstAsIs = [&](const std::vector<size_t> &Order) {
    for (size_t K : Order) {
      if (Tried[K])
        continue;
      Tried[K] = true;
      Error Err = checkProblem(T.Kernels[K], P);
      if (!Err) {
        Kernel = K;
        return true;
      }
      Why += "\n  " + T.Kernels[K].Kernel + ": " + Err.message();
    }
    return false;
  };
  if (firstAsIs(Ranked))
    return Error::success();
  // No ranked kernel takes P as it is: the nearest one that takes it zero-padded.
  std::vector<bool> TriedPadded(T.Kernels.size(), false);
  for (size_t K : Ranked) {
    if (TriedPadded[K])
      continue;
    TriedPadded[K] = true;
    Problem Padded;
    Error Err = paddedProblem(T.Kernels[K], P, Padded);
    if (!Err && Padded != P)
      Err = checkProblem(T.Kernels[K], Padded);
    if (!Err && Padded != P) {
      Kernel = K;
      Pad = true;
      return Error::success();
    }
    if (Err)
      Why += "\n  " + T.Kernels[K].Kernel + " (padded): " + Err.message();
  }
  std::vector<size_t> Fallbacks;
  for (size_t K : T.Fallbacks)
    if (!Excluded[K])
      Fallbacks.push_back(K);
  if (firstAsIs(Fallbacks))
    return Error::success();
  return usageError("dispatch table " + T.Path + ": no kernel can run " + P.str() +
                    Why);
}
