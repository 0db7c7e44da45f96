//===- LaunchApi.cpp - The C API of libtilegen-launch ---------------------===//
//
// Handles, status codes and messages over Launcher.h. Every entry point
// returns a status; messages go to the calling thread's last error and, for
// calls on a kernel, to the kernel. Host allocation failures (std::bad_alloc,
// when the library is built with exceptions) are caught at the boundary.
//
//===----------------------------------------------------------------------===//

#include "tilegen/launch.h"
#include "tilegen/Support/MicroScaling.h"

#include "Cubin.h"
#include "FileIO.h"
#include "Launcher.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <condition_variable>
#include <mutex>
#include <new>
#include <unordered_set>
#include <vector>

using namespace tilegen::run;

struct tilegen_kernel {
  Manifest Man;
  DeviceFacts Dev;
  LoadedKernel Kernel;
  std::string ATypeName, BTypeName, CTypeName;

  mutable std::mutex Mu;
  mutable std::string LastError;
  /// Calls running on the kernel (guarded by liveMutex): tilegen_kernel_destroy waits for 0.
  mutable int Users = 0;
};

namespace {

thread_local std::string ThreadError;

tilegen_status statusOf(const Error &E) {
  switch (E.kind()) {
  case ErrorKind::Io:
    return TILEGEN_ERROR_IO;
  case ErrorKind::Manifest:
    return TILEGEN_ERROR_MANIFEST;
  case ErrorKind::Cubin:
    return TILEGEN_ERROR_CUBIN;
  case ErrorKind::Target:
    return TILEGEN_ERROR_TARGET;
  case ErrorKind::Problem:
    return TILEGEN_ERROR_PROBLEM;
  case ErrorKind::Argument:
    return TILEGEN_ERROR_POINTER;
  case ErrorKind::NoDriver:
    return TILEGEN_ERROR_NO_DRIVER;
  case ErrorKind::NoContext:
    return TILEGEN_ERROR_NO_CONTEXT;
  case ErrorKind::Cuda:
    return TILEGEN_ERROR_CUDA;
  case ErrorKind::Value:
    return TILEGEN_ERROR_INVALID_ARGUMENT;
  case ErrorKind::Unspecified:
    break;
  }
  return TILEGEN_ERROR_INTERNAL;
}

/// The kernels loaded and not yet destroyed: a handle that is not one of them (destroyed,
/// destroyed twice, or never returned by a load) is refused rather than read.
std::mutex &liveMutex() {
  static std::mutex Mu;
  return Mu;
}
std::unordered_set<const tilegen_kernel *> &liveKernels() {
  static std::unordered_set<const tilegen_kernel *> Live;
  return Live;
}
bool alive(const tilegen_kernel *K) {
  std::lock_guard<std::mutex> Lock(liveMutex());
  return liveKernels().count(K) != 0;
}
std::condition_variable &idle() {
  static std::condition_variable Cv;
  return Cv;
}

/// Holds a kernel for one call: tilegen_kernel_destroy in another thread waits until the call
/// returns, so the call never reads a kernel that is being unloaded. False when the handle is
/// not a loaded kernel.
class Pin {
public:
  explicit Pin(const tilegen_kernel *K) : K(K) {
    std::lock_guard<std::mutex> Lock(liveMutex());
    Held = K && liveKernels().count(K) != 0;
    if (Held)
      ++K->Users;
  }
  ~Pin() {
    if (!Held)
      return;
    std::lock_guard<std::mutex> Lock(liveMutex());
    if (--K->Users == 0)
      idle().notify_all();
  }
  Pin(const Pin &) = delete;
  Pin &operator=(const Pin &) = delete;
  explicit operator bool() const { return Held; }

private:
  const tilegen_kernel *K;
  bool Held = false;
};

/// A kernel's memory is kept after tilegen_kernel_destroy (its contents are destroyed): a later
/// kernel never gets the address of a destroyed one, so a stale handle is refused rather than
/// taken for another kernel.
tilegen_kernel *newKernel() {
  void *Mem = ::operator new(sizeof(tilegen_kernel), std::nothrow);
  return Mem ? new (Mem) tilegen_kernel : nullptr;
}
/// The memory of the destroyed kernels, held (and reachable, for leak checkers) until the
/// process ends; guarded by liveMutex.
std::vector<void *> &destroyedKernels() {
  // Never destroyed: a static vector would free its buffer at exit, before a leak checker runs.
  static auto *Kept = new std::vector<void *>;
  return *Kept;
}

/// Records a failure for this thread (and the kernel, when given).
tilegen_status fail(const tilegen_kernel *K, tilegen_status S, const std::string &Message) {
  ThreadError = "libtilegen-launch: " + Message;
  if (K && alive(K)) {
    std::lock_guard<std::mutex> Lock(K->Mu);
    K->LastError = ThreadError;
  }
  return S;
}

tilegen_status fail(const tilegen_kernel *K, const Error &E) {
  return fail(K, statusOf(E), E.message());
}

tilegen_status notAlive(const char *Fn) {
  return fail(nullptr, TILEGEN_ERROR_INVALID_ARGUMENT,
              std::string(Fn) + ": kernel is not a loaded kernel (destroyed, or not returned "
                                "by tilegen_kernel_load)");
}

/// The driver, loaded once per process and never unloaded.
const Driver *driver(Error &Out) {
  static Driver Cu;
  static Error LoadError = Error::success();
  static std::once_flag Once;
  std::call_once(Once, [] {
    Error E = Cu.load("libtilegen-launch");
    if (E)
      LoadError = std::move(E).withKind(ErrorKind::NoDriver);
  });
  if (LoadError) {
    Out = Error(LoadError.code(), LoadError.message(), LoadError.kind());
    return nullptr;
  }
  return &Cu;
}

/// Loads Man (read and parsed, its image checked) into the current context.
tilegen_status loadInto(Manifest &&Man, tilegen_kernel **Out) {
  Error E = Error::success();
  const Driver *Cu = driver(E);
  if (!Cu)
    return fail(nullptr, E);
  CUcontext Ctx = nullptr;
  if (Error E2 = Cu->check(Cu->cuCtxGetCurrent(&Ctx), "cuCtxGetCurrent"))
    return fail(nullptr, std::move(E2).withKind(ErrorKind::Cuda));
  if (!Ctx)
    return fail(nullptr, TILEGEN_ERROR_NO_CONTEXT,
                "no CUDA context is current on this thread: make one current before loading "
                "a kernel (cuCtxSetCurrent, cuDevicePrimaryCtxRetain, or any CUDA runtime "
                "call such as cudaSetDevice or cudaFree(0))");
  CUdevice Dev = 0;
  if (Error E2 = Cu->check(Cu->cuCtxGetDevice(&Dev), "cuCtxGetDevice"))
    return fail(nullptr, std::move(E2).withKind(ErrorKind::Cuda));

  tilegen_kernel *K = newKernel();
  if (!K)
    return fail(nullptr, TILEGEN_ERROR_INTERNAL, "out of host memory");
  K->Man = std::move(Man);
  Error Loaded = queryDeviceFacts(*Cu, Dev, static_cast<int>(Dev), K->Dev);
  if (!Loaded)
    Loaded = checkTarget(K->Man, K->Dev);
  if (!Loaded)
    Loaded = K->Kernel.load(*Cu, K->Man, K->Dev);
  if (Loaded) {
    tilegen_status S = fail(nullptr, Loaded);
    K->~tilegen_kernel(); // never handed out: its memory may be reused
    ::operator delete(K);
    return S;
  }
  K->ATypeName = elemTypeName(K->Man.A.Type);
  K->BTypeName = elemTypeName(K->Man.B.Type);
  K->CTypeName = elemTypeName(K->Man.C.Type);
  {
    std::lock_guard<std::mutex> Lock(liveMutex());
    liveKernels().insert(K);
  }
  *Out = K;
  return TILEGEN_OK;
}

/// Runs Body, turning a host allocation failure into a status.
template <typename Fn>
tilegen_status guarded(const tilegen_kernel *K, Fn Body) {
#if defined(__cpp_exceptions)
  try {
    return Body();
  } catch (const std::bad_alloc &) {
    return fail(K, TILEGEN_ERROR_INTERNAL, "out of host memory");
  } catch (...) {
    return fail(K, TILEGEN_ERROR_INTERNAL, "unexpected C++ exception");
  }
#else
  return Body();
#endif
}

GemmArgs toGemmArgs(const tilegen_gemm_args &A) {
  GemmArgs G;
  G.P.M = A.problem.m;
  G.P.N = A.problem.n;
  G.P.K = A.problem.k;
  G.Ld[0] = A.problem.lda;
  G.Ld[1] = A.problem.ldb;
  G.Ld[2] = A.problem.ldc;
  G.Ld[3] = A.problem.ldd;
  G.A = A.a;
  G.B = A.b;
  G.C = A.c;
  G.D = A.d;
  G.ScaleA = A.scale_a;
  G.ScaleB = A.scale_b;
  G.ScaleBTensor = A.scale_b_tensor;
  G.Alpha = A.alpha;
  G.Beta = A.beta;
  return G;
}

/// The problem's sizes and grid; Grid is set on success.
Error checkSizes(const tilegen_kernel &K, const Problem &P, uint64_t &Grid) {
  TG_TRY(checkProblem(K.Man, P).withKind(ErrorKind::Problem));
  return K.Kernel.grid(P, Grid);
}

/// Scratch slices: each scratch parameter's grid x bytes_per_cta bytes, at
/// 256-byte offsets of one workspace. Total is the workspace's size.
Error scratchLayout(const Manifest &Man, uint64_t Grid, std::vector<uint64_t> &Offsets,
                    uint64_t &Total, bool &Zeroed) {
  Offsets.assign(Man.Params.size(), 0);
  Total = 0;
  Zeroed = false;
  for (size_t I = 0; I < Man.Params.size(); ++I) {
    const Param &Pa = Man.Params[I];
    if (Pa.Kind != ParamKind::Scratch)
      continue;
    uint64_t Bytes, End;
    Total = (Total + 255) / 256 * 256;
    if (!scratchBytes(Pa, Grid, Bytes) || __builtin_add_overflow(Total, Bytes, &End))
      return Error(ExitUsage,
                   "the workspace of scratch param '" + Pa.Name + "' (" +
                       std::to_string(Grid) + " CTAs x " + std::to_string(Pa.BytesPerCta) +
                       " bytes) needs more than 2^64 bytes",
                   ErrorKind::Problem);
    Offsets[I] = Total;
    Total = End;
    Zeroed |= Pa.Zero;
  }
  return Error::success();
}

/// A float as %g writes it with every digit an f32 needs.
std::string shortFloat(float V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.9g", static_cast<double>(V));
  return Buf;
}

/// Everything launch does before the launch itself: Grid and Args are ready.
Error prepare(const tilegen_kernel &K, const tilegen_gemm_args &In, GemmArgs &Args,
              uint64_t &Grid) {
  Args = toGemmArgs(In);
  // alpha and beta as tilegen-run and the Python package take them: finite, and 0 or a normal
  // f32 number (a subnormal is taken only as the manifest's own default).
  for (auto [Name, V, Default] : {std::tuple{"alpha", In.alpha, static_cast<float>(K.Man.Alpha)},
                                  std::tuple{"beta", In.beta, static_cast<float>(K.Man.Beta)}}) {
    if (!std::isfinite(V))
      return Error(ExitUsage,
                   std::string(Name) + " = " + shortFloat(V) + " is not a finite number",
                   ErrorKind::Value);
    if (V != 0 && std::fabs(V) < FLT_MIN && V != Default)
      return Error(ExitUsage,
                   std::string(Name) + " = " + shortFloat(V) +
                       " is below the smallest normal f32 number (1.1754944e-38): the kernel "
                       "would take it as a subnormal or 0; pass 0 or a normal number",
                   ErrorKind::Value);
  }
  TG_TRY(checkSizes(K, Args.P, Grid));
  std::vector<uint64_t> Offsets;
  uint64_t Total = 0;
  bool Zeroed = false;
  TG_TRY(scratchLayout(K.Man, Grid, Offsets, Total, Zeroed));
  // As for scales: a workspace given to a kernel that takes none is a mistake of the caller's
  // (another kernel's arguments), not something to ignore.
  if (!Total && In.workspace)
    return Error(ExitUsage,
                 "workspace is given, but kernel " + K.Man.Kernel +
                     " takes none (its launch config's workspace_bytes is 0); pass 0",
                 ErrorKind::Argument);
  if (Total && In.workspace) {
    Args.Scratch.assign(K.Man.Params.size(), 0);
    for (size_t I = 0; I < K.Man.Params.size(); ++I)
      if (K.Man.Params[I].Kind == ParamKind::Scratch)
        Args.Scratch[I] = In.workspace + Offsets[I];
  }
  return checkGemmArgs(K.Man, Args, /*CheckScratch=*/true);
}

} // namespace

extern "C" {

int tilegen_launch_api_version(void) { return TILEGEN_LAUNCH_API_VERSION; }

const char *tilegen_status_name(tilegen_status S) {
  switch (S) {
  case TILEGEN_OK:
    return "TILEGEN_OK";
  case TILEGEN_ERROR_INVALID_ARGUMENT:
    return "TILEGEN_ERROR_INVALID_ARGUMENT";
  case TILEGEN_ERROR_IO:
    return "TILEGEN_ERROR_IO";
  case TILEGEN_ERROR_MANIFEST:
    return "TILEGEN_ERROR_MANIFEST";
  case TILEGEN_ERROR_CUBIN:
    return "TILEGEN_ERROR_CUBIN";
  case TILEGEN_ERROR_TARGET:
    return "TILEGEN_ERROR_TARGET";
  case TILEGEN_ERROR_PROBLEM:
    return "TILEGEN_ERROR_PROBLEM";
  case TILEGEN_ERROR_POINTER:
    return "TILEGEN_ERROR_POINTER";
  case TILEGEN_ERROR_NO_DRIVER:
    return "TILEGEN_ERROR_NO_DRIVER";
  case TILEGEN_ERROR_NO_CONTEXT:
    return "TILEGEN_ERROR_NO_CONTEXT";
  case TILEGEN_ERROR_CUDA:
    return "TILEGEN_ERROR_CUDA";
  case TILEGEN_ERROR_INTERNAL:
    return "TILEGEN_ERROR_INTERNAL";
  }
  return "TILEGEN_ERROR_UNKNOWN";
}

const char *tilegen_last_error(void) { return ThreadError.c_str(); }

tilegen_status tilegen_kernel_load(const char *Path, tilegen_kernel **Out) {
  if (!Out)
    return fail(nullptr, TILEGEN_ERROR_INVALID_ARGUMENT, "tilegen_kernel_load: out is null");
  *Out = nullptr;
  if (!Path || !*Path)
    return fail(nullptr, TILEGEN_ERROR_INVALID_ARGUMENT,
                "tilegen_kernel_load: path is null or empty");
  return guarded(nullptr, [&] {
    Manifest Man;
    if (Error E = loadManifest(Path, Man))
      return fail(nullptr, E);
    return loadInto(std::move(Man), Out);
  });
}

tilegen_status tilegen_kernel_load_data(const char *ManifestText, size_t ManifestSize,
                                        const void *Cubin, size_t CubinSize,
                                        tilegen_kernel **Out) {
  if (!Out)
    return fail(nullptr, TILEGEN_ERROR_INVALID_ARGUMENT,
                "tilegen_kernel_load_data: out is null");
  *Out = nullptr;
  if (!ManifestText || !Cubin)
    return fail(nullptr, TILEGEN_ERROR_INVALID_ARGUMENT,
                std::string("tilegen_kernel_load_data: ") +
                    (!ManifestText ? "manifest" : "cubin") + " is null");
  return guarded(nullptr, [&] {
    Manifest Man;
    if (ManifestSize > MaxManifestBytes)
      return fail(nullptr, TILEGEN_ERROR_MANIFEST,
                  "manifest <memory> has " + std::to_string(ManifestSize) +
                      " bytes, more than the " + byteSizeText(MaxManifestBytes) +
                      " a manifest may have");
    if (CubinSize > MaxCubinBytes)
      return fail(nullptr, TILEGEN_ERROR_CUBIN,
                  "cubin <memory> has " + std::to_string(CubinSize) +
                      " bytes, more than the " + byteSizeText(MaxCubinBytes) +
                      " a cubin may have");
    Man.Path = "<memory>";
    if (Error E = parseManifest(std::string(ManifestText, ManifestSize), Man.Path, Man))
      return fail(nullptr, std::move(E).withKind(ErrorKind::Manifest));
    Man.CubinPath = "<memory>";
    Man.CubinImage.assign(static_cast<const char *>(Cubin), CubinSize);
    if (Error E = checkCubinImage(Man.CubinImage, Man.CubinPath, Man.Target.Name))
      return fail(nullptr, std::move(E).withKind(ErrorKind::Cubin));
    return loadInto(std::move(Man), Out);
  });
}

void tilegen_kernel_destroy(tilegen_kernel *K) {
  if (!K)
    return;
  {
    std::unique_lock<std::mutex> Lock(liveMutex());
    if (!liveKernels().erase(K))
      return; // destroyed already, or no kernel of this library
    // New calls are refused from here; the ones running finish first.
    idle().wait(Lock, [&] { return K->Users == 0; });
    destroyedKernels().push_back(K);
  }
  K->~tilegen_kernel(); // unloads the module; the memory stays (newKernel)
}

const char *tilegen_kernel_error(const tilegen_kernel *K) {
  Pin Pinned(K);
  if (!Pinned)
    return "";
  // A copy per thread: another thread's failing call on the kernel rewrites LastError, so
  // the kernel's own string could change under the caller.
  static thread_local std::string Copy;
  std::lock_guard<std::mutex> Lock(K->Mu);
  Copy = K->LastError;
  return Copy.c_str();
}

tilegen_status tilegen_kernel_get_info(const tilegen_kernel *K, tilegen_kernel_info *Out) {
  if (!K || !Out)
    return fail(K, TILEGEN_ERROR_INVALID_ARGUMENT,
                std::string("tilegen_kernel_get_info: ") + (!K ? "kernel" : "out") +
                    " is null");
  Pin Pinned(K);
  if (!Pinned)
    return notAlive("tilegen_kernel_get_info");
  const Manifest &M = K->Man;
  std::memset(Out, 0, sizeof(*Out));
  Out->name = M.Kernel.c_str();
  Out->target = M.Target.Name.c_str();
  Out->a_type = K->ATypeName.c_str();
  Out->b_type = K->BTypeName.c_str();
  Out->c_type = K->CTypeName.c_str();
  Out->a_layout = layoutName(M.A.Lay);
  Out->b_layout = layoutName(M.B.Lay);
  Out->c_layout = layoutName(M.C.Lay);
  Out->description = M.Description.c_str();
  for (int I = 0; I < 3; ++I) {
    Out->block[I] = M.Block[I];
    Out->cluster[I] = M.Cluster[I];
  }
  Out->tile_m = M.TileM;
  Out->tile_n = M.TileN;
  Out->dynamic_smem = M.DynamicSmem;
  Out->has_scale_a = M.A.Scale.present();
  Out->has_scale_b = M.B.Scale.present();
  Out->has_scale_b_tensor = M.B.Scale.SecondLevel;
  for (const Param &Pa : M.Params)
    Out->has_workspace |= Pa.Kind == ParamKind::Scratch;
  Out->alpha = static_cast<float>(M.Alpha);
  Out->beta = static_cast<float>(M.Beta);
  return TILEGEN_OK;
}

tilegen_status tilegen_gemm_args_init(const tilegen_kernel *K, tilegen_gemm_args *Args) {
  if (!K || !Args)
    return fail(K, TILEGEN_ERROR_INVALID_ARGUMENT,
                std::string("tilegen_gemm_args_init: ") + (!K ? "kernel" : "args") +
                    " is null");
  Pin Pinned(K);
  if (!Pinned)
    return notAlive("tilegen_gemm_args_init");
  std::memset(Args, 0, sizeof(*Args));
  Args->alpha = static_cast<float>(K->Man.Alpha);
  Args->beta = static_cast<float>(K->Man.Beta);
  return TILEGEN_OK;
}

tilegen_status tilegen_kernel_launch_config(tilegen_kernel *K, const tilegen_problem *P,
                                            tilegen_launch_config *Out) {
  if (!K || !P || !Out)
    return fail(K, TILEGEN_ERROR_INVALID_ARGUMENT,
                std::string("tilegen_kernel_launch_config: ") +
                    (!K ? "kernel" : !P ? "problem" : "out") + " is null");
  Pin Pinned(K);
  if (!Pinned)
    return notAlive("tilegen_kernel_launch_config");
  return guarded(K, [&] {
    Problem Pr;
    Pr.M = P->m;
    Pr.N = P->n;
    Pr.K = P->k;
    uint64_t Grid = 0, Total = 0;
    bool Zeroed = false;
    std::vector<uint64_t> Offsets;
    if (Error E = checkSizes(*K, Pr, Grid))
      return fail(K, E);
    if (Error E = scratchLayout(K->Man, Grid, Offsets, Total, Zeroed))
      return fail(K, E);
    std::memset(Out, 0, sizeof(*Out));
    Out->grid = Grid;
    for (int I = 0; I < 3; ++I) {
      Out->block[I] = K->Man.Block[I];
      Out->cluster[I] = K->Man.Cluster[I];
    }
    Out->dynamic_smem = K->Man.DynamicSmem;
    Out->workspace_bytes = Total;
    Out->workspace_zeroed = Zeroed;
    return TILEGEN_OK;
  });
}

tilegen_status tilegen_kernel_padded_problem(tilegen_kernel *K, const tilegen_problem *P,
                                             tilegen_problem *Out) {
  if (!K || !P || !Out)
    return fail(K, TILEGEN_ERROR_INVALID_ARGUMENT,
                std::string("tilegen_kernel_padded_problem: ") +
                    (!K ? "kernel" : !P ? "problem" : "out") + " is null");
  Pin Pinned(K);
  if (!Pinned)
    return notAlive("tilegen_kernel_padded_problem");
  return guarded(K, [&] {
    Problem Pr, Padded;
    Pr.M = P->m;
    Pr.N = P->n;
    Pr.K = P->k;
    uint64_t Grid = 0;
    if (Error E = paddedProblem(K->Man, Pr, Padded))
      return fail(K, std::move(E).withKind(ErrorKind::Problem));
    // The caller passes scale tensors of the problem's own shape: block scales along M (A) or
    // N (B) would change their shape, and the kernel would read past them.
    for (auto [T, Outer, Given, To] :
         {std::tuple{Tensor::A, "M", Pr.M, Padded.M}, std::tuple{Tensor::B, "N", Pr.N, Padded.N}})
      if (K->Man.operand(T).Scale.Gran == ScaleGranularity::Block && Given != To)
        return fail(K, TILEGEN_ERROR_PROBLEM,
                    std::string("kernel ") + K->Man.Kernel + " scales " + tensorName(T) +
                        " per block of " + Outer + ", so " + Outer + " = " +
                        std::to_string(Given) + " cannot be padded to " + std::to_string(To) +
                        " (the scale tensor would change its shape)");
    if (Error E = checkSizes(*K, Padded, Grid))
      return fail(K, E);
    std::memset(Out, 0, sizeof(*Out));
    Out->m = Padded.M;
    Out->n = Padded.N;
    Out->k = Padded.K;
    return TILEGEN_OK;
  });
}

tilegen_status tilegen_kernel_check(tilegen_kernel *K, const tilegen_gemm_args *In) {
  if (!K || !In)
    return fail(K, TILEGEN_ERROR_INVALID_ARGUMENT,
                std::string("tilegen_kernel_check: ") + (!K ? "kernel" : "args") + " is null");
  Pin Pinned(K);
  if (!Pinned)
    return notAlive("tilegen_kernel_check");
  return guarded(K, [&] {
    GemmArgs Args;
    uint64_t Grid = 0;
    if (Error E = prepare(*K, *In, Args, Grid))
      return fail(K, E);
    return TILEGEN_OK;
  });
}

tilegen_status tilegen_kernel_launch(tilegen_kernel *K, const tilegen_gemm_args *In,
                                     struct CUstream_st *Stream) {
  if (!K || !In)
    return fail(K, TILEGEN_ERROR_INVALID_ARGUMENT,
                std::string("tilegen_kernel_launch: ") + (!K ? "kernel" : "args") +
                    " is null");
  Pin Pinned(K);
  if (!Pinned)
    return notAlive("tilegen_kernel_launch");
  return guarded(K, [&] {
    GemmArgs Args;
    uint64_t Grid = 0;
    if (Error E = prepare(*K, *In, Args, Grid))
      return fail(K, E);
    ParamBlock Block;
    if (Error E = K->Kernel.buildParams(Args, Grid, Block))
      return fail(K, E);
    if (Error E = K->Kernel.launch(Block, Grid, Stream))
      return fail(K, E);
    return TILEGEN_OK;
  });
}

tilegen_status tilegen_quantize_mx(const char *Format, const double *X, int64_t Rows,
                                   int64_t K, uint8_t *Elements, uint8_t *Scales) {
  namespace mx = tilegen::mx;
  if (!Format || !X || !Elements || !Scales)
    return fail(nullptr, TILEGEN_ERROR_INVALID_ARGUMENT,
                std::string("tilegen_quantize_mx: ") +
                    (!Format ? "format" : !X ? "x" : !Elements ? "elements" : "scales") +
                    " is null");
  mx::Format F;
  const std::string Name = Format;
  if (!mx::parseFormat(Name, F) || F == mx::Format::E8M0)
    return fail(nullptr, TILEGEN_ERROR_INVALID_ARGUMENT,
                "tilegen_quantize_mx: format '" + Name.substr(0, 80) +
                    "' is not an MX element format: expected \"e2m1\", \"e4m3\", \"e5m2\", "
                    "\"e2m3\" or \"e3m2\"");
  uint64_t Count;
  if (Rows < 1 || K < 1 ||
      __builtin_mul_overflow(uint64_t(Rows), uint64_t(K), &Count) ||
      Count > uint64_t(SIZE_MAX) / sizeof(double))
    return fail(nullptr, TILEGEN_ERROR_INVALID_ARGUMENT,
                "tilegen_quantize_mx: rows = " + std::to_string(Rows) + ", k = " +
                    std::to_string(K) +
                    ": each must be at least 1, and rows x k doubles must fit in memory");
  return guarded(nullptr, [&] {
    constexpr int64_t Block = 32;
    const int64_t Blocks = (K + Block - 1) / Block;
    const bool Packed = mx::formatInfo(F).bits == 4;
    if (Packed)
      std::memset(Elements, 0, size_t(Count / 2 + Count % 2));
    uint8_t Codes[Block];
    for (int64_t R = 0; R < Rows; ++R)
      for (int64_t B = 0; B < Blocks; ++B) {
        const int64_t First = B * Block, N = std::min<int64_t>(Block, K - First);
        const uint64_t Base = uint64_t(R) * uint64_t(K) + uint64_t(First);
        mx::quantiseMxBlock(X + Base, size_t(N), F, Scales[uint64_t(B) * uint64_t(Rows) + R],
                            Codes);
        for (int64_t I = 0; I < N; ++I) {
          const uint64_t At = Base + uint64_t(I);
          if (Packed)
            Elements[At / 2] |= uint8_t((Codes[I] & 0xF) << (4 * (At % 2)));
          else
            Elements[At] = Codes[I];
        }
      }
    return TILEGEN_OK;
  });
}

} // extern "C"
