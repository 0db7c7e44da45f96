//===- NVTarget.cpp - the NVIDIA target table -----------------------------===//
//
// Sources for the rows:
// - CUDA C++ Programming Guide, compute capabilities appendix: shared memory per block/SM,
//   resident warps, cluster support (cc 9.0+; GeForce sm_120 has no TMA multicast and CUTLASS
//   pins its clusters to 1x1x1).
// - PTX ISA: `mma` (sm_80+ for bf16 m16n8k16), `cp.async` (sm_80+), `cp.async.bulk.tensor`
//   (sm_90+), `wgmma.mma_async` ("requires sm_90a"), `tcgen05.*` (sm_100a/sm_101a/sm_103a and
//   their family variants, never sm_120), Tensor Memory 512 columns x 128 lanes.
// - PTX ISA release notes for the first PTX version that knows each target.
// - Tensor rates: dense BF16 FLOP per SM per cycle: 2048 (sm_80; sm_90 with mma.sync), 4096
//   (sm_90a wgmma), 8192 (sm_100a),
//   and the GeForce parts' halved/narrow rates; bandwidth shares from the datasheets. These feed
//   only the pipeline model's default costs.
// - SMs, L2 and rated clock (the problem-size model, lib/Analysis/ProblemModel): the H200 row
//   (sm_90, sm_90a) has what the CUDA driver reports on the H200 used for bench/RESULTS.md
//   (tilegen-run's device line: 132 SMs, L2 60 MiB, SM clock 1980 MHz); the other rows have the
//   SM count their bandwidth share already divides by and the L2 of public spec sheets,
//   unchecked. The rated clock is the clock at which the
//   datasheet's dense tensor peak is computed: 989.4 dense BF16 TFLOP/s / (132 SMs x 4096
//   flop/cycle) = 1.83 GHz on H100/H200 (below its 1.98 GHz boost clock); A100 312 TFLOP/s /
//   (108 x 2048) = 1.41 GHz, the boost clock. The other rows use their boost clock, unchecked
//   (no such part has run tilegen's kernels).
// - CTAs in clusters of 4 at once (`quad`, the problem-size model's grid, as the launcher caps a
//   persistent grid of clusters at cuOccupancyMaxActiveClusters): 120 on sm_90/sm_90a, the
//   grid tilegen-run launched for a [2, 2, 1] cluster kernel on an H100 SXM (132 SMs: 30
//   clusters; a cluster lies within one GPC); not measured on the H200 or elsewhere (0: every
//   SM, as for clusters of 2).
//
//===----------------------------------------------------------------------===//

#include "tilegen/Target/NVTarget.h"
#include "tilegen/Support/Suggest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilegen;

static constexpr unsigned KiB = 1024;
static constexpr uint64_t MiB = 1024 * 1024;

// clang-format off
// Instruction sets (MmaTable.h): mma.sync bf16/f16 everywhere; its FP8 shape from sm_89; wgmma
// on sm_90a only; tcgen05 on the sm_100a family.
static constexpr unsigned kAmpere = MmaSyncF16;
static constexpr unsigned kAda = MmaSyncF16 | MmaSyncF8;
static constexpr unsigned kHopper = MmaSyncF16 | MmaSyncF8;
static constexpr unsigned kHopperA = kHopper | WgmmaF16 | WgmmaF8;
// Block-scaled kinds (MmaTable.cpp): tcgen05's on the sm_100a family (sm_100a, sm_103a);
// mma.sync's on sm_120a only (the architecture-specific target; plain sm_120 has none).
static constexpr unsigned kBlackwellA = MmaSyncF16 | MmaSyncF8 | Tcgen05F16 | Tcgen05F8F6F4 |
                                        Tcgen05MxF8F6F4 | Tcgen05MxF4 | Tcgen05MxF4NvF4;
static constexpr unsigned kGeForceBlackwell = MmaSyncF16 | MmaSyncF8;
// mma.sync .kind::f8f6f4 with 6- and 4-bit operands: sm_120a only (PTX ISA, mma's target
// notes: "requires sm_120a").
static constexpr unsigned kGeForceBlackwellA =
    kGeForceBlackwell | MmaSyncF8F6F4 | MmaSyncMxF8F6F4 | MmaSyncMxF4NvF4;

static const NVTargetInfo kTargets[] = {
  // name      maj min sfx gpus                instructions       f8mma  cg2    cpas  tma    mcast  clus smem/blk   smem/SM    warps regs   tmem ptx  flop/cyc clk   B/cyc/SM  SMs  L2         rated quad
  {"sm_80",    8, 0, 0,  "A100",              kAmpere,           false, false, true, false, false, 1, 163 * KiB, 164 * KiB, 64, 65536, 0,  70,  2048.0, 1.41, 1555.0 / 1.41 / 108, 108,  40 * MiB, 1.41, 0},
  {"sm_86",    8, 6, 0,  "RTX 30, A40",       kAmpere,           false, false, true, false, false, 1,  99 * KiB, 100 * KiB, 48, 65536, 0,  71,   512.0, 1.74,  936.0 / 1.74 / 82,  82,   6 * MiB, 1.74, 0},
  {"sm_89",    8, 9, 0,  "RTX 40, L40S",      kAda,              true,  false, true, false, false, 1,  99 * KiB, 100 * KiB, 48, 65536, 0,  78,   512.0, 2.52, 1008.0 / 2.52 / 128, 128,  72 * MiB, 2.52, 0},
  {"sm_90",    9, 0, 0,  "H100, H200",        kHopper,           false, false, true, true,  true,  8, 227 * KiB, 228 * KiB, 64, 65536, 0,  80,  2048.0, 1.98, 4800.0 / 1.98 / 132, 132,  60 * MiB, 1.83, 120},
  {"sm_90a",   9, 0, 'a', "H100, H200",       kHopperA,          false, false, true, true,  true,  8, 227 * KiB, 228 * KiB, 64, 65536, 0,  80,  4096.0, 1.98, 4800.0 / 1.98 / 132, 132,  60 * MiB, 1.83, 120},
  {"sm_100a", 10, 0, 'a', "B200, GB200",      kBlackwellA,       false, true,  true, true,  true,  8, 227 * KiB, 228 * KiB, 64, 65536, 512, 86, 8192.0, 1.96, 8000.0 / 1.96 / 148, 148, 126 * MiB, 1.96, 0},
  {"sm_103a", 10, 3, 'a', "B300, GB300",      kBlackwellA,       false, true,  true, true,  true,  8, 227 * KiB, 228 * KiB, 64, 65536, 512, 88, 8192.0, 2.03, 8000.0 / 2.03 / 148, 148, 126 * MiB, 2.03, 0},
  {"sm_120",  12, 0, 0,  "RTX 50",            kGeForceBlackwell, true,  false, true, true,  false, 1,  99 * KiB, 100 * KiB, 48, 65536, 0,  87,   512.0, 2.41, 1792.0 / 2.41 / 170, 170,  96 * MiB, 2.41, 0},
  {"sm_120a", 12, 0, 'a', "RTX 50",           kGeForceBlackwellA,true,  false, true, true,  false, 1,  99 * KiB, 100 * KiB, 48, 65536, 0,  87,   512.0, 2.41, 1792.0 / 2.41 / 170, 170,  96 * MiB, 2.41, 0},
};
// clang-format on

std::optional<NVTarget> NVTarget::parse(llvm::StringRef name) {
  for (const NVTargetInfo &row : kTargets)
    if (name == row.name)
      return NVTarget(&row);
  return std::nullopt;
}

llvm::ArrayRef<NVTargetInfo> NVTarget::all() { return kTargets; }

std::string NVTarget::knownNames() {
  std::string out;
  for (const NVTargetInfo &row : kTargets) {
    if (!out.empty())
      out += ", ";
    out += row.name;
  }
  return out;
}

std::string NVTarget::suggest(llvm::StringRef name) {
  llvm::SmallVector<llvm::StringRef> names;
  for (const NVTargetInfo &row : kTargets)
    names.push_back(row.name);
  return didYouMean(name, names);
}

MmaFamily NVTarget::preferredFamily() const {
  if (hasTcgen05())
    return MmaFamily::Tcgen05;
  if (hasWgmma())
    return MmaFamily::Wgmma;
  return MmaFamily::MmaSync;
}

std::string NVTarget::ptxFeature() const {
  return llvm::formatv("+ptx{0}", ptxVersion()).str();
}

bool NVTarget::hasFamily(MmaFamily family) const {
  for (const MmaInstr &instr : mmaTable())
    if (instr.family == family && offers(instr))
      return true;
  return false;
}

std::string NVTarget::typesString(MmaFamily family) const {
  llvm::SmallVector<llvm::StringRef> names;
  for (const MmaInstr &instr : mmaTable()) {
    // The block-scaled kinds' operand types are listed by their own diagnostics.
    if (instr.family != family || !offers(instr) || instr.blockScaled)
      continue;
    for (Elem e : {instr.a, instr.b})
      if (!llvm::is_contained(names, elemInfo(e).manifest))
        names.push_back(elemInfo(e).manifest);
  }
  return llvm::join(names, ", ");
}

std::string NVTarget::familiesString() const {
  llvm::SmallVector<llvm::StringRef> names;
  if (hasMmaSync())
    names.push_back("mma.sync");
  if (hasWgmma())
    names.push_back("wgmma");
  if (hasTcgen05())
    names.push_back("tcgen05");
  return llvm::join(names, ", ");
}
