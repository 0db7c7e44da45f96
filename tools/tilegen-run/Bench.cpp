//===- Bench.cpp - --bench: CUDA-event timing against cuBLAS --------------===//
//
// Method: W untimed launches, then N timed ones, each preceded on the same
// stream by a cuMemsetD8Async over a buffer of twice the L2 size (so every run
// starts with a cold L2, as in a real model where the operands were evicted),
// with a cuEventRecord pair around the launch alone. cuBLAS (cublasGemmEx,
// same types, layouts, alpha and beta, default heuristics) is timed the same
// way in the same process, its runs interleaved with ours (run I of each in
// turn, after the warm-ups of both); for fp8 operands cuBLASLt is
// (cublasLtMatmul, same types, scale modes, output type, alpha and beta, the
// heuristic's best algorithm with a 32 MiB workspace). TFLOP/s = 2 M N K /
// median time. With --pad our time includes the copies into and out of the
// padded buffers; they are also timed alone, as a third interleaved series.
//
//===----------------------------------------------------------------------===//

#include "Child.h"
#include "Session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

using namespace tilegen::run;

namespace {

struct Stats {
  double Median = 0, Min = 0, P10 = 0, P90 = 0, Mean = 0, Stddev = 0;
};

Stats stats(std::vector<float> Ms) {
  Stats S;
  std::sort(Ms.begin(), Ms.end());
  size_t N = Ms.size();
  auto Rank = [&](double Q) {
    // Nearest rank.
    size_t I = static_cast<size_t>(std::ceil(Q * N));
    return Ms[std::min(N - 1, I == 0 ? 0 : I - 1)];
  };
  S.Median = N % 2 ? Ms[N / 2] : 0.5 * (double(Ms[N / 2 - 1]) + Ms[N / 2]);
  S.Min = Ms.front();
  S.P10 = Rank(0.10);
  S.P90 = Rank(0.90);
  double Sum = 0;
  for (float V : Ms)
    Sum += V;
  S.Mean = Sum / N;
  double Var = 0;
  for (float V : Ms)
    Var += (V - S.Mean) * (V - S.Mean);
  S.Stddev = N > 1 ? std::sqrt(Var / (N - 1)) : 0;
  return S;
}

std::string fix(double V, int D) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.*f", D, V);
  return Buf;
}

/// Destroys the events it holds at scope exit.
struct EventGuard {
  Driver &Cu;
  std::vector<CUevent> &A, &B;
  ~EventGuard() {
    for (auto *V : {&A, &B})
      for (CUevent E : *V)
        if (E)
          Cu.cuEventDestroy(E);
  }
};

} // namespace

Error GpuSession::bench(Row &R) {
  const double Flops = 2.0 * double(P.M) * double(P.N) * double(P.K);
  size_t FlushBytes = std::max<size_t>(size_t(2) * size_t(L2Bytes), 64u << 20);
  if (!Flush.Ptr)
    TG_TRY(alloc("the L2 flush buffer (2 x L2)", FlushBytes, Flush));

  std::vector<CUevent> Start(Opts.Iters), Stop(Opts.Iters);
  EventGuard Guard{Cu, Start, Stop};
  for (int I = 0; I < Opts.Iters; ++I) {
    Start[I] = Stop[I] = nullptr;
    TG_TRY(Cu.check(Cu.cuEventCreate(&Start[I], CU_EVENT_DEFAULT),
                    "cuEventCreate"));
    TG_TRY(Cu.check(Cu.cuEventCreate(&Stop[I], CU_EVENT_DEFAULT),
                    "cuEventCreate"));
  }

  // The vendor's side, when it takes the case: its output goes to a copy of C.
  const bool Fp8 = Man.fp8();
  const std::string Vendor = vendorName();
  std::string BlasNo;
  bool BlasOk = false;
  TG_TRY(vendorSupports(BlasOk, BlasNo));
  std::vector<CUevent> StartB, StopB;
  EventGuard GuardB{Cu, StartB, StopB};
  if (BlasOk) {
    if (!Ref.Ptr)
      TG_TRY(alloc("the cuBLAS output", D.Bytes, Ref));
    TG_TRY(Cu.check(Cu.cuMemcpyDtoD(Ref.Ptr, C.Ptr, C.Bytes), "cuMemcpyDtoD",
                    "copying C for cuBLAS"));
    TG_TRY(settle("the copy of C for cuBLAS"));
    StartB.assign(Opts.Iters, nullptr);
    StopB.assign(Opts.Iters, nullptr);
    for (int I = 0; I < Opts.Iters; ++I) {
      TG_TRY(Cu.check(Cu.cuEventCreate(&StartB[I], CU_EVENT_DEFAULT),
                      "cuEventCreate"));
      TG_TRY(Cu.check(Cu.cuEventCreate(&StopB[I], CU_EVENT_DEFAULT),
                      "cuEventCreate"));
    }
  }
  // --pad: the copies alone, timed as a series of their own (they are inside ours as well).
  const bool Padded = !padCopyHow().empty();
  std::vector<CUevent> StartP, StopP;
  EventGuard GuardP{Cu, StartP, StopP};
  if (Padded) {
    StartP.assign(Opts.Iters, nullptr);
    StopP.assign(Opts.Iters, nullptr);
    for (int I = 0; I < Opts.Iters; ++I) {
      TG_TRY(Cu.check(Cu.cuEventCreate(&StartP[I], CU_EVENT_DEFAULT), "cuEventCreate"));
      TG_TRY(Cu.check(Cu.cuEventCreate(&StopP[I], CU_EVENT_DEFAULT), "cuEventCreate"));
    }
  }
  auto ours = [&] { return launch(); };
  auto copies = [&] { return padCopies(true, true); };
  auto theirs = [&] { return vendorGemm(Ref.Ptr, /*ForTiming=*/true); };

  // Warm-up: ours, then the vendor's.
  reportPhase("--bench warm-up of kernel " + Man.Kernel, true);
  for (int W = 0; W < Opts.Warmup; ++W)
    TG_TRY(ours());
  TG_TRY(sync("the --bench warm-up"));
  if (BlasOk) {
    reportPhase("--bench warm-up of " + Vendor, true);
    for (int W = 0; W < Opts.Warmup; ++W)
      TG_TRY(theirs());
    TG_TRY(Cu.check(Cu.cuStreamSynchronize(Stream), "cuStreamSynchronize",
                    "warming up " + Vendor));
  }

  // Timed runs, interleaved: run I of ours, then run I of the vendor's, each
  // after its own L2 flush, so that both see the same clocks and temperature
  // (a long sweep on a GPU at its power limit drifts by several percent).
  auto timed = [&](CUevent Begin, CUevent End, int I,
                   const std::function<Error()> &Run) -> Error {
    TG_TRY(Cu.check(Cu.cuMemsetD8Async(Flush.Ptr,
                                       static_cast<unsigned char>(I & 0xFF),
                                       Flush.Bytes, Stream),
                    "cuMemsetD8Async", "flushing L2"));
    TG_TRY(Cu.check(Cu.cuEventRecord(Begin, Stream), "cuEventRecord"));
    TG_TRY(Run());
    return Cu.check(Cu.cuEventRecord(End, Stream), "cuEventRecord");
  };
  reportPhase(BlasOk ? "--bench timed runs of kernel " + Man.Kernel + " and " + Vendor
                     : "--bench timed runs of kernel " + Man.Kernel,
              true);
  for (int I = 0; I < Opts.Iters; ++I) {
    TG_TRY(timed(Start[I], Stop[I], I, ours));
    if (Padded)
      TG_TRY(timed(StartP[I], StopP[I], I, copies));
    if (BlasOk)
      TG_TRY(timed(StartB[I], StopB[I], I, theirs));
  }
  TG_TRY(sync("the --bench timed runs"));
  auto elapsed = [&](std::vector<CUevent> &B, std::vector<CUevent> &E,
                     std::vector<float> &Ms) -> Error {
    Ms.resize(Opts.Iters);
    for (int I = 0; I < Opts.Iters; ++I)
      TG_TRY(Cu.check(Cu.cuEventElapsedTime(&Ms[I], B[I], E[I]),
                      "cuEventElapsedTime"));
    return Error::success();
  };

  std::vector<float> Ours;
  TG_TRY(elapsed(Start, Stop, Ours));
  Stats S = stats(Ours);
  double Tflops = Flops / (S.Median * 1e-3) / 1e12;
  Stats SP;
  if (Padded) {
    std::vector<float> Copies;
    TG_TRY(elapsed(StartP, StopP, Copies));
    SP = stats(Copies);
  }
  Stats SB;
  double BlasTflops = 0;
  if (BlasOk) {
    std::vector<float> Theirs;
    TG_TRY(elapsed(StartB, StopB, Theirs));
    SB = stats(Theirs);
    BlasTflops = Flops / (SB.Median * 1e-3) / 1e12;
  }

  std::printf("bench: %d timed runs after %d warm-up, L2 flushed before each "
              "(memset of %zu MiB)\n",
              Opts.Iters, Opts.Warmup, FlushBytes >> 20);
  auto Line = [&](const char *Who, const Stats &X, double T) {
    std::printf("  %-7s median %s ms (min %s, p10 %s, p90 %s, stddev %s) = "
                "%s TFLOP/s\n",
                Who, fix(X.Median, 4).c_str(), fix(X.Min, 4).c_str(),
                fix(X.P10, 4).c_str(), fix(X.P90, 4).c_str(),
                fix(X.Stddev, 4).c_str(), fix(T, 1).c_str());
  };
  Line("ours", S, Tflops);
  if (Padded)
    std::printf("  of which the --pad copies alone: median %s ms (min %s) by %s\n",
                fix(SP.Median, 4).c_str(), fix(SP.Min, 4).c_str(), padCopyHow().c_str());
  if (BlasOk) {
    Line(Vendor.c_str(), SB, BlasTflops);
    std::printf("  ratio ours/%s = %s\n", Vendor.c_str(),
                fix(Tflops / BlasTflops, 3).c_str());
    if (Fp8)
      std::printf("  %s accumulation: %s, as the kernel's\n", Vendor.c_str(),
                  Man.FastAccumulation ? "fast (CUBLASLT_MATMUL_DESC_FAST_ACCUM = 1)"
                                       : "promoted (the default)");
  } else {
    std::printf("  %s not timed: %s\n", Vendor.c_str(), BlasNo.c_str());
  }
  std::fflush(stdout);

  R["ms_median"] = fix(S.Median, 5);
  R["ms_min"] = fix(S.Min, 5);
  R["ms_p10"] = fix(S.P10, 5);
  R["ms_p90"] = fix(S.P90, 5);
  R["ms_stddev"] = fix(S.Stddev, 5);
  R["tflops"] = fmt(Tflops, 6);
  if (Padded)
    R["pad_ms_median"] = fix(SP.Median, 5);
  if (BlasOk) {
    const std::string Key = Fp8 ? "cublaslt" : "cublas";
    R[Key + "_ms_median"] = fix(SB.Median, 5);
    R[Key + "_tflops"] = fmt(BlasTflops, 6);
    R["ratio_vs_" + Key] = fix(Tflops / BlasTflops, 4);
    if (Fp8)
      R["cublaslt_accumulation"] = Man.FastAccumulation ? "fast" : "promoted";
  }
  R["iters"] = std::to_string(Opts.Iters);
  R["warmup"] = std::to_string(Opts.Warmup);
  R["l2_flush_bytes"] = std::to_string(FlushBytes);
  reportPhase("bench done", false);
  return Error::success();
}
