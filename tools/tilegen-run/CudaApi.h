//===- CudaApi.h - The CUDA driver and cuBLAS, loaded at run time -*- C++ -*-===//
//
// tilegen-run links neither libcuda nor libcublas: it dlopens them, so that it
// builds and starts on machines without a GPU and says so there. The driver is
// loaded by the launch library (lib/Launch/Driver.h); cuBLAS and cuBLASLt,
// which only the runner uses, are loaded here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_CUDAAPI_H
#define TILEGEN_RUN_CUDAAPI_H

#include "Driver.h"
#include "Error.h"

#include <cuda.h>
#include <library_types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace tilegen {
namespace run {

/// The subset of cuBLAS used as reference and baseline (types as in
/// cublas_api.h; declared here so no cuBLAS header is needed).
struct Cublas {
  using Handle = void *;
  using Status = int; // cublasStatus_t
  using CreateFn = Status (*)(Handle *);
  using DestroyFn = Status (*)(Handle);
  using SetStreamFn = Status (*)(Handle, CUstream);
  using SetMathModeFn = Status (*)(Handle, int);
  using GetVersionFn = Status (*)(Handle, int *);
  using StatusStringFn = const char *(*)(Status);
  /// cublasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B,
  /// Btype, ldb, beta, C, Ctype, ldc, computeType, algo).
  using GemmExFn = Status (*)(Handle, int, int, int, int, int, const void *,
                              const void *, cudaDataType, int, const void *,
                              cudaDataType, int, const void *, void *,
                              cudaDataType, int, int, int);
  static constexpr int OpN = 0, OpT = 1;         // CUBLAS_OP_N, CUBLAS_OP_T
  static constexpr int Compute32F = 68;          // CUBLAS_COMPUTE_32F
  static constexpr int GemmDefault = -1;         // CUBLAS_GEMM_DEFAULT
  static constexpr int DefaultMath = 0;          // CUBLAS_DEFAULT_MATH
  static constexpr int PedanticMath = 2;         // CUBLAS_PEDANTIC_MATH

  CreateFn Create = nullptr;
  DestroyFn Destroy = nullptr;
  SetStreamFn SetStream = nullptr;
  SetMathModeFn SetMathMode = nullptr;
  GetVersionFn GetVersion = nullptr;
  StatusStringFn StatusString = nullptr;
  GemmExFn GemmEx = nullptr;
  void *Lib = nullptr;
  std::string LibName;
  int LibVersion = 0;

  /// dlopens libcublas (13, 12, then unversioned; also the build's CUDA lib
  /// dir). On failure returns false and says why in Why.
  bool load(std::string &Why);
  std::string describe(Status S) const;
};

/// The subset of cuBLASLt used as the fp8 reference and baseline (types and
/// values as in cublasLt.h, declared here so no cuBLAS header is needed;
/// CudaApi.cpp checks them against cublasLt.h where the toolkit has it).
struct CublasLt {
  using Status = int; // cublasStatus_t
  using Handle = void *;
  struct Algo { // cublasLtMatmulAlgo_t
    uint64_t Data[8];
  };
  struct HeuristicResult { // cublasLtMatmulHeuristicResult_t
    Algo Algorithm;
    size_t WorkspaceSize;
    Status State;
    float WavesCount;
    int Reserved[4];
  };
  using CreateFn = Status (*)(Handle *);
  using DestroyFn = Status (*)(Handle);
  using GetVersionFn = size_t (*)();
  using StatusTextFn = const char *(*)(Status);
  /// cublasLtMatmulDescCreate(desc, computeType, scaleType).
  using DescCreateFn = Status (*)(void **, int, cudaDataType);
  using ObjDestroyFn = Status (*)(void *);
  /// cublasLt{MatmulDesc,MatmulPreference}SetAttribute(obj, attr, buf, size).
  using SetAttrFn = Status (*)(void *, int, const void *, size_t);
  /// cublasLtMatrixLayoutCreate(layout, type, rows, cols, ld).
  using LayoutCreateFn = Status (*)(void **, cudaDataType, uint64_t, uint64_t,
                                    int64_t);
  using PrefCreateFn = Status (*)(void **);
  /// cublasLtMatmulAlgoGetHeuristic(handle, op, A, B, C, D, pref, requested,
  /// results, returned).
  using HeuristicFn = Status (*)(Handle, void *, void *, void *, void *,
                                 void *, void *, int, HeuristicResult *, int *);
  /// cublasLtMatmul(handle, op, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D,
  /// Ddesc, algo, workspace, workspaceBytes, stream).
  using MatmulFn = Status (*)(Handle, void *, const void *, const void *,
                              void *, const void *, void *, const void *,
                              const void *, void *, void *, void *,
                              const Algo *, void *, size_t, CUstream);

  static constexpr int OpN = 0, OpT = 1;  // CUBLAS_OP_N, CUBLAS_OP_T
  static constexpr int Compute32F = 68;   // CUBLAS_COMPUTE_32F
  // cublasLtMatmulDescAttributes_t
  static constexpr int DescTransA = 3, DescTransB = 4;
  static constexpr int DescAScalePointer = 17, DescBScalePointer = 18;
  static constexpr int DescAScaleMode = 31, DescBScaleMode = 32;
  static constexpr int DescFastAccum = 25;
  // cublasLtMatmulPreferenceAttributes_t
  static constexpr int PrefMaxWorkspaceBytes = 1;
  // cublasLtMatmulMatrixScale_t
  static constexpr int ScaleScalar32F = 0, ScaleVec128_32F = 4,
                       ScaleBlk128x128_32F = 5;

  CreateFn Create = nullptr;
  DestroyFn Destroy = nullptr;
  GetVersionFn GetVersion = nullptr;
  StatusTextFn StatusName = nullptr, StatusString = nullptr;
  DescCreateFn DescCreate = nullptr;
  ObjDestroyFn DescDestroy = nullptr;
  SetAttrFn DescSetAttribute = nullptr;
  LayoutCreateFn LayoutCreate = nullptr;
  ObjDestroyFn LayoutDestroy = nullptr;
  PrefCreateFn PrefCreate = nullptr;
  ObjDestroyFn PrefDestroy = nullptr;
  SetAttrFn PrefSetAttribute = nullptr;
  HeuristicFn AlgoGetHeuristic = nullptr;
  MatmulFn Matmul = nullptr;
  void *Lib = nullptr;
  std::string LibName;

  /// dlopens libcublasLt (13, 12, then unversioned; also the build's CUDA lib
  /// dir; TILEGEN_RUN_LIBCUBLASLT overrides, "none" disables). On failure
  /// returns false and says why in Why.
  bool load(std::string &Why);
  /// "cublasLtMatmul failed: CUBLAS_STATUS_NOT_SUPPORTED (the functionality
  /// requested is not supported)".
  std::string describe(Status S, const std::string &Call) const;
};

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_CUDAAPI_H
