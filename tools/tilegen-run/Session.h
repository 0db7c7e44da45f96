//===- Session.h - One kernel on one GPU: setup, launch, check, time -*- C++ -*-===//
//
// Everything that touches the GPU, for one problem size. It runs in a child
// process (see Child.h): a kernel fault leaves the CUDA context unusable, and a
// hung kernel can only be stopped by killing the process.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_SESSION_H
#define TILEGEN_RUN_SESSION_H

#include "CudaApi.h"
#include "Launcher.h"
#include "Manifest.h"
#include "Options.h"
#include "PadCopy.h"
#include "Report.h"

#include <vector>

namespace tilegen {
namespace run {

/// The cuBLAS / cuBLASLt data type of an element type (f32 for f32 and tf32).
cudaDataType cudaTypeOf(ElemType T);

struct DeviceBuffer {
  CUdeviceptr Ptr = 0;
  size_t Bytes = 0;
};

class GpuSession {
public:
  GpuSession(const Options &Opts, const Manifest &Man)
      : Opts(Opts), Man(Man) {}
  ~GpuSession();
  GpuSession(const GpuSession &) = delete;
  GpuSession &operator=(const GpuSession &) = delete;

  /// Loads the driver, picks the device, checks the cubin's target against
  /// it, loads the module and the kernel, and (optionally) cuBLAS. Fills Dev.
  Error open(DeviceRow &Dev);
  /// Allocates and fills A, B, C, D for P and builds the kernel parameters.
  Error prepare(const Problem &P);
  /// --check: poison D, launch once, compare with the reference. Sets Passed.
  Error check(Row &R, bool &Passed);
  /// Launches once and waits (when --check is not given).
  Error runOnce();
  /// --bench: times the kernel and cuBLAS (cuBLASLt for fp8 operands).
  Error bench(Row &R);

  uint64_t grid() const { return Grid; }
  /// The problem the kernel runs: P, or with --pad the zero-padded problem (Manifest.h).
  const Problem &kernelProblem() const { return KP; }
  /// How --pad copies: "kernel" (tilegen-run's copy kernel) or "cuMemcpy2DAsync (why)";
  /// empty when nothing is padded.
  const std::string &padCopyHow() const { return PadCopyHow; }

private:
  const Options &Opts;
  const Manifest &Man;
  Problem P;

  Driver Cu;
  Cublas Blas;
  bool HaveBlas = false;
  std::string BlasWhy; ///< why cuBLAS is unavailable
  void *BlasHandle = nullptr;

  // cuBLASLt: the reference and baseline of fp8 kernels (cuBLAS has no scaled fp8 GEMM).
  CublasLt Lt;
  bool HaveLt = false;
  std::string LtWhy; ///< why cuBLASLt is unavailable
  void *LtHandle = nullptr;
  /// One cuBLASLt problem: descriptors and the heuristic's best algorithm, built once so that
  /// the timed loop calls cublasLtMatmul alone.
  struct LtPlan {
    void *Desc = nullptr, *LayA = nullptr, *LayB = nullptr, *LayC = nullptr,
         *LayD = nullptr, *Pref = nullptr;
    CublasLt::Algo Algo{};
    bool Tried = false, Ok = false;
    std::string Why; ///< when !Ok: why cuBLASLt cannot run it
  };
  LtPlan LtProduct; ///< A x B with the scales, f32 out (the --check reference)
  LtPlan LtFull;    ///< alpha * A x B + beta * C in D's type (--bench, and for scale)

  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  DeviceFacts Facts;
  LoadedKernel Kernel; ///< the launch library's kernel: module, grid, parameters, launch
  ParamBlock Params;
  CUstream Stream = nullptr;
  std::string GpuName;
  int CcMajor = 0, CcMinor = 0, SmCount = 0, L2Bytes = 0;

  uint64_t Grid = 0;
  DeviceBuffer A, B, C, D, Ref, Flush;
  /// --pad: the kernel's problem KP (P when no padding is needed) and, for each of A, B, C, D
  /// whose shape KP changes, its zero-padded copy; launch() copies the inputs in and D out.
  Problem KP;
  DeviceBuffer PadA, PadB, PadC, PadD;
  /// Copies tensor T between its P-shaped buffer and its KP-shaped one (asynchronous, on
  /// Stream); ToPadded picks the direction. With the runner's copy kernel (PadCopy.h) when it
  /// loaded: the copy is added to Jobs, which padCopies launches; else with cuMemcpy2DAsync.
  Error copyPadded(Tensor T, CUdeviceptr Dense, CUdeviceptr Padded, bool ToPadded,
                   TilegenPadCopyArgs &Jobs);
  /// Launches the copy kernel on Jobs, if it holds any.
  Error launchPadCopies(const TilegenPadCopyArgs &Jobs, const char *What);
  /// Loads the copy kernel once (prepare, when a tensor is padded); a failure to load is not
  /// an error: the copies fall back to cuMemcpy2DAsync and PadCopyHow says why. Fails on a
  /// TILEGEN_RUN_PAD_KERNEL other than "on" or "off".
  Error loadPadKernel();
  CUmodule PadModule = nullptr;
  CUfunction PadFn = nullptr;
  bool PadTried = false;
  std::string PadCopyHow; ///< "kernel", or "cuMemcpy2DAsync (why)"; empty when unpadded
  DeviceBuffer Prod; ///< --check with the cuBLAS reference: A x B in f32
  DeviceBuffer ScaleA, ScaleB;     ///< f32 scales of fp8 operands, the manifest's layout
  DeviceBuffer LtScaleA, LtScaleB; ///< the same in cuBLASLt's 128x128 block layout
  DeviceBuffer LtWorkspace;
  std::vector<float> HostScaleA, HostScaleB;
  /// E8M0 scale codes of e2m1 operands (fillBlockScaled).
  std::vector<uint8_t> HostMxScaleA, HostMxScaleB;
  /// NVFP4's per-tensor f32 of B (1 without a "scale_b_tensor" parameter) and its device copy.
  float HostTensorScaleB = 1;
  DeviceBuffer TensorScaleB;
  std::vector<DeviceBuffer> Scratch; ///< per parameter; empty buffers for other kinds
  std::vector<unsigned char> HostA, HostB, HostC;
  uint64_t HostInputBytes = 0; ///< host copies of A, B, C and D (see prepare)

  /// Fails, before allocating, when Bytes more of host memory (for What) on top
  /// of HostInputBytes exceed the machine's physical memory.
  Error checkHostMemory(uint64_t Bytes, bool Overflow, const std::string &What) const;

  Error alloc(const std::string &What, size_t Bytes, DeviceBuffer &Buf);
  void release(DeviceBuffer &Buf);
  /// Waits for the context's pending copies and memsets (see Session.cpp).
  Error settle(const std::string &What);
  /// Launches the kernel once on Stream (asynchronous), with the copies of --pad.
  Error launch();
  /// The copies of --pad alone (in and out), as launch() issues them.
  Error padCopies(bool In, bool Out);
  /// Waits for Stream; a failure here is the kernel's fault.
  Error sync(const std::string &What);
  /// Out = alpha * A x B + beta * C with cuBLAS (FP32 accumulation), D's type and layout; with
  /// ProductF32, Out = A x B alone as f32 in D's layout (the --check reference: alpha, beta
  /// and the rounding to D's type are applied on the host, in double).
  Error cublasGemm(CUdeviceptr Out, bool ForTiming, bool ProductF32 = false);
  bool cublasSupports(std::string &Why) const;
  /// Whether the vendor library (cuBLAS; cuBLASLt for fp8 operands) can compute this
  /// problem: for fp8, builds the cuBLASLt plans and asks its heuristic.
  Error vendorSupports(bool &Ok, std::string &Why);
  /// cublasGemm, or cublasLtGemm for fp8 operands.
  Error vendorGemm(CUdeviceptr Out, bool ForTiming, bool ProductF32 = false);
  const char *vendorName() const { return Man.fp8() ? "cuBLASLt" : "cuBLAS"; }
  /// What cuBLASLt's fp8 GEMM cannot take, whatever the GPU (layouts, types, scale blocks).
  bool cublasLtSupports(std::string &Why) const;
  Error buildLtPlan(LtPlan &Plan, bool ProductF32);
  void destroyLtPlan(LtPlan &Plan);
  /// Out = alpha * (sa A) x (sb B) + beta * C in D's type with cuBLASLt; with ProductF32,
  /// Out = (sa A) x (sb B) alone as f32 in D's layout.
  Error cublasLtGemm(CUdeviceptr Out, bool ProductF32);
};

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_SESSION_H
