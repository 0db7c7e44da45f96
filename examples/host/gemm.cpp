//===- gemm.cpp - Launch a tilegen GEMM from a C++ program ----------------===//
//
//   tilegen-launch-example KERNEL.cubin [--m M] [--n N] [--k K] [--beta B] [--lda-pad P]
//                          [--device D]
//
// Loads a cubin and its manifest (written by `tilegen ... -o KERNEL.cubin`) with
// libtilegen-launch, fills A, B (and C when beta != 0) with small integers,
// launches D = alpha A x B + beta C on a stream, and compares 64 elements of D
// with a host reference. --lda-pad P pads A's rows (or columns) by P elements,
// which kernels that read A through tensor maps alone accept.
//
// Exit codes: 0 the elements match, 1 they do not, 2 an error (printed).
//
//===----------------------------------------------------------------------===//

#include "tilegen/launch.hpp"

#include <cuda.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int fail(const std::string &Message) {
  std::fprintf(stderr, "tilegen-launch-example: error: %s\n", Message.c_str());
  return 2;
}

/// Success, or the driver's name for R.
bool cudaOk(CUresult R, const char *Call, std::string &Why) {
  if (R == CUDA_SUCCESS)
    return true;
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  Why = std::string(Call) + " failed: " + (Name ? Name : "unknown CUresult");
  return false;
}

/// Element types this example fills and reads: 2-byte bf16 and f16, 4-byte f32.
unsigned elemBytes(const std::string &T) {
  if (T == "bf16" || T == "f16")
    return 2;
  if (T == "f32")
    return 4;
  return 0;
}

uint16_t toHalf(float F) {
  // Small integers only (|F| < 2048): exact in f16.
  if (F == 0)
    return 0;
  uint16_t Sign = F < 0 ? 0x8000 : 0;
  float A = std::fabs(F);
  int Exp = 0;
  float Mant = std::frexp(A, &Exp); // A = Mant * 2^Exp, Mant in [0.5, 1)
  uint16_t E = static_cast<uint16_t>(Exp - 1 + 15);
  uint16_t M = static_cast<uint16_t>((Mant * 2 - 1) * 1024);
  return Sign | static_cast<uint16_t>(E << 10) | M;
}

float fromHalf(uint16_t H) {
  int E = (H >> 10) & 0x1F, M = H & 0x3FF;
  float V = E == 0 ? std::ldexp(float(M), -24) : std::ldexp(1.0f + M / 1024.0f, E - 15);
  if (E == 31)
    V = M ? NAN : INFINITY;
  return (H & 0x8000) ? -V : V;
}

void store(std::vector<unsigned char> &Buf, size_t I, const std::string &T, float V) {
  if (T == "f32") {
    std::memcpy(&Buf[I * 4], &V, 4);
    return;
  }
  uint16_t H;
  if (T == "bf16") {
    uint32_t Bits;
    std::memcpy(&Bits, &V, 4);
    H = static_cast<uint16_t>(Bits >> 16); // small integers are exact in bf16
  } else {
    H = toHalf(V);
  }
  std::memcpy(&Buf[I * 2], &H, 2);
}

float load(const std::vector<unsigned char> &Buf, size_t I, const std::string &T) {
  if (T == "f32") {
    float V;
    std::memcpy(&V, &Buf[I * 4], 4);
    return V;
  }
  uint16_t H;
  std::memcpy(&H, &Buf[I * 2], 2);
  if (T == "bf16") {
    uint32_t Bits = uint32_t(H) << 16;
    float V;
    std::memcpy(&V, &Bits, 4);
    return V;
  }
  return fromHalf(H);
}

/// A dense or padded matrix: Rows x Cols, row- or column-major with leading dimension Ld.
struct Matrix {
  int64_t Rows = 0, Cols = 0, Ld = 0;
  bool Row = true;
  std::string Type;
  std::vector<unsigned char> Host;
  CUdeviceptr Dev = 0;

  size_t index(int64_t R, int64_t C) const {
    return Row ? size_t(R) * size_t(Ld) + size_t(C) : size_t(C) * size_t(Ld) + size_t(R);
  }
  size_t bytes() const { return size_t(Row ? Rows : Cols) * size_t(Ld) * elemBytes(Type); }
};

int runGemm(const std::string &Path, int64_t M, int64_t N, int64_t K, int64_t LdaPad,
            bool BetaGiven, double Beta, CUstream Stream);

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2 || std::string(Argv[1]) == "--help")
    return fail("usage: tilegen-launch-example KERNEL.cubin [--m M] [--n N] [--k K] "
                "[--beta B] [--lda-pad P] [--device D]");
  std::string Path = Argv[1];
  int64_t M = 1000, N = 512, K = 256, LdaPad = 0;
  int Device = 0;
  double Beta = 0;
  bool BetaGiven = false;
  for (int I = 2; I < Argc; ++I) {
    std::string Opt = Argv[I];
    if (I + 1 >= Argc)
      return fail("option " + Opt + " needs a value");
    const char *V = Argv[++I];
    if (Opt == "--m")
      M = std::atoll(V);
    else if (Opt == "--n")
      N = std::atoll(V);
    else if (Opt == "--k")
      K = std::atoll(V);
    else if (Opt == "--lda-pad")
      LdaPad = std::atoll(V);
    else if (Opt == "--device")
      Device = std::atoi(V);
    else if (Opt == "--beta")
      Beta = std::atof(V), BetaGiven = true;
    else
      return fail("unknown option " + Opt);
  }

  // The CUDA context the kernel is loaded into and launched in: the device's primary context,
  // as the CUDA runtime (and PyTorch) use it.
  std::string Why;
  CUdevice Dev;
  CUcontext Ctx;
  CUstream Stream;
  if (!cudaOk(cuInit(0), "cuInit", Why) || !cudaOk(cuDeviceGet(&Dev, Device), "cuDeviceGet", Why) ||
      !cudaOk(cuDevicePrimaryCtxRetain(&Ctx, Dev), "cuDevicePrimaryCtxRetain", Why))
    return fail(Why);
  int Code = 2;
  if (!cudaOk(cuCtxSetCurrent(Ctx), "cuCtxSetCurrent", Why) ||
      !cudaOk(cuStreamCreate(&Stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate", Why)) {
    Code = fail(Why);
  } else {
    // The kernel and the buffers live in runGemm, so they are gone before the context.
    Code = runGemm(Path, M, N, K, LdaPad, BetaGiven, Beta, Stream);
    cuStreamDestroy(Stream);
  }
  cuDevicePrimaryCtxRelease(Dev);
  return Code;
}

namespace {
int runGemm(const std::string &Path, int64_t M, int64_t N, int64_t K, int64_t LdaPad,
            bool BetaGiven, double Beta, CUstream Stream) {
  std::string Why;
  auto Kernel = tilegen::Kernel::load(Path);
  if (!Kernel)
    return fail(std::string(Kernel.status().name()) + ": " + Kernel.status().message());
  auto InfoOr = Kernel->info();
  if (!InfoOr)
    return fail(std::string(InfoOr.status().name()) + ": " + InfoOr.status().message());
  const tilegen_kernel_info Info = *InfoOr;
  std::printf("kernel %s (%s): A %s/%s, B %s/%s, C/D %s/%s\n", Info.name, Info.target,
              Info.a_type, Info.a_layout, Info.b_type, Info.b_layout, Info.c_type,
              Info.c_layout);
  if (!elemBytes(Info.a_type) || !elemBytes(Info.b_type) || !elemBytes(Info.c_type) ||
      Info.has_scale_a || Info.has_scale_b)
    return fail(std::string("this example fills bf16, f16 and f32 tensors without scales; ") +
                "kernel " + Info.name + " takes " + Info.a_type + " x " + Info.b_type);

  auto ArgsOr = Kernel->defaultArgs();
  if (!ArgsOr)
    return fail(std::string(ArgsOr.status().name()) + ": " + ArgsOr.status().message());
  tilegen_gemm_args Args = *ArgsOr;
  Args.problem.m = M;
  Args.problem.n = N;
  Args.problem.k = K;
  Args.alpha = 1;
  if (BetaGiven)
    Args.beta = static_cast<float>(Beta);

  Matrix A, B, C, D;
  A.Rows = M, A.Cols = K, A.Row = std::string(Info.a_layout) == "row", A.Type = Info.a_type;
  B.Rows = K, B.Cols = N, B.Row = std::string(Info.b_layout) == "row", B.Type = Info.b_type;
  C.Rows = D.Rows = M, C.Cols = D.Cols = N;
  C.Row = D.Row = std::string(Info.c_layout) == "row";
  C.Type = D.Type = Info.c_type;
  for (Matrix *X : {&A, &B, &C, &D})
    X->Ld = X->Row ? X->Cols : X->Rows;
  A.Ld += LdaPad;
  Args.problem.lda = LdaPad ? A.Ld : 0;

  // Is this GEMM one the kernel takes? Sizes and launch shape first (no memory needed).
  auto Config = Kernel->launchConfig(Args.problem);
  if (!Config)
    return fail(std::string(Config.status().name()) + ": " + Config.status().message());
  std::printf("launch %lldx%lldx%lld: grid %llu, block %ux%ux%u, cluster %ux%ux%u, dynamic smem "
              "%llu bytes, workspace %llu bytes\n",
              (long long)M, (long long)N, (long long)K, (unsigned long long)Config->grid,
              Config->block[0], Config->block[1], Config->block[2], Config->cluster[0],
              Config->cluster[1], Config->cluster[2], (unsigned long long)Config->dynamic_smem,
              (unsigned long long)Config->workspace_bytes);

  // Inputs: integers in [-2, 2], exact in every type, so the products are exact in f32.
  uint64_t Seed = 12345;
  auto next = [&Seed] {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return float(int((Seed >> 33) % 5) - 2);
  };
  const bool NeedC = Args.beta != 0;
  for (Matrix *X : {&A, &B, &C, &D}) {
    if (X == &C && !NeedC)
      continue; // beta = 0: C may be null
    X->Host.assign(X->bytes(), 0);
    if (X != &D)
      for (int64_t R = 0; R < X->Rows; ++R)
        for (int64_t Cc = 0; Cc < X->Cols; ++Cc)
          store(X->Host, X->index(R, Cc), X->Type, next());
    if (!cudaOk(cuMemAlloc(&X->Dev, X->bytes()), "cuMemAlloc", Why) ||
        !cudaOk(cuMemcpyHtoD(X->Dev, X->Host.data(), X->bytes()), "cuMemcpyHtoD", Why))
      return fail(Why);
  }
  Args.a = A.Dev, Args.b = B.Dev, Args.c = C.Dev, Args.d = D.Dev;
  CUdeviceptr Workspace = 0;
  if (Config->workspace_bytes) {
    if (!cudaOk(cuMemAlloc(&Workspace, Config->workspace_bytes), "cuMemAlloc", Why) ||
        (Config->workspace_zeroed &&
         !cudaOk(cuMemsetD8(Workspace, 0, Config->workspace_bytes), "cuMemsetD8", Why)))
      return fail(Why);
    Args.workspace = Workspace;
  }
  // The copies above run on the legacy stream; the kernel's stream does not wait for them.
  if (!cudaOk(cuCtxSynchronize(), "cuCtxSynchronize", Why))
    return fail(Why);

  if (tilegen::Status S = Kernel->launch(Args, Stream); !S)
    return fail(std::string(S.name()) + ": " + S.message());
  if (!cudaOk(cuStreamSynchronize(Stream), "cuStreamSynchronize (the kernel)", Why) ||
      !cudaOk(cuMemcpyDtoH(D.Host.data(), D.Dev, D.bytes()), "cuMemcpyDtoH", Why))
    return fail(Why);

  // 64 elements: the four corners and the rest spread over D.
  const double Tol = D.Type == "bf16" ? 1.0 / 128 : D.Type == "f16" ? 1.0 / 1024 : 1e-6;
  int Bad = 0, Checked = 0;
  for (int I = 0; I < 64; ++I) {
    int64_t R = I < 4 ? (I < 2 ? 0 : M - 1) : (int64_t(I) * 7919) % M;
    int64_t Cc = I < 4 ? (I % 2 ? N - 1 : 0) : (int64_t(I) * 104729) % N;
    double Ref = 0;
    for (int64_t L = 0; L < K; ++L)
      Ref += double(load(A.Host, A.index(R, L), A.Type)) * load(B.Host, B.index(L, Cc), B.Type);
    Ref *= Args.alpha;
    if (NeedC)
      Ref += double(Args.beta) * load(C.Host, C.index(R, Cc), C.Type);
    const double Got = load(D.Host, D.index(R, Cc), D.Type);
    ++Checked;
    if (!(std::fabs(Got - Ref) <= Tol * std::fabs(Ref) + 1e-6)) {
      if (Bad++ < 5)
        std::printf("  D[%lld, %lld] = %g, expected %g\n", (long long)R, (long long)Cc, Got, Ref);
    }
  }
  std::printf("checked %d elements of D against the host reference: %s\n", Checked,
              Bad ? "MISMATCH" : "all match");

  for (Matrix *X : {&A, &B, &C, &D})
    if (X->Dev)
      cuMemFree(X->Dev);
  if (Workspace)
    cuMemFree(Workspace);
  return Bad ? 1 : 0;
}
} // namespace
