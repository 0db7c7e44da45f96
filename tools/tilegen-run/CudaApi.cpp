//===- CudaApi.cpp - The CUDA driver and cuBLAS, loaded at run time -------===//

#include "CudaApi.h"

#include <cstddef>
#include <cstdlib>
#include <dlfcn.h>
#include <vector>

// The hand-written cuBLASLt declarations must match the toolkit's, where it
// has them (the GPU machine's toolkit does; the runner builds without).
#if __has_include(<cublasLt.h>)
#include <cublasLt.h>
namespace {
using tilegen::run::CublasLt;
static_assert(CublasLt::OpT == CUBLAS_OP_T && CublasLt::OpN == CUBLAS_OP_N, "");
static_assert(CublasLt::Compute32F == CUBLAS_COMPUTE_32F, "");
static_assert(CublasLt::DescTransA == CUBLASLT_MATMUL_DESC_TRANSA &&
                  CublasLt::DescTransB == CUBLASLT_MATMUL_DESC_TRANSB, "");
static_assert(CublasLt::DescAScalePointer == CUBLASLT_MATMUL_DESC_A_SCALE_POINTER &&
                  CublasLt::DescBScalePointer == CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
              "");
static_assert(CublasLt::DescAScaleMode == CUBLASLT_MATMUL_DESC_A_SCALE_MODE &&
                  CublasLt::DescBScaleMode == CUBLASLT_MATMUL_DESC_B_SCALE_MODE,
              "");
static_assert(CublasLt::DescFastAccum == CUBLASLT_MATMUL_DESC_FAST_ACCUM, "");
static_assert(CublasLt::PrefMaxWorkspaceBytes == CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
              "");
static_assert(CublasLt::ScaleScalar32F == CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F &&
                  CublasLt::ScaleVec128_32F == CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F &&
                  CublasLt::ScaleBlk128x128_32F ==
                      CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F,
              "");
static_assert(sizeof(CublasLt::Algo) == sizeof(cublasLtMatmulAlgo_t), "");
static_assert(sizeof(CublasLt::HeuristicResult) ==
                      sizeof(cublasLtMatmulHeuristicResult_t) &&
                  offsetof(CublasLt::HeuristicResult, State) ==
                      offsetof(cublasLtMatmulHeuristicResult_t, state) &&
                  offsetof(CublasLt::HeuristicResult, WorkspaceSize) ==
                      offsetof(cublasLtMatmulHeuristicResult_t, workspaceSize),
              "");
} // namespace
#endif

using namespace tilegen::run;

#ifndef TILEGEN_CUDA_LIB_DIR
#define TILEGEN_CUDA_LIB_DIR "/usr/local/cuda/lib64"
#endif

/// dlopens the first of lib<Base>.so.13, .so.12, .so (by the loader's search, then in the CUDA
/// toolkit's library folder) that loads, or the library named by the environment variable
/// `Env` ("none": no library). Null with `Why` set when none loads.
static void *openCudaLibrary(const std::string &Base, const char *Env, std::string &LibName,
                             std::string &Why) {
  const std::string Dir = TILEGEN_CUDA_LIB_DIR;
  std::vector<std::string> Names;
  for (const std::string &Prefix : {std::string(), Dir + "/"})
    for (const char *Suffix : {".so.13", ".so.12", ".so"})
      Names.push_back(Prefix + "lib" + Base + Suffix);
  const char *Named = std::getenv(Env);
  if (Named && *Named) {
    if (std::string(Named) == "none") {
      Why = std::string("disabled by ") + Env + "=none";
      return nullptr;
    }
    Names = {Named};
  }
  void *Lib = nullptr;
  for (const std::string &N : Names) {
    Lib = dlopen(N.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (Lib) {
      LibName = N;
      break;
    }
    const char *E = dlerror();
    if (Why.empty() && E)
      Why = E;
  }
  if (!Lib)
    Why = "cannot load lib" + Base + " (" + Why + ")";
  return Lib;
}

/// A function of a dlopened library and where its address goes.
struct LibSymbol {
  const char *Name;
  void **Slot;
};

/// Looks every symbol up in `Lib`; false, with `Why` naming the first one missing, if any is.
template <size_t N>
static bool resolveSymbols(void *Lib, const std::string &LibName, const LibSymbol (&Syms)[N],
                           std::string &Why) {
  for (const LibSymbol &S : Syms) {
    *S.Slot = dlsym(Lib, S.Name);
    if (!*S.Slot) {
      Why = LibName + " has no symbol " + S.Name;
      return false;
    }
  }
  return true;
}

bool Cublas::load(std::string &Why) {
  // TILEGEN_RUN_LIBCUBLAS names another library, or "none" for no cuBLAS.
  Lib = openCudaLibrary("cublas", "TILEGEN_RUN_LIBCUBLAS", LibName, Why);
  if (!Lib)
    return false;
  const LibSymbol Syms[] = {
      {"cublasCreate_v2", reinterpret_cast<void **>(&Create)},
      {"cublasDestroy_v2", reinterpret_cast<void **>(&Destroy)},
      {"cublasSetStream_v2", reinterpret_cast<void **>(&SetStream)},
      {"cublasSetMathMode", reinterpret_cast<void **>(&SetMathMode)},
      {"cublasGetVersion_v2", reinterpret_cast<void **>(&GetVersion)},
      {"cublasGetStatusString", reinterpret_cast<void **>(&StatusString)},
      {"cublasGemmEx", reinterpret_cast<void **>(&GemmEx)},
  };
  return resolveSymbols(Lib, LibName, Syms, Why);
}

std::string Cublas::describe(Status S) const {
  std::string Str = StatusString ? StatusString(S) : "";
  return "cublasStatus " + std::to_string(S) +
         (Str.empty() ? "" : " (" + Str + ")");
}

bool CublasLt::load(std::string &Why) {
  // TILEGEN_RUN_LIBCUBLASLT names another library, or "none" for no cuBLASLt.
  Lib = openCudaLibrary("cublasLt", "TILEGEN_RUN_LIBCUBLASLT", LibName, Why);
  if (!Lib)
    return false;
  const LibSymbol Syms[] = {
      {"cublasLtCreate", reinterpret_cast<void **>(&Create)},
      {"cublasLtDestroy", reinterpret_cast<void **>(&Destroy)},
      {"cublasLtGetVersion", reinterpret_cast<void **>(&GetVersion)},
      {"cublasLtGetStatusName", reinterpret_cast<void **>(&StatusName)},
      {"cublasLtGetStatusString", reinterpret_cast<void **>(&StatusString)},
      {"cublasLtMatmulDescCreate", reinterpret_cast<void **>(&DescCreate)},
      {"cublasLtMatmulDescDestroy", reinterpret_cast<void **>(&DescDestroy)},
      {"cublasLtMatmulDescSetAttribute",
       reinterpret_cast<void **>(&DescSetAttribute)},
      {"cublasLtMatrixLayoutCreate", reinterpret_cast<void **>(&LayoutCreate)},
      {"cublasLtMatrixLayoutDestroy", reinterpret_cast<void **>(&LayoutDestroy)},
      {"cublasLtMatmulPreferenceCreate", reinterpret_cast<void **>(&PrefCreate)},
      {"cublasLtMatmulPreferenceDestroy",
       reinterpret_cast<void **>(&PrefDestroy)},
      {"cublasLtMatmulPreferenceSetAttribute",
       reinterpret_cast<void **>(&PrefSetAttribute)},
      {"cublasLtMatmulAlgoGetHeuristic",
       reinterpret_cast<void **>(&AlgoGetHeuristic)},
      {"cublasLtMatmul", reinterpret_cast<void **>(&Matmul)},
  };
  return resolveSymbols(Lib, LibName, Syms, Why);
}

std::string CublasLt::describe(Status S, const std::string &Call) const {
  std::string Name = StatusName ? StatusName(S) : "";
  std::string Str = StatusString ? StatusString(S) : "";
  std::string Msg = Call + " failed: ";
  Msg += Name.empty() ? "cublasStatus " + std::to_string(S) : Name;
  if (!Str.empty())
    Msg += " (" + Str + ")";
  return Msg;
}
