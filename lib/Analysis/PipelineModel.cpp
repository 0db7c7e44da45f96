//===- PipelineModel.cpp - max-plus model of a warp-specialised GEMM ------===//

#include "tilegen/Analysis/PipelineModel.h"

#include <algorithm>
#include <cmath>

using namespace tilegen;

ModelSchedule tilegen::simulatePipeline(const ModelShape &shape, const ModelCosts &costs) {
  ModelSchedule s;
  const int slices = shape.tiles * shape.kSlices;
  s.loadStart.reserve(slices);
  s.mmaStart.reserve(slices);
  s.mmaDone.reserve(slices);
  s.epilogueDone.reserve(shape.tiles);
  for (int g = 0; g < slices; ++g) {
    const int t = g / shape.kSlices, k = g % shape.kSlices;
    double l = g > 0 ? s.loadStart[g - 1] + costs.issue : 0.0;
    if (g >= shape.stages)
      l = std::max(l, s.mmaDone[g - shape.stages]);
    s.loadStart.push_back(l);
    double m = l + costs.load;
    if (g > 0)
      m = std::max(m, s.mmaDone[g - 1]);
    if (k == 0 && t >= shape.accumulators)
      m = std::max(m, s.epilogueDone[t - shape.accumulators]);
    s.mmaStart.push_back(m);
    s.mmaDone.push_back(m + costs.mma);
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

double tilegen::steadyStatePeriod(int stages, const ModelCosts &costs, std::string *binding) {
  const double mma = stages * costs.mma, issue = stages * costs.issue,
               load = costs.load + costs.mma;
  double period = std::max({mma, issue, load});
  if (binding)
    *binding = period == mma ? "mma" : period == load ? "load+mma" : "issue";
  return period;
}

int tilegen::fewestStagesToFeed(const ModelCosts &costs) {
  if (costs.mma <= 0)
    return 1;
  int s = static_cast<int>(std::ceil((costs.load + costs.mma) / costs.mma - 1e-9));
  return std::max(1, s);
}
