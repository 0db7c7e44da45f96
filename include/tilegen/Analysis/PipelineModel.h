//===- PipelineModel.h - max-plus model of a warp-specialised GEMM -*- C++ -*-===//
//
// The recurrences of the seed "Hopper and Blackwell GEMM": K-slices g = t K + k (tile t, slice
// k), S ring stages, A accumulator buffers.
//
//   L_g = max(L_{g-1} + t_issue, D_{g-S})              a slot is free once its MMA is done
//   M_g = max(L_g + t_load, D_{g-1}, E_{t-A} if k = 0)  data in, tensor core free, buffer drained
//   D_g = M_g + t_mma
//   E_t = max(D_{tK+K-1}, E_{t-1}) + t_epi              epilogues run in order
//
// with terms whose index is negative left out, and L_0 = 0.
//
// Time has no unit here: the seed's examples use abstract units, `tilegen explain` uses cycles
// of one SM. Loads in flight overlap freely: the only throughput limit on loads is t_issue (one
// issue stream) and the ring depth S.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_ANALYSIS_PIPELINEMODEL_H
#define TILEGEN_ANALYSIS_PIPELINEMODEL_H

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tilegen {

/// Costs of one K-slice (and of one tile's epilogue), all >= 0, mma > 0.
struct ModelCosts {
  double issue = 0;    ///< time between two load issues (the TMA issue stream)
  double load = 0;     ///< time from issue until the slice is in shared memory
  double mma = 0;      ///< tensor-core time of one slice
  double epilogue = 0; ///< time to drain one tile's accumulator and store C
};

struct ModelShape {
  int stages = 1;       ///< S: slots in the shared-memory ring
  int accumulators = 1; ///< A: accumulator buffers
  int tiles = 1;        ///< T: output tiles one CTA computes
  int kSlices = 1;      ///< K: K-slices per tile
};

/// Fails, naming the field and its value, unless every count is >= 1, every cost is finite
/// and >= 0 and the MMA cost is > 0.
/// Bounds checkModel applies: costs are 0 or within [kMinCost, kMaxCost]; stages and
/// accumulators at most kMaxModelCount.
inline constexpr double kMinCost = 1e-3, kMaxCost = 1e9;
inline constexpr int kMaxModelCount = 1024;

llvm::Error checkModel(const ModelShape &shape, const ModelCosts &costs);

/// The whole schedule: per slice load start (L), MMA start (M), MMA done (D); per tile epilogue
/// done (E). A load is in flight during [L_g, L_g + t_load), an MMA runs during [M_g, D_g) and
/// an epilogue during [E_t - t_epi, E_t).
struct ModelSchedule {
  ModelShape shape;
  ModelCosts costs;
  std::vector<double> loadStart, mmaStart, mmaDone, epilogueDone;
  double run = 0;     ///< the last epilogue's end
  double mmaBusy = 0; ///< total tensor-core time, T K t_mma
  /// The tensor core's busy share of the run, in [0, 1].
  double busy() const { return run > 0 ? mmaBusy / run : 0; }
  /// M_g - M_{g-S} for the run's last slice g: the steady-state period once the pipeline has
  /// settled (a long last tile). Negative when the run has fewer than S + 1 slices.
  double lastWindowPeriod() const;
};

/// Evaluates the recurrences exactly as above. The inputs must pass checkModel.
ModelSchedule simulatePipeline(const ModelShape &shape, const ModelCosts &costs);

/// The three lower bounds on the time of S consecutive slices in a long tile.
struct PeriodTerms {
  double mma = 0;     ///< S t_mma: one tensor core
  double issue = 0;   ///< S t_issue: one issue stream
  double loadMma = 0; ///< t_load + t_mma: one slot round the ring
  double period = 0;  ///< the largest of the three
  /// Which term binds: "mma", "load+mma" or "issue". On a tie "mma" wins (the tensor core is
  /// then exactly fed), then "issue".
  const char *binding = "mma";
};

/// The steady-state period of S consecutive slices: max(S t_mma, S t_issue, t_load + t_mma).
/// The recurrences settle to exactly M_{g+S} - M_g = period within a long tile.
PeriodTerms steadyStatePeriod(int stages, const ModelCosts &costs);

/// The fewest stages that reach the best period a deep ring can give, S max(t_mma, t_issue):
/// the smallest S with S max(t_mma, t_issue) >= t_load + t_mma. When t_issue <= t_mma (the
/// usual case) these are the stages that keep the tensor core fed, ceil((t_load + t_mma) /
/// t_mma); when the issue stream is slower than the MMA no depth feeds the tensor core and
/// deeper rings only hide the load latency behind the issue stream.
int fewestStagesToFeed(const ModelCosts &costs);

} // namespace tilegen

#endif // TILEGEN_ANALYSIS_PIPELINEMODEL_H
