//===- PipelineCosts.h - pipeline-model costs from the target table -*- C++ -*-===//
//
// The one place that turns a resolved description (a GemmPlan) into the pipeline model's costs
// per K-slice, in cycles of one SM. `stages = auto` (resolveGemm) and `tilegen explain` both
// call costsFor, so the stage choice and the report never disagree.
//
//   t_mma   = 2 (M / cta_group) N K flop / (the target's dense tensor flop per cycle per SM;
//             half of it for mma.sync on a wgmma target)
//   t_load  = DRAM latency + (A + B slice bytes of this CTA) / (the SM's share of DRAM
//             bandwidth per cycle)
//   t_issue = one TMA issue per slice, or the cp.async instructions every thread issues
//   t_epi   = store latency + (M / cta_group) N output bytes / the SM's bandwidth share
//
// The bandwidth share is what each SM gets when every SM streams from DRAM at once: the
// no-L2-reuse worst case. The model lets loads overlap freely, so bandwidth lengthens t_load
// (and so the stages needed) but puts no ceiling on throughput; explain prints the tile's
// arithmetic intensity against the target's ridge for that.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_ANALYSIS_PIPELINECOSTS_H
#define TILEGEN_ANALYSIS_PIPELINECOSTS_H

#include "tilegen/Analysis/PipelineModel.h"
#include "tilegen/Pipeline/GemmPlan.h"

namespace tilegen {

/// The figures each cost is derived from, for reports.
struct CostBreakdown {
  double flopsPerSlice = 0;   ///< 2 (M / cta_group) N K
  double flopsPerCycle = 0;   ///< per SM, after the mma.sync halving
  bool mmaSyncHalved = false; ///< mma.sync on a target whose table rate is wgmma's
  double rate = 1.0;          ///< the instruction's rate relative to BF16 (MmaTable.h)
  double sliceBytes = 0;      ///< A + B bytes of one K-slice, this CTA
  double bytesPerCycle = 0;   ///< this SM's share of DRAM bandwidth
  double loadLatency = 0;     ///< cycles
  double issuePerLoad = 0;    ///< cycles per issued copy instruction
  double issueInstructions = 0; ///< copy instructions one issuing thread runs per slice
  double epilogueBytes = 0;   ///< C bytes of one tile, this CTA
  double epilogueLatency = 0; ///< cycles
};

/// Costs of one K-slice of `plan` (resolved from `op`), in cycles of one SM.
ModelCosts costsFor(tile::GemmOp op, const GemmPlan &plan, CostBreakdown *why = nullptr);

/// The most stages, up to `cap`, whose ring plus the rest fits the target's shared memory per
/// block (0 when not even one does).
int64_t stagesThatFit(const GemmPlan &plan, int64_t cap = 16);

} // namespace tilegen

#endif // TILEGEN_ANALYSIS_PIPELINECOSTS_H
