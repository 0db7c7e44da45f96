//===- PipelineModel.cpp - max-plus model of a warp-specialised GEMM ------===//

#include "tilegen/Analysis/PipelineModel.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace tilegen;

llvm::Error tilegen::checkModel(const ModelShape &shape, const ModelCosts &costs) {
  auto err = [](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
  };
  struct Count {
    const char *name;
    int value;
  } counts[] = {{"stages", shape.stages},
                {"accumulators", shape.accumulators},
                {"tiles", shape.tiles},
                {"k-slices", shape.kSlices}};
  for (const Count &c : counts)
    if (c.value < 1)
      return err(llvm::Twine(c.name) + " = " + llvm::Twine(c.value) + ": must be at least 1");
  if (static_cast<long long>(shape.tiles) * shape.kSlices > 50'000'000)
    return err(llvm::formatv("tiles x k-slices = {0} x {1}: the model evaluates at most "
                             "50000000 slices",
                             shape.tiles, shape.kSlices)
                   .str());
  struct Cost {
    const char *name;
    double value;
  } cs[] = {{"load", costs.load},
            {"mma", costs.mma},
            {"epilogue", costs.epilogue},
            {"issue", costs.issue}};
  for (const Cost &c : cs) {
    if (!std::isfinite(c.value))
      return err(llvm::formatv("cost {0} = {1}: must be a finite number", c.name, c.value)
                     .str());
    if (c.value < 0)
      return err(llvm::formatv("cost {0} = {1}: must be >= 0", c.name, c.value).str());
    // Far from where sums of costs lose every digit or overflow, and from denormals whose
    // sums never advance the timeline's columns.
    if (c.value != 0 && (c.value < kMinCost || c.value > kMaxCost))
    {
      char text[96];
      std::snprintf(text, sizeof(text), "cost %s = %g: must be 0 or from %g to %g", c.name,
                    c.value, kMinCost, kMaxCost);
      return err(text);
    }
  }
  if (shape.stages > kMaxModelCount || shape.accumulators > kMaxModelCount)
    return err(llvm::formatv("stages = {0}, accumulators = {1}: the model takes at most {2} "
                             "of each",
                             shape.stages, shape.accumulators, kMaxModelCount)
                   .str());
  if (costs.mma <= 0)
    return err("cost mma = 0: must be > 0 (the tensor core's time per slice)");
  return llvm::Error::success();
}

ModelSchedule tilegen::simulatePipeline(const ModelShape &shape, const ModelCosts &costs) {
  ModelSchedule s;
  s.shape = shape;
  s.costs = costs;
  const int slices = shape.tiles * shape.kSlices;
  s.loadStart.reserve(slices);
  s.mmaStart.reserve(slices);
  s.mmaDone.reserve(slices);
  s.epilogueDone.reserve(shape.tiles);
  for (int g = 0; g < slices; ++g) {
    const int t = g / shape.kSlices, k = g % shape.kSlices;
    // L_g = max(L_{g-1} + t_issue, D_{g-S}).
    double l = g > 0 ? s.loadStart[g - 1] + costs.issue : 0.0;
    if (g >= shape.stages)
      l = std::max(l, s.mmaDone[g - shape.stages]);
    s.loadStart.push_back(l);
    // M_g = max(L_g + t_load, D_{g-1}, E_{t-A} if k = 0).
    double m = l + costs.load;
    if (g > 0)
      m = std::max(m, s.mmaDone[g - 1]);
    if (k == 0 && t >= shape.accumulators)
      m = std::max(m, s.epilogueDone[t - shape.accumulators]);
    s.mmaStart.push_back(m);
    // D_g = M_g + t_mma.
    s.mmaDone.push_back(m + costs.mma);
    // E_t = max(D_{tK+K-1}, E_{t-1}) + t_epi.
    if (k == shape.kSlices - 1) {
      double e = s.mmaDone[g];
      if (t > 0)
        e = std::max(e, s.epilogueDone[t - 1]);
      s.epilogueDone.push_back(e + costs.epilogue);
    }
  }
  s.run = s.epilogueDone.empty() ? 0.0 : s.epilogueDone.back();
  s.mmaBusy = slices * costs.mma;
  return s;
}

double ModelSchedule::lastWindowPeriod() const {
  const int last = static_cast<int>(mmaStart.size()) - 1;
  if (last - shape.stages < 0)
    return -1;
  return mmaStart[last] - mmaStart[last - shape.stages];
}

PeriodTerms tilegen::steadyStatePeriod(int stages, const ModelCosts &costs) {
  PeriodTerms p;
  p.mma = stages * costs.mma;
  p.issue = stages * costs.issue;
  p.loadMma = costs.load + costs.mma;
  p.period = std::max({p.mma, p.issue, p.loadMma});
  p.binding = p.mma >= p.period ? "mma" : p.issue >= p.period ? "issue" : "load+mma";
  return p;
}

int tilegen::fewestStagesToFeed(const ModelCosts &costs) {
  const double step = std::max(costs.mma, costs.issue);
  if (step <= 0)
    return 1;
  // The smallest S with S step >= t_load + t_mma; the tolerance keeps an exact ratio (16 / 4)
  // from rounding up.
  const double ratio = (costs.load + costs.mma) / step;
  int s = static_cast<int>(std::ceil(ratio - 1e-9 * std::max(1.0, ratio)));
  return std::max(1, s);
}
