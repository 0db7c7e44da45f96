//===- CublasLtGemm.cpp - cuBLASLt: reference and baseline of fp8 kernels -===//
//
// cuBLAS has no scaled fp8 GEMM; cuBLASLt does (cublasLtMatmul with
// CUDA_R_8F_E4M3 / CUDA_R_8F_E5M2 operands, CUBLAS_COMPUTE_32F, f32 scales).
//
// Operand mapping. cuBLASLt is column-major and its fp8 GEMMs take only the
// "TN" form: op(A') = A'^T and op(B') = B', both stored K-major (K contiguous,
// leading dimension K). Ours are K-major when A is "row" (element (m, k) at
// m*K + k: column-major K x M) and B is "col" (element (k, n) at k + n*K:
// column-major K x N). Then:
//   D row-major (M x N, ld N) is D^T column-major (N x M) = B^T A^T:
//     A' = our B (K x N, ld K, transa T), B' = our A (K x M, ld K, transb N),
//     cuBLASLt m = N, n = M, k = K; ldc = ldd = N.
//   D col-major (M x N, ld M) = A B directly:
//     A' = our A (K x M, ld K, transa T), B' = our B (K x N, ld K, transb N),
//     cuBLASLt m = M, n = N, k = K; ldc = ldd = M.
// The scale of A' is the scale of whichever of our operands A' is.
//
// Scale modes (CUBLASLT_MATMUL_DESC_{A,B}_SCALE_MODE), for an operand stored
// K x Outer with K innermost:
//   per tensor     SCALAR_32F: one f32 (our layout).
//   block [1, 128]   VEC128_32F: one f32 per 128 elements of K per outer
//                  index, outer index contiguous: kb * Outer + o, which is our
//                  layout with BlockOuter = 1, so the buffer is passed as is.
//   block [128, 128] BLK128x128_32F: one f32 per 128 x 128 block, the K blocks
//                  of one outer block contiguous, their count padded to a
//                  multiple of 4: ob * roundup(ceil(K/128), 4) + kb. Ours is
//                  kb * ceil(Outer/128) + ob, so it is transposed on the host
//                  into LtScaleA/LtScaleB.
// cublasLt.h names the modes but not the layouts; the two block layouts
// above follow how PyTorch feeds cuBLASLt (outer-major 1x128 scales, K-block
// padded 128x128 scales) and have not been checked on a GPU by this runner.
// Other block shapes, other layouts and e5m2 x e5m2 have no cuBLASLt GEMM:
// --check then uses the host reference and --bench says why it has no
// baseline.
//
//===----------------------------------------------------------------------===//

#include "Session.h"

#include <cstring>

using namespace tilegen::run;

namespace {

constexpr uint64_t LtWorkspaceBytes = 32ull << 20;


bool isBlock(const ScaleInfo &S, int64_t Outer, int64_t K) {
  return S.Gran == ScaleGranularity::Block && S.BlockOuter == Outer &&
         S.BlockK == K;
}

std::string blockText(const ScaleInfo &S) {
  return std::to_string(S.BlockOuter) + "x" + std::to_string(S.BlockK);
}

} // namespace

bool GpuSession::cublasLtSupports(std::string &Why) const {
  if (!HaveLt) {
    Why = LtWhy;
    return false;
  }
  if (Man.A.Lay != Layout::Row || Man.B.Lay != Layout::Col) {
    Why = std::string("cuBLASLt's fp8 GEMMs take only K-major operands (A \"row\", "
                      "B \"col\"); this kernel has A \"") +
          layoutName(Man.A.Lay) + "\", B \"" + layoutName(Man.B.Lay) + "\"";
    return false;
  }
  if (Man.A.Type == ElemType::E5M2 && Man.B.Type == ElemType::E5M2) {
    Why = "cuBLASLt has no e5m2 x e5m2 GEMM";
    return false;
  }
  for (Tensor T : {Tensor::A, Tensor::B}) {
    const ScaleInfo &S = Man.operand(T).Scale;
    if (S.blockScaled()) {
      Why = std::string("tilegen-run calls no cuBLASLt GEMM with block scales of a "
                        "block-scaled format (operand ") +
            (T == Tensor::A ? "a" : "b") + " has " + (S.E8M0 ? "e8m0" : "e4m3") +
            " scales per 1x" + std::to_string(S.BlockK) + ")";
      return false;
    }
    if (S.Gran == ScaleGranularity::Block && !isBlock(S, 1, 128) &&
        !isBlock(S, 128, 128)) {
      Why = std::string("cuBLASLt's f32 block scales are 1x128 (VEC128_32F) and "
                        "128x128 (BLK128x128_32F); operand ") +
            (T == Tensor::A ? "a" : "b") + " has " + blockText(S) + " blocks";
      return false;
    }
  }
  return true;
}

void GpuSession::destroyLtPlan(LtPlan &Plan) {
  if (!Lt.Lib)
    return;
  for (void *L : {Plan.LayA, Plan.LayB, Plan.LayC, Plan.LayD})
    if (L)
      Lt.LayoutDestroy(L);
  if (Plan.Desc)
    Lt.DescDestroy(Plan.Desc);
  if (Plan.Pref)
    Lt.PrefDestroy(Plan.Pref);
  Plan = LtPlan();
}

Error GpuSession::buildLtPlan(LtPlan &Plan, bool ProductF32) {
  if (Plan.Tried)
    return Error::success();
  Plan.Tried = true;
  if (!cublasLtSupports(Plan.Why))
    return Error::success();
  auto check = [&](int S, const std::string &Call) -> Error {
    if (S == 0)
      return Error::success();
    return cudaError(Lt.describe(S, Call) + " while setting up the cuBLASLt " +
                     (ProductF32 ? "reference" : "baseline") + " for " + P.str());
  };

  // The block-scale layouts cuBLASLt wants (see the file header).
  for (Tensor T : {Tensor::A, Tensor::B}) {
    const bool IsA = T == Tensor::A;
    DeviceBuffer &Buf = IsA ? LtScaleA : LtScaleB;
    if (!isBlock(Man.operand(T).Scale, 128, 128) || Buf.Ptr)
      continue;
    const ScaledFp8 Op = scaledOperand(Man, T, P);
    const std::vector<float> &Ours = IsA ? HostScaleA : HostScaleB;
    const int64_t OB = Op.outerBlocks(), KB = Op.kBlocks(), KB4 = (KB + 3) / 4 * 4;
    std::vector<float> Theirs(size_t(OB) * size_t(KB4), 0.0f);
    for (int64_t Ob = 0; Ob < OB; ++Ob)
      for (int64_t Kb = 0; Kb < KB; ++Kb)
        Theirs[size_t(Ob) * KB4 + Kb] = Ours[size_t(Kb) * OB + Ob];
    TG_TRY(alloc(std::string("the cuBLASLt layout of ") + (IsA ? "scale_a" : "scale_b"),
                 Theirs.size() * 4, Buf));
    TG_TRY(Cu.check(Cu.cuMemcpyHtoD(Buf.Ptr, Theirs.data(), Theirs.size() * 4),
                    "cuMemcpyHtoD", "uploading the cuBLASLt block scales"));
  }
  if (!LtWorkspace.Ptr)
    TG_TRY(alloc("the cuBLASLt workspace", LtWorkspaceBytes, LtWorkspace));

  const bool RowD = Man.C.Lay == Layout::Row;
  const Tensor OpX = RowD ? Tensor::B : Tensor::A; // cuBLASLt's A
  const Tensor OpY = RowD ? Tensor::A : Tensor::B; // cuBLASLt's B
  const uint64_t Mm = uint64_t(RowD ? P.N : P.M), Nn = uint64_t(RowD ? P.M : P.N),
                 K = uint64_t(P.K);

  TG_TRY(check(Lt.DescCreate(&Plan.Desc, CublasLt::Compute32F, CUDA_R_32F),
               "cublasLtMatmulDescCreate"));
  const int32_t TransA = CublasLt::OpT, TransB = CublasLt::OpN;
  TG_TRY(check(Lt.DescSetAttribute(Plan.Desc, CublasLt::DescTransA, &TransA,
                                   sizeof(TransA)),
               "cublasLtMatmulDescSetAttribute(TRANSA)"));
  TG_TRY(check(Lt.DescSetAttribute(Plan.Desc, CublasLt::DescTransB, &TransB,
                                   sizeof(TransB)),
               "cublasLtMatmulDescSetAttribute(TRANSB)"));
  // The timed baseline accumulates as the kernel does; the reference (ProductF32) always
  // promotes, so a fast-accumulating kernel is checked against the precise product.
  const int8_t FastAccum = !ProductF32 && Man.FastAccumulation ? 1 : 0;
  TG_TRY(check(Lt.DescSetAttribute(Plan.Desc, CublasLt::DescFastAccum, &FastAccum,
                                   sizeof(FastAccum)),
               "cublasLtMatmulDescSetAttribute(FAST_ACCUM)"));
  std::string Modes = FastAccum ? "fast accumulation, " : "";
  for (int Which = 0; Which < 2; ++Which) {
    const Tensor Op = Which == 0 ? OpX : OpY;
    const ScaleInfo &S = Man.operand(Op).Scale;
    const char *Letter = Which == 0 ? "A" : "B";
    Modes += std::string(Which == 0 ? "" : ", ") + "cuBLASLt " + Letter + " = " +
             tensorName(Op) + " ";
    if (!S.present()) {
      Modes += "unscaled";
      continue;
    }
    const bool IsA = Op == Tensor::A;
    int32_t Mode = CublasLt::ScaleScalar32F;
    const char *ModeName = "SCALAR_32F";
    CUdeviceptr Ptr = IsA ? ScaleA.Ptr : ScaleB.Ptr;
    if (isBlock(S, 1, 128)) {
      Mode = CublasLt::ScaleVec128_32F;
      ModeName = "VEC128_32F";
    } else if (isBlock(S, 128, 128)) {
      Mode = CublasLt::ScaleBlk128x128_32F;
      ModeName = "BLK128x128_32F";
      Ptr = IsA ? LtScaleA.Ptr : LtScaleB.Ptr;
    }
    Modes += ModeName;
    const void *DevPtr = reinterpret_cast<const void *>(Ptr);
    TG_TRY(check(Lt.DescSetAttribute(Plan.Desc,
                                     Which == 0 ? CublasLt::DescAScaleMode
                                                : CublasLt::DescBScaleMode,
                                     &Mode, sizeof(Mode)),
                 std::string("cublasLtMatmulDescSetAttribute(") + Letter + "_SCALE_MODE)"));
    TG_TRY(check(Lt.DescSetAttribute(Plan.Desc,
                                     Which == 0 ? CublasLt::DescAScalePointer
                                                : CublasLt::DescBScalePointer,
                                     &DevPtr, sizeof(DevPtr)),
                 std::string("cublasLtMatmulDescSetAttribute(") + Letter +
                     "_SCALE_POINTER)"));
  }

  // Both operands stored K x Outer, ld K (K-major); op(A') = A'^T.
  TG_TRY(check(Lt.LayoutCreate(&Plan.LayA, cudaTypeOf(Man.operand(OpX).Type), K, Mm,
                               int64_t(K)),
               "cublasLtMatrixLayoutCreate(A)"));
  TG_TRY(check(Lt.LayoutCreate(&Plan.LayB, cudaTypeOf(Man.operand(OpY).Type), K, Nn,
                               int64_t(K)),
               "cublasLtMatrixLayoutCreate(B)"));
  const cudaDataType OutType = ProductF32 ? CUDA_R_32F : cudaTypeOf(Man.C.Type);
  TG_TRY(check(Lt.LayoutCreate(&Plan.LayC, OutType, Mm, Nn, int64_t(Mm)),
               "cublasLtMatrixLayoutCreate(C)"));
  TG_TRY(check(Lt.LayoutCreate(&Plan.LayD, OutType, Mm, Nn, int64_t(Mm)),
               "cublasLtMatrixLayoutCreate(D)"));
  TG_TRY(check(Lt.PrefCreate(&Plan.Pref), "cublasLtMatmulPreferenceCreate"));
  const uint64_t Ws = LtWorkspaceBytes;
  TG_TRY(check(Lt.PrefSetAttribute(Plan.Pref, CublasLt::PrefMaxWorkspaceBytes, &Ws,
                                   sizeof(Ws)),
               "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)"));

  // The heuristic's best algorithm; none means cuBLASLt cannot run this case here.
  CublasLt::HeuristicResult Best;
  std::memset(&Best, 0, sizeof(Best));
  int Count = 0;
  int S = Lt.AlgoGetHeuristic(LtHandle, Plan.Desc, Plan.LayA, Plan.LayB, Plan.LayC,
                              Plan.LayD, Plan.Pref, 1, &Best, &Count);
  std::string Case = std::string(elemTypeName(Man.operand(OpX).Type)) + " x " +
                     elemTypeName(Man.operand(OpY).Type) + " -> " +
                     (ProductF32 ? "f32" : elemTypeName(Man.C.Type)) + " (" + Modes + ")";
  if (S != 0) {
    Plan.Why = Lt.describe(S, "cublasLtMatmulAlgoGetHeuristic") + " for " + Case;
    return Error::success();
  }
  if (Count < 1 || Best.State != 0) {
    Plan.Why = "cublasLtMatmulAlgoGetHeuristic found no algorithm for " + Case;
    return Error::success();
  }
  Plan.Algo = Best.Algorithm;
  Plan.Ok = true;
  return Error::success();
}

Error GpuSession::vendorSupports(bool &Ok, std::string &Why) {
  if (!Man.fp8()) {
    Ok = cublasSupports(Why);
    return Error::success();
  }
  TG_TRY(buildLtPlan(LtProduct, /*ProductF32=*/true));
  TG_TRY(buildLtPlan(LtFull, /*ProductF32=*/false));
  Ok = LtProduct.Ok && LtFull.Ok;
  Why = !LtProduct.Ok ? LtProduct.Why : LtFull.Why;
  return Error::success();
}

Error GpuSession::vendorGemm(CUdeviceptr Out, bool ForTiming, bool ProductF32) {
  if (Man.fp8())
    return cublasLtGemm(Out, ProductF32);
  return cublasGemm(Out, ForTiming, ProductF32);
}

Error GpuSession::cublasLtGemm(CUdeviceptr Out, bool ProductF32) {
  LtPlan &Plan = ProductF32 ? LtProduct : LtFull;
  TG_TRY(buildLtPlan(Plan, ProductF32));
  if (!Plan.Ok)
    return cudaError("cuBLASLt cannot compute " + P.str() + ": " + Plan.Why);
  const bool RowD = Man.C.Lay == Layout::Row;
  const CUdeviceptr X = RowD ? B.Ptr : A.Ptr, Y = RowD ? A.Ptr : B.Ptr;
  const float Alpha = ProductF32 ? 1.0f : static_cast<float>(Opts.Alpha);
  const float Beta = ProductF32 ? 0.0f : static_cast<float>(Opts.Beta);
  // The product alone reads no C (beta = 0; C names the output); otherwise C is the input.
  const CUdeviceptr CIn = ProductF32 ? Out : C.Ptr;
  int S = Lt.Matmul(LtHandle, Plan.Desc, &Alpha, reinterpret_cast<const void *>(X),
                    Plan.LayA, reinterpret_cast<const void *>(Y), Plan.LayB, &Beta,
                    reinterpret_cast<const void *>(CIn), Plan.LayC,
                    reinterpret_cast<void *>(Out), Plan.LayD, &Plan.Algo,
                    reinterpret_cast<void *>(LtWorkspace.Ptr), LtWorkspace.Bytes, Stream);
  if (S != 0)
    return cudaError(Lt.describe(S, "cublasLtMatmul(" + P.str() + ")"));
  return Error::success();
}
