//===- Driver.cpp - The CUDA driver, loaded at run time -------------------===//

#include "Driver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <vector>

using namespace tilegen::run;

namespace {
/// cuGetProcAddress_v2 as in cuda.h (CUDA 12.0+).
using GetProcAddressFn = CUresult (*)(const char *, void **, int, cuuint64_t,
                                      CUdriverProcAddressQueryResult *);
/// The ABI version asked for every entry point: CUDA 12.0.
constexpr int AbiVersion = 12000;
} // namespace

Error Driver::load(const char *Client) {
  // TILEGEN_RUN_LIBCUDA names another driver library (the lit tests' fake).
  std::vector<std::string> Names = {"libcuda.so.1", "libcuda.so"};
  const char *Env = std::getenv("TILEGEN_RUN_LIBCUDA");
  if (Env && *Env)
    Names = {Env};
  std::string DlErr;
  for (const std::string &N : Names) {
    Handle = dlopen(N.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (Handle)
      break;
    const char *E = dlerror();
    if (DlErr.empty() && E)
      DlErr = E;
  }
  if (!Handle)
    return cudaError("no CUDA driver/GPU: cannot load " + Names[0] + " (" + DlErr +
                     "); " + Client +
                     " needs an NVIDIA driver to run kernels");

  auto GetProc = reinterpret_cast<GetProcAddressFn>(
      dlsym(Handle, "cuGetProcAddress_v2"));
  if (!GetProc)
    return cudaError("no CUDA driver/GPU: libcuda.so.1 has no "
                     "cuGetProcAddress_v2; the driver is older than CUDA 12.0, "
                     "which " + std::string(Client) + " needs");

  auto Resolve = [&](const char *Name, void **Slot, bool Required) -> Error {
    CUdriverProcAddressQueryResult Status = CU_GET_PROC_ADDRESS_SUCCESS;
    CUresult R = GetProc(Name, Slot, AbiVersion, CU_GET_PROC_ADDRESS_DEFAULT,
                         &Status);
    if (R == CUDA_SUCCESS && Status == CU_GET_PROC_ADDRESS_SUCCESS && *Slot)
      return Error::success();
    *Slot = nullptr;
    if (!Required)
      return Error::success();
    return cudaError("no CUDA driver/GPU: the CUDA driver has no entry point " +
                     std::string(Name) + " (CUresult " + std::to_string(R) +
                     ", query status " + std::to_string(int(Status)) +
                     "); update the driver");
  };
#define TILEGEN_RESOLVE(Name)                                                  \
  TG_TRY(Resolve(#Name, reinterpret_cast<void **>(&this->Name), true));
  TILEGEN_CUDA_DRIVER_FUNCS(TILEGEN_RESOLVE)
#undef TILEGEN_RESOLVE
#define TILEGEN_RESOLVE_OPT(Name)                                              \
  TG_TRY(Resolve(#Name, reinterpret_cast<void **>(&this->Name), false));
  TILEGEN_CUDA_DRIVER_OPTIONAL_FUNCS(TILEGEN_RESOLVE_OPT)
#undef TILEGEN_RESOLVE_OPT

  CUresult R = cuInit(0);
  if (R != CUDA_SUCCESS)
    return cudaError("no CUDA driver/GPU: " + describe(R, "cuInit"));
  if (cuDriverGetVersion(&Version) != CUDA_SUCCESS)
    Version = 0;
  int Count = 0;
  R = cuDeviceGetCount(&Count);
  if (R != CUDA_SUCCESS)
    return cudaError("no CUDA driver/GPU: " + describe(R, "cuDeviceGetCount"));
  if (Count == 0)
    return cudaError("no CUDA driver/GPU: the driver reports no CUDA devices");
  return Error::success();
}

std::string Driver::describe(CUresult R, const std::string &Call) const {
  const char *Name = nullptr, *Str = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(R, &Name);
  if (cuGetErrorString)
    cuGetErrorString(R, &Str);
  std::string S = Call + " failed: ";
  S += Name ? Name : ("CUresult " + std::to_string(int(R)));
  if (Str)
    S += std::string(" (") + Str + ")";
  return S;
}

Error Driver::check(CUresult R, const std::string &Call,
                    const std::string &What) const {
  if (R == CUDA_SUCCESS)
    return Error::success();
  std::string Msg = describe(R, Call);
  if (!What.empty())
    Msg += " while " + What;
  return cudaError(Msg);
}

