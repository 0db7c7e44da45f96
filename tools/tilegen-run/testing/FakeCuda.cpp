//===- FakeCuda.cpp - A fake CUDA driver for tilegen-run's tests ----------===//
//
// Test-only. Exports cuGetProcAddress_v2 and a host-memory imitation of the
// driver entry points tilegen-run uses, so that its GPU paths (module loading,
// parameters, tensor maps, launch, --check, --bench, faults, hangs) can be
// tested on machines without a GPU: `TILEGEN_RUN_LIBCUDA=<this .so>`.
//
// A "cubin" for it is an ELF file for EM_CUDA (tilegen-run takes nothing else)
// whose bytes from offset 64 are a NUL-terminated text; make-fake-cubin.py
// writes one from the text:
//   TILEGEN-FAKE-CUBIN
//   arch=90                     compute capability it was "built" for
//   kernel=gemm_bf16            entry symbol
//   behavior=correct            correct | wrong-tile | skip-tile | fault | hang
//                               | fault-large | hang-large (only when M >= 1000)
//                               | wrong-scale-block (uses K block 0's scale for all of K)
//   tile=128x128                the tile one CTA computes (tiles grid rule)
//   a=bf16/row b=bf16/row c=bf16/row   (a, b may be e4m3 or e5m2; b may be e2m1)
//   sa=tensor sb=1x128          optional: the scales of fp8 A and B, per tensor
//                               or per OUTERxK block (docs/manifest.md layout);
//                               sb=e8m0: B's E8M0 codes per 1 x 32 (MXFP4, MXFP8);
//                               sa=e8m0: A's (MXFP8); sb=e4m3: B's E4M3 codes per 1 x 16
//                               (NVFP4)
//   params=A,B,C,D,M,N,K,alpha,beta,tmap,tmapb,scale_a,scale_b,scale_b_tensor
//                               (scale_b_tensor: NVFP4's per-tensor f32 of B, one float)
//                               (tmap: A's tensor map; tmapb: B's, whose inner dim and
//                               box an e2m1 B counts in bytes)
// The fake "kernel" computes D = alpha (sa A)(sb B) + beta C in fp32 on the
// host at launch time, one tile per CTA of the grid, and checks its tensor maps.
// A fatbin (tilegen-run's --pad copy kernel, PadCopy.h) loads as a module of
// the copy kernel, which copies on the host at launch time after checking its
// launch and parameter; FAKE_CUDA_PAD_IMAGE=reject refuses it instead
// (CUDA_ERROR_NO_BINARY_FOR_GPU), and FAKE_CUDA_PAD_LOG=<file> appends a line
// per launch ("pad-launch <jobs>") and one per job ("pad-copy <element bytes>
// <lines>x<width>").
// Environment: FAKE_CUDA_DEVICES (default 1), FAKE_CUDA_CC (default 90),
// FAKE_CUDA_MEM_MB (default 1024).
//
//===----------------------------------------------------------------------===//

#include "CudaApi.h"
#include "Numeric.h"
#include "PadCopy.h"

#include <cuda.h>
#include <library_types.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace tilegen::run;

namespace {

struct FakeKernel {
  std::string Name, Behavior = "correct";
  int Arch = 90;
  unsigned TileM = 128, TileN = 128;
  ElemType TA = ElemType::BF16, TB = ElemType::BF16, TC = ElemType::BF16;
  bool RowA = true, RowB = true, RowC = true;
  std::vector<std::string> Params;
  int MaxDynSmem = 0;
  // Scales of fp8 A and B: none, per tensor (BO = 0) or per BO x BK block.
  bool HasSA = false, HasSB = false;
  bool MxB = false; ///< sb=e8m0: B's scales are E8M0 codes per 1 x 32
  bool MxA = false; ///< sa=e8m0: A's scales are E8M0 codes per 1 x 32
  bool NvB = false; ///< sb=e4m3: B's scales are E4M3 codes per 1 x 16
  int64_t SABO = 0, SABK = 0, SBBO = 0, SBBK = 0;
  // The module of the --pad copy kernel, and its function.
  bool PadModule = false;
  FakeKernel *PadFn = nullptr;
  bool IsPadFn = false;
};

bool parseScale(const std::string &V, bool &Has, int64_t &BO, int64_t &BK) {
  Has = true;
  if (V == "tensor") {
    BO = BK = 0;
    return true;
  }
  long long O = 0, Kb = 0;
  if (std::sscanf(V.c_str(), "%lldx%lld", &O, &Kb) != 2 || O < 1 || Kb < 1)
    return false;
  BO = O, BK = Kb;
  return true;
}

/// The scale of element (O, Kk) of an Outer x K operand, stored as
/// docs/manifest.md says: kb * ceil(Outer / BO) + ob.
float fakeScale(const float *S, int64_t BO, int64_t BK, int64_t Outer, int64_t O,
                int64_t Kk, bool KBlockZero) {
  if (!S)
    return 1.0f;
  if (BO == 0)
    return S[0];
  int64_t OB = (Outer + BO - 1) / BO;
  int64_t Kb = KBlockZero ? 0 : Kk / BK;
  return S[Kb * OB + O / BO];
}

struct FakeTensorMap {
  uint64_t Magic;
  uint64_t Addr;
  uint64_t Dims[2];
  uint64_t Stride;
  uint32_t Box[2];
  uint32_t Swizzle;
};
constexpr uint64_t TmapMagic = 0x54474d4150ull;

CUresult Sticky = CUDA_SUCCESS;
bool Hang = false;
std::map<CUmodule, FakeKernel *> Modules;
std::map<CUevent, std::chrono::steady_clock::time_point> EventTimes;
size_t Allocated = 0;
const size_t TotalMem =
    size_t(std::getenv("FAKE_CUDA_MEM_MB") ? std::atoi(std::getenv("FAKE_CUDA_MEM_MB"))
                                           : 1024)
    << 20;
std::map<CUdeviceptr, size_t> Allocs;

int envInt(const char *Name, int Default) {
  const char *V = std::getenv(Name);
  return V ? std::atoi(V) : Default;
}

CUresult fGetErrorName(CUresult R, const char **S) {
  switch (R) {
  case CUDA_SUCCESS:
    *S = "CUDA_SUCCESS";
    break;
  case CUDA_ERROR_INVALID_VALUE:
    *S = "CUDA_ERROR_INVALID_VALUE";
    break;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *S = "CUDA_ERROR_OUT_OF_MEMORY";
    break;
  case CUDA_ERROR_NO_DEVICE:
    *S = "CUDA_ERROR_NO_DEVICE";
    break;
  case CUDA_ERROR_INVALID_IMAGE:
    *S = "CUDA_ERROR_INVALID_IMAGE";
    break;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    *S = "CUDA_ERROR_NO_BINARY_FOR_GPU";
    break;
  case CUDA_ERROR_NOT_FOUND:
    *S = "CUDA_ERROR_NOT_FOUND";
    break;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *S = "CUDA_ERROR_ILLEGAL_ADDRESS";
    break;
  default:
    *S = "CUDA_ERROR_UNKNOWN";
    return CUDA_SUCCESS;
  }
  return CUDA_SUCCESS;
}

CUresult fGetErrorString(CUresult R, const char **S) {
  switch (R) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *S = "an illegal memory access was encountered";
    break;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *S = "out of memory";
    break;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    *S = "no kernel image is available for execution on the device";
    break;
  case CUDA_ERROR_INVALID_VALUE:
    *S = "invalid argument";
    break;
  default:
    *S = "fake error";
  }
  return CUDA_SUCCESS;
}

CUresult fInit(unsigned) {
  return envInt("FAKE_CUDA_DEVICES", 1) ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
}
CUresult fDriverGetVersion(int *V) {
  *V = 12080;
  return CUDA_SUCCESS;
}
CUresult fDeviceGetCount(int *C) {
  *C = envInt("FAKE_CUDA_DEVICES", 1);
  return CUDA_SUCCESS;
}
CUresult fDeviceGet(CUdevice *D, int I) {
  if (I >= envInt("FAKE_CUDA_DEVICES", 1))
    return CUDA_ERROR_INVALID_DEVICE;
  *D = I;
  return CUDA_SUCCESS;
}
CUresult fDeviceGetName(char *Name, int Len, CUdevice) {
  std::snprintf(Name, Len, "Fake GPU (tilegen-run tests)");
  return CUDA_SUCCESS;
}
CUresult fDeviceGetAttribute(int *V, CUdevice_attribute A, CUdevice) {
  int CC = envInt("FAKE_CUDA_CC", 90);
  switch (A) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *V = CC / 10;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *V = CC % 10;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *V = 4;
    break;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
    *V = 1 << 20;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *V = 232448;
    break;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
    *V = 1000000;
    break;
  case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
    *V = 2000000;
    break;
  case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
    *V = 64;
    break;
  default:
    *V = 0;
  }
  return CUDA_SUCCESS;
}
CUresult fDeviceTotalMem(size_t *B, CUdevice) {
  *B = TotalMem;
  return CUDA_SUCCESS;
}
CUresult fPrimaryCtxRetain(CUcontext *C, CUdevice) {
  *C = reinterpret_cast<CUcontext>(0x1000);
  return CUDA_SUCCESS;
}
CUresult fPrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUcontext Current = nullptr; // the calling thread's context, for the launch library
CUresult fCtxSetCurrent(CUcontext C) {
  Current = C;
  return Sticky;
}
CUresult fCtxGetCurrent(CUcontext *C) {
  *C = Current;
  return CUDA_SUCCESS;
}
CUresult fCtxGetDevice(CUdevice *D) {
  if (!Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  *D = 0;
  return CUDA_SUCCESS;
}
CUresult fCtxSynchronize() { return Sticky; }

bool parseOperand(const std::string &V, ElemType &T, bool &Row) {
  size_t Slash = V.find('/');
  if (Slash == std::string::npos || !parseElemType(V.substr(0, Slash), T))
    return false;
  Row = V.substr(Slash + 1) == "row";
  return true;
}

CUresult fModuleLoadData(CUmodule *M, const void *Image) {
  const char *Elf = static_cast<const char *>(Image);
  // A fatbin: nvcc's magic 0xba55ed50, little-endian.
  if (std::memcmp(Elf, "\x50\xed\x55\xba", 4) == 0) {
    const char *Mode = std::getenv("FAKE_CUDA_PAD_IMAGE");
    if (Mode && std::string(Mode) == "reject")
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    auto *K = new FakeKernel;
    K->PadModule = true;
    K->PadFn = new FakeKernel;
    K->PadFn->IsPadFn = true;
    *M = reinterpret_cast<CUmodule>(K);
    Modules[*M] = K;
    return CUDA_SUCCESS;
  }
  if (std::memcmp(Elf, "\x7f" "ELF", 4) != 0)
    return CUDA_ERROR_INVALID_IMAGE;
  const char *Text = Elf + 64;
  if (std::strncmp(Text, "TILEGEN-FAKE-CUBIN", 18) != 0)
    return CUDA_ERROR_INVALID_IMAGE;
  auto *K = new FakeKernel;
  std::istringstream SS(Text);
  std::string Word;
  while (SS >> Word) {
    size_t Eq = Word.find('=');
    if (Eq == std::string::npos)
      continue;
    std::string Key = Word.substr(0, Eq), V = Word.substr(Eq + 1);
    if (Key == "arch")
      K->Arch = std::atoi(V.c_str());
    else if (Key == "kernel")
      K->Name = V;
    else if (Key == "behavior")
      K->Behavior = V;
    else if (Key == "tile")
      std::sscanf(V.c_str(), "%ux%u", &K->TileM, &K->TileN);
    else if (Key == "a")
      parseOperand(V, K->TA, K->RowA);
    else if (Key == "b")
      parseOperand(V, K->TB, K->RowB);
    else if (Key == "c")
      parseOperand(V, K->TC, K->RowC);
    else if (Key == "sa" && V == "e8m0")
      K->HasSA = K->MxA = true;
    else if (Key == "sa")
      parseScale(V, K->HasSA, K->SABO, K->SABK);
    else if (Key == "sb" && V == "e8m0")
      K->HasSB = K->MxB = true;
    else if (Key == "sb" && V == "e4m3")
      K->HasSB = K->NvB = true;
    else if (Key == "sb")
      parseScale(V, K->HasSB, K->SBBO, K->SBBK);
    else if (Key == "params") {
      std::istringstream PS(V);
      std::string P;
      while (std::getline(PS, P, ','))
        K->Params.push_back(P);
    }
  }
  if (K->Arch != envInt("FAKE_CUDA_CC", 90)) {
    delete K;
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  *M = reinterpret_cast<CUmodule>(K);
  Modules[*M] = K;
  return CUDA_SUCCESS;
}
CUresult fModuleUnload(CUmodule M) {
  if (FakeKernel *K = Modules[M])
    delete K->PadFn;
  delete Modules[M];
  Modules.erase(M);
  return CUDA_SUCCESS;
}
CUresult fModuleGetFunction(CUfunction *F, CUmodule M, const char *Name) {
  FakeKernel *K = Modules[M];
  if (K && K->PadModule) {
    if (std::strcmp(Name, TILEGEN_PAD_COPY_KERNEL) != 0)
      return CUDA_ERROR_NOT_FOUND;
    *F = reinterpret_cast<CUfunction>(K->PadFn);
    return CUDA_SUCCESS;
  }
  if (!K || K->Name != Name)
    return CUDA_ERROR_NOT_FOUND;
  *F = reinterpret_cast<CUfunction>(K);
  return CUDA_SUCCESS;
}
CUresult fFuncSetAttribute(CUfunction F, CUfunction_attribute A, int V) {
  if (A == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    if (V > 232448)
      return CUDA_ERROR_INVALID_VALUE;
    reinterpret_cast<FakeKernel *>(F)->MaxDynSmem = V;
  }
  return CUDA_SUCCESS;
}
CUresult fFuncGetAttribute(int *V, CUfunction_attribute A, CUfunction) {
  *V = A == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024
       : A == CU_FUNC_ATTRIBUTE_NUM_REGS            ? 128
                                                    : 0;
  return CUDA_SUCCESS;
}
CUresult fMemGetInfo(size_t *Free, size_t *Total) {
  *Free = TotalMem - Allocated;
  *Total = TotalMem;
  return CUDA_SUCCESS;
}
CUresult fMemAlloc(CUdeviceptr *P, size_t Bytes) {
  if (Sticky)
    return Sticky;
  if (Allocated + Bytes > TotalMem)
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *Mem = std::aligned_alloc(256, (Bytes + 255) / 256 * 256);
  if (!Mem)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *P = reinterpret_cast<CUdeviceptr>(Mem);
  Allocs[*P] = Bytes;
  Allocated += Bytes;
  return CUDA_SUCCESS;
}
CUresult fMemFree(CUdeviceptr P) {
  Allocated -= Allocs[P];
  Allocs.erase(P);
  std::free(reinterpret_cast<void *>(P));
  return CUDA_SUCCESS;
}
CUresult fMemcpyHtoD(CUdeviceptr D, const void *S, size_t N) {
  if (Sticky)
    return Sticky;
  std::memcpy(reinterpret_cast<void *>(D), S, N);
  return CUDA_SUCCESS;
}
CUresult fMemcpyDtoH(void *D, CUdeviceptr S, size_t N) {
  if (Sticky)
    return Sticky;
  std::memcpy(D, reinterpret_cast<const void *>(S), N);
  return CUDA_SUCCESS;
}
CUresult fMemcpyDtoD(CUdeviceptr D, CUdeviceptr S, size_t N) {
  if (Sticky)
    return Sticky;
  std::memcpy(reinterpret_cast<void *>(D), reinterpret_cast<const void *>(S), N);
  return CUDA_SUCCESS;
}
CUresult fMemsetD8(CUdeviceptr D, unsigned char V, size_t N) {
  if (Sticky)
    return Sticky;
  std::memset(reinterpret_cast<void *>(D), V, N);
  return CUDA_SUCCESS;
}
CUresult fMemsetD8Async(CUdeviceptr D, unsigned char V, size_t N, CUstream) {
  return fMemsetD8(D, V, N);
}
CUresult fMemcpy2DAsync(const CUDA_MEMCPY2D *C, CUstream) {
  if (Sticky)
    return Sticky;
  if (!C || C->WidthInBytes > C->srcPitch || C->WidthInBytes > C->dstPitch)
    return CUDA_ERROR_INVALID_VALUE;
  for (size_t Row = 0; Row < C->Height; ++Row)
    std::memcpy(reinterpret_cast<void *>(C->dstDevice + Row * C->dstPitch),
                reinterpret_cast<const void *>(C->srcDevice + Row * C->srcPitch),
                C->WidthInBytes);
  return CUDA_SUCCESS;
}
CUresult fStreamCreate(CUstream *S, unsigned) {
  *S = reinterpret_cast<CUstream>(0x2000);
  return CUDA_SUCCESS;
}
CUresult fStreamDestroy(CUstream) { return CUDA_SUCCESS; }
CUresult fStreamSynchronize(CUstream) {
  while (Hang)
    std::this_thread::sleep_for(std::chrono::seconds(1));
  return Sticky;
}
CUresult fEventCreate(CUevent *E, unsigned) {
  static uintptr_t Next = 0x10000;
  *E = reinterpret_cast<CUevent>(Next += 16);
  return CUDA_SUCCESS;
}
CUresult fEventDestroy(CUevent E) {
  EventTimes.erase(E);
  return CUDA_SUCCESS;
}
CUresult fEventRecord(CUevent E, CUstream) {
  EventTimes[E] = std::chrono::steady_clock::now();
  return Sticky;
}
CUresult fEventSynchronize(CUevent) { return Sticky; }
CUresult fEventElapsedTime(float *Ms, CUevent A, CUevent B) {
  *Ms = std::chrono::duration<float, std::milli>(EventTimes[B] - EventTimes[A])
            .count();
  return Sticky;
}

CUresult fTensorMapEncodeTiled(CUtensorMap *Map, CUtensorMapDataType,
                               cuuint32_t Rank, void *Addr,
                               const cuuint64_t *Dims,
                               const cuuint64_t *Strides, const cuuint32_t *Box,
                               const cuuint32_t *, CUtensorMapInterleave,
                               CUtensorMapSwizzle Swz, CUtensorMapL2promotion,
                               CUtensorMapFloatOOBfill) {
  if (Rank != 2 || reinterpret_cast<uintptr_t>(Map) % 64 != 0 ||
      reinterpret_cast<uintptr_t>(Addr) % 16 != 0 || Strides[0] % 16 != 0 ||
      Box[0] > 256 || Box[1] > 256)
    return CUDA_ERROR_INVALID_VALUE;
  FakeTensorMap T = {TmapMagic, reinterpret_cast<uint64_t>(Addr),
                     {Dims[0], Dims[1]}, Strides[0], {Box[0], Box[1]},
                     static_cast<uint32_t>(Swz)};
  std::memset(Map, 0, sizeof(CUtensorMap));
  std::memcpy(Map, &T, sizeof(T));
  return CUDA_SUCCESS;
}

/// Whether [P, P + Bytes) lies inside one allocation.
bool inAllocation(uint64_t P, uint64_t Bytes) {
  auto It = Allocs.upper_bound(CUdeviceptr(P));
  if (It == Allocs.begin())
    return false;
  --It;
  return P >= It->first && P - It->first <= It->second && Bytes <= It->second - (P - It->first);
}

/// The --pad copy kernel (PadCopy.cu) on the host: the same copies, after checking the launch,
/// each job's fields, and that every line read and written lies in an allocation.
CUresult fakePadCopy(const CUlaunchConfig *Cfg, void **Params, void **Extra) {
  if (Extra || !Params || Cfg->blockDimX != TILEGEN_PAD_COPY_THREADS || Cfg->blockDimY != 1 ||
      Cfg->blockDimZ != 1 || Cfg->gridDimX == 0 || Cfg->gridDimY != 1 || Cfg->gridDimZ != 1 ||
      Cfg->sharedMemBytes != 0)
    return CUDA_ERROR_INVALID_VALUE;
  TilegenPadCopyArgs A;
  std::memcpy(&A, Params[0], sizeof(A));
  if (A.NumJobs < 1 || A.NumJobs > TILEGEN_PAD_COPY_MAX_JOBS)
    return CUDA_ERROR_INVALID_VALUE;
  for (int64_t I = 0; I < A.NumJobs; ++I) {
    const TilegenPadCopyJob &J = A.Jobs[I];
    const int64_t E = J.ElemBytes, LineBytes = J.Width * E;
    const int64_t Chunks = tilegenPadCopyChunks(LineBytes);
    if ((E != 1 && E != 2 && E != 4) || J.Width <= 0 || J.Lines <= 0 || J.SrcPitch % E ||
        J.DstPitch % E || J.Src % E || J.Dst % E || J.SrcPitch < LineBytes ||
        J.DstPitch < LineBytes || J.Chunks != Chunks || J.Items != Chunks * J.Lines ||
        J.SrcEnd != J.Src + uint64_t((J.Lines - 1) * J.SrcPitch + LineBytes))
      return CUDA_ERROR_INVALID_VALUE;
    for (int64_t L = 0; L < J.Lines; ++L) {
      const uint64_t S = J.Src + uint64_t(L) * J.SrcPitch, D = J.Dst + uint64_t(L) * J.DstPitch;
      if (!inAllocation(S, uint64_t(J.Width) * E) || !inAllocation(D, uint64_t(J.Width) * E))
        return CUDA_ERROR_ILLEGAL_ADDRESS;
      std::memcpy(reinterpret_cast<void *>(D), reinterpret_cast<const void *>(S),
                  size_t(J.Width) * E);
    }
  }
  if (const char *Log = std::getenv("FAKE_CUDA_PAD_LOG"))
    if (FILE *F = std::fopen(Log, "a")) {
      std::fprintf(F, "pad-launch %lld\n", static_cast<long long>(A.NumJobs));
      for (int64_t I = 0; I < A.NumJobs; ++I)
        std::fprintf(F, "pad-copy %lld %lldx%lld\n",
                     static_cast<long long>(A.Jobs[I].ElemBytes),
                     static_cast<long long>(A.Jobs[I].Lines),
                     static_cast<long long>(A.Jobs[I].Width));
      std::fclose(F);
    }
  return CUDA_SUCCESS;
}

CUresult fLaunchKernelEx(const CUlaunchConfig *Cfg, CUfunction F,
                         void **Params, void **Extra) {
  if (Sticky)
    return Sticky;
  auto *K = reinterpret_cast<FakeKernel *>(F);
  if (K->IsPadFn)
    return fakePadCopy(Cfg, Params, Extra);
  if (Extra || !Params || Cfg->gridDimY != 1 || Cfg->gridDimZ != 1 ||
      Cfg->sharedMemBytes > static_cast<unsigned>(K->MaxDynSmem) + 48 * 1024)
    return CUDA_ERROR_INVALID_VALUE;
  for (unsigned I = 0; I < Cfg->numAttrs; ++I)
    if (Cfg->attrs[I].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
        Cfg->gridDimX % Cfg->attrs[I].value.clusterDim.x != 0)
      return CUDA_ERROR_INVALID_VALUE;
  // "-large": misbehave only when M >= 1000 (to test that a sweep goes on).
  int32_t ArgM = 0;
  for (size_t I = 0; I < K->Params.size(); ++I)
    if (K->Params[I] == "M")
      std::memcpy(&ArgM, Params[I], 4);
  bool Large = ArgM >= 1000;
  if (K->Behavior == "hang" || (K->Behavior == "hang-large" && Large)) {
    Hang = true;
    return CUDA_SUCCESS;
  }
  if (K->Behavior == "fault" || (K->Behavior == "fault-large" && Large)) {
    Sticky = CUDA_ERROR_ILLEGAL_ADDRESS;
    return CUDA_SUCCESS;
  }
  const void *A = nullptr, *B = nullptr, *C = nullptr;
  const float *SA = nullptr, *SB = nullptr, *SBT = nullptr;
  void *D = nullptr;
  int32_t M = 0, N = 0, Kk = 0;
  float Alpha = 0, Beta = 0;
  std::vector<const FakeTensorMap *> Maps;
  const FakeTensorMap *TmapB = nullptr;
  for (size_t I = 0; I < K->Params.size(); ++I) {
    const std::string &P = K->Params[I];
    void *V = Params[I];
    if (P == "A" || P == "B" || P == "C" || P == "D") {
      void *Ptr;
      std::memcpy(&Ptr, V, 8);
      if (P == "A")
        A = Ptr;
      else if (P == "B")
        B = Ptr;
      else if (P == "C")
        C = Ptr;
      else
        D = Ptr;
    } else if (P == "scale_a" || P == "scale_b") {
      std::memcpy(P == "scale_a" ? &SA : &SB, V, 8);
    } else if (P == "scale_b_tensor") {
      std::memcpy(&SBT, V, 8);
      if (!SBT)
        return CUDA_ERROR_INVALID_VALUE;
    } else if (P == "M" || P == "N" || P == "K") {
      std::memcpy(P == "M" ? &M : P == "N" ? &N : &Kk, V, 4);
    } else if (P == "alpha" || P == "beta") {
      std::memcpy(P == "alpha" ? &Alpha : &Beta, V, 4);
    } else if (P == "tmap") {
      if (reinterpret_cast<uintptr_t>(V) % 64 != 0)
        return CUDA_ERROR_INVALID_VALUE;
      const auto *T = static_cast<const FakeTensorMap *>(V);
      if (T->Magic != TmapMagic || T->Addr != reinterpret_cast<uint64_t>(A))
        return CUDA_ERROR_INVALID_VALUE;
    } else if (P == "tmapb") {
      TmapB = static_cast<const FakeTensorMap *>(V);
    }
  }
  // B's tensor map (after the loop: B and K are known by now). Packed e2m1 B (col: K
  // contiguous) is mapped as bytes, K / 2 of them per row.
  if (TmapB) {
    uint64_t Inner = K->TB == ElemType::E2M1 ? uint64_t(Kk) / 2 : uint64_t(Kk);
    if (reinterpret_cast<uintptr_t>(TmapB) % 64 != 0 || TmapB->Magic != TmapMagic ||
        TmapB->Addr != reinterpret_cast<uint64_t>(B) ||
        (!K->RowB && (TmapB->Dims[0] != Inner ||
                      TmapB->Stride != Inner * (K->TB == ElemType::E2M1 ? 1 : elemBytes(K->TB)))))
      return CUDA_ERROR_INVALID_VALUE;
  }
  if (!A || !B || !C || !D || M <= 0 || N <= 0 || Kk <= 0 ||
      K->HasSA != (SA != nullptr) || K->HasSB != (SB != nullptr))
    return CUDA_ERROR_INVALID_VALUE;
  const bool KBlockZero = K->Behavior == "wrong-scale-block";
  unsigned TilesN = (N + K->TileN - 1) / K->TileN;
  unsigned Tiles = (M + K->TileM - 1) / K->TileM * TilesN;
  for (unsigned T = 0; T < Cfg->gridDimX && T < Tiles; ++T) {
    if (K->Behavior == "skip-tile" && T == Tiles - 1)
      continue;
    unsigned Tm = T / TilesN, Tn = T % TilesN;
    for (int I = Tm * K->TileM; I < std::min<int>(M, (Tm + 1) * K->TileM); ++I)
      for (int J = Tn * K->TileN; J < std::min<int>(N, (Tn + 1) * K->TileN);
           ++J) {
        float Acc = 0;
        for (int L = 0; L < Kk; ++L) {
          size_t IA = K->RowA ? size_t(I) * Kk + L : size_t(I) + size_t(L) * M;
          size_t IB = K->RowB ? size_t(L) * N + J : size_t(L) + size_t(J) * Kk;
          const auto *CodesA = reinterpret_cast<const uint8_t *>(SA);
          const auto *CodesB = reinterpret_cast<const uint8_t *>(SB);
          float Sa = K->MxA ? std::ldexp(1.0f, int(CodesA[size_t(KBlockZero ? 0 : L / 32) * M +
                                                          I]) -
                                                    127)
                            : fakeScale(SA, K->SABO, K->SABK, M, I, L, KBlockZero);
          float Sb = K->MxB ? std::ldexp(1.0f, int(CodesB[size_t(KBlockZero ? 0 : L / 32) * N +
                                                          J]) -
                                                    127)
                     : K->NvB ? float(tilegen::mx::decode(
                                    CodesB[size_t(KBlockZero ? 0 : L / 16) * N + J],
                                    tilegen::mx::Format::E4M3))
                              : fakeScale(SB, K->SBBO, K->SBBK, N, J, L, KBlockZero);
          if (SBT)
            Sb *= *SBT;
          Acc += (Sa * float(loadElem(A, IA, K->TA))) *
                 (Sb * float(loadElem(B, IB, K->TB)));
        }
        size_t IC = K->RowC ? size_t(I) * N + J : size_t(I) + size_t(J) * M;
        float R = Alpha * Acc + Beta * float(loadElem(C, IC, K->TC));
        if (K->Behavior == "wrong-tile" && T == Tiles / 2)
          R = R * 1.5f + 1.0f;
        storeElem(D, IC, K->TC, R);
      }
  }
  return CUDA_SUCCESS;
}

struct Entry {
  const char *Name;
  void *Fn;
};

#define E(Name, Fn) {Name, reinterpret_cast<void *>(&Fn)}
const Entry Table[] = {
    E("cuGetErrorName", fGetErrorName),
    E("cuGetErrorString", fGetErrorString),
    E("cuInit", fInit),
    E("cuDriverGetVersion", fDriverGetVersion),
    E("cuDeviceGetCount", fDeviceGetCount),
    E("cuDeviceGet", fDeviceGet),
    E("cuDeviceGetName", fDeviceGetName),
    E("cuDeviceGetAttribute", fDeviceGetAttribute),
    E("cuDeviceTotalMem", fDeviceTotalMem),
    E("cuDevicePrimaryCtxRetain", fPrimaryCtxRetain),
    E("cuDevicePrimaryCtxRelease", fPrimaryCtxRelease),
    E("cuCtxSetCurrent", fCtxSetCurrent),
    E("cuCtxGetCurrent", fCtxGetCurrent),
    E("cuCtxGetDevice", fCtxGetDevice),
    E("cuCtxSynchronize", fCtxSynchronize),
    E("cuModuleLoadData", fModuleLoadData),
    E("cuModuleUnload", fModuleUnload),
    E("cuModuleGetFunction", fModuleGetFunction),
    E("cuFuncSetAttribute", fFuncSetAttribute),
    E("cuFuncGetAttribute", fFuncGetAttribute),
    E("cuMemGetInfo", fMemGetInfo),
    E("cuMemAlloc", fMemAlloc),
    E("cuMemFree", fMemFree),
    E("cuMemcpyHtoD", fMemcpyHtoD),
    E("cuMemcpyDtoH", fMemcpyDtoH),
    E("cuMemcpyDtoD", fMemcpyDtoD),
    E("cuMemsetD8", fMemsetD8),
    E("cuMemsetD8Async", fMemsetD8Async),
    E("cuMemcpy2DAsync", fMemcpy2DAsync),
    E("cuStreamCreate", fStreamCreate),
    E("cuStreamDestroy", fStreamDestroy),
    E("cuStreamSynchronize", fStreamSynchronize),
    E("cuEventCreate", fEventCreate),
    E("cuEventDestroy", fEventDestroy),
    E("cuEventRecord", fEventRecord),
    E("cuEventSynchronize", fEventSynchronize),
    E("cuEventElapsedTime", fEventElapsedTime),
    E("cuLaunchKernelEx", fLaunchKernelEx),
    E("cuTensorMapEncodeTiled", fTensorMapEncodeTiled),
};
#undef E

// Compile-time checks that the fakes have the driver's signatures (as the
// runner sees them through cuda.h).
static_assert(std::is_same<decltype(&fMemAlloc), decltype(&::cuMemAlloc)>::value, "");
static_assert(std::is_same<decltype(&fLaunchKernelEx), decltype(&::cuLaunchKernelEx)>::value, "");
static_assert(std::is_same<decltype(&fTensorMapEncodeTiled), decltype(&::cuTensorMapEncodeTiled)>::value, "");
static_assert(std::is_same<decltype(&fEventElapsedTime), decltype(&::cuEventElapsedTime)>::value, "");

} // namespace

extern "C" __attribute__((visibility("default"))) CUresult
cuGetProcAddress_v2(const char *Symbol, void **Fn, int, cuuint64_t,
                    CUdriverProcAddressQueryResult *Status) {
  for (const Entry &En : Table) {
    if (std::strcmp(En.Name, Symbol) == 0) {
      *Fn = En.Fn;
      if (Status)
        *Status = CU_GET_PROC_ADDRESS_SUCCESS;
      return CUDA_SUCCESS;
    }
  }
  *Fn = nullptr;
  if (Status)
    *Status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}

//===----------------------------------------------------------------------===//
// A fake cuBLAS (TILEGEN_RUN_LIBCUBLAS=<this .so>): cublasGemmEx as the BLAS
// reference defines it (column-major, op(X) = X or X^T), computed on the host
// in fp32, so that the runner's row-major/transpose mapping is tested.
//===----------------------------------------------------------------------===//

namespace {
bool fromCudaType(int T, ElemType &E) {
  if (T == CUDA_R_16BF)
    E = ElemType::BF16;
  else if (T == CUDA_R_16F)
    E = ElemType::F16;
  else if (T == CUDA_R_32F)
    E = ElemType::F32;
  else
    return false;
  return true;
}
} // namespace

extern "C" {
__attribute__((visibility("default"))) int cublasCreate_v2(void **H) {
  *H = reinterpret_cast<void *>(0x3000);
  return 0;
}
__attribute__((visibility("default"))) int cublasDestroy_v2(void *) { return 0; }
__attribute__((visibility("default"))) int cublasSetStream_v2(void *, CUstream) {
  return 0;
}
__attribute__((visibility("default"))) int cublasSetMathMode(void *, int) {
  return 0;
}
__attribute__((visibility("default"))) int cublasGetVersion_v2(void *, int *V) {
  *V = 130000;
  return 0;
}
__attribute__((visibility("default"))) const char *cublasGetStatusString(int S) {
  return S ? "CUBLAS_STATUS_NOT_SUPPORTED" : "CUBLAS_STATUS_SUCCESS";
}
__attribute__((visibility("default"))) int
cublasGemmEx(void *, int TransA, int TransB, int M, int N, int K,
             const void *Alpha, const void *A, cudaDataType AType, int Lda,
             const void *B, cudaDataType BType, int Ldb, const void *Beta, void *C,
             cudaDataType CType, int Ldc, int Compute, int) {
  ElemType TA, TB, TC;
  if (!fromCudaType(AType, TA) || !fromCudaType(BType, TB) ||
      !fromCudaType(CType, TC) || (Compute != 68 && Compute != 77))
    return 15; // CUBLAS_STATUS_NOT_SUPPORTED
  if (Lda < (TransA ? K : M) || Ldb < (TransB ? N : K) || Ldc < M)
    return 7; // CUBLAS_STATUS_INVALID_VALUE
  float Al = *static_cast<const float *>(Alpha);
  float Be = *static_cast<const float *>(Beta);
  for (int J = 0; J < N; ++J)
    for (int I = 0; I < M; ++I) {
      float Acc = 0;
      for (int L = 0; L < K; ++L) {
        size_t IA = TransA ? size_t(L) + size_t(I) * Lda
                           : size_t(I) + size_t(L) * Lda;
        size_t IB = TransB ? size_t(J) + size_t(L) * Ldb
                           : size_t(L) + size_t(J) * Ldb;
        Acc += float(loadElem(A, IA, TA)) * float(loadElem(B, IB, TB));
      }
      size_t IC = size_t(I) + size_t(J) * Ldc;
      float Old = Be == 0 ? 0 : float(loadElem(C, IC, TC));
      storeElem(C, IC, TC, Al * Acc + Be * Old);
    }
  return 0;
}
}

//===----------------------------------------------------------------------===//
// A fake cuBLASLt (TILEGEN_RUN_LIBCUBLASLT=<this .so>): cublasLtMatmul for fp8
// as cublasLt.h defines it (column-major; fp8 only in the "TN" form; scale
// modes SCALAR_32F, VEC128_32F, BLK128x128_32F in the layouts CublasLtGemm.cpp
// assumes), computed on the host in fp32, so that the runner's operand,
// transpose and scale-layout mapping is tested. FAKE_CUBLASLT_NO_ALGO=1 makes
// the heuristic find nothing.
//===----------------------------------------------------------------------===//

namespace {
struct FakeLtDesc {
  int Compute = 0, Scale = 0;
  int32_t Trans[2] = {0, 0}, Mode[2] = {0, 0};
  const float *ScalePtr[2] = {nullptr, nullptr};
  int8_t FastAccum = 0;
};
struct FakeLtLayout {
  int Type = 0;
  uint64_t Rows = 0, Cols = 0;
  int64_t Ld = 0;
};
constexpr uint64_t LtAlgoMagic = 0x4c54414c474full;
constexpr int LtNotSupported = 15, LtInvalid = 7;

bool fromLtType(int T, ElemType &E) {
  if (T == CUDA_R_8F_E4M3)
    E = ElemType::E4M3;
  else if (T == CUDA_R_8F_E5M2)
    E = ElemType::E5M2;
  else
    return fromCudaType(T, E);
  return true;
}

/// Scale of element (k, o) of an operand stored K x Outer (K innermost).
float ltScale(const FakeLtDesc &Dc, int Which, int64_t Outer, int64_t K, int64_t O,
              int64_t Kk) {
  const float *S = Dc.ScalePtr[Which];
  if (!S)
    return 1.0f;
  switch (Dc.Mode[Which]) {
  case 4: // VEC128_32F: kb * Outer + o
    return S[(Kk / 128) * Outer + O];
  case 5: { // BLK128x128_32F: ob * roundup(ceil(K/128), 4) + kb
    int64_t KB4 = ((K + 127) / 128 + 3) / 4 * 4;
    return S[(O / 128) * KB4 + Kk / 128];
  }
  default:
    return S[0];
  }
}
} // namespace

extern "C" {
__attribute__((visibility("default"))) int cublasLtCreate(void **H) {
  *H = reinterpret_cast<void *>(0x4000);
  return 0;
}
__attribute__((visibility("default"))) int cublasLtDestroy(void *) { return 0; }
__attribute__((visibility("default"))) size_t cublasLtGetVersion() { return 130100; }
__attribute__((visibility("default"))) const char *cublasLtGetStatusName(int S) {
  return S == 0 ? "CUBLAS_STATUS_SUCCESS"
         : S == LtNotSupported ? "CUBLAS_STATUS_NOT_SUPPORTED"
                               : "CUBLAS_STATUS_INVALID_VALUE";
}
__attribute__((visibility("default"))) const char *cublasLtGetStatusString(int S) {
  return S == 0 ? "success"
         : S == LtNotSupported ? "the functionality requested is not supported"
                               : "an invalid value was used as an argument";
}
__attribute__((visibility("default"))) int cublasLtMatmulDescCreate(void **D, int Compute,
                                                                    cudaDataType Scale) {
  auto *Dc = new FakeLtDesc;
  Dc->Compute = Compute;
  Dc->Scale = Scale;
  *D = Dc;
  return 0;
}
__attribute__((visibility("default"))) int cublasLtMatmulDescDestroy(void *D) {
  delete static_cast<FakeLtDesc *>(D);
  return 0;
}
__attribute__((visibility("default"))) int
cublasLtMatmulDescSetAttribute(void *D, int Attr, const void *Buf, size_t Size) {
  auto *Dc = static_cast<FakeLtDesc *>(D);
  int32_t *Int = Attr == 3 ? &Dc->Trans[0] : Attr == 4 ? &Dc->Trans[1]
                 : Attr == 31 ? &Dc->Mode[0] : Attr == 32 ? &Dc->Mode[1] : nullptr;
  if (Int) {
    if (Size != 4)
      return LtInvalid;
    std::memcpy(Int, Buf, 4);
    return 0;
  }
  if (Attr == 25) { // FAST_ACCUM: int8_t, 0 or 1
    if (Size != 1)
      return LtInvalid;
    std::memcpy(&Dc->FastAccum, Buf, 1);
    return Dc->FastAccum == 0 || Dc->FastAccum == 1 ? 0 : LtInvalid;
  }
  if (Attr == 17 || Attr == 18) {
    if (Size != 8)
      return LtInvalid;
    std::memcpy(&Dc->ScalePtr[Attr - 17], Buf, 8);
    return 0;
  }
  return LtInvalid;
}
__attribute__((visibility("default"))) int
cublasLtMatrixLayoutCreate(void **L, cudaDataType Type, uint64_t Rows, uint64_t Cols,
                           int64_t Ld) {
  if (Ld < int64_t(Rows))
    return LtInvalid;
  *L = new FakeLtLayout{Type, Rows, Cols, Ld};
  return 0;
}
__attribute__((visibility("default"))) int cublasLtMatrixLayoutDestroy(void *L) {
  delete static_cast<FakeLtLayout *>(L);
  return 0;
}
__attribute__((visibility("default"))) int cublasLtMatmulPreferenceCreate(void **P) {
  *P = new uint64_t(0);
  return 0;
}
__attribute__((visibility("default"))) int cublasLtMatmulPreferenceDestroy(void *P) {
  delete static_cast<uint64_t *>(P);
  return 0;
}
__attribute__((visibility("default"))) int
cublasLtMatmulPreferenceSetAttribute(void *P, int Attr, const void *Buf, size_t Size) {
  if (Attr != 1 || Size != 8)
    return LtInvalid;
  std::memcpy(P, Buf, 8);
  return 0;
}

/// What the fake's heuristic accepts: fp8 A and B (not both e5m2) in the TN
/// form, f32 compute and scale type, C and D alike, consistent shapes.
static int fakeLtValidate(const FakeLtDesc &Dc, const FakeLtLayout &A,
                          const FakeLtLayout &B, const FakeLtLayout &C,
                          const FakeLtLayout &D) {
  ElemType TA, TB, TD;
  if (!fromLtType(A.Type, TA) || !fromLtType(B.Type, TB) || !fromLtType(D.Type, TD) ||
      !isFp8(TA) || !isFp8(TB) || (TA == ElemType::E5M2 && TB == ElemType::E5M2) ||
      isFp8(TD) || Dc.Compute != 68 || Dc.Scale != CUDA_R_32F)
    return LtNotSupported;
  if (Dc.Trans[0] != 1 || Dc.Trans[1] != 0) // fp8: "TN" only
    return LtNotSupported;
  if (C.Type != D.Type || C.Rows != D.Rows || C.Cols != D.Cols || C.Ld != D.Ld ||
      A.Rows != B.Rows || A.Cols != D.Rows || B.Cols != D.Cols)
    return LtInvalid;
  for (int W = 0; W < 2; ++W)
    if ((Dc.Mode[W] != 0 && Dc.Mode[W] != 4 && Dc.Mode[W] != 5) ||
        (Dc.Mode[W] != 0 && !Dc.ScalePtr[W]))
      return LtInvalid;
  return 0;
}

__attribute__((visibility("default"))) int
cublasLtMatmulAlgoGetHeuristic(void *, void *Op, void *A, void *B, void *C, void *D,
                               void *Pref, int Requested,
                               tilegen::run::CublasLt::HeuristicResult *ResultsOut, int *Count) {
  void *Results = ResultsOut;
  *Count = 0;
  if (Requested < 1 || *static_cast<uint64_t *>(Pref) == 0)
    return LtInvalid;
  if (std::getenv("FAKE_CUBLASLT_NO_ALGO"))
    return LtNotSupported;
  int S = fakeLtValidate(*static_cast<FakeLtDesc *>(Op), *static_cast<FakeLtLayout *>(A),
                         *static_cast<FakeLtLayout *>(B), *static_cast<FakeLtLayout *>(C),
                         *static_cast<FakeLtLayout *>(D));
  if (S)
    return S;
  // cublasLtMatmulHeuristicResult_t: algo (64 bytes), workspaceSize, state, ...
  unsigned char *R = static_cast<unsigned char *>(Results);
  std::memset(R, 0, 96);
  std::memcpy(R, &LtAlgoMagic, 8);
  *Count = 1;
  return 0;
}

__attribute__((visibility("default"))) int
cublasLtMatmul(void *, void *Op, const void *Alpha, const void *A, void *Adesc,
               const void *B, void *Bdesc, const void *Beta, const void *C, void *Cdesc,
               void *D, void *Ddesc, const tilegen::run::CublasLt::Algo *Algo, void *, size_t,
               CUstream) {
  const FakeLtDesc &Dc = *static_cast<FakeLtDesc *>(Op);
  const FakeLtLayout &LA = *static_cast<FakeLtLayout *>(Adesc),
                     &LB = *static_cast<FakeLtLayout *>(Bdesc),
                     &LC = *static_cast<FakeLtLayout *>(Cdesc),
                     &LD = *static_cast<FakeLtLayout *>(Ddesc);
  // What each call was asked for, for tests of the baseline's settings.
  if (std::getenv("FAKE_CUBLASLT_LOG"))
    std::fprintf(stderr, "fake cublasLtMatmul: fast_accum %d, D type %d\n", Dc.FastAccum,
                 LD.Type);
  uint64_t Magic;
  std::memcpy(&Magic, Algo, 8);
  if (Magic != LtAlgoMagic)
    return LtInvalid;
  if (int S = fakeLtValidate(Dc, LA, LB, LC, LD))
    return S;
  ElemType TA = ElemType::E4M3, TB = ElemType::E4M3, TD = ElemType::F32;
  fromLtType(LA.Type, TA);
  fromLtType(LB.Type, TB);
  fromLtType(LD.Type, TD);
  const int64_t M = int64_t(LD.Rows), N = int64_t(LD.Cols), K = int64_t(LA.Rows);
  float Al = *static_cast<const float *>(Alpha), Be = *static_cast<const float *>(Beta);
  for (int64_t J = 0; J < N; ++J)
    for (int64_t I = 0; I < M; ++I) {
      float Acc = 0;
      for (int64_t L = 0; L < K; ++L) {
        // op(A) = A^T: A is stored K x M; B is stored K x N.
        float Av = float(loadElem(A, size_t(L) + size_t(I) * LA.Ld, TA)) *
                   ltScale(Dc, 0, M, K, I, L);
        float Bv = float(loadElem(B, size_t(L) + size_t(J) * LB.Ld, TB)) *
                   ltScale(Dc, 1, N, K, J, L);
        Acc += Av * Bv;
      }
      size_t IC = size_t(I) + size_t(J) * LD.Ld;
      float Old = Be == 0 ? 0 : float(loadElem(C, IC, TD));
      storeElem(D, IC, TD, Al * Acc + Be * Old);
    }
  return 0;
}
}

// The fakes have exactly the types the runner calls them through (a call through a pointer of
// another type is undefined behaviour, which the sanitizer build reports).
static_assert(std::is_same<decltype(&cublasGemmEx), tilegen::run::Cublas::GemmExFn>::value, "");
static_assert(std::is_same<decltype(&cublasLtMatmulDescCreate),
                           tilegen::run::CublasLt::DescCreateFn>::value, "");
static_assert(std::is_same<decltype(&cublasLtMatrixLayoutCreate),
                           tilegen::run::CublasLt::LayoutCreateFn>::value, "");
static_assert(std::is_same<decltype(&cublasLtMatmulAlgoGetHeuristic),
                           tilegen::run::CublasLt::HeuristicFn>::value, "");
static_assert(std::is_same<decltype(&cublasLtMatmul), tilegen::run::CublasLt::MatmulFn>::value,
              "");
