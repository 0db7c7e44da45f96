//===- Launcher.h - Loading and launching one tilegen kernel ----*- C++ -*-===//
//
// The one implementation of a tilegen kernel launch, shared by the launch
// library's C API (LaunchApi.cpp, include/tilegen/launch.h) and tilegen-run:
// what the manifest (docs/manifest.md) says a launcher must do, in order.
//
//   checkTarget        the cubin's target runs on the device; its dynamic
//                      shared memory fits (no driver call besides the facts)
//   LoadedKernel::load the module and the function, the parameter list
//                      against the kernel's, the function's limits, the
//                      dynamic shared memory and cluster attributes
//   checkGemmArgs      pointers (null, alignment), leading dimensions, scale
//                      pointers and workspace against the manifest (no driver)
//   LoadedKernel::grid the grid rule, capped for persistent clusters
//   buildParams        the parameter block: pointers, sizes, alpha/beta,
//                      scratch slices and the tensor maps (cuTensorMapEncodeTiled)
//   launch             cuLaunchKernelEx with the block, cluster and shared memory
//
// checkProblem (Manifest.h) checks the sizes; callers run it first. Every
// failure is an Error value with a kind (Error.h); nothing aborts.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_LAUNCH_LAUNCHER_H
#define TILEGEN_LAUNCH_LAUNCHER_H

#include "Driver.h"
#include "Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilegen {
namespace run {

/// What a launch needs to know about the GPU it runs on.
struct DeviceFacts {
  int Ordinal = 0;
  std::string Name;
  int CcMajor = 0, CcMinor = 0, SmCount = 0;
  int SmemOptin = 0; ///< bytes of shared memory a block may opt in to
  /// "sm_90" for compute capability 9.0.
  std::string arch() const;
};

/// Reads the facts of device Dev (name, compute capability, SMs, shared memory).
Error queryDeviceFacts(const Driver &Cu, CUdevice Dev, int Ordinal, DeviceFacts &Out);

/// The cubin's target (manifest field 'target') runs on the device, and the
/// manifest's dynamic shared memory is within the device's opt-in limit.
Error checkTarget(const Manifest &Man, const DeviceFacts &Dev);

/// Device pointers and leading dimensions of one GEMM, D = alpha A x B + beta C.
struct GemmArgs {
  Problem P;
  /// Leading dimensions in elements of A, B, C, D (index by Tensor); 0 is
  /// dense (the manifest's layout with no padding).
  int64_t Ld[4] = {0, 0, 0, 0};
  CUdeviceptr A = 0, B = 0, C = 0, D = 0, ScaleA = 0, ScaleB = 0;
  /// NVFP4: B's per-tensor f32 (one float in global memory), for a kernel with a
  /// "scale_b_tensor" parameter.
  CUdeviceptr ScaleBTensor = 0;
  double Alpha = 1, Beta = 0;
  /// One buffer per parameter of kind scratch, indexed like Manifest::Params
  /// (entries of other parameters are ignored); each of at least
  /// grid x bytes_per_cta bytes.
  std::vector<CUdeviceptr> Scratch;
};

/// Device pointers are this aligned (bytes): the kernels move A, B, C and D in
/// 16-byte pieces (cp.async, vector stores, TMA's global address rule).
constexpr uint64_t TensorAlignment = 16;
/// Scale tensors' pointers are this aligned (bytes): f32 scales, and the one-byte codes of
/// block scales too, which the kernels copy into shared memory in 4-byte pieces (cp.async).
constexpr uint64_t ScaleAlignment = 4;

/// The leading dimension of T in Args: its value, or the dense one when 0.
int64_t leadingDim(const Manifest &Man, const GemmArgs &Args, Tensor T);

/// Checks Args against the manifest without touching the GPU: A, B and D
/// present and 16-byte aligned; C present unless beta is 0 (then D stands in
/// for it); scale pointers exactly where the manifest has scales, aligned
/// to ScaleAlignment; a scratch buffer for every scratch
/// parameter (when CheckScratch);
/// leading dimensions dense, or padded only for tensors the kernel reads
/// through tensor maps alone, with 16-byte strides. The sizes must have
/// passed checkProblem.
Error checkGemmArgs(const Manifest &Man, const GemmArgs &Args, bool CheckScratch);

/// The kernel's parameters, ready for cuLaunchKernelEx.
struct ParamBlock {
  struct alignas(64) Slot {
    unsigned char Bytes[128];
  };
  std::vector<Slot> Slots;
  std::vector<void *> Ptrs;
};

/// One kernel loaded into the current CUDA context.
class LoadedKernel {
public:
  LoadedKernel() = default;
  ~LoadedKernel() { unload(); }
  LoadedKernel(const LoadedKernel &) = delete;
  LoadedKernel &operator=(const LoadedKernel &) = delete;

  /// Checks the image (Cubin.h) and loads it into the current context, finds
  /// the kernel, compares the parameter list with the kernel's (drivers with
  /// cuFuncGetParamInfo), checks block and shared memory against the
  /// function's limits, and sets its dynamic shared memory (and non-portable
  /// cluster) attributes. Cu and Man must outlive this object.
  Error load(const Driver &Cu, const Manifest &Man, const DeviceFacts &Dev);
  /// Unloads the module (best effort); load may be called again.
  void unload();

  CUfunction function() const { return Fn; }
  int registers() const { return Regs; }
  int staticSmem() const { return StaticSmem; }

  /// The 1-D grid for P: the manifest's rule (gridSize) over the device's
  /// SMs; a persistent grid of clusters is capped at the clusters that fit at
  /// once (cuOccupancyMaxActiveClusters). Fails above 2^31 - 1 CTAs.
  Error grid(const Problem &P, uint64_t &Grid) const;

  /// Fills Block from Args for a launch of Grid CTAs (encoding the tensor
  /// maps). Args must have passed checkGemmArgs.
  Error buildParams(const GemmArgs &Args, uint64_t Grid, ParamBlock &Block) const;

  /// Launches the kernel on Stream (asynchronous).
  Error launch(const ParamBlock &Block, uint64_t Grid, CUstream Stream) const;

  /// "gemm_bf16, grid 132, block 384x1x1, cluster 1x1x1, dynamic smem 229504".
  std::string launchDescription(uint64_t Grid) const;

private:
  const Driver *Cu = nullptr;
  const Manifest *Man = nullptr;
  DeviceFacts Dev;
  CUmodule Mod = nullptr;
  CUfunction Fn = nullptr;
  int Regs = 0, StaticSmem = 0;

  Error checkParamAbi() const;
  Error encodeTensorMap(const Param &Pa, size_t Index, const GemmArgs &Args,
                        void *Out) const;
};

/// Bytes of scratch parameter Pa for a grid of Grid CTAs; false on overflow.
bool scratchBytes(const Param &Pa, uint64_t Grid, uint64_t &Bytes);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_LAUNCH_LAUNCHER_H
