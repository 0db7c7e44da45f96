//===- Check.cpp - --check: compare D with a reference --------------------===//
//
// Inputs: seeded, uniform in [-1, 1] rounded to the operand type (or integers
// in [-3, 3] with --int-inputs); scaled fp8 operands as fillScaledFp8 says
// (Numeric.h). D is poisoned with 0xFF bytes (NaN in bf16, f16 and f32) before
// the launch, so elements the kernel never writes show up.
//
// Reference: the host in FP64 from the dequantised inputs (sa(m,k) * A[m,k],
// sb(n,k) * B[k,n]) when M*N*K <= 2^30, else the vendor library's product
// A x B in f32 with alpha and beta applied on the host: cuBLAS (cublasGemmEx,
// CUBLAS_COMPUTE_32F), or for fp8 operands cuBLASLt (cublasLtMatmul with the
// same scales; CublasLtGemm.cpp), falling back to the host when it cannot.
//
// Verdict: the normwise relative error ||D - ref||_F / ||ref||_F, the same for
// every output tile (tile_m x tile_n of the manifest) so that one wrong tile
// cannot hide in the whole-tensor norm, and an elementwise test
// |d - ref| <= rtol * (|ref| + rms(ref)) that also catches NaN/Inf.
//
// Both stop at the output type's range. Where the reference or d is below the
// type's smallest normal value (2^-14 for f16, 2^-126 for bf16 and f32), the
// element's error counts only beyond that value: there the type has fewer bits
// (subnormals), and a kernel may flush them to 0. An element whose reference is
// beyond the type's largest finite value (rounding to infinity) is right as
// +-infinity of its sign (round to nearest) or as the largest finite value
// (saturation), and is left out of the norms.
//
//===----------------------------------------------------------------------===//

#include "Child.h"
#include "Session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

using namespace tilegen::run;

namespace {

struct Tolerance {
  double Norm;     ///< for the normwise relative error (whole D and per tile)
  double ElemRtol; ///< elementwise: |d - ref| <= rtol * (|ref| + rms(ref))
};

/// Output rounding dominates: a bf16 result is off by up to 2^-9 relative,
/// and a cuBLAS reference is rounded too. f32 outputs of f32 inputs allow for
/// kernels that compute in tf32.
Tolerance toleranceFor(const Manifest &Man) {
  switch (Man.C.Type) {
  case ElemType::BF16:
    return {1e-2, 1.0 / 64};
  case ElemType::F16:
    return {5e-3, 1.0 / 512};
  default: {
    bool F32In = Man.A.Type == ElemType::F32 || Man.B.Type == ElemType::F32;
    return F32In ? Tolerance{4e-3, 1.0 / 256} : Tolerance{1e-3, 1.0 / 4096};
  }
  }
}

/// Index of element (I, J) of a Rows x Cols matrix stored with layout L.
inline size_t elemIndex(Layout L, int64_t I, int64_t J, int64_t Rows,
                        int64_t Cols) {
  return L == Layout::Row ? size_t(I) * size_t(Cols) + size_t(J)
                          : size_t(I) + size_t(J) * size_t(Rows);
}

unsigned hostThreads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Ref[i * N + j] = alpha * sum_k sa(i,k) A[i,k] sb(j,k) B[k,j] + beta * C[i,j],
/// in FP64 (SA, SB empty for unscaled operands).
void hostReference(const Manifest &Man, const Problem &P, double Alpha,
                   double Beta, const std::vector<unsigned char> &HA,
                   const std::vector<unsigned char> &HB,
                   const std::vector<unsigned char> &HC,
                   const std::vector<float> &SA, const std::vector<float> &SB,
                   const std::vector<uint8_t> &MxA, const std::vector<uint8_t> &MxB,
                   float TensorScaleB, std::vector<double> &Ref) {
  const int64_t M = P.M, N = P.N, K = P.K;
  // Unscaled inputs are exact in float, and a product of two floats is exact in
  // double; a dequantised fp8 value (a code of at most 4 significant bits times
  // an f32 scale) is exact in double.
  const ScaledFp8 OpA = scaledOperand(Man, Tensor::A, P),
                  OpB = scaledOperand(Man, Tensor::B, P);
  // A block-scaled operand (MXFP4, MXFP8, NVFP4) is dequantised with its e8m0 / e4m3 scales
  // (blockScaledValue, exact in double).
  std::vector<double> Ar(size_t(M) * K), Bt(size_t(N) * K);
  const bool MxAOp = Man.A.Scale.blockScaled(), MxBOp = Man.B.Scale.blockScaled();
  const BlockScaledOperand BsA = blockScaledOperand(Man, Tensor::A, P),
                           BsB = blockScaledOperand(Man, Tensor::B, P);
  for (int64_t I = 0; I < M; ++I)
    for (int64_t Kk = 0; Kk < K; ++Kk)
      Ar[size_t(I) * K + Kk] =
          MxAOp ? blockScaledValue(HA.data(), MxA.data(), 1.0f, BsA, I, Kk)
                : loadElem(HA.data(), elemIndex(Man.A.Lay, I, Kk, M, K), Man.A.Type) *
                      (SA.empty() ? 1.0 : double(SA[OpA.scaleIndex(I, Kk)]));
  for (int64_t Kk = 0; Kk < K; ++Kk)
    for (int64_t J = 0; J < N; ++J)
      Bt[size_t(J) * K + Kk] =
          MxBOp ? blockScaledValue(HB.data(), MxB.data(), TensorScaleB, BsB, J, Kk)
                : loadElem(HB.data(), elemIndex(Man.B.Lay, Kk, J, K, N), Man.B.Type) *
                      (SB.empty() ? 1.0 : double(SB[OpB.scaleIndex(J, Kk)]));
  Ref.assign(size_t(M) * N, 0.0);
  auto Rows = [&](int64_t Begin, int64_t End) {
    for (int64_t I = Begin; I < End; ++I) {
      const double *Ai = &Ar[size_t(I) * K];
      for (int64_t J = 0; J < N; ++J) {
        const double *Bj = &Bt[size_t(J) * K];
        double S0 = 0, S1 = 0, S2 = 0, S3 = 0;
        int64_t Kk = 0;
        for (; Kk + 4 <= K; Kk += 4) {
          S0 += Ai[Kk] * Bj[Kk];
          S1 += Ai[Kk + 1] * Bj[Kk + 1];
          S2 += Ai[Kk + 2] * Bj[Kk + 2];
          S3 += Ai[Kk + 3] * Bj[Kk + 3];
        }
        for (; Kk < K; ++Kk)
          S0 += Ai[Kk] * Bj[Kk];
        double Cij =
            Beta == 0 ? 0
                      : loadElem(HC.data(), elemIndex(Man.C.Lay, I, J, M, N),
                                 Man.C.Type);
        Ref[size_t(I) * N + J] = Alpha * ((S0 + S1) + (S2 + S3)) + Beta * Cij;
      }
    }
  };
  unsigned T = std::min<int64_t>(hostThreads(), M);
  std::vector<std::thread> Pool;
  int64_t Chunk = (M + T - 1) / T;
  for (unsigned W = 0; W < T; ++W) {
    int64_t B = std::min<int64_t>(M, W * Chunk), E = std::min(M, B + Chunk);
    Pool.emplace_back(Rows, B, E);
  }
  for (auto &Th : Pool)
    Th.join();
}

struct Comparison {
  double RelErr = 0, RefNorm = 0;
  double WorstTileErr = 0;
  int64_t WorstTi = 0, WorstTj = 0;
  uint64_t Bad = 0, NonFinite = 0;
  /// References beyond the output type's largest finite value, and below its smallest
  /// normal one (not 0).
  uint64_t Overflow = 0, Subnormal = 0;
  std::vector<std::string> FirstBad;
};

/// Compares D (host copy, C's type and layout) with RefAt(i, j).
template <typename RefFn>
Comparison compare(const Manifest &Man, const Problem &P,
                   const std::vector<unsigned char> &HD, RefFn RefAt,
                   bool Exact, double Rtol) {
  Comparison Cmp;
  const int64_t M = P.M, N = P.N;
  const int64_t TilesM = (M + Man.TileM - 1) / Man.TileM;
  const int64_t TilesN = (N + Man.TileN - 1) / Man.TileN;
  std::vector<double> TileErr2(size_t(TilesM) * TilesN, 0.0),
      TileRef2(size_t(TilesM) * TilesN, 0.0);
  const double MaxFinite = outputMaxFinite(Man.C.Type), MinNormal = outputMinNormal(Man.C.Type);
  // The largest value that rounds to a finite one: the largest finite plus half its ulp.
  const double OverflowAt =
      MaxFinite + std::ldexp(1.0, std::ilogb(MaxFinite) -
                                      (Man.C.Type == ElemType::F16    ? 11
                                       : Man.C.Type == ElemType::BF16 ? 8
                                                                      : 24));
  double Ref2 = 0;
  uint64_t InRange = 0;
  for (int64_t I = 0; I < M; ++I)
    for (int64_t J = 0; J < N; ++J) {
      double R = RefAt(I, J);
      if (std::fabs(R) < OverflowAt)
        Ref2 += R * R, ++InRange;
    }
  const double Rms = std::sqrt(Ref2 / double(std::max<uint64_t>(InRange, 1)));
  double Err2 = 0;
  auto Visit = [&](int64_t I, int64_t J) {
    double R = RefAt(I, J);
    double Dv = loadElem(HD.data(), elemIndex(Man.C.Lay, I, J, M, N), Man.C.Type);
    size_t T = size_t(I / Man.TileM) * TilesN + size_t(J / Man.TileN);
    bool IsBad;
    if (std::fabs(R) >= OverflowAt) {
      // Beyond the type: infinity of R's sign, or the largest finite value (saturated).
      ++Cmp.Overflow;
      IsBad = !(std::signbit(Dv) == std::signbit(R) &&
                (std::isinf(Dv) || std::fabs(Dv) == MaxFinite));
      if (std::isnan(Dv))
        ++Cmp.NonFinite;
    } else {
      if (R != 0 && std::fabs(R) < MinNormal)
        ++Cmp.Subnormal;
      bool Finite = std::isfinite(Dv);
      // Where the result or D is below the smallest normal value, the error beyond it.
      double Floor = std::min(std::fabs(R), std::fabs(Dv)) < MinNormal ? MinNormal : 0;
      double E = Finite ? std::max(0.0, std::fabs(Dv - R) - Floor) : INFINITY;
      if (!Finite) {
        ++Cmp.NonFinite;
        IsBad = true;
      } else if (Exact) {
        IsBad = Dv != double(roundToType(static_cast<float>(R), Man.C.Type));
      } else {
        IsBad = E > Rtol * (std::fabs(R) + Rms);
      }
      TileErr2[T] += E * E;
      TileRef2[T] += R * R;
      Err2 += E * E;
    }
    if (IsBad) {
      if (Cmp.FirstBad.size() < 10) {
        char Buf[160];
        std::snprintf(Buf, sizeof(Buf), "D[%lld, %lld] = %.6g, expected %.6g",
                      static_cast<long long>(I), static_cast<long long>(J), Dv,
                      R);
        Cmp.FirstBad.push_back(Buf);
      }
      ++Cmp.Bad;
    }
  };
  // Visit in D's storage order (and so report the first bad ones in it).
  if (Man.C.Lay == Layout::Row) {
    for (int64_t I = 0; I < M; ++I)
      for (int64_t J = 0; J < N; ++J)
        Visit(I, J);
  } else {
    for (int64_t J = 0; J < N; ++J)
      for (int64_t I = 0; I < M; ++I)
        Visit(I, J);
  }
  Cmp.RefNorm = std::sqrt(Ref2);
  Cmp.RelErr = std::sqrt(Err2) / std::max(Cmp.RefNorm, 1e-300);
  Cmp.WorstTileErr = -1;
  for (int64_t Ti = 0; Ti < TilesM; ++Ti)
    for (int64_t Tj = 0; Tj < TilesN; ++Tj) {
      size_t T = size_t(Ti) * TilesN + size_t(Tj);
      double E = std::sqrt(TileErr2[T]) / std::max(std::sqrt(TileRef2[T]), 1e-300);
      if (std::isnan(E))
        E = INFINITY;
      if (E > Cmp.WorstTileErr) {
        Cmp.WorstTileErr = E;
        Cmp.WorstTi = Ti;
        Cmp.WorstTj = Tj;
      }
    }
  return Cmp;
}

std::string sci(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3e", V);
  return Buf;
}

} // namespace

Error GpuSession::check(Row &R, bool &Passed) {
  Passed = false;
  const Tolerance Tol = toleranceFor(Man);
  const double Macs = double(P.M) * double(P.N) * double(P.K);
  const double HostLimit = double(1ull << 30);
  const bool AlphaInt = std::nearbyint(Opts.Alpha) == Opts.Alpha;
  const bool BetaInt = std::nearbyint(Opts.Beta) == Opts.Beta;
  // Exact when every partial sum is a multiple of the smallest product's grid and
  // below 2^24 of it: integer inputs in [-3, 3], and with scaled fp8 operands scales
  // of 0.5, 1 or 2 (so products are multiples of 1/4 with both scaled, at most 36).
  double ScaleMax = 1, ScaleMin = 1;
  for (Tensor T : {Tensor::A, Tensor::B})
    if (Man.operand(T).Scale.present())
      ScaleMax *= 2, ScaleMin *= 0.5;
  const bool Exact = Opts.IntInputs && AlphaInt && BetaInt &&
                     (9.0 * ScaleMax * double(P.K) * std::fabs(Opts.Alpha) +
                      3.0 * std::fabs(Opts.Beta)) /
                             ScaleMin <
                         16777216.0;

  // Run the kernel on the poisoned D.
  TG_TRY(Cu.check(Cu.cuMemsetD8(D.Ptr, 0xFF, D.Bytes), "cuMemsetD8",
                  "poisoning D"));
  TG_TRY(settle("the poisoning of D"));
  reportPhase("first launch of kernel " + Man.Kernel + " (--check)", true);
  TG_TRY(launch());
  TG_TRY(sync("the --check launch"));
  reportPhase("copying D back", false);
  std::vector<unsigned char> HD(D.Bytes);
  TG_TRY(Cu.check(Cu.cuMemcpyDtoH(HD.data(), D.Ptr, D.Bytes), "cuMemcpyDtoH",
                  "reading D"));

  // Pick the reference.
  const bool Fp8 = Man.fp8();
  const std::string Vendor = vendorName();
  std::string BlasNo;
  bool BlasOk = false;
  TG_TRY(vendorSupports(BlasOk, BlasNo));
  const std::string VendorRef =
      Fp8 ? "cuBLASLt cublasLtMatmul fp8 A x B with the scales, in fp32, alpha/beta on "
            "the host"
          : "cuBLAS cublasGemmEx A x B in fp32, alpha/beta on the host";
  bool UseHost;
  std::string RefText;
  if (Opts.Ref == RefKind::Host) {
    UseHost = true;
    RefText = "host fp64 (--ref host)";
  } else if (Opts.Ref == RefKind::Cublas) {
    if (!BlasOk)
      return cudaError("--ref cublas: " + Vendor + " cannot be the reference: " +
                       BlasNo);
    UseHost = false;
    RefText = VendorRef + " (--ref cublas)";
  } else if (Macs <= HostLimit) {
    UseHost = true;
    RefText = "host fp64 (M*N*K <= 2^30)";
  } else if (BlasOk) {
    UseHost = false;
    RefText = VendorRef + " (M*N*K > 2^30)";
  } else {
    UseHost = true;
    RefText = "host fp64 (M*N*K > 2^30 but " + Vendor + " is unavailable: " + BlasNo +
              "; this is slow)";
  }

  auto cublasInto = [&](std::vector<unsigned char> &Out) -> Error {
    if (!Ref.Ptr)
      TG_TRY(alloc("the cuBLAS result (" + std::to_string(P.M) + " x " +
                       std::to_string(P.N) + " " + elemTypeName(Man.C.Type) +
                       ")",
                   D.Bytes, Ref));
    TG_TRY(Cu.check(Cu.cuMemcpyDtoD(Ref.Ptr, C.Ptr, C.Bytes), "cuMemcpyDtoD",
                    "copying C for cuBLAS"));
    TG_TRY(settle("the copy of C for cuBLAS"));
    reportPhase(Vendor + " reference", true);
    TG_TRY(vendorGemm(Ref.Ptr, /*ForTiming=*/false));
    TG_TRY(Cu.check(Cu.cuStreamSynchronize(Stream), "cuStreamSynchronize",
                    "waiting for " + Vendor));
    Out.resize(Ref.Bytes);
    return Cu.check(Cu.cuMemcpyDtoH(Out.data(), Ref.Ptr, Ref.Bytes),
                    "cuMemcpyDtoH", "reading the cuBLAS result");
  };

  const int64_t M = P.M, N = P.N;
  std::vector<double> HostRef;
  std::vector<unsigned char> BlasOut;
  Comparison Cmp;
  double BlasVsHost = -1;
  if (UseHost) {
    {
      // Ar (M x K), Bt (N x K) and the result (M x N), in double.
      uint64_t Elems = 0, Bytes = 0;
      bool Overflow = __builtin_add_overflow(tensorElems(Tensor::A, P),
                                             tensorElems(Tensor::B, P), &Elems) ||
                      __builtin_add_overflow(Elems, tensorElems(Tensor::C, P), &Elems) ||
                      __builtin_mul_overflow(Elems, uint64_t(8), &Bytes);
      if (BlasOk && !Overflow)
        Overflow = __builtin_add_overflow(Bytes, uint64_t(D.Bytes), &Bytes);
      TG_TRY(checkHostMemory(Bytes, Overflow,
                             "the host fp64 reference (--ref cublas avoids it)"));
    }
    reportPhase("host fp64 reference", false);
    hostReference(Man, P, Opts.Alpha, Opts.Beta, HostA, HostB, HostC, HostScaleA,
                  HostScaleB, HostMxScaleA, HostMxScaleB, HostTensorScaleB, HostRef);
    reportPhase("comparing", false);
    auto At = [&](int64_t I, int64_t J) { return HostRef[size_t(I) * N + J]; };
    Cmp = compare(Man, P, HD, At, Exact, Tol.ElemRtol);
    if (BlasOk) {
      TG_TRY(cublasInto(BlasOut));
      Comparison BC = compare(Man, P, BlasOut, At, Exact, Tol.ElemRtol);
      BlasVsHost = BC.RelErr;
    }
  } else {
    // The reference is cuBLAS's product A x B with f32 output, and alpha * AB + beta * C in
    // double on the host, rounded only by the comparison. cuBLAS's own 16-bit result with
    // beta != 0 is not that: on the H200 (cuBLAS 13.1) its bf16 D with beta = 1 differs from
    // the exactly rounded one in about 7% of the elements with integer inputs, so it cannot
    // be the reference of the exact mode.
    size_t Elems = size_t(M) * size_t(N);
    TG_TRY(checkHostMemory(uint64_t(Elems) * 4, false,
                           "the " + Vendor + " reference product (M x N f32)"));
    if (!Prod.Ptr)
      TG_TRY(alloc("the cuBLAS product (" + std::to_string(P.M) + " x " +
                       std::to_string(P.N) + " f32)",
                   Elems * 4, Prod));
    reportPhase(Vendor + " reference", true);
    TG_TRY(vendorGemm(Prod.Ptr, /*ForTiming=*/false, /*ProductF32=*/true));
    TG_TRY(Cu.check(Cu.cuStreamSynchronize(Stream), "cuStreamSynchronize",
                    "waiting for " + Vendor));
    std::vector<float> ProdHost(Elems);
    TG_TRY(Cu.check(Cu.cuMemcpyDtoH(ProdHost.data(), Prod.Ptr, Elems * 4),
                    "cuMemcpyDtoH", "reading the cuBLAS product"));
    reportPhase("comparing", false);
    const double Alpha = Opts.Alpha, Beta = Opts.Beta;
    auto At = [&](int64_t I, int64_t J) {
      size_t Idx = elemIndex(Man.C.Lay, I, J, M, N);
      double R = Alpha * double(ProdHost[Idx]);
      if (Beta != 0)
        R += Beta * loadElem(HostC.data(), Idx, Man.C.Type);
      return R;
    };
    Cmp = compare(Man, P, HD, At, Exact, Tol.ElemRtol);
  }

  Passed = Cmp.Bad == 0 && Cmp.RelErr <= Tol.Norm &&
           Cmp.WorstTileErr <= Tol.Norm;
  if (Exact)
    Passed = Cmp.Bad == 0;

  const char *OutT = elemTypeName(Man.C.Type);
  int64_t R0 = Cmp.WorstTi * Man.TileM, C0 = Cmp.WorstTj * Man.TileN;
  int64_t R1 = std::min<int64_t>(M, R0 + Man.TileM) - 1,
          C1 = std::min<int64_t>(N, C0 + Man.TileN) - 1;
  std::printf("check: reference %s\n", RefText.c_str());
  if (Exact)
    std::printf("  exact mode (--int-inputs): every element must equal the "
                "exact result rounded to %s\n",
                OutT);
  else if (Opts.IntInputs)
    std::printf("  --int-inputs, but alpha/beta are not integers or K is too "
                "large for exact fp32 sums: checking with tolerances\n");
  std::printf("  rel error ||D - ref||_F / ||ref||_F = %s (tolerance %s for "
              "%s output)%s\n",
              sci(Cmp.RelErr).c_str(), sci(Tol.Norm).c_str(), OutT,
              Cmp.RelErr <= Tol.Norm ? "" : "  TOO LARGE");
  std::printf("  worst %ux%u tile: rows %lld..%lld, cols %lld..%lld (tile "
              "%lld,%lld): rel error %s%s\n",
              Man.TileM, Man.TileN, static_cast<long long>(R0),
              static_cast<long long>(R1), static_cast<long long>(C0),
              static_cast<long long>(C1), static_cast<long long>(Cmp.WorstTi),
              static_cast<long long>(Cmp.WorstTj),
              sci(Cmp.WorstTileErr).c_str(),
              Cmp.WorstTileErr <= Tol.Norm ? "" : "  TOO LARGE");
  if (Exact)
    std::printf("  bad elements (not bit-exact): %llu of %llu\n",
                static_cast<unsigned long long>(Cmp.Bad),
                static_cast<unsigned long long>(M * N));
  else
    std::printf("  bad elements (|d - ref| > %s * (|ref| + rms(ref)), or "
                "NaN/Inf): %llu of %llu\n",
                sci(Tol.ElemRtol).c_str(),
                static_cast<unsigned long long>(Cmp.Bad),
                static_cast<unsigned long long>(M * N));
  if (Cmp.NonFinite)
    std::printf("  NaN/Inf in D: %llu (D is poisoned with NaN before the "
                "launch: these elements were never written, or overflowed)\n",
                static_cast<unsigned long long>(Cmp.NonFinite));
  if (!Exact && Cmp.Subnormal)
    std::printf("  results below the smallest normal %s (%s), where an error up to it is "
                "not counted (subnormal, or flushed to 0): %llu\n",
                OutT, sci(outputMinNormal(Man.C.Type)).c_str(),
                static_cast<unsigned long long>(Cmp.Subnormal));
  if (Cmp.Overflow)
    std::printf("  results beyond the largest finite %s (%s), right as +-inf or +-%s and "
                "left out of the norms: %llu\n",
                OutT, sci(outputMaxFinite(Man.C.Type)).c_str(),
                sci(outputMaxFinite(Man.C.Type)).c_str(),
                static_cast<unsigned long long>(Cmp.Overflow));
  for (const std::string &B : Cmp.FirstBad)
    std::printf("    %s\n", B.c_str());
  if (Cmp.Bad > Cmp.FirstBad.size())
    std::printf("    ... and %llu more\n",
                static_cast<unsigned long long>(Cmp.Bad - Cmp.FirstBad.size()));
  if (BlasVsHost >= 0)
    std::printf("  %s vs the same fp64 reference: rel error %s (for scale)\n",
                Vendor.c_str(), sci(BlasVsHost).c_str());
  else if (UseHost)
    std::printf("  %s not compared: %s\n", Vendor.c_str(), BlasNo.c_str());
  std::printf("check: %s\n", Passed ? "PASS" : "FAIL");
  std::fflush(stdout);

  R["reference"] = UseHost ? "host-fp64"
                  : Fp8   ? "cublaslt-fp32-product"
                          : "cublas-fp32-product";
  R["rel_err"] = sci(Cmp.RelErr);
  R["tolerance"] = sci(Tol.Norm);
  R["worst_tile_rel_err"] = sci(Cmp.WorstTileErr);
  R["worst_tile_row"] = std::to_string(R0);
  R["worst_tile_col"] = std::to_string(C0);
  R["bad_elements"] = std::to_string(Cmp.Bad);
  if (BlasVsHost >= 0)
    R[Fp8 ? "cublaslt_rel_err" : "cublas_rel_err"] = sci(BlasVsHost);
  if (!Passed) {
    std::string Why = Cmp.Bad ? std::to_string(Cmp.Bad) + " bad elements"
                              : "rel error " + sci(Cmp.RelErr) + " > " +
                                    sci(Tol.Norm);
    if (!Cmp.FirstBad.empty())
      Why += ", first " + Cmp.FirstBad[0];
    Why += "; worst tile at rows " + std::to_string(R0) + ".." +
           std::to_string(R1) + ", cols " + std::to_string(C0) + ".." +
           std::to_string(C1) + " (rel error " + sci(Cmp.WorstTileErr) + ")";
    R["message"] = "check failed: " + Why;
  }
  reportPhase("check done", false);
  return Error::success();
}
