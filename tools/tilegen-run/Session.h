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
#include "Manifest.h"
#include "Options.h"
#include "Report.h"

#include <vector>

namespace tilegen {
namespace run {

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
  /// --bench: times the kernel and cuBLAS.
  Error bench(Row &R);

  uint64_t grid() const { return Grid; }

private:
  const Options &Opts;
  const Manifest &Man;
  Problem P;

  Driver Cu;
  Cublas Blas;
  bool HaveBlas = false;
  std::string BlasWhy; ///< why cuBLAS is unavailable
  void *BlasHandle = nullptr;

  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  CUmodule Mod = nullptr;
  CUfunction Fn = nullptr;
  CUstream Stream = nullptr;
  std::string GpuName;
  int CcMajor = 0, CcMinor = 0, SmCount = 0, L2Bytes = 0;

  uint64_t Grid = 0;
  DeviceBuffer A, B, C, D, Ref, Flush;
  DeviceBuffer Prod; ///< --check with the cuBLAS reference: A x B in f32
  std::vector<DeviceBuffer> Scratch; ///< per parameter; empty buffers for other kinds
  std::vector<unsigned char> HostA, HostB, HostC;

  struct alignas(64) ParamSlot {
    unsigned char Bytes[128];
  };
  std::vector<ParamSlot> Slots;
  std::vector<void *> ParamPtrs;

  Error alloc(const std::string &What, size_t Bytes, DeviceBuffer &Buf);
  void release(DeviceBuffer &Buf);
  Error checkParamAbi();
  Error buildParams();
  Error encodeTensorMap(const Param &Pa, size_t Index, void *Out);
  CUdeviceptr tensorPtr(Tensor T) const;
  /// Launches the kernel once on Stream (asynchronous).
  Error settle(const std::string &What);
  Error capPersistentClusters();
  Error launch();
  /// Waits for Stream; a failure here is the kernel's fault.
  Error sync(const std::string &What);
  /// Out = alpha * A x B + beta * C with cuBLAS (FP32 accumulation), D's type and layout; with
  /// ProductF32, Out = A x B alone as f32 in D's layout (the --check reference: alpha, beta
  /// and the rounding to D's type are applied on the host, in double).
  Error cublasGemm(CUdeviceptr Out, bool ForTiming, bool ProductF32 = false);
  bool cublasSupports(std::string &Why) const;
  std::string launchDescription() const;
};

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_SESSION_H
