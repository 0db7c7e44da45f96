//===- Dispatch.h - dispatch tables: problem size -> kernel -----*- C++ -*-===//
//
// A dispatch table (written by `tilegen tune`, docs/dispatch.md) lists kernels
// (cubin + manifest, paths relative to the table) and entries: a tuned problem
// size, the kernel chosen for it and the candidates that were considered.
//
// The rule for a problem (M, N, K): the entry of that exact size if there is
// one, else the nearest entry, by the sum over M, N and K of |log2(x / x_e)|
// (ties: the first in the table); its kernel if the problem meets the kernel's
// constraints, else its first candidate that does, else the nearest other
// entry's, else the table's first fallback whose constraints P meets (kernels
// for strides that TMA and 16-byte copies cannot take). So every entry stands
// for the sizes nearer to it than to any other.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_DISPATCH_H
#define TILEGEN_RUN_DISPATCH_H

#include "Error.h"
#include "Manifest.h"

#include <string>
#include <vector>

namespace tilegen {
namespace run {

/// A table is at most this large.
constexpr uint64_t MaxDispatchBytes = uint64_t(16) << 20;

struct DispatchEntry {
  Problem Size;
  size_t Kernel = 0;                 ///< index into DispatchTable::Kernels
  std::vector<size_t> Candidates;    ///< the kernels considered, best first (Kernel among them)
  /// Per candidate, its time at this size in ns: where any candidate was measured, the
  /// measured time, else tune's estimate (an untimed candidate beside timed ones), else
  /// negative; where none was, the model's prediction, else negative. Negative too for a
  /// candidate whose run failed.
  std::vector<double> TimeNs;
  /// Per candidate: why its run failed (the table's "measurement"), empty when it did not.
  /// A failed candidate is never picked from its entry, and one that failed other than by
  /// being skipped (wrong results, a fault, a hang) is never picked for a size whose nearest
  /// entry this is.
  std::vector<std::string> Failure;
  std::string ChosenBy;              ///< "model" or "measured"
};

/// A kernel's K-slice in the pipeline model's cycles of one SM (tune writes them, the table's
/// "slice"): the tensor core's time, the copies' issue time without the L2 transfer, and the
/// L2 -> shared memory bytes per cycle of one CTA. With them the scaled rule counts what the
/// rows' offsets from the 128-byte L2 lines do to a slice (docs/dispatch.md); all 0 when the
/// table has none.
struct SliceTerms {
  double MmaCycles = 0, IssueCycles = 0, L2BytesPerCycle = 0;
  int64_t K = 0; ///< the slice's K elements (the tile's K)
  /// Stream-K kernels: one partial tile's fix-up in cycles, and the rate of a split's slices
  /// relative to the steady state's (the model's fitted factor); 0 when absent.
  double FixupCycles = 0, SplitEfficiency = 0;
  bool present() const { return MmaCycles > 0 && L2BytesPerCycle > 0 && K > 0; }
};

struct DispatchTable {
  std::string Path;
  std::string Target;
  std::vector<Manifest> Kernels; ///< loaded and checked, cubins read
  std::vector<SliceTerms> Slices; ///< per kernel (index as Kernels)
  std::vector<DispatchEntry> Entries;
  std::vector<size_t> Fallbacks; ///< tried last, in order (strides TMA cannot take)
  /// The GPU the times are for: its SM count and the fixed time of one launch. With an SM
  /// count, a size between entries takes the candidate of the near entries whose time, scaled
  /// to the size by its waves, is least (docs/dispatch.md); without, the nearest entry's.
  unsigned SmCount = 0;
  /// CTAs that clusters of 4 occupy at once on the table's part ("quad_cluster_ctas"; 0: not
  /// given, then sm_count rounded down to whole clusters, as for other sizes).
  unsigned QuadClusterCtas = 0;
  double LaunchNs = 0;
};

/// How pickKernel chose: the entry it scaled from, the estimate (ns, negative when the
/// nearest entry's order decided), and whether the size is that entry's own.
struct Pick {
  size_t Entry = 0;
  double EstimateNs = -1;
};

/// Reads and checks a table: format and version, every kernel's manifest and
/// cubin (relative paths resolve against the table's folder; a kernel's "cubin"
/// must be the file its manifest describes) for the table's target, every
/// entry's size and kernel names, one entry per size, each entry's kernel among
/// its candidates, each fallback once.
Error loadDispatch(const std::string &Path, DispatchTable &T);

/// Parses a table from text; Dir is the folder its paths are relative to.
/// With LoadKernels false the manifests are not read (Kernels holds names
/// only, in Manifest::Kernel): for fuzzing and unit tests.
Error parseDispatch(const std::string &Text, const std::string &Path,
                    const std::string &Dir, bool LoadKernels, DispatchTable &T);

/// The entry nearest to P (the rule above), or -1 for an empty table.
long nearestEntry(const DispatchTable &T, const Problem &P);

/// The kernel the rule picks for P; fails (naming the constraints each
/// candidate breaks) when no kernel of the table can run P. Pad is set when
/// the kernel runs P zero-padded (Manifest.h, paddedProblem): no ranked kernel
/// takes P as it is, and the padding costs less than the fallbacks' slower
/// loads (docs/dispatch.md).
Error pickKernel(const DispatchTable &T, const Problem &P, size_t &Kernel,
                 bool &Pad, Pick *How = nullptr);

/// The time of kernel K at size P scaled from its time TimeNs at size Q: the launch's fixed
/// time plus the rest in proportion to the waves of tiles each size makes on the table's SMs
/// and, where the table has K's slice terms, to its K-slice's time at each size's line
/// offsets (docs/dispatch.md). Negative when K's manifest has no tile.
double scaledTimeNs(const DispatchTable &T, size_t K, const Problem &Q, double TimeNs,
                    const Problem &P);

/// Kernel K's K-slice time at size P in the model's cycles: max(tensor core, issue + the
/// operands' boxes from L2 at P's line factors, tilegen/Support/L2Lines.h); negative without
/// slice terms.
double sliceCycles(const DispatchTable &T, size_t K, const Problem &P);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_DISPATCH_H
