//===- Protocol.h - simulate tilegen's PTX and check its synchronisation ----------------===//
//
// The checker behind `tilegen verify-protocol` (docs/verify.md): the kernel's PTX is run for a
// small problem, every thread of the CTAs of one grid interpreted (integer arithmetic and
// control flow; the math is not executed), with the synchronisation modelled: mbarriers
// (init counts, arrivals, transaction bytes, phases), bar.sync / named barriers, the cluster
// barrier, wgmma groups, tcgen05 (alloc, mma, commit, ld), TMA loads and stores, cp.async and
// the proxy fences. Shared memory (16-byte lines) and Tensor Memory (columns) remember who
// wrote and read them; vector clocks decide whether each access is ordered after the one it
// depends on. The schedules run are deterministic policies plus seeded random ones, and an
// exhaustive exploration of the orders of conflicting synchronisation, up to a step bound.
//
//===--------------------------------------------------------------------------------------===//

#ifndef TILEGEN_VERIFY_PROTOCOL_H
#define TILEGEN_VERIFY_PROTOCOL_H

#include "tilegen/Verify/PTX.h"

#include <string>
#include <vector>

namespace tilegen::verify {

/// What the manifest (docs/manifest.md) says about the kernel, as far as the checker needs.
struct KernelConfig {
  std::string kernel, target;
  unsigned block[3] = {1, 1, 1};
  unsigned cluster[3] = {1, 1, 1};
  unsigned dynamicSmem = 0;
  std::string gridRule; ///< tiles, persistent, stream_k
  unsigned tileM = 0, tileN = 0, tileK = 0, ctasPerSm = 1;
  double alpha = 1.0, beta = 0.0;
  struct Param {
    std::string name, kind; ///< kind: tensormap, ptr, i32, f32, scratch
    std::string value;      ///< i32/f32: M, N, K, alpha, beta
    unsigned boxBytes = 0;  ///< tensormap: bytes of one box (what a load completes)
    /// tensormap: bytes one box takes in shared memory, when not boxBytes (the padded 6- and
    /// 4-bit forms, "smem_form": one element per byte)
    unsigned smemBytes = 0;
  };
  std::vector<Param> params;
};

/// Reads a manifest (JSON text); errors name the missing or malformed field.
llvm::Expected<KernelConfig> readManifest(llvm::StringRef json);

struct VerifyOptions {
  int64_t m = 0, n = 0, k = 0; ///< 0: chosen from the tile (see docs/verify.md)
  unsigned smCount = 0;        ///< SMs of the simulated GPU; 0: chosen from the grid rule
  unsigned randomSchedules = 4;
  uint64_t seed = 1;
  uint64_t maxSteps = 20'000'000; ///< scheduling steps per schedule
  bool betaBoth = true;           ///< run beta = 0 and beta != 0, whatever the manifest says
  int64_t traceThread = -1;       ///< print every statement this thread (global index) runs
  /// Exhaustive exploration: scheduling steps over all its runs (replays included); 0: off.
  uint64_t exploreSteps = 1'000'000;
  /// Record the operands of every MMA and Tensor Memory copy the first schedule of each
  /// problem issues (VerifyResult::mmaTrace).
  bool traceMma = false;
};

struct VerifyResult {
  bool ok = false;
  std::string report;  ///< the summary, or the error with its witness
  unsigned schedules = 0;
  uint64_t steps = 0;  ///< scheduling steps over all schedules
  uint64_t exploreRuns = 0, exploreStates = 0; ///< exhaustive exploration
  bool exploreComplete = false; ///< every interleaving (up to the reduction) was run
  /// With VerifyOptions::traceMma: per problem, per CTA and warpgroup in issue order, each
  /// wgmma, tcgen05.mma and tcgen05.cp with its descriptors and Tensor Memory addresses
  /// (decoded), the values that decide what an MMA reads and where it accumulates. Written
  /// for comparing two builds of a kernel: no line numbers or register names.
  std::string mmaTrace;
};

/// Checks the kernel; never throws. A kernel or instruction outside the model is an error
/// (ok = false) naming the instruction and its line.
VerifyResult verifyProtocol(const Kernel &kernel, const KernelConfig &config,
                            const VerifyOptions &options);

} // namespace tilegen::verify

#endif // TILEGEN_VERIFY_PROTOCOL_H
