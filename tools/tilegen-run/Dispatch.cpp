//===- Dispatch.cpp - dispatch tables: problem size -> kernel -------------===//

#include "Dispatch.h"
#include "FileIO.h"
#include "Json.h"

#include <algorithm>
#include <cmath>
#include <map>

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
                         (V ? std::string(", found ") + V->kindName() : ", missing"));
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

  const json::Value *Kernels = Root.get("kernels");
  if (!Kernels || !Kernels->isArray() || Kernels->getArray().empty())
    return bad(Path, "\"kernels\" must be a non-empty array");
  std::map<std::string, size_t> ByName;
  for (size_t I = 0; I < Kernels->getArray().size(); ++I) {
    const json::Value &K = Kernels->getArray()[I];
    std::string Where = "kernels[" + std::to_string(I) + "]: ";
    if (!K.isObject())
      return bad(Path, Where + "expected an object");
    std::string Name, ManifestPath;
    TG_TRY(readString(K, "name", Path, Where, Name));
    TG_TRY(readString(K, "manifest", Path, Where, ManifestPath));
    if (!ByName.emplace(Name, I).second)
      return bad(Path, Where + "kernel " + json::quoteForMessage(Name) +
                           " is listed twice");
    Manifest M;
    if (LoadKernels) {
      std::string Full = ManifestPath[0] == '/' || Dir.empty()
                             ? ManifestPath
                             : Dir + "/" + ManifestPath;
      if (Error E = loadManifest(Full, M))
        return bad(Path, Where + "kernel " + Name + ": " + E.message());
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
      TG_TRY(kernelIndex(&F->getArray()[I], "fallbacks[" + std::to_string(I) + "]: ", K));
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
    TG_TRY(readString(E, "chosen_by", Path, Where, D.ChosenBy));
    if (D.ChosenBy != "model" && D.ChosenBy != "measured")
      return bad(Path, Where + "\"chosen_by\" must be \"model\" or \"measured\"");
    const json::Value *Cands = E.get("candidates");
    if (!Cands || !Cands->isArray())
      return bad(Path, Where + "\"candidates\" must be an array");
    bool HasChosen = false;
    for (size_t C = 0; C < Cands->getArray().size(); ++C) {
      const json::Value &CV = Cands->getArray()[C];
      std::string CW = Where + "candidates[" + std::to_string(C) + "]: ";
      if (!CV.isObject())
        return bad(Path, CW + "expected an object");
      size_t K = 0;
      TG_TRY(kernelIndex(CV.get("kernel"), CW + "\"kernel\": ", K));
      HasChosen |= K == D.Kernel;
      D.Candidates.push_back(K);
    }
    if (!HasChosen)
      D.Candidates.insert(D.Candidates.begin(), D.Kernel);
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

Error tilegen::run::pickKernel(const DispatchTable &T, const Problem &P,
                               size_t &Kernel, bool &Pad) {
  std::string Why;
  std::vector<bool> Tried(T.Kernels.size(), false);
  std::vector<size_t> Ranked;
  for (size_t E : entriesByDistance(T, P)) {
    const DispatchEntry &D = T.Entries[E];
    Ranked.push_back(D.Kernel);
    Ranked.insert(Ranked.end(), D.Candidates.begin(), D.Candidates.end());
  }
  Pad = false;
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
  if (firstAsIs(T.Fallbacks))
    return Error::success();
  return usageError("dispatch table " + T.Path + ": no kernel can run " + P.str() +
                    Why);
}
