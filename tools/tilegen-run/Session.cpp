//===- Session.cpp - Device setup, buffers, tensor maps, launch -----------===//

#include "Session.h"
#include "Child.h"
#include "Cubin.h"
#include "FileIO.h"

#include <cstdio>
#include <cstring>
#include <unistd.h>

using namespace tilegen::run;

static std::string bytesText(uint64_t Bytes) {
  char Buf[64];
  if (Bytes >= (1ull << 30))
    std::snprintf(Buf, sizeof(Buf), "%.2f GiB", Bytes / double(1ull << 30));
  else if (Bytes >= (1ull << 20))
    std::snprintf(Buf, sizeof(Buf), "%.1f MiB", Bytes / double(1ull << 20));
  else
    std::snprintf(Buf, sizeof(Buf), "%llu bytes",
                  static_cast<unsigned long long>(Bytes));
  return Buf;
}

GpuSession::~GpuSession() {
  // Best effort: after a kernel fault these fail, and the process is about to
  // exit anyway.
  if (Ctx) {
    for (DeviceBuffer *Buf : {&A, &B, &C, &D, &Ref, &Flush, &Prod, &ScaleA, &ScaleB,
                              &LtScaleA, &LtScaleB, &LtWorkspace})
      release(*Buf);
    for (DeviceBuffer &Buf : Scratch)
      release(Buf);
    if (BlasHandle && Blas.Destroy)
      Blas.Destroy(BlasHandle);
    destroyLtPlan(LtProduct);
    destroyLtPlan(LtFull);
    if (LtHandle && Lt.Destroy)
      Lt.Destroy(LtHandle);
    if (Stream)
      Cu.cuStreamDestroy(Stream);
    if (Mod)
      Cu.cuModuleUnload(Mod);
    Cu.cuDevicePrimaryCtxRelease(Dev);
  }
}

void GpuSession::release(DeviceBuffer &Buf) {
  if (Buf.Ptr)
    Cu.cuMemFree(Buf.Ptr);
  Buf = DeviceBuffer();
}

Error GpuSession::alloc(const std::string &What, size_t Bytes,
                        DeviceBuffer &Buf) {
  CUresult R = Cu.cuMemAlloc(&Buf.Ptr, Bytes);
  if (R == CUDA_SUCCESS) {
    Buf.Bytes = Bytes;
    return Error::success();
  }
  Buf.Ptr = 0;
  std::string Msg = Cu.describe(R, "cuMemAlloc") + " for " + What + " (" +
                    std::to_string(Bytes) + " bytes, " + bytesText(Bytes) + ")";
  if (R == CUDA_ERROR_OUT_OF_MEMORY) {
    size_t Free = 0, Total = 0;
    if (Cu.cuMemGetInfo(&Free, &Total) == CUDA_SUCCESS)
      Msg += "; the GPU has " + bytesText(Free) + " free of " +
             bytesText(Total);
    Msg = "out of memory: " + Msg;
  }
  return cudaError(Msg);
}

Error GpuSession::open(DeviceRow &DevRow) {
  reportPhase("loading the CUDA driver", false);
  TG_TRY(Cu.load());

  int Count = 0;
  TG_TRY(Cu.check(Cu.cuDeviceGetCount(&Count), "cuDeviceGetCount"));
  if (Opts.Device >= Count)
    return cudaError("no CUDA driver/GPU: --device " +
                     std::to_string(Opts.Device) +
                     " does not exist (the driver reports " +
                     std::to_string(Count) + " device" +
                     (Count == 1 ? "" : "s") + ")");
  TG_TRY(Cu.check(Cu.cuDeviceGet(&Dev, Opts.Device), "cuDeviceGet"));
  char Name[256] = {0};
  TG_TRY(Cu.check(Cu.cuDeviceGetName(Name, sizeof(Name) - 1, Dev),
                  "cuDeviceGetName"));
  GpuName = Name;

  auto attr = [&](CUdevice_attribute A, const char *AName, int &Out) {
    return Cu.check(Cu.cuDeviceGetAttribute(&Out, A, Dev),
                    std::string("cuDeviceGetAttribute(") + AName + ")");
  };
  int ClockKHz = 0, MemClockKHz = 0, SmemOptin = 0, BusWidth = 0;
  TG_TRY(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
              "COMPUTE_CAPABILITY_MAJOR", CcMajor));
  TG_TRY(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
              "COMPUTE_CAPABILITY_MINOR", CcMinor));
  TG_TRY(attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "MULTIPROCESSOR_COUNT",
              SmCount));
  TG_TRY(attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2_CACHE_SIZE", L2Bytes));
  TG_TRY(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
              "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", SmemOptin));
  // Clock attributes are informational (some drivers report 0 for them).
  if (Cu.cuDeviceGetAttribute(&ClockKHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
                              Dev) != CUDA_SUCCESS)
    ClockKHz = 0;
  if (Cu.cuDeviceGetAttribute(&MemClockKHz,
                              CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                              Dev) != CUDA_SUCCESS)
    MemClockKHz = 0;
  if (Cu.cuDeviceGetAttribute(&BusWidth,
                              CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                              Dev) != CUDA_SUCCESS)
    BusWidth = 0;
  size_t TotalMem = 0;
  TG_TRY(Cu.check(Cu.cuDeviceTotalMem(&TotalMem, Dev), "cuDeviceTotalMem"));

  std::string DevArch =
      "sm_" + std::to_string(CcMajor) + std::to_string(CcMinor);
  DevRow["gpu"] = GpuName;
  DevRow["device"] = std::to_string(Opts.Device);
  DevRow["arch"] = DevArch;
  DevRow["sms"] = std::to_string(SmCount);
  DevRow["clock_mhz"] = std::to_string(ClockKHz / 1000);
  DevRow["mem_clock_mhz"] = std::to_string(MemClockKHz / 1000);
  DevRow["mem_bus_bits"] = std::to_string(BusWidth);
  DevRow["l2_bytes"] = std::to_string(L2Bytes);
  DevRow["memory_bytes"] = std::to_string(TotalMem);
  DevRow["smem_optin_bytes"] = std::to_string(SmemOptin);
  DevRow["driver"] = std::to_string(Cu.Version / 1000) + "." +
                     std::to_string((Cu.Version % 1000) / 10);

  if (!Man.Target.runsOn(CcMajor, CcMinor))
    return cudaError("cubin " + Man.CubinPath + " was built for " +
                     Man.Target.Name + " (manifest field 'target'), but GPU " +
                     std::to_string(Opts.Device) + " (" + GpuName + ") is " +
                     DevArch + " (compute capability " +
                     std::to_string(CcMajor) + "." + std::to_string(CcMinor) +
                     "); rebuild it with tilegen --target=" + DevArch +
                     (CcMajor >= 9 ? " or --target=" + DevArch + "a" : ""));
  uint64_t Threads = uint64_t(Man.Block[0]) * Man.Block[1] * Man.Block[2];
  if (Man.DynamicSmem > static_cast<uint64_t>(SmemOptin))
    return cudaError("manifest field 'dynamic_smem' asks for " +
                     std::to_string(Man.DynamicSmem) + " bytes, but " +
                     GpuName + " allows at most " + std::to_string(SmemOptin) +
                     " bytes of shared memory per block");

  TG_TRY(Cu.check(Cu.cuDevicePrimaryCtxRetain(&Ctx, Dev),
                  "cuDevicePrimaryCtxRetain"));
  TG_TRY(Cu.check(Cu.cuCtxSetCurrent(Ctx), "cuCtxSetCurrent"));
  TG_TRY(Cu.check(Cu.cuStreamCreate(&Stream, CU_STREAM_NON_BLOCKING),
                  "cuStreamCreate"));

  // cuBLASLt: for fp8 operands, the reference for large sizes and the baseline for --bench.
  if ((Opts.Check || Opts.Bench) && Man.fp8()) {
    reportPhase("loading cuBLASLt", false);
    if (Lt.load(LtWhy)) {
      if (int S = Lt.Create(&LtHandle)) {
        LtWhy = Lt.describe(S, "cublasLtCreate");
        LtHandle = nullptr;
      } else {
        HaveLt = true;
      }
    }
    if (HaveLt) {
      size_t V = Lt.GetVersion();
      DevRow["cublaslt"] = std::to_string(V / 10000) + "." +
                           std::to_string((V / 100) % 100) + "." +
                           std::to_string(V % 100) + " (" + Lt.LibName + ")";
    } else {
      DevRow["cublaslt"] = "unavailable: " + LtWhy;
    }
  }

  // cuBLAS: the reference for large sizes and the baseline for --bench.
  if ((Opts.Check || Opts.Bench) && !Man.fp8()) {
    reportPhase("loading cuBLAS", false);
    if (!Blas.load(BlasWhy)) {
      HaveBlas = false;
    } else if (int S = Blas.Create(&BlasHandle)) {
      BlasWhy = "cublasCreate failed: " + Blas.describe(S);
      BlasHandle = nullptr;
    } else if (int S2 = Blas.SetStream(BlasHandle, Stream)) {
      BlasWhy = "cublasSetStream failed: " + Blas.describe(S2);
    } else {
      HaveBlas = true;
      Blas.GetVersion(BlasHandle, &Blas.LibVersion);
    }
    if (HaveBlas) {
      int V = Blas.LibVersion;
      DevRow["cublas"] = std::to_string(V / 10000) + "." +
                         std::to_string((V / 100) % 100) + "." +
                         std::to_string(V % 100) + " (" + Blas.LibName + ")";
    } else {
      DevRow["cublas"] = "unavailable: " + BlasWhy;
    }
  }

  reportPhase("loading the cubin", false);
  // loadManifest read and checked the image; the driver gets nothing else.
  TG_TRY(checkCubinImage(Man.CubinImage, Man.CubinPath, Man.Target.Name));
  CUresult R = Cu.cuModuleLoadData(&Mod, Man.CubinImage.data());
  if (R != CUDA_SUCCESS) {
    Mod = nullptr;
    std::string Msg = Cu.describe(R, "cuModuleLoadData(" + Man.CubinPath + ")");
    if (R == CUDA_ERROR_NO_BINARY_FOR_GPU || R == CUDA_ERROR_INVALID_IMAGE ||
        R == CUDA_ERROR_INVALID_SOURCE || R == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
      Msg += ": the cubin (manifest target " + Man.Target.Name +
             ") has no code for GPU " + std::to_string(Opts.Device) + " (" +
             GpuName + ", " + DevArch + ")";
    return cudaError(Msg);
  }
  R = Cu.cuModuleGetFunction(&Fn, Mod, Man.Kernel.c_str());
  if (R == CUDA_ERROR_NOT_FOUND)
    return usageError("kernel '" + Man.Kernel + "' (manifest field 'kernel' of " +
                      Man.Path + ") is not in cubin " + Man.CubinPath);
  TG_TRY(Cu.check(R, "cuModuleGetFunction(" + Man.Kernel + ")"));
  TG_TRY(checkParamAbi());

  int StaticSmem = 0, MaxThreads = 0, Regs = 0;
  TG_TRY(Cu.check(Cu.cuFuncGetAttribute(&StaticSmem,
                                        CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, Fn),
                  "cuFuncGetAttribute(SHARED_SIZE_BYTES)"));
  TG_TRY(Cu.check(Cu.cuFuncGetAttribute(
                      &MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, Fn),
                  "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)"));
  TG_TRY(Cu.check(Cu.cuFuncGetAttribute(&Regs, CU_FUNC_ATTRIBUTE_NUM_REGS, Fn),
                  "cuFuncGetAttribute(NUM_REGS)"));
  if (Threads > static_cast<uint64_t>(MaxThreads))
    return cudaError("manifest field 'block' asks for " +
                     std::to_string(Threads) + " threads, but kernel " +
                     Man.Kernel + " can launch at most " +
                     std::to_string(MaxThreads) + " per block (it uses " +
                     std::to_string(Regs) + " registers per thread)");
  if (Man.DynamicSmem + StaticSmem > static_cast<uint64_t>(SmemOptin))
    return cudaError("kernel " + Man.Kernel + " needs " +
                     std::to_string(StaticSmem) + " bytes of static + " +
                     std::to_string(Man.DynamicSmem) +
                     " bytes of dynamic shared memory, more than the " +
                     std::to_string(SmemOptin) + " bytes " + GpuName +
                     " allows per block");
  TG_TRY(Cu.check(Cu.cuFuncSetAttribute(
                      Fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                      static_cast<int>(Man.DynamicSmem)),
                  "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                      std::to_string(Man.DynamicSmem) + ")"));
  if (Man.clusterSize() > 8)
    TG_TRY(Cu.check(Cu.cuFuncSetAttribute(
                        Fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                        1),
                    "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)"));
  DevRow["kernel_regs"] = std::to_string(Regs);
  DevRow["kernel_static_smem"] = std::to_string(StaticSmem);
  return Error::success();
}

static const char *paramKindName(ParamKind K) {
  switch (K) {
  case ParamKind::Ptr:
    return "ptr";
  case ParamKind::I32:
    return "i32";
  case ParamKind::F32:
    return "f32";
  case ParamKind::TensorMap:
    return "tensormap";
  case ParamKind::Scratch:
    return "scratch";
  }
  return "?";
}

/// Compares the manifest's parameter list with the kernel's, when the driver
/// can tell (cuFuncGetParamInfo, CUDA 12.4+).
Error GpuSession::checkParamAbi() {
  if (!Cu.cuFuncGetParamInfo)
    return Error::success();
  size_t Offset = 0, Size = 0;
  for (size_t I = 0; I < Man.Params.size(); ++I) {
    const Param &Pa = Man.Params[I];
    CUresult R = Cu.cuFuncGetParamInfo(Fn, I, &Offset, &Size);
    if (R == CUDA_ERROR_INVALID_VALUE)
      return usageError("manifest " + Man.Path + " lists " +
                        std::to_string(Man.Params.size()) +
                        " params, but kernel " + Man.Kernel + " has only " +
                        std::to_string(I));
    TG_TRY(Cu.check(R, "cuFuncGetParamInfo(" + std::to_string(I) + ")"));
    if (Size != Pa.size())
      return usageError("manifest " + Man.Path + ": field 'params[" +
                        std::to_string(I) + "]' ('" + Pa.Name + "', " +
                        paramKindName(Pa.Kind) + ") is " +
                        std::to_string(Pa.size()) + " bytes, but parameter " +
                        std::to_string(I) + " of kernel " + Man.Kernel +
                        " is " + std::to_string(Size) + " bytes");
    if (Offset % Pa.alignment() != 0)
      return usageError("manifest " + Man.Path + ": field 'params[" +
                        std::to_string(I) + "]' ('" + Pa.Name + "', " +
                        paramKindName(Pa.Kind) + ") needs " +
                        std::to_string(Pa.alignment()) +
                        "-byte alignment, but the kernel has it at offset " +
                        std::to_string(Offset));
  }
  if (Cu.cuFuncGetParamInfo(Fn, Man.Params.size(), &Offset, &Size) ==
      CUDA_SUCCESS)
    return usageError("manifest " + Man.Path + " lists " +
                      std::to_string(Man.Params.size()) +
                      " params, but kernel " + Man.Kernel + " has more");
  return Error::success();
}

CUdeviceptr GpuSession::tensorPtr(Tensor T) const {
  switch (T) {
  case Tensor::A:
    return A.Ptr;
  case Tensor::B:
    return B.Ptr;
  case Tensor::C:
    return C.Ptr;
  case Tensor::D:
    return D.Ptr;
  case Tensor::ScaleA:
    return ScaleA.Ptr;
  case Tensor::ScaleB:
    return ScaleB.Ptr;
  }
  return 0;
}

static int64_t dimExtent(Dim D, const Problem &P) {
  return D == Dim::M ? P.M : D == Dim::N ? P.N : P.K;
}

Error GpuSession::encodeTensorMap(const Param &Pa, size_t Index, void *Out) {
  CUtensorMapDataType Type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  switch (Pa.Elem) {
  case ElemType::BF16:
    Type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    break;
  case ElemType::F16:
    Type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    break;
  case ElemType::F32:
    Type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    break;
  case ElemType::TF32:
    Type = CU_TENSOR_MAP_DATA_TYPE_TFLOAT32;
    break;
  case ElemType::E4M3:
  case ElemType::E5M2:
    // TMA moves fp8 as bytes; only the MMA reads them as floats.
    Type = CU_TENSOR_MAP_DATA_TYPE_UINT8;
    break;
  }
  CUtensorMapSwizzle Swz = Pa.Swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                           : Pa.Swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                           : Pa.Swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                              : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion L2 =
      Pa.L2Promotion == 256   ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
      : Pa.L2Promotion == 128 ? CU_TENSOR_MAP_L2_PROMOTION_L2_128B
      : Pa.L2Promotion == 64  ? CU_TENSOR_MAP_L2_PROMOTION_L2_64B
                              : CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill Oob = Pa.OobNan
                                    ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                    : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  cuuint32_t Rank = static_cast<cuuint32_t>(Pa.Dims.size());
  cuuint64_t GlobalDim[5] = {0}, GlobalStride[4] = {0};
  cuuint32_t Box[5] = {0}, ElemStride[5] = {1, 1, 1, 1, 1};
  uint64_t Stride = elemBytes(Pa.Elem);
  for (cuuint32_t I = 0; I < Rank; ++I) {
    GlobalDim[I] = static_cast<cuuint64_t>(dimExtent(Pa.Dims[I], P));
    Box[I] = Pa.Box[I];
    Stride *= GlobalDim[I];
    if (I + 1 < Rank)
      GlobalStride[I] = Stride; // bytes to step dim I+1
  }
  CUresult R = Cu.cuTensorMapEncodeTiled(
      static_cast<CUtensorMap *>(Out), Type, Rank,
      reinterpret_cast<void *>(tensorPtr(Pa.Tens)), GlobalDim, GlobalStride,
      Box, ElemStride, CU_TENSOR_MAP_INTERLEAVE_NONE, Swz, L2, Oob);
  if (R == CUDA_SUCCESS)
    return Error::success();
  std::string What = "param " + std::to_string(Index) + " '" + Pa.Name +
                     "' (tensor " + tensorName(Pa.Tens) + ", " +
                     elemTypeName(Pa.Elem) + ", dims [";
  for (cuuint32_t I = 0; I < Rank; ++I)
    What += std::string(I ? ", " : "") + dimName(Pa.Dims[I]) + "=" +
            std::to_string(GlobalDim[I]);
  What += "], stride " + std::to_string(GlobalStride[0]) + " bytes, box [";
  for (cuuint32_t I = 0; I < Rank; ++I)
    What += std::string(I ? ", " : "") + std::to_string(Box[I]);
  What += "], swizzle " + std::to_string(Pa.Swizzle) + ")";
  return Cu.check(R, "cuTensorMapEncodeTiled", "encoding " + What);
}

Error GpuSession::buildParams() {
  Slots.assign(Man.Params.size(), ParamSlot());
  ParamPtrs.assign(Man.Params.size(), nullptr);
  for (size_t I = 0; I < Man.Params.size(); ++I) {
    const Param &Pa = Man.Params[I];
    void *Dst = Slots[I].Bytes;
    std::memset(Dst, 0, sizeof(ParamSlot));
    switch (Pa.Kind) {
    case ParamKind::Ptr: {
      uint64_t Addr = tensorPtr(Pa.Tens);
      std::memcpy(Dst, &Addr, 8);
      break;
    }
    case ParamKind::I32: {
      int32_t V = static_cast<int32_t>(
          Pa.ValueName == "M" ? P.M : Pa.ValueName == "N" ? P.N : P.K);
      std::memcpy(Dst, &V, 4);
      break;
    }
    case ParamKind::F32: {
      float V = static_cast<float>(Pa.ValueName == "alpha" ? Opts.Alpha
                                                           : Opts.Beta);
      std::memcpy(Dst, &V, 4);
      break;
    }
    case ParamKind::Scratch: {
      uint64_t Addr = Scratch[I].Ptr;
      std::memcpy(Dst, &Addr, 8);
      break;
    }
    case ParamKind::TensorMap:
      static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap is 128 bytes");
      TG_TRY(encodeTensorMap(Pa, I, Dst));
      break;
    }
    ParamPtrs[I] = Dst;
  }
  return Error::success();
}

Error GpuSession::checkHostMemory(uint64_t Bytes, bool Overflow,
                                  const std::string &What) const {
  const long Pages = ::sysconf(_SC_PHYS_PAGES), PageSize = ::sysconf(_SC_PAGESIZE);
  if (Pages <= 0 || PageSize <= 0)
    return Error::success(); // unknown: let the allocation decide
  const uint64_t Have = uint64_t(Pages) * uint64_t(PageSize);
  uint64_t Total;
  if (!Overflow && !__builtin_add_overflow(Bytes, HostInputBytes, &Total) && Total <= Have)
    return Error::success();
  std::string Need = Overflow ? "more than 2^64 bytes"
                              : std::to_string(Bytes) + " bytes (" + byteSizeText(Bytes) + ")";
  std::string Besides = HostInputBytes ? " besides the " + byteSizeText(HostInputBytes) +
                                             " of the host copies of the inputs"
                                       : "";
  return usageError("problem " + P.str() + " needs " + Need + " of host memory for " + What +
                    Besides + ", more than this machine's " + byteSizeText(Have));
}

Error GpuSession::prepare(const Problem &Size) {
  P = Size;
  // The host keeps a copy of A, B and C (and reads D back for --check):
  // refuse sizes this machine cannot hold before allocating anything.
  {
    uint64_t Bytes = 0;
    bool Overflow = false;
    for (Tensor T : {Tensor::A, Tensor::B, Tensor::C, Tensor::D}) {
      if (T == Tensor::D && !Opts.Check)
        continue;
      uint64_t TB;
      Overflow |= __builtin_mul_overflow(
          tensorElems(T, P), uint64_t(elemBytes(Man.operand(T).Type)), &TB);
      Overflow |= __builtin_add_overflow(Bytes, TB, &Bytes);
    }
    TG_TRY(checkHostMemory(Bytes, Overflow,
                           Opts.Check ? "the host copies of A, B, C and D"
                                      : "the host copies of A, B and C"));
    HostInputBytes = Bytes;
  }
  Grid = gridSize(Man, P, SmCount);
  TG_TRY(capPersistentClusters());
  if (Grid > 0x7FFFFFFFull)
    return usageError("problem " + P.str() + " needs a grid of " +
                      std::to_string(Grid) + " CTAs, more than 2^31 - 1");
  const ElemType DType = Man.C.Type;
  struct Spec {
    const char *Name;
    Tensor T;
    ElemType Type;
    DeviceBuffer *Buf;
  } Specs[] = {{"A", Tensor::A, Man.A.Type, &A},
               {"B", Tensor::B, Man.B.Type, &B},
               {"C", Tensor::C, Man.C.Type, &C},
               {"D", Tensor::D, DType, &D}};
  reportPhase("allocating A, B, C, D", false);
  for (const Spec &S : Specs) {
    uint64_t Elems = tensorElems(S.T, P);
    int64_t Rows, Cols, Ld;
    tensorShape(S.T, P, Man, Rows, Cols, Ld);
    TG_TRY(alloc(std::string(S.Name) + " (" + std::to_string(Rows) + " x " +
                     std::to_string(Cols) + " " + elemTypeName(S.Type) + ")",
                 Elems * elemBytes(S.Type), *S.Buf));
  }

  reportPhase("generating inputs", false);
  InputDistribution Dist;
  Dist.IntegerValued = Opts.IntInputs;
  Dist.Seed = Opts.Seed;
  std::vector<unsigned char> *Hosts[3] = {&HostA, &HostB, &HostC};
  for (unsigned I = 0; I < 3; ++I) {
    const Spec &S = Specs[I];
    uint64_t Elems = tensorElems(S.T, P);
    Hosts[I]->resize(Elems * elemBytes(S.Type));
    if (S.T != Tensor::C && Man.operand(S.T).Scale.present())
      fillScaledFp8(Hosts[I]->data(), scaledOperand(Man, S.T, P), Dist, I,
                    S.T == Tensor::A ? HostScaleA : HostScaleB);
    else
      fillRandom(Hosts[I]->data(), Elems, S.Type, Dist, I);
    TG_TRY(Cu.check(Cu.cuMemcpyHtoD(S.Buf->Ptr, Hosts[I]->data(),
                                    Hosts[I]->size()),
                    "cuMemcpyHtoD", std::string("uploading ") + S.Name));
  }
  // The scale tensors of fp8 operands (f32, one per tensor or per block).
  for (Tensor T : {Tensor::A, Tensor::B}) {
    uint64_t Bytes = 0;
    if (!scaleTensorBytes(Man, T, P, Bytes))
      return usageError("problem " + P.str() + ": the scale tensor of " +
                        tensorName(T) + " needs more than 2^64 bytes");
    if (!Bytes)
      continue;
    const bool IsA = T == Tensor::A;
    const std::vector<float> &Host = IsA ? HostScaleA : HostScaleB;
    DeviceBuffer &Buf = IsA ? ScaleA : ScaleB;
    if (Host.size() * 4 != Bytes)
      return cudaError(std::string("internal error: ") + tensorName(T) + " has " +
                       std::to_string(Host.size()) + " scales, expected " +
                       std::to_string(Bytes / 4));
    const ScaledFp8 Op = scaledOperand(Man, T, P);
    TG_TRY(alloc(std::string(IsA ? "scale_a" : "scale_b") + " (" +
                     std::to_string(Op.outerBlocks()) + " x " +
                     std::to_string(Op.kBlocks()) + " f32)",
                 Bytes, Buf));
    TG_TRY(Cu.check(Cu.cuMemcpyHtoD(Buf.Ptr, Host.data(), Bytes), "cuMemcpyHtoD",
                    std::string("uploading ") + (IsA ? "scale_a" : "scale_b")));
  }
  TG_TRY(Cu.check(Cu.cuMemsetD8(D.Ptr, 0xFF, D.Bytes), "cuMemsetD8",
                  "poisoning D"));
  // Scratch buffers the kernel keeps to itself, one slice per CTA of the grid.
  Scratch.resize(Man.Params.size());
  for (size_t I = 0; I < Man.Params.size(); ++I) {
    const Param &Pa = Man.Params[I];
    if (Pa.Kind != ParamKind::Scratch)
      continue;
    TG_TRY(alloc("scratch '" + Pa.Name + "' (" + std::to_string(Grid) + " CTAs x " +
                     std::to_string(Pa.BytesPerCta) + " bytes)",
                 Grid * Pa.BytesPerCta, Scratch[I]));
    if (Pa.Zero)
      TG_TRY(Cu.check(Cu.cuMemsetD8(Scratch[I].Ptr, 0, Scratch[I].Bytes), "cuMemsetD8",
                      "zeroing scratch '" + Pa.Name + "'"));
  }
  TG_TRY(settle("the uploads of A, B, C (and scales) and the poisoning of D"));
  reportPhase("building kernel parameters", false);
  return buildParams();
}

std::string GpuSession::launchDescription() const {
  return Man.Kernel + ", grid " + std::to_string(Grid) + ", block " +
         std::to_string(Man.Block[0]) + "x" + std::to_string(Man.Block[1]) +
         "x" + std::to_string(Man.Block[2]) + ", cluster " +
         std::to_string(Man.Cluster[0]) + "x" + std::to_string(Man.Cluster[1]) +
         "x" + std::to_string(Man.Cluster[2]) + ", dynamic smem " +
         std::to_string(Man.DynamicSmem);
}

/// A persistent grid of clusters must fit on the GPU at once: clusters are placed within one
/// GPC, so fewer than SMs / cluster size may be co-resident, and a cluster that waits for a
/// second wave doubles the run. Cap the grid at what cuOccupancyMaxActiveClusters reports.
Error GpuSession::capPersistentClusters() {
  if (Man.Rule != GridRule::Persistent || Man.clusterSize() <= 1 ||
      !Cu.cuOccupancyMaxActiveClusters)
    return Error::success();
  CUlaunchConfig Cfg;
  std::memset(&Cfg, 0, sizeof(Cfg));
  Cfg.gridDimX = static_cast<unsigned>(Grid);
  Cfg.gridDimY = Cfg.gridDimZ = 1;
  Cfg.blockDimX = Man.Block[0];
  Cfg.blockDimY = Man.Block[1];
  Cfg.blockDimZ = Man.Block[2];
  Cfg.sharedMemBytes = static_cast<unsigned>(Man.DynamicSmem);
  CUlaunchAttribute Attr;
  std::memset(&Attr, 0, sizeof(Attr));
  Attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  Attr.value.clusterDim.x = Man.Cluster[0];
  Attr.value.clusterDim.y = Man.Cluster[1];
  Attr.value.clusterDim.z = Man.Cluster[2];
  Cfg.attrs = &Attr;
  Cfg.numAttrs = 1;
  int Clusters = 0;
  TG_TRY(Cu.check(Cu.cuOccupancyMaxActiveClusters(&Clusters, Fn, &Cfg),
                  "cuOccupancyMaxActiveClusters", "sizing the persistent grid"));
  uint64_t Fit = uint64_t(Clusters) * Man.clusterSize();
  if (Clusters > 0 && Fit < Grid)
    Grid = Fit;
  return Error::success();
}

/// cuMemcpyHtoD from pageable memory, cuMemsetD8 and cuMemcpyDtoD run on the legacy stream and
/// may still be in flight when they return; kernels run on a non-blocking stream that does not
/// wait for them. Without this, a kernel can read inputs still being copied or have its output
/// overwritten by the poisoning memset (seen on the H200 with several runner processes sharing
/// the GPU).
Error GpuSession::settle(const std::string &What) {
  return Cu.check(Cu.cuCtxSynchronize(), "cuCtxSynchronize", "waiting for " + What);
}

Error GpuSession::launch() {
  CUlaunchConfig Cfg;
  std::memset(&Cfg, 0, sizeof(Cfg));
  Cfg.gridDimX = static_cast<unsigned>(Grid);
  Cfg.gridDimY = 1;
  Cfg.gridDimZ = 1;
  Cfg.blockDimX = Man.Block[0];
  Cfg.blockDimY = Man.Block[1];
  Cfg.blockDimZ = Man.Block[2];
  Cfg.sharedMemBytes = static_cast<unsigned>(Man.DynamicSmem);
  Cfg.hStream = Stream;
  CUlaunchAttribute Attr[1];
  std::memset(Attr, 0, sizeof(Attr));
  if (Man.clusterSize() > 1) {
    Attr[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    Attr[0].value.clusterDim.x = Man.Cluster[0];
    Attr[0].value.clusterDim.y = Man.Cluster[1];
    Attr[0].value.clusterDim.z = Man.Cluster[2];
    Cfg.attrs = Attr;
    Cfg.numAttrs = 1;
  }
  return Cu.check(Cu.cuLaunchKernelEx(&Cfg, Fn, ParamPtrs.data(), nullptr),
                  "cuLaunchKernelEx", "launching " + launchDescription());
}

Error GpuSession::sync(const std::string &What) {
  CUresult R = Cu.cuStreamSynchronize(Stream);
  if (R == CUDA_SUCCESS)
    return Error::success();
  return cudaError("kernel fault: " + Cu.describe(R, "cuStreamSynchronize") +
                   " after " + What + " (" + launchDescription() +
                   "); the CUDA context is unusable after this");
}

Error GpuSession::runOnce() {
  reportPhase("running kernel " + Man.Kernel + " once", true);
  TG_TRY(launch());
  TG_TRY(sync("the first launch"));
  reportPhase("done", false);
  return Error::success();
}

cudaDataType tilegen::run::cudaTypeOf(ElemType T) {
  switch (T) {
  case ElemType::E4M3:
    return CUDA_R_8F_E4M3;
  case ElemType::E5M2:
    return CUDA_R_8F_E5M2;
  case ElemType::BF16:
    return CUDA_R_16BF;
  case ElemType::F16:
    return CUDA_R_16F;
  default:
    return CUDA_R_32F;
  }
}

bool GpuSession::cublasSupports(std::string &Why) const {
  if (!HaveBlas) {
    Why = BlasWhy;
    return false;
  }
  bool Narrow = Man.A.Type == ElemType::BF16 || Man.A.Type == ElemType::F16;
  if (Man.A.Type != Man.B.Type && (Narrow || Man.B.Type == ElemType::BF16 ||
                                   Man.B.Type == ElemType::F16)) {
    Why = std::string("cublasGemmEx has no mixed ") +
          elemTypeName(Man.A.Type) + " x " + elemTypeName(Man.B.Type) + " GEMM";
    return false;
  }
  if (!Narrow && Man.C.Type != ElemType::F32) {
    Why = std::string("cublasGemmEx has no f32 x f32 -> ") +
          elemTypeName(Man.C.Type) + " GEMM";
    return false;
  }
  return true;
}

Error GpuSession::cublasGemm(CUdeviceptr Out, bool ForTiming, bool ProductF32) {
  // cuBLAS is column-major. D row-major is D^T column-major = B^T A^T.
  const bool RowD = Man.C.Lay == Layout::Row;
  int M = static_cast<int>(P.M), N = static_cast<int>(P.N),
      K = static_cast<int>(P.K);
  int OpX, OpY, LdX, LdY, Ldc, Mm, Nn;
  CUdeviceptr X, Y;
  cudaDataType TX, TY;
  if (RowD) {
    Mm = N, Nn = M, X = B.Ptr, Y = A.Ptr;
    TX = cudaTypeOf(Man.B.Type), TY = cudaTypeOf(Man.A.Type);
    OpX = Man.B.Lay == Layout::Row ? Cublas::OpN : Cublas::OpT;
    LdX = Man.B.Lay == Layout::Row ? N : K;
    OpY = Man.A.Lay == Layout::Row ? Cublas::OpN : Cublas::OpT;
    LdY = Man.A.Lay == Layout::Row ? K : M;
    Ldc = N;
  } else {
    Mm = M, Nn = N, X = A.Ptr, Y = B.Ptr;
    TX = cudaTypeOf(Man.A.Type), TY = cudaTypeOf(Man.B.Type);
    OpX = Man.A.Lay == Layout::Col ? Cublas::OpN : Cublas::OpT;
    LdX = Man.A.Lay == Layout::Col ? M : K;
    OpY = Man.B.Lay == Layout::Col ? Cublas::OpN : Cublas::OpT;
    LdY = Man.B.Lay == Layout::Col ? K : N;
    Ldc = M;
  }
  float Alpha = ProductF32 ? 1.0f : static_cast<float>(Opts.Alpha);
  float Beta = ProductF32 ? 0.0f : static_cast<float>(Opts.Beta);
  // For timing tf32 inputs, let cuBLAS use tf32 tensor cores like the kernel.
  bool Tf32 = Man.A.Type == ElemType::TF32 || Man.B.Type == ElemType::TF32;
  int Compute = ForTiming && Tf32 ? 77 /*CUBLAS_COMPUTE_32F_FAST_TF32*/
                                  : Cublas::Compute32F;
  int S = Blas.GemmEx(BlasHandle, OpX, OpY, Mm, Nn, K, &Alpha,
                      reinterpret_cast<const void *>(X), TX, LdX,
                      reinterpret_cast<const void *>(Y), TY, LdY, &Beta,
                      reinterpret_cast<void *>(Out),
                      ProductF32 ? CUDA_R_32F : cudaTypeOf(Man.C.Type), Ldc,
                      Compute, Cublas::GemmDefault);
  if (S != 0)
    return cudaError("cublasGemmEx(" + P.str() + ") failed: " +
                     Blas.describe(S));
  return Error::success();
}
