//===- PipelineCosts.cpp - pipeline-model costs from the target table -----===//

#include "tilegen/Analysis/PipelineCosts.h"

using namespace tilegen;

// Cycles from issuing a global load to its data landing in shared memory on an idle memory
// system (H100 microbenchmarks put DRAM latency at 500-700 cycles), and from the epilogue's
// first store to its last leaving the SM.
static constexpr double kLoadLatency = 600.0;
static constexpr double kEpilogueLatency = 300.0;
// Cycles to issue one TMA copy (one thread, one instruction per operand box) and one cp.async.
static constexpr double kTmaIssue = 16.0;
static constexpr double kCpAsyncIssue = 4.0;

ModelCosts tilegen::costsFor(tile::GemmOp op, const GemmPlan &p, CostBreakdown *why) {
  const NVTargetInfo &info = p.target.info();
  CostBreakdown b;
  const double rows = static_cast<double>(p.tileM) / op.getCtaGroup();
  b.flopsPerSlice = 2.0 * rows * p.tileN * p.tileK;
  // The target's dense BF16 rate times the instruction's rate relative to BF16 (FP8: 2x), except
  // for FP8 mma.sync where the target has no FP8 mma.sync datapath (the target table says where).
  double rate = p.instr->rate;
  if (p.family == MmaFamily::MmaSync && elemInfo(p.instr->a).fp8 && !info.mmaSyncF8Native)
    rate = 1.0;
  b.rate = rate;
  b.flopsPerCycle = info.tensorFlopsPerCyclePerSM * rate;
  if (p.family == MmaFamily::MmaSync && p.target.hasWgmma()) {
    b.flopsPerCycle /= 2; // mma.sync runs at half of wgmma's rate on Hopper
    b.mmaSyncHalved = true;
  }
  // The bytes a slice brings from memory: the ring's, except for the 6- and 4-bit operands of
  // kind::f8f6f4, which TMA reads packed and spreads to a byte an element in shared memory.
  auto fromMemory = [&](int64_t smemBytes, Elem e) {
    return paddedSubByte(*p.instr, e) ? smemBytes * elemInfo(e).bits / 8 : smemBytes;
  };
  b.sliceBytes = static_cast<double>(fromMemory(p.smem.aSliceBytes, p.instr->a) +
                                     fromMemory(p.smem.bSliceBytes, p.instr->b));
  b.bytesPerCycle = info.dramBytesPerCyclePerSM;
  b.loadLatency = kLoadLatency;
  if (p.copy == tile::Copy::Tma) {
    b.issuePerLoad = kTmaIssue;
    b.issueInstructions = 1;
  } else {
    // Every thread issues its share of 16-byte cp.async copies.
    b.issuePerLoad = kCpAsyncIssue;
    b.issueInstructions = b.sliceBytes / 16.0 / static_cast<double>(p.threads);
  }
  b.epilogueBytes = rows * p.tileN * sizeInBytes(1, op.getCType());
  b.epilogueLatency = kEpilogueLatency;

  ModelCosts c;
  c.mma = b.flopsPerSlice / b.flopsPerCycle;
  c.load = b.loadLatency + b.sliceBytes / b.bytesPerCycle;
  c.issue = b.issuePerLoad * b.issueInstructions;
  c.epilogue = b.epilogueLatency + b.epilogueBytes / b.bytesPerCycle;
  if (why)
    *why = b;
  return c;
}

int64_t tilegen::stagesThatFit(const GemmPlan &plan, int64_t cap) {
  const int64_t budget = plan.target.smemPerBlock();
  int64_t fit = 0;
  while (fit < cap && plan.smemFor(fit + 1) <= budget)
    ++fit;
  return fit;
}
