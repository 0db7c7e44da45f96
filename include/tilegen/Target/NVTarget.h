//===- NVTarget.h - the NVIDIA target table ---------------------*- C++ -*-===//
//
// One table holds every fact tilegen knows about a target: its MMA families, copy engines,
// clusters, Tensor Memory, budgets and the PTX ISA version and ptxas target to emit. Sources:
// the CUDA programming guide's compute-capability tables and the PTX ISA's target notes (see
// lib/Target/NVTarget.cpp for the citations per row).
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_TARGET_NVTARGET_H
#define TILEGEN_TARGET_NVTARGET_H

#include "tilegen/Target/MmaTable.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace tilegen {

/// One row of the target table.
struct NVTargetInfo {
  const char *name;          ///< "sm_90a"
  unsigned major, minor;     ///< compute capability
  char suffix;               ///< 'a' for architecture-specific targets, 0 otherwise
  const char *gpus;          ///< example GPUs
  unsigned instructions;     ///< the MMA table rows it offers: a mask of InstrSet
  /// FP8 mma.sync runs on an FP8 datapath (QMMA in the SASS: sm_89, sm_120); elsewhere ptxas
  /// unpacks e4m3/e5m2 to f16 and issues f16 HMMA (sm_90, sm_100a: their FP8 path is wgmma /
  /// tcgen05), so it runs at the BF16 rate.
  bool mmaSyncF8Native;
  bool ctaGroup2;            ///< tcgen05 cta_group::2 (CTA pair)
  bool cpAsync;              ///< cp.async (sm_80+)
  bool tma;                  ///< cp.async.bulk.tensor (sm_90+)
  bool tmaMulticast;         ///< .multicast::cluster in hardware
  unsigned maxClusterSize;   ///< largest portable cluster (1: no clusters)
  unsigned smemPerBlock;     ///< bytes of shared memory one block may use (opt-in maximum)
  unsigned smemPerSM;        ///< bytes of shared memory per SM
  unsigned residentWarps;    ///< resident warps per SM
  unsigned regsPerSM;        ///< 32-bit registers per SM
  unsigned tmemColumns;      ///< Tensor Memory columns per CTA (0: none)
  unsigned ptxVersion;       ///< PTX ISA version to emit, times 10 (78 = 7.8)
  // Costs for the pipeline model (per SM): dense BF16 tensor FLOP/cycle and a memory share.
  double tensorFlopsPerCyclePerSM; ///< dense BF16 FLOP per cycle per SM
  double clockGHz;                 ///< boost clock of the reference part
  double dramBytesPerCyclePerSM;   ///< HBM/GDDR bandwidth share per SM per cycle
  // The reference part as a whole, for the problem-size model (lib/Analysis/ProblemModel).
  unsigned smCount;                ///< SMs of the reference part
  uint64_t l2Bytes;                ///< L2 cache bytes of the reference part
  /// SM clock at which the datasheet's dense tensor peak is rated (peak / (SMs x flop per
  /// cycle per SM)); below the boost clock on H100/H200. Converts the model's cycles to time.
  double ratedClockGHz;
  /// CTAs that clusters of 4 occupy at once on the reference part (the driver's
  /// cuOccupancyMaxActiveClusters times 4; a cluster lies within one GPC, so the GPCs' SM
  /// counts decide it); 0 where not measured (then every SM, as for smaller clusters).
  unsigned quadClusterCtas;
};

/// A parsed target: `sm_90a` -> {9, 0, 'a'}. The value type passes use; predicates answer from
/// the table.
class NVTarget {
public:
  /// Parses "sm_90a"; std::nullopt if the name is not in the table.
  static std::optional<NVTarget> parse(llvm::StringRef name);
  /// Every target in the table, in order.
  static llvm::ArrayRef<NVTargetInfo> all();
  /// "sm_80, sm_86, ..." for diagnostics.
  static std::string knownNames();
  /// "; did you mean 'sm_90a'?" when `name` is close to a known target, else "".
  static std::string suggest(llvm::StringRef name);

  const NVTargetInfo &info() const { return *row; }
  llvm::StringRef name() const { return row->name; }
  unsigned major() const { return row->major; }
  unsigned minor() const { return row->minor; }
  /// Whether the target offers the instruction-table row.
  bool offers(const MmaInstr &instr) const { return row->instructions & instr.set; }
  /// Whether the target offers any row of `family`.
  bool hasFamily(MmaFamily family) const;
  bool hasMmaSync() const { return hasFamily(MmaFamily::MmaSync); }
  bool hasWgmma() const { return hasFamily(MmaFamily::Wgmma); }
  bool hasTcgen05() const { return hasFamily(MmaFamily::Tcgen05); }
  bool hasCtaGroup2() const { return row->ctaGroup2; }
  bool hasCpAsync() const { return row->cpAsync; }
  bool hasTma() const { return row->tma; }
  bool hasTmaMulticast() const { return row->tmaMulticast; }
  unsigned maxClusterSize() const { return row->maxClusterSize; }
  unsigned smemPerBlock() const { return row->smemPerBlock; }
  unsigned residentWarps() const { return row->residentWarps; }
  unsigned tmemColumns() const { return row->tmemColumns; }
  unsigned ptxVersion() const { return row->ptxVersion; }
  /// The family tilegen uses by default on this target: the newest it has.
  MmaFamily preferredFamily() const;
  /// The NVPTX feature string for LLVM, e.g. "+ptx80".
  std::string ptxFeature() const;
  /// Which families the target offers, for diagnostics ("mma.sync, wgmma").
  std::string familiesString() const;
  /// The operand types the target's `family` rows take, for diagnostics ("bf16, f16, e4m3,
  /// e5m2").
  std::string typesString(MmaFamily family) const;

private:
  explicit NVTarget(const NVTargetInfo *row) : row(row) {}
  const NVTargetInfo *row;
};

} // namespace tilegen

#endif // TILEGEN_TARGET_NVTARGET_H
