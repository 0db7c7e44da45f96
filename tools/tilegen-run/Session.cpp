//===- Session.cpp - Device setup, buffers, tensor maps, launch -----------===//

#include "Session.h"
#include "Child.h"
#include "Cubin.h"
#include "FileIO.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#ifdef TILEGEN_RUN_HAVE_PAD_KERNEL
#include "PadCopyImage.inc" // PadCopyImage: the fatbin of PadCopy.cu
#endif

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
    for (DeviceBuffer *Buf : {&A, &B, &C, &D, &Ref, &Flush, &Prod, &ScaleA, &ScaleB, &TensorScaleB,
                              &LtScaleA, &LtScaleB, &LtWorkspace, &PadA, &PadB, &PadC, &PadD})
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
    Kernel.unload();
    if (PadModule)
      Cu.cuModuleUnload(PadModule);
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

  Facts.Ordinal = Opts.Device;
  Facts.Name = GpuName;
  Facts.CcMajor = CcMajor;
  Facts.CcMinor = CcMinor;
  Facts.SmCount = SmCount;
  Facts.SmemOptin = SmemOptin;
  TG_TRY(checkTarget(Man, Facts));

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
  // loadManifest read and checked the image; the launch library checks it again
  // and gives the driver nothing else.
  TG_TRY(Kernel.load(Cu, Man, Facts));
  const int Regs = Kernel.registers(), StaticSmem = Kernel.staticSmem();
  DevRow["kernel_regs"] = std::to_string(Regs);
  DevRow["kernel_static_smem"] = std::to_string(StaticSmem);
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
      Overflow |= !storageBytes(Man.operand(T).Type, tensorElems(T, P), TB);
      Overflow |= __builtin_add_overflow(Bytes, TB, &Bytes);
    }
    TG_TRY(checkHostMemory(Bytes, Overflow,
                           Opts.Check ? "the host copies of A, B, C and D"
                                      : "the host copies of A, B and C"));
    HostInputBytes = Bytes;
  }
  KP = P;
  if (Opts.Pad)
    TG_TRY(paddedProblem(Man, P, KP));
  TG_TRY(Kernel.grid(KP, Grid));
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
    uint64_t Bytes = 0;
    storageBytes(S.Type, Elems, Bytes); // checkProblem checked the size
    TG_TRY(alloc(std::string(S.Name) + " (" + std::to_string(Rows) + " x " +
                     std::to_string(Cols) + " " + elemTypeName(S.Type) + ")",
                 Bytes, *S.Buf));
  }

  reportPhase("generating inputs", false);
  InputDistribution Dist;
  Dist.IntegerValued = Opts.IntInputs;
  Dist.Seed = Opts.Seed;
  Dist.BlockExpLo = Opts.BlockExpLo;
  Dist.BlockExpHi = Opts.BlockExpHi;
  std::vector<unsigned char> *Hosts[3] = {&HostA, &HostB, &HostC};
  for (unsigned I = 0; I < 3; ++I) {
    const Spec &S = Specs[I];
    uint64_t Elems = tensorElems(S.T, P), Bytes = 0;
    storageBytes(S.Type, Elems, Bytes); // checkProblem checked the size
    Hosts[I]->resize(Bytes);
    if (S.T != Tensor::C && Man.operand(S.T).Scale.blockScaled()) {
      // MXFP4, MXFP8, NVFP4: the element codes here, the E8M0 / E4M3 scale codes beside
      // them, and NVFP4's per-tensor f32 where the kernel takes one (else 1).
      float TensorScale = 1;
      fillBlockScaled(Hosts[I]->data(), blockScaledOperand(Man, S.T, P), Dist, I,
                      S.T == Tensor::A ? HostMxScaleA : HostMxScaleB, TensorScale);
      if (S.T == Tensor::B)
        HostTensorScaleB = TensorScale;
    } else if (S.T != Tensor::C && Man.operand(S.T).Scale.present())
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
    DeviceBuffer &Buf = IsA ? ScaleA : ScaleB;
    if (Man.operand(T).Scale.blockScaled()) {
      // E8M0 / E4M3 codes, one byte per (row, K block).
      const std::vector<uint8_t> &Codes = IsA ? HostMxScaleA : HostMxScaleB;
      const BlockScaledOperand Op = blockScaledOperand(Man, T, P);
      if (Codes.size() != Bytes)
        return cudaError(std::string("internal error: ") + tensorName(T) + " has " +
                         std::to_string(Codes.size()) + " block scales, expected " +
                         std::to_string(Bytes));
      TG_TRY(alloc(std::string(IsA ? "scale_a" : "scale_b") + " (" +
                       std::to_string(Op.Outer) + " x " + std::to_string(Op.kBlocks()) +
                       (Man.operand(T).Scale.E4M3 ? " e4m3)" : " e8m0)"),
                   Bytes, Buf));
      TG_TRY(Cu.check(Cu.cuMemcpyHtoD(Buf.Ptr, Codes.data(), Bytes), "cuMemcpyHtoD",
                      std::string("uploading ") + (IsA ? "scale_a" : "scale_b")));
      continue;
    }
    const std::vector<float> &Host = IsA ? HostScaleA : HostScaleB;
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
  // NVFP4's per-tensor f32 of B, one float.
  if (Man.B.Scale.SecondLevel) {
    TG_TRY(alloc("scale_b_tensor (1 f32)", 4, TensorScaleB));
    TG_TRY(Cu.check(Cu.cuMemcpyHtoD(TensorScaleB.Ptr, &HostTensorScaleB, 4), "cuMemcpyHtoD",
                    "uploading scale_b_tensor"));
  }

  TG_TRY(Cu.check(Cu.cuMemsetD8(D.Ptr, 0xFF, D.Bytes), "cuMemsetD8",
                  "poisoning D"));
  // Padded copies of the tensors whose shape the padding changes: zero (the padding of A and
  // B must be, so that it adds nothing to the product; launch() copies only the P-shaped part
  // in), D's poisoned.
  if (KP != P) {
    for (const Spec &S : Specs) {
      int64_t Rows, Cols, Ld, KRows, KCols, KLd;
      tensorShape(S.T, P, Man, Rows, Cols, Ld);
      tensorShape(S.T, KP, Man, KRows, KCols, KLd);
      if (Rows == KRows && Cols == KCols)
        continue;
      DeviceBuffer &Buf = S.T == Tensor::A   ? PadA
                          : S.T == Tensor::B ? PadB
                          : S.T == Tensor::C ? PadC
                                             : PadD;
      uint64_t Bytes;
      if (__builtin_mul_overflow(tensorElems(S.T, KP), uint64_t(elemBytes(S.Type)), &Bytes))
        return usageError("padded problem " + KP.str() + ": tensor " + S.Name +
                          " needs more than 2^64 bytes");
      TG_TRY(alloc(std::string("padded ") + S.Name + " (" + std::to_string(KRows) + " x " +
                       std::to_string(KCols) + " " + elemTypeName(S.Type) + ")",
                   Bytes, Buf));
      TG_TRY(Cu.check(Cu.cuMemsetD8(Buf.Ptr, S.T == Tensor::D ? 0xFF : 0, Buf.Bytes),
                      "cuMemsetD8", std::string("clearing padded ") + S.Name));
    }
    TG_TRY(loadPadKernel());
  }
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
  GemmArgs Args;
  Args.P = KP;
  Args.A = PadA.Ptr ? PadA.Ptr : A.Ptr;
  Args.B = PadB.Ptr ? PadB.Ptr : B.Ptr;
  Args.C = PadC.Ptr ? PadC.Ptr : C.Ptr;
  Args.D = PadD.Ptr ? PadD.Ptr : D.Ptr;
  Args.ScaleA = ScaleA.Ptr;
  Args.ScaleB = ScaleB.Ptr;
  Args.ScaleBTensor = TensorScaleB.Ptr;
  Args.Alpha = Opts.Alpha;
  Args.Beta = Opts.Beta;
  for (const DeviceBuffer &Buf : Scratch)
    Args.Scratch.push_back(Buf.Ptr);
  TG_TRY(checkGemmArgs(Man, Args, /*CheckScratch=*/true));
  return Kernel.buildParams(Args, Grid, Params);
}

/// cuMemcpyHtoD from pageable memory, cuMemsetD8 and cuMemcpyDtoD run on the legacy stream and
/// may still be in flight when they return; kernels run on a non-blocking stream that does not
/// wait for them. Without this, a kernel can read inputs still being copied or have its output
/// overwritten by the poisoning memset (seen on the H200 with several runner processes sharing
/// the GPU).
Error GpuSession::settle(const std::string &What) {
  return Cu.check(Cu.cuCtxSynchronize(), "cuCtxSynchronize", "waiting for " + What);
}

Error GpuSession::loadPadKernel() {
  if (PadTried)
    return Error::success();
  PadTried = true;
  const char *Env = std::getenv("TILEGEN_RUN_PAD_KERNEL");
  if (Env && std::strcmp(Env, "off") != 0 && std::strcmp(Env, "on") != 0)
    return usageError(std::string("TILEGEN_RUN_PAD_KERNEL = '") + Env +
                      "': expected 'on' (the default: --pad copies with tilegen-run's copy "
                      "kernel) or 'off' (with cuMemcpy2DAsync)");
  if (Env && std::strcmp(Env, "off") == 0) {
    PadCopyHow = "cuMemcpy2DAsync (TILEGEN_RUN_PAD_KERNEL=off)";
    return Error::success();
  }
#ifdef TILEGEN_RUN_HAVE_PAD_KERNEL
  CUresult R = Cu.cuModuleLoadData(&PadModule, PadCopyImage);
  if (R != CUDA_SUCCESS) {
    PadModule = nullptr;
    PadCopyHow = "cuMemcpy2DAsync (the copy kernel did not load: " +
                 Cu.describe(R, "cuModuleLoadData") + ")";
    return Error::success();
  }
  R = Cu.cuModuleGetFunction(&PadFn, PadModule, TILEGEN_PAD_COPY_KERNEL);
  if (R != CUDA_SUCCESS) {
    Cu.cuModuleUnload(PadModule);
    PadModule = nullptr;
    PadFn = nullptr;
    PadCopyHow = "cuMemcpy2DAsync (the copy kernel did not load: " +
                 Cu.describe(R, "cuModuleGetFunction(" TILEGEN_PAD_COPY_KERNEL ")") + ")";
    return Error::success();
  }
  PadCopyHow = "kernel";
#else
  PadCopyHow = "cuMemcpy2DAsync (tilegen-run was built without nvcc: no copy kernel)";
#endif
  return Error::success();
}

Error GpuSession::copyPadded(Tensor T, CUdeviceptr Dense, CUdeviceptr Padded, bool ToPadded,
                             TilegenPadCopyArgs &Jobs) {
  // Each tensor is a stack of lines (rows of a row-major tensor, columns of a column-major
  // one) of Ld elements; the padded one has longer lines (KLd) and maybe more of them, and
  // only the first lines' first Ld elements are copied.
  int64_t Rows, Cols, Ld, KRows, KCols, KLd;
  tensorShape(T, P, Man, Rows, Cols, Ld);
  tensorShape(T, KP, Man, KRows, KCols, KLd);
  const bool RowMajor = Man.operand(T).Lay == Layout::Row;
  const uint64_t Bytes = elemBytes(Man.operand(T).Type);
  const uint64_t DensePitch = uint64_t(Ld) * Bytes, PaddedPitch = uint64_t(KLd) * Bytes;
  if (PadFn && (Bytes == 1 || Bytes == 2 || Bytes == 4) &&
      Jobs.NumJobs < TILEGEN_PAD_COPY_MAX_JOBS) {
    Jobs.Jobs[Jobs.NumJobs++] =
        tilegenPadCopyJob(Dense, Padded, int64_t(PaddedPitch), Ld, RowMajor ? Rows : Cols,
                          int64_t(Bytes), ToPadded);
    return Error::success();
  }
  CUDA_MEMCPY2D Copy{};
  Copy.srcMemoryType = Copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  Copy.srcDevice = ToPadded ? Dense : Padded;
  Copy.dstDevice = ToPadded ? Padded : Dense;
  Copy.srcPitch = ToPadded ? DensePitch : PaddedPitch;
  Copy.dstPitch = ToPadded ? PaddedPitch : DensePitch;
  Copy.WidthInBytes = DensePitch;
  Copy.Height = RowMajor ? Rows : Cols;
  return Cu.check(Cu.cuMemcpy2DAsync(&Copy, Stream), "cuMemcpy2DAsync",
                  std::string(ToPadded ? "copying " : "copying back ") + tensorName(T) +
                      (ToPadded ? " into its padded copy (" : " from its padded copy (") +
                      P.str() + " in " + KP.str() + ")");
}

Error GpuSession::launchPadCopies(const TilegenPadCopyArgs &Jobs, const char *What) {
  if (!Jobs.NumJobs)
    return Error::success();
  // checkProblem bounds every tensor's elements, so the chunk counts do not overflow.
  uint64_t Items = 0;
  for (int64_t I = 0; I < Jobs.NumJobs; ++I)
    Items += uint64_t(Jobs.Jobs[I].Items);
  if (!Items)
    return Error::success();
  // A warp per item; eight CTAs of 256 threads fill an SM, more would only queue.
  const uint64_t Warps = TILEGEN_PAD_COPY_THREADS / 32;
  const uint64_t Blocks = (Items + Warps - 1) / Warps;
  const uint64_t MaxGrid = uint64_t(SmCount > 0 ? SmCount : 1) * 8;
  CUlaunchConfig Cfg{};
  Cfg.gridDimX = unsigned(Blocks < MaxGrid ? Blocks : MaxGrid);
  Cfg.gridDimY = Cfg.gridDimZ = 1;
  Cfg.blockDimX = TILEGEN_PAD_COPY_THREADS;
  Cfg.blockDimY = Cfg.blockDimZ = 1;
  Cfg.hStream = Stream;
  TilegenPadCopyArgs Args = Jobs;
  void *Params[1] = {&Args};
  return Cu.check(Cu.cuLaunchKernelEx(&Cfg, PadFn, Params, nullptr), "cuLaunchKernelEx",
                  std::string(What) + " with the copy kernel (" + P.str() + " in " + KP.str() +
                      ")");
}

Error GpuSession::padCopies(bool In, bool Out) {
  // One launch of the copy kernel for the inputs, one for D (or cuMemcpy2DAsync per tensor).
  if (In) {
    TilegenPadCopyArgs Jobs{};
    if (PadA.Ptr)
      TG_TRY(copyPadded(Tensor::A, A.Ptr, PadA.Ptr, true, Jobs));
    if (PadB.Ptr)
      TG_TRY(copyPadded(Tensor::B, B.Ptr, PadB.Ptr, true, Jobs));
    if (PadC.Ptr && Opts.Beta != 0)
      TG_TRY(copyPadded(Tensor::C, C.Ptr, PadC.Ptr, true, Jobs));
    TG_TRY(launchPadCopies(Jobs, "copying the inputs into their padded copies"));
  }
  if (Out && PadD.Ptr) {
    TilegenPadCopyArgs Jobs{};
    TG_TRY(copyPadded(Tensor::D, D.Ptr, PadD.Ptr, false, Jobs));
    TG_TRY(launchPadCopies(Jobs, "copying D back from its padded copy"));
  }
  return Error::success();
}

Error GpuSession::launch() {
  // With --pad the copies are part of every launch, timed with it.
  TG_TRY(padCopies(true, false));
  TG_TRY(Kernel.launch(Params, Grid, Stream));
  return padCopies(false, true);
}

Error GpuSession::sync(const std::string &What) {
  CUresult R = Cu.cuStreamSynchronize(Stream);
  if (R == CUDA_SUCCESS)
    return Error::success();
  return cudaError("kernel fault: " + Cu.describe(R, "cuStreamSynchronize") +
                   " after " + What + " (" + Kernel.launchDescription(Grid) +
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
