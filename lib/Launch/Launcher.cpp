//===- Launcher.cpp - Loading and launching one tilegen kernel ------------===//

#include "Launcher.h"
#include "Cubin.h"

#include <cstdio>
#include <cstring>

/// A float as printf's %g writes it: 1e-45 stays 1e-45 (std::to_string prints 0.000000).
static std::string shortFloat(float V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%g", double(V));
  return Buf;
}

using namespace tilegen::run;

std::string DeviceFacts::arch() const {
  return "sm_" + std::to_string(CcMajor) + std::to_string(CcMinor);
}

Error tilegen::run::queryDeviceFacts(const Driver &Cu, CUdevice Dev, int Ordinal,
                                     DeviceFacts &Out) {
  Out.Ordinal = Ordinal;
  char Name[256] = {0};
  TG_TRY(Cu.check(Cu.cuDeviceGetName(Name, sizeof(Name) - 1, Dev), "cuDeviceGetName")
             .withKind(ErrorKind::Cuda));
  Out.Name = Name;
  auto attr = [&](CUdevice_attribute A, const char *AName, int &V) {
    return Cu.check(Cu.cuDeviceGetAttribute(&V, A, Dev),
                    std::string("cuDeviceGetAttribute(") + AName + ")")
        .withKind(ErrorKind::Cuda);
  };
  TG_TRY(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "COMPUTE_CAPABILITY_MAJOR",
              Out.CcMajor));
  TG_TRY(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "COMPUTE_CAPABILITY_MINOR",
              Out.CcMinor));
  TG_TRY(attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "MULTIPROCESSOR_COUNT", Out.SmCount));
  TG_TRY(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
              "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", Out.SmemOptin));
  return Error::success();
}

Error tilegen::run::checkTarget(const Manifest &Man, const DeviceFacts &Dev) {
  const int CcMajor = Dev.CcMajor, CcMinor = Dev.CcMinor;
  const std::string DevArch = Dev.arch();
  if (!Man.Target.runsOn(CcMajor, CcMinor))
    return Error(ExitCuda,
                 "cubin " + Man.CubinPath + " was built for " + Man.Target.Name +
                     " (manifest field 'target'), but GPU " + std::to_string(Dev.Ordinal) +
                     " (" + Dev.Name + ") is " + DevArch + " (compute capability " +
                     std::to_string(CcMajor) + "." + std::to_string(CcMinor) +
                     "); rebuild it with tilegen --target=" + DevArch +
                     (CcMajor >= 9 ? " or --target=" + DevArch + "a" : ""),
                 ErrorKind::Target);
  if (Man.DynamicSmem > static_cast<uint64_t>(Dev.SmemOptin))
    return Error(ExitCuda,
                 "manifest field 'dynamic_smem' asks for " + std::to_string(Man.DynamicSmem) +
                     " bytes, but " + Dev.Name + " allows at most " +
                     std::to_string(Dev.SmemOptin) + " bytes of shared memory per block",
                 ErrorKind::Target);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

static int64_t dimExtent(Dim D, const Problem &P) {
  return D == Dim::M ? P.M : D == Dim::N ? P.N : P.K;
}

static const char *ldName(Tensor T) {
  switch (T) {
  case Tensor::A:
    return "lda";
  case Tensor::B:
    return "ldb";
  case Tensor::C:
    return "ldc";
  default:
    return "ldd";
  }
}

/// C when given; D when C is absent and beta is 0 (the kernels read C only
/// when beta != 0, and D has C's type and layout).
static Tensor effectiveTensor(Tensor T, const GemmArgs &Args) {
  if (T == Tensor::C && Args.C == 0 && Args.Beta == 0)
    return Tensor::D;
  return T;
}

static CUdeviceptr tensorPtr(Tensor T, const GemmArgs &Args) {
  switch (effectiveTensor(T, Args)) {
  case Tensor::A:
    return Args.A;
  case Tensor::B:
    return Args.B;
  case Tensor::C:
    return Args.C;
  case Tensor::D:
    return Args.D;
  case Tensor::ScaleA:
    return Args.ScaleA;
  case Tensor::ScaleB:
    return Args.ScaleB;
  }
  return 0;
}

int64_t tilegen::run::leadingDim(const Manifest &Man, const GemmArgs &Args, Tensor T) {
  T = effectiveTensor(T, Args);
  const int64_t Given = Args.Ld[static_cast<int>(T)];
  if (Given)
    return Given;
  int64_t Rows, Cols, Dense;
  tensorShape(T, Args.P, Man, Rows, Cols, Dense);
  return Dense;
}

static std::string hexText(uint64_t V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}

static Error argumentError(std::string Message) {
  return Error(ExitUsage, std::move(Message), ErrorKind::Argument);
}

/// "f32", "e8m0 bytes" or "e4m3 bytes", for messages about a scale pointer.
static const char *scaleTypeText(const ScaleInfo &S) {
  return S.E8M0 ? "e8m0 bytes" : S.E4M3 ? "e4m3 bytes" : "f32";
}

Error tilegen::run::checkGemmArgs(const Manifest &Man, const GemmArgs &Args,
                                  bool CheckScratch) {
  bool Used[6] = {false, false, false, false, false, false};
  bool ByPointer[6] = {false, false, false, false, false, false};
  for (const Param &Pa : Man.Params) {
    if (Pa.Kind != ParamKind::Ptr && Pa.Kind != ParamKind::TensorMap)
      continue;
    Used[static_cast<int>(Pa.Tens)] = true;
    if (Pa.Kind == ParamKind::Ptr)
      ByPointer[static_cast<int>(Pa.Tens)] = true;
  }
  const struct {
    Tensor T;
    CUdeviceptr Ptr;
    uint64_t Align;
  } Ptrs[] = {{Tensor::A, Args.A, TensorAlignment},      {Tensor::B, Args.B, TensorAlignment},
              {Tensor::C, Args.C, TensorAlignment},      {Tensor::D, Args.D, TensorAlignment},
              {Tensor::ScaleA, Args.ScaleA, ScaleAlignment},
              {Tensor::ScaleB, Args.ScaleB, ScaleAlignment}};
  for (const auto &E : Ptrs) {
    const bool Needed = Used[static_cast<int>(E.T)];
    const bool IsScale = E.T == Tensor::ScaleA || E.T == Tensor::ScaleB;
    if (!E.Ptr) {
      if (!Needed)
        continue;
      if (E.T == Tensor::C && Args.Beta == 0)
        continue; // D stands in for C
      if (E.T == Tensor::C)
        return argumentError("pointer C is null, but beta = " + shortFloat(Args.Beta) +
                             " and kernel " + Man.Kernel +
                             " reads C when beta != 0; pass C, or beta = 0");
      if (IsScale)
        return argumentError(std::string("pointer ") + tensorName(E.T) +
                             " is null, but kernel " + Man.Kernel + " scales operand " +
                             (E.T == Tensor::ScaleA ? "A" : "B") +
                             " by it (manifest operand scale, " +
                             scaleTypeText(E.T == Tensor::ScaleA ? Man.A.Scale : Man.B.Scale) +
                             " in global memory)");
      return argumentError(std::string("pointer ") + tensorName(E.T) + " is null; kernel " +
                           Man.Kernel + " needs the device address of " +
                           tensorName(E.T));
    }
    if (!Needed) {
      if (IsScale)
        return argumentError(std::string("pointer ") + tensorName(E.T) +
                             " is given, but kernel " + Man.Kernel + " has no scale for " +
                             (E.T == Tensor::ScaleA ? "A" : "B") +
                             " (manifest field 'operands'); pass 0");
      continue;
    }
    if (E.Ptr % E.Align != 0)
      return argumentError(std::string("pointer ") + tensorName(E.T) + " = " +
                           hexText(E.Ptr) + " is not " + std::to_string(E.Align) +
                           "-byte aligned" +
                           (IsScale ? " (the kernels copy scales in 4-byte pieces)"
                                    : " (the kernels move tensors in 16-byte pieces)"));
  }

  // NVFP4's per-tensor f32 of B.
  if (Man.B.Scale.SecondLevel && !Args.ScaleBTensor)
    return argumentError("pointer scale_b_tensor is null, but kernel " + Man.Kernel +
                         " multiplies B by NVFP4's per-tensor f32 (one float in global memory)");
  if (!Man.B.Scale.SecondLevel && Args.ScaleBTensor)
    return argumentError("pointer scale_b_tensor is given, but kernel " + Man.Kernel +
                         " takes no per-tensor f32 of B; pass 0");
  if (Args.ScaleBTensor % ScaleAlignment != 0)
    return argumentError("pointer scale_b_tensor = " + hexText(Args.ScaleBTensor) +
                         " is not " + std::to_string(ScaleAlignment) + "-byte aligned (f32)");

  for (Tensor T : {Tensor::A, Tensor::B, Tensor::C, Tensor::D}) {
    const int64_t Given = Args.Ld[static_cast<int>(T)];
    if (!Given)
      continue;
    int64_t Rows, Cols, Dense;
    tensorShape(T, Args.P, Man, Rows, Cols, Dense);
    const OperandInfo &O = Man.operand(T);
    const char *Inner = O.Lay == Layout::Row ? "columns" : "rows";
    if (Given < 0)
      return argumentError(std::string(ldName(T)) + " = " + std::to_string(Given) +
                           " is negative; 0 means dense");
    if (Given < Dense)
      return argumentError(std::string(ldName(T)) + " = " + std::to_string(Given) +
                           " is less than the " + std::to_string(Dense) + " " + Inner +
                           " of " + tensorName(T) + " (" + layoutName(O.Lay) + " layout)");
    if (Given == Dense || !Used[static_cast<int>(T)])
      continue;
    if (ByPointer[static_cast<int>(T)])
      return argumentError(std::string(ldName(T)) + " = " + std::to_string(Given) +
                           ": kernel " + Man.Kernel + " addresses " + tensorName(T) +
                           " through a pointer parameter, assuming dense " +
                           (O.Lay == Layout::Row ? "rows" : "columns") + "; " + ldName(T) +
                           " must be " + std::to_string(Dense) + " (or 0)");
    // Packed e2m1 holds two elements per byte: the stride is Given / 2 bytes, and Given
    // must be even for rows to start on whole bytes.
    const unsigned Bits = elemBits(O.Type);
    const uint64_t PerMultiple = 128 / Bits; // elements in 16 bytes
    if (Bits < 8 && Given % (8 / Bits) != 0)
      return argumentError(std::string(ldName(T)) + " = " + std::to_string(Given) +
                           " is odd, but " + tensorName(T) + " is packed " +
                           elemTypeName(O.Type) + " (two elements per byte): each " +
                           (O.Lay == Layout::Row ? "row" : "column") +
                           " must start on a whole byte; " + ldName(T) +
                           " must be a multiple of " + std::to_string(PerMultiple));
    uint64_t Stride;
    if (__builtin_mul_overflow(uint64_t(Given), uint64_t(Bits), &Stride) ||
        (Stride /= 8) >= (uint64_t(1) << 40))
      return argumentError(std::string(ldName(T)) + " = " + std::to_string(Given) +
                           " gives " + tensorName(T) +
                           " a stride of 2^40 bytes or more, beyond what a tensor map takes");
    if (Stride % 16 != 0)
      return argumentError(std::string(ldName(T)) + " = " + std::to_string(Given) +
                           (Bits >= 8 ? " x " + std::to_string(Bits / 8) + " bytes = "
                                      : " / " + std::to_string(8 / Bits) + " = ") +
                           std::to_string(Stride) +
                           " bytes is not a multiple of 16: TMA needs 16-byte strides; " +
                           ldName(T) + " must be a multiple of " + std::to_string(PerMultiple));
  }

  if (CheckScratch)
    for (size_t I = 0; I < Man.Params.size(); ++I) {
      const Param &Pa = Man.Params[I];
      if (Pa.Kind != ParamKind::Scratch)
        continue;
      CUdeviceptr Ptr = I < Args.Scratch.size() ? Args.Scratch[I] : 0;
      if (!Ptr)
        return argumentError("kernel " + Man.Kernel + " needs a workspace for scratch param '" +
                             Pa.Name + "' (" + std::to_string(Pa.BytesPerCta) +
                             " bytes per CTA), but none is given");
      if (Ptr % TensorAlignment != 0)
        return argumentError("the workspace of scratch param '" + Pa.Name + "' at " +
                             hexText(Ptr) + " is not 16-byte aligned");
    }
  return Error::success();
}

bool tilegen::run::scratchBytes(const Param &Pa, uint64_t Grid, uint64_t &Bytes) {
  return !__builtin_mul_overflow(Grid, Pa.BytesPerCta, &Bytes);
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

void LoadedKernel::unload() {
  if (Mod && Cu)
    Cu->cuModuleUnload(Mod);
  Mod = nullptr;
  Fn = nullptr;
}

Error LoadedKernel::load(const Driver &Driver, const Manifest &Manifest,
                         const DeviceFacts &Facts) {
  unload();
  Cu = &Driver;
  Man = &Manifest;
  Dev = Facts;
  // The image was read and checked with the manifest; the driver gets nothing else.
  TG_TRY(checkCubinImage(Man->CubinImage, Man->CubinPath, Man->Target.Name)
             .withKind(ErrorKind::Cubin));
  CUresult R = Cu->cuModuleLoadData(&Mod, Man->CubinImage.data());
  if (R != CUDA_SUCCESS) {
    Mod = nullptr;
    std::string Msg = Cu->describe(R, "cuModuleLoadData(" + Man->CubinPath + ")");
    if (R == CUDA_ERROR_NO_BINARY_FOR_GPU || R == CUDA_ERROR_INVALID_IMAGE ||
        R == CUDA_ERROR_INVALID_SOURCE || R == CUDA_ERROR_UNSUPPORTED_PTX_VERSION) {
      Msg += ": the cubin (manifest target " + Man->Target.Name + ") has no code for GPU " +
             std::to_string(Dev.Ordinal) + " (" + Dev.Name + ", " + Dev.arch() + ")";
      return Error(ExitCuda, Msg, ErrorKind::Target);
    }
    return Error(ExitCuda, Msg, ErrorKind::Cuda);
  }
  R = Cu->cuModuleGetFunction(&Fn, Mod, Man->Kernel.c_str());
  if (R == CUDA_ERROR_NOT_FOUND)
    return Error(ExitUsage,
                 "kernel '" + Man->Kernel + "' (manifest field 'kernel' of " + Man->Path +
                     ") is not in cubin " + Man->CubinPath,
                 ErrorKind::Cubin);
  TG_TRY(Cu->check(R, "cuModuleGetFunction(" + Man->Kernel + ")").withKind(ErrorKind::Cuda));
  TG_TRY(checkParamAbi());

  int MaxThreads = 0;
  TG_TRY(Cu->check(Cu->cuFuncGetAttribute(&StaticSmem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, Fn),
                   "cuFuncGetAttribute(SHARED_SIZE_BYTES)")
             .withKind(ErrorKind::Cuda));
  TG_TRY(Cu->check(Cu->cuFuncGetAttribute(&MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                          Fn),
                   "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)")
             .withKind(ErrorKind::Cuda));
  TG_TRY(Cu->check(Cu->cuFuncGetAttribute(&Regs, CU_FUNC_ATTRIBUTE_NUM_REGS, Fn),
                   "cuFuncGetAttribute(NUM_REGS)")
             .withKind(ErrorKind::Cuda));
  const uint64_t Threads = uint64_t(Man->Block[0]) * Man->Block[1] * Man->Block[2];
  if (Threads > static_cast<uint64_t>(MaxThreads))
    return Error(ExitCuda,
                 "manifest field 'block' asks for " + std::to_string(Threads) +
                     " threads, but kernel " + Man->Kernel + " can launch at most " +
                     std::to_string(MaxThreads) + " per block (it uses " +
                     std::to_string(Regs) + " registers per thread)",
                 ErrorKind::Target);
  if (Man->DynamicSmem + StaticSmem > static_cast<uint64_t>(Dev.SmemOptin))
    return Error(ExitCuda,
                 "kernel " + Man->Kernel + " needs " + std::to_string(StaticSmem) +
                     " bytes of static + " + std::to_string(Man->DynamicSmem) +
                     " bytes of dynamic shared memory, more than the " +
                     std::to_string(Dev.SmemOptin) + " bytes " + Dev.Name +
                     " allows per block",
                 ErrorKind::Target);
  TG_TRY(Cu->check(Cu->cuFuncSetAttribute(Fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                          static_cast<int>(Man->DynamicSmem)),
                   "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                       std::to_string(Man->DynamicSmem) + ")")
             .withKind(ErrorKind::Cuda));
  if (Man->clusterSize() > 8)
    TG_TRY(Cu->check(Cu->cuFuncSetAttribute(
                         Fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
                     "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)")
               .withKind(ErrorKind::Cuda));
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
Error LoadedKernel::checkParamAbi() const {
  if (!Cu->cuFuncGetParamInfo)
    return Error::success();
  auto mismatch = [](std::string Message) {
    return Error(ExitUsage, std::move(Message), ErrorKind::Manifest);
  };
  size_t Offset = 0, Size = 0;
  for (size_t I = 0; I < Man->Params.size(); ++I) {
    const Param &Pa = Man->Params[I];
    CUresult R = Cu->cuFuncGetParamInfo(Fn, I, &Offset, &Size);
    if (R == CUDA_ERROR_INVALID_VALUE)
      return mismatch("manifest " + Man->Path + " lists " + std::to_string(Man->Params.size()) +
                      " params, but kernel " + Man->Kernel + " has only " + std::to_string(I));
    TG_TRY(Cu->check(R, "cuFuncGetParamInfo(" + std::to_string(I) + ")")
               .withKind(ErrorKind::Cuda));
    if (Size != Pa.size())
      return mismatch("manifest " + Man->Path + ": field 'params[" + std::to_string(I) +
                      "]' ('" + Pa.Name + "', " + paramKindName(Pa.Kind) + ") is " +
                      std::to_string(Pa.size()) + " bytes, but parameter " +
                      std::to_string(I) + " of kernel " + Man->Kernel + " is " +
                      std::to_string(Size) + " bytes");
    if (Offset % Pa.alignment() != 0)
      return mismatch("manifest " + Man->Path + ": field 'params[" + std::to_string(I) +
                      "]' ('" + Pa.Name + "', " + paramKindName(Pa.Kind) + ") needs " +
                      std::to_string(Pa.alignment()) +
                      "-byte alignment, but the kernel has it at offset " +
                      std::to_string(Offset));
  }
  if (Cu->cuFuncGetParamInfo(Fn, Man->Params.size(), &Offset, &Size) == CUDA_SUCCESS)
    return mismatch("manifest " + Man->Path + " lists " + std::to_string(Man->Params.size()) +
                    " params, but kernel " + Man->Kernel + " has more");
  return Error::success();
}

Error LoadedKernel::grid(const Problem &P, uint64_t &Grid) const {
  Grid = gridSize(*Man, P, Dev.SmCount);
  // A persistent grid of clusters must fit on the GPU at once: clusters are placed within one
  // GPC, so fewer than SMs / cluster size may be co-resident, and a cluster that waits for a
  // second wave doubles the run. Cap the grid at what cuOccupancyMaxActiveClusters reports.
  if (Man->Rule == GridRule::Persistent && Man->clusterSize() > 1 &&
      Cu->cuOccupancyMaxActiveClusters && Grid <= 0x7FFFFFFFull) {
    CUlaunchConfig Cfg;
    std::memset(&Cfg, 0, sizeof(Cfg));
    Cfg.gridDimX = static_cast<unsigned>(Grid);
    Cfg.gridDimY = Cfg.gridDimZ = 1;
    Cfg.blockDimX = Man->Block[0];
    Cfg.blockDimY = Man->Block[1];
    Cfg.blockDimZ = Man->Block[2];
    Cfg.sharedMemBytes = static_cast<unsigned>(Man->DynamicSmem);
    CUlaunchAttribute Attr;
    std::memset(&Attr, 0, sizeof(Attr));
    Attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    Attr.value.clusterDim.x = Man->Cluster[0];
    Attr.value.clusterDim.y = Man->Cluster[1];
    Attr.value.clusterDim.z = Man->Cluster[2];
    Cfg.attrs = &Attr;
    Cfg.numAttrs = 1;
    int Clusters = 0;
    TG_TRY(Cu->check(Cu->cuOccupancyMaxActiveClusters(&Clusters, Fn, &Cfg),
                     "cuOccupancyMaxActiveClusters", "sizing the persistent grid")
               .withKind(ErrorKind::Cuda));
    uint64_t Fit = uint64_t(Clusters) * Man->clusterSize();
    if (Clusters > 0 && Fit < Grid)
      Grid = Fit;
  }
  if (Grid > 0x7FFFFFFFull)
    return Error(ExitUsage,
                 "problem " + P.str() + " needs a grid of " + std::to_string(Grid) +
                     " CTAs, more than 2^31 - 1",
                 ErrorKind::Problem);
  return Error::success();
}

Error LoadedKernel::encodeTensorMap(const Param &Pa, size_t Index, const GemmArgs &Args,
                                    void *Out) const {
  const Problem &P = Args.P;
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
  case ElemType::E2M1:
    // TMA moves fp8 (and packed fp4, two elements per byte) as bytes; only the MMA or the
    // kernel's conversion reads them as floats.
    Type = CU_TENSOR_MAP_DATA_TYPE_UINT8;
    break;
  }
  // Packed e2m1: the inner dim (K) and its box are counted in bytes, two elements each.
  const uint64_t Per = Pa.Elem == ElemType::E2M1 ? 2 : 1;
  CUtensorMapSwizzle Swz = Pa.Swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                           : Pa.Swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                           : Pa.Swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                              : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion L2 = Pa.L2Promotion == 256   ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                              : Pa.L2Promotion == 128 ? CU_TENSOR_MAP_L2_PROMOTION_L2_128B
                              : Pa.L2Promotion == 64  ? CU_TENSOR_MAP_L2_PROMOTION_L2_64B
                                                      : CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill Oob = Pa.OobNan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                          : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  cuuint32_t Rank = static_cast<cuuint32_t>(Pa.Dims.size());
  cuuint64_t GlobalDim[5] = {0}, GlobalStride[4] = {0};
  cuuint32_t Box[5] = {0}, ElemStride[5] = {1, 1, 1, 1, 1};
  // The tensor's rows (or columns) are a leading dimension apart; dims are in
  // memory order, so the stride of dim 1 is the leading dimension in bytes.
  const uint64_t Ld = static_cast<uint64_t>(leadingDim(*Man, Args, Pa.Tens));
  uint64_t Stride = elemBytes(Pa.Elem);
  for (cuuint32_t I = 0; I < Rank; ++I) {
    GlobalDim[I] = static_cast<cuuint64_t>(dimExtent(Pa.Dims[I], P)) / (I == 0 ? Per : 1);
    Box[I] = Pa.Box[I] / (I == 0 ? Per : 1);
    Stride *= I == 0 ? Ld / Per : GlobalDim[I];
    if (I + 1 < Rank)
      GlobalStride[I] = Stride; // bytes to step dim I+1
  }
  CUresult R = Cu->cuTensorMapEncodeTiled(
      static_cast<CUtensorMap *>(Out), Type, Rank,
      reinterpret_cast<void *>(tensorPtr(Pa.Tens, Args)), GlobalDim, GlobalStride, Box,
      ElemStride, CU_TENSOR_MAP_INTERLEAVE_NONE, Swz, L2, Oob);
  if (R == CUDA_SUCCESS)
    return Error::success();
  std::string What = "param " + std::to_string(Index) + " '" + Pa.Name + "' (tensor " +
                     tensorName(Pa.Tens) + ", " + elemTypeName(Pa.Elem) + ", dims [";
  for (cuuint32_t I = 0; I < Rank; ++I)
    What += std::string(I ? ", " : "") + dimName(Pa.Dims[I]) + "=" +
            std::to_string(GlobalDim[I]);
  What += "], stride " + std::to_string(GlobalStride[0]) + " bytes, box [";
  for (cuuint32_t I = 0; I < Rank; ++I)
    What += std::string(I ? ", " : "") + std::to_string(Box[I]);
  What += "], swizzle " + std::to_string(Pa.Swizzle) + ")";
  return Cu->check(R, "cuTensorMapEncodeTiled", "encoding " + What).withKind(ErrorKind::Cuda);
}

Error LoadedKernel::buildParams(const GemmArgs &Args, uint64_t Grid, ParamBlock &Block) const {
  (void)Grid; // the scratch buffers were sized for it by the caller
  const Problem &P = Args.P;
  Block.Slots.assign(Man->Params.size(), ParamBlock::Slot());
  Block.Ptrs.assign(Man->Params.size(), nullptr);
  for (size_t I = 0; I < Man->Params.size(); ++I) {
    const Param &Pa = Man->Params[I];
    void *Dst = Block.Slots[I].Bytes;
    std::memset(Dst, 0, sizeof(ParamBlock::Slot));
    switch (Pa.Kind) {
    case ParamKind::Ptr: {
      uint64_t Addr = Pa.SecondLevel ? Args.ScaleBTensor : tensorPtr(Pa.Tens, Args);
      std::memcpy(Dst, &Addr, 8);
      break;
    }
    case ParamKind::I32: {
      int32_t V = static_cast<int32_t>(Pa.ValueName == "M"   ? P.M
                                       : Pa.ValueName == "N" ? P.N
                                                             : P.K);
      std::memcpy(Dst, &V, 4);
      break;
    }
    case ParamKind::F32: {
      float V = static_cast<float>(Pa.ValueName == "alpha" ? Args.Alpha : Args.Beta);
      std::memcpy(Dst, &V, 4);
      break;
    }
    case ParamKind::Scratch: {
      uint64_t Addr = I < Args.Scratch.size() ? Args.Scratch[I] : 0;
      std::memcpy(Dst, &Addr, 8);
      break;
    }
    case ParamKind::TensorMap:
      static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap is 128 bytes");
      TG_TRY(encodeTensorMap(Pa, I, Args, Dst));
      break;
    }
    Block.Ptrs[I] = Dst;
  }
  return Error::success();
}

std::string LoadedKernel::launchDescription(uint64_t Grid) const {
  return Man->Kernel + ", grid " + std::to_string(Grid) + ", block " +
         std::to_string(Man->Block[0]) + "x" + std::to_string(Man->Block[1]) + "x" +
         std::to_string(Man->Block[2]) + ", cluster " + std::to_string(Man->Cluster[0]) + "x" +
         std::to_string(Man->Cluster[1]) + "x" + std::to_string(Man->Cluster[2]) +
         ", dynamic smem " + std::to_string(Man->DynamicSmem);
}

Error LoadedKernel::launch(const ParamBlock &Block, uint64_t Grid, CUstream Stream) const {
  CUlaunchConfig Cfg;
  std::memset(&Cfg, 0, sizeof(Cfg));
  Cfg.gridDimX = static_cast<unsigned>(Grid);
  Cfg.gridDimY = 1;
  Cfg.gridDimZ = 1;
  Cfg.blockDimX = Man->Block[0];
  Cfg.blockDimY = Man->Block[1];
  Cfg.blockDimZ = Man->Block[2];
  Cfg.sharedMemBytes = static_cast<unsigned>(Man->DynamicSmem);
  Cfg.hStream = Stream;
  CUlaunchAttribute Attr[1];
  std::memset(Attr, 0, sizeof(Attr));
  if (Man->clusterSize() > 1) {
    Attr[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    Attr[0].value.clusterDim.x = Man->Cluster[0];
    Attr[0].value.clusterDim.y = Man->Cluster[1];
    Attr[0].value.clusterDim.z = Man->Cluster[2];
    Cfg.attrs = Attr;
    Cfg.numAttrs = 1;
  }
  return Cu->check(Cu->cuLaunchKernelEx(&Cfg, Fn, const_cast<void **>(Block.Ptrs.data()),
                                        nullptr),
                   "cuLaunchKernelEx", "launching " + launchDescription(Grid))
      .withKind(ErrorKind::Cuda);
}
