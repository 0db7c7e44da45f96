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
// with terms whose index is negative left out.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_ANALYSIS_PIPELINEMODEL_H
#define TILEGEN_ANALYSIS_PIPELINEMODEL_H

#include <string>
#include <vector>

namespace tilegen {

struct ModelCosts {
  double issue = 0; ///< time to issue one slice's loads
  double load = 0;  ///< time from issue until the slice is in shared memory
  double mma = 0;   ///< tensor-core time of one slice
  double epilogue = 0;
};

struct ModelShape {
  int stages = 1;
  int accumulators = 1;
  int tiles = 1;
  int kSlices = 1;
};

/// The whole schedule: per slice load start (L), MMA start (M), MMA done (D); per tile epilogue
/// done (E).
struct ModelSchedule {
  std::vector<double> loadStart, mmaStart, mmaDone, epilogueDone;
  double run = 0;    ///< the last epilogue's end
  double mmaBusy = 0; ///< total tensor-core time
  double busy() const { return run > 0 ? mmaBusy / run : 0; }
};

/// Evaluates the recurrences exactly as above.
ModelSchedule simulatePipeline(const ModelShape &shape, const ModelCosts &costs);

/// The steady-state period of S consecutive slices: max(S t_mma, S t_issue, t_load + t_mma).
/// `binding` (optional) receives which term binds: "mma", "issue" or "load+mma".
double steadyStatePeriod(int stages, const ModelCosts &costs, std::string *binding = nullptr);

/// The fewest stages that keep the tensor core fed: the smallest S with S t_mma >= t_load +
/// t_mma and S t_mma >= S t_issue (if issue is slower than the MMA no depth helps; returns 1
/// less than infinity: the smallest S reaching the issue-bound period).
int fewestStagesToFeed(const ModelCosts &costs);

} // namespace tilegen

#endif // TILEGEN_ANALYSIS_PIPELINEMODEL_H
