//===- Driver.h - The CUDA driver, loaded at run time -----------*- C++ -*-===//
//
// Neither the launch library nor tilegen-run links libcuda: they dlopen it, so
// that they build and start on machines without a GPU and say so there. Entry
// points come from cuGetProcAddress_v2 with the ABI of CUDA 12.0, so they work
// with any driver from 12.0 on, whatever toolkit headers they were built
// against. TILEGEN_RUN_LIBCUDA names another library to load (the tests' fake
// driver, tools/tilegen-run/testing/FakeCuda.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_LAUNCH_DRIVER_H
#define TILEGEN_LAUNCH_DRIVER_H

#include "Error.h"

#include <cuda.h>

#include <string>

namespace tilegen {
namespace run {

// X(name): every driver entry point the launch library and tilegen-run call, by its unversioned name;
// the function type comes from cuda.h (whose macros name the versioned symbols
// whose ABI cuGetProcAddress returns for CUDA 12.0).
#define TILEGEN_CUDA_DRIVER_FUNCS(X)                                           \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxGetDevice)                                                            \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadData)                                                          \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncSetAttribute)                                                        \
  X(cuFuncGetAttribute)                                                        \
  X(cuMemGetInfo)                                                              \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyDtoD)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD8Async)                                                           \
  X(cuMemcpy2DAsync)                                                           \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuLaunchKernelEx)                                                          \
  X(cuTensorMapEncodeTiled)

/// Optional entry points (newer drivers); null when absent.
#define TILEGEN_CUDA_DRIVER_OPTIONAL_FUNCS(X)                                  \
  X(cuFuncGetParamInfo)                                                        \
  X(cuOccupancyMaxActiveClusters)

/// The driver API, resolved at run time.
struct Driver {
#define TILEGEN_DECLARE(Name) decltype(&::Name) Name = nullptr;
  TILEGEN_CUDA_DRIVER_FUNCS(TILEGEN_DECLARE)
  TILEGEN_CUDA_DRIVER_OPTIONAL_FUNCS(TILEGEN_DECLARE)
#undef TILEGEN_DECLARE
  int Version = 0; ///< cuDriverGetVersion, e.g. 12080
  void *Handle = nullptr;

  /// dlopens libcuda.so.1, resolves every entry point and runs cuInit(0). On
  /// failure the message starts with "no CUDA driver/GPU: "; Client names the
  /// program or library that needs the driver.
  Error load(const char *Client = "tilegen-run");

  /// "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
  std::string describe(CUresult R, const std::string &Call) const;
  /// Success, or an ExitCuda error naming the call (and What, if not empty).
  Error check(CUresult R, const std::string &Call,
              const std::string &What = "") const;
};

} // namespace run
} // namespace tilegen

#endif // TILEGEN_LAUNCH_DRIVER_H
