// The peer of tilegen's mma.sync kernels on the H200: CUTLASS's Ampere-style GEMM
// (cutlass::gemm::device::Gemm with arch::Sm80 and OpClassTensorOp: cp.async multistage
// mainloop, ldmatrix + mma.sync.m16n8k16) for BF16 operands with F32 accumulation, TN (A
// row-major, B column-major), row-major D, threadblock 128x256x64, warp 64x64x64, instruction
// 16x8x16, 3 stages, compiled for sm_90. bench/peers/build_cutlass_peer.sh builds it on the GPU
// machine from the CUTLASS headers carried in .dev/gpu/cutlass.
//
//   cutlass_sm80_bf16_gemm [--iters N] [--warmup N] [--check] MxNxK [MxNxK ...]
//
// For each shape: D = A x B (alpha 1, beta 0) on uniform inputs in [-1, 1] rounded to bf16;
// `--warmup` untimed runs, then `--iters` runs each timed with CUDA events around the launch
// alone, with the L2 flushed before each (a memset of twice the L2 size, outside the events);
// prints the median, min, p10 and p90 in ms and the median's TFLOP/s, one line per shape.
// `--check` also compares 256 elements of D, spread over the matrix, with a dot product in
// double computed from the same bf16 inputs (relative error of those elements, normwise).
// Exit codes: 0 success, 1 check failed, 2 usage, 3 CUDA or CUTLASS error.

#include "cutlass/bfloat16.h"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/gemm/device/gemm.h"
#include "cutlass/version.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Element = cutlass::bfloat16_t;
using EpilogueOp = cutlass::epilogue::thread::LinearCombination<
    Element, 128 / cutlass::sizeof_bits<Element>::value, float, float>;
using PeerGemm = cutlass::gemm::device::Gemm<
    Element, cutlass::layout::RowMajor,    // A: M x K, K contiguous
    Element, cutlass::layout::ColumnMajor, // B: K x N, K contiguous
    Element, cutlass::layout::RowMajor,    // C, D: M x N
    float,                                 // accumulator
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    cutlass::gemm::GemmShape<128, 256, 64>, // threadblock
    cutlass::gemm::GemmShape<64, 64, 64>,   // warp
    cutlass::gemm::GemmShape<16, 8, 16>,    // instruction
    EpilogueOp, cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>,
    /*Stages=*/3>;

#define CHECK_CUDA(call)                                                                       \
  do {                                                                                         \
    cudaError_t err_ = (call);                                                                 \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "cutlass_sm80_bf16_gemm: %s failed: %s (%s)\n", #call,              \
                   cudaGetErrorName(err_), cudaGetErrorString(err_));                          \
      std::exit(3);                                                                            \
    }                                                                                          \
  } while (0)

/// Uniform in [-1, 1] from a hash of (seed, index), rounded to bf16.
__global__ void fillUniform(Element *p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    uint32_t x = uint32_t(i) * 0x9E3779B1u ^ seed ^ uint32_t(i >> 32) * 0x85EBCA77u;
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    float u = float(x >> 8) * (1.0f / 16777216.0f); // [0, 1)
    p[i] = Element(2.0f * u - 1.0f);
  }
}

/// D's elements (rows[t], cols[t]) recomputed in double from A (row-major) and B (K-major).
__global__ void referenceElements(const Element *A, const Element *B, const int *rows,
                                  const int *cols, double *out, int count, int K) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count)
    return;
  const Element *a = A + size_t(rows[t]) * K;
  const Element *b = B + size_t(cols[t]) * K;
  double sum = 0;
  for (int k = 0; k < K; ++k)
    sum += double(float(a[k])) * double(float(b[k]));
  out[t] = sum;
}

struct Shape {
  int m, n, k;
};

bool parseShape(const char *s, Shape &out) {
  return std::sscanf(s, "%dx%dx%d", &out.m, &out.n, &out.k) == 3 && out.m > 0 && out.n > 0 &&
         out.k > 0;
}

double percentile(std::vector<float> v, double q) {
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(q * (v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

int usage() {
  std::fprintf(stderr, "usage: cutlass_sm80_bf16_gemm [--iters N] [--warmup N] [--check] "
                       "MxNxK [MxNxK ...]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  int iters = 50, warmup = 10;
  bool check = false;
  std::vector<Shape> shapes;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--iters" || arg == "--warmup") && i + 1 < argc) {
      int v = std::atoi(argv[++i]);
      if (v < (arg == "--iters" ? 1 : 0))
        return usage();
      (arg == "--iters" ? iters : warmup) = v;
    } else if (arg == "--check") {
      check = true;
    } else {
      Shape s;
      if (!parseShape(argv[i], s))
        return usage();
      shapes.push_back(s);
    }
  }
  if (shapes.empty())
    return usage();

  int device = 0;
  CHECK_CUDA(cudaSetDevice(device));
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, device));
  std::printf("device: %s (sm_%d%d), %d SMs, L2 %d MiB\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount, prop.l2CacheSize >> 20);
  std::printf("peer: cutlass::gemm::device::Gemm<bf16 row, bf16 col, bf16 row, f32, "
              "OpClassTensorOp, Sm80, 128x256x64, 64x64x64, 16x8x16, 3 stages> (CUTLASS %d.%d.%d)\n",
              CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH);
  std::printf("timing: %d warm-up runs, median of %d runs, L2 flushed before each\n", warmup,
              iters);

  size_t flushBytes = 2 * size_t(prop.l2CacheSize);
  void *flush = nullptr;
  CHECK_CUDA(cudaMalloc(&flush, flushBytes));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  int status = 0;

  for (const Shape &s : shapes) {
    size_t sizeA = size_t(s.m) * s.k, sizeB = size_t(s.k) * s.n, sizeD = size_t(s.m) * s.n;
    Element *A = nullptr, *B = nullptr, *D = nullptr;
    CHECK_CUDA(cudaMalloc(&A, sizeA * sizeof(Element)));
    CHECK_CUDA(cudaMalloc(&B, sizeB * sizeof(Element)));
    CHECK_CUDA(cudaMalloc(&D, sizeD * sizeof(Element)));
    fillUniform<<<1024, 256>>>(A, sizeA, 1);
    fillUniform<<<1024, 256>>>(B, sizeB, 2);
    CHECK_CUDA(cudaMemset(D, 0, sizeD * sizeof(Element)));
    CHECK_CUDA(cudaGetLastError());

    // Leading dimensions: K for A (row-major) and B (column-major), N for D.
    PeerGemm::Arguments args({s.m, s.n, s.k}, {A, s.k}, {B, s.k}, {D, s.n}, {D, s.n},
                             {1.0f, 0.0f});
    PeerGemm gemm;
    cutlass::Status st = gemm.can_implement(args);
    if (st == cutlass::Status::kSuccess)
      st = gemm.initialize(args, nullptr);
    if (st != cutlass::Status::kSuccess) {
      std::fprintf(stderr, "cutlass_sm80_bf16_gemm: %dx%dx%d: %s\n", s.m, s.n, s.k,
                   cutlassGetStatusString(st));
      return 3;
    }
    auto launch = [&]() {
      cutlass::Status r = gemm.run();
      if (r != cutlass::Status::kSuccess) {
        std::fprintf(stderr, "cutlass_sm80_bf16_gemm: run: %s\n", cutlassGetStatusString(r));
        std::exit(3);
      }
    };
    for (int i = 0; i < warmup; ++i)
      launch();
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int i = 0; i < iters; ++i) {
      CHECK_CUDA(cudaMemsetAsync(flush, i & 0xff, flushBytes));
      CHECK_CUDA(cudaEventRecord(start));
      launch();
      CHECK_CUDA(cudaEventRecord(stop));
      CHECK_CUDA(cudaEventSynchronize(stop));
      float t = 0;
      CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
      ms.push_back(t);
    }
    double median = percentile(ms, 0.5);
    double tflops = 2.0 * s.m * s.n * double(s.k) / (median * 1e-3) / 1e12;
    std::printf("%dx%dx%d: median %.4f ms (min %.4f, p10 %.4f, p90 %.4f) = %.1f TFLOP/s\n", s.m,
                s.n, s.k, median, percentile(ms, 0.0), percentile(ms, 0.1), percentile(ms, 0.9),
                tflops);

    if (check) {
      const int count = 256;
      std::vector<int> rows(count), cols(count);
      for (int t = 0; t < count; ++t) {
        rows[t] = int((size_t(t) * 7919 + 13) % size_t(s.m));
        cols[t] = int((size_t(t) * 104729 + 7) % size_t(s.n));
      }
      rows[0] = s.m - 1, cols[0] = s.n - 1; // the last tile's corner
      int *dRows = nullptr, *dCols = nullptr;
      double *dRef = nullptr;
      CHECK_CUDA(cudaMalloc(&dRows, count * sizeof(int)));
      CHECK_CUDA(cudaMalloc(&dCols, count * sizeof(int)));
      CHECK_CUDA(cudaMalloc(&dRef, count * sizeof(double)));
      CHECK_CUDA(cudaMemcpy(dRows, rows.data(), count * sizeof(int), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dCols, cols.data(), count * sizeof(int), cudaMemcpyHostToDevice));
      referenceElements<<<(count + 127) / 128, 128>>>(A, B, dRows, dCols, dRef, count, s.k);
      CHECK_CUDA(cudaGetLastError());
      std::vector<double> ref(count);
      std::vector<Element> d(sizeD);
      CHECK_CUDA(cudaMemcpy(ref.data(), dRef, count * sizeof(double), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(d.data(), D, sizeD * sizeof(Element), cudaMemcpyDeviceToHost));
      double num = 0, den = 0;
      for (int t = 0; t < count; ++t) {
        double got = double(float(d[size_t(rows[t]) * s.n + cols[t]]));
        num += (got - ref[t]) * (got - ref[t]);
        den += ref[t] * ref[t];
      }
      double rel = std::sqrt(num / std::max(den, 1e-300));
      bool pass = rel < 1e-2;
      std::printf("  check: %d elements, rel error %.3e (tolerance 1e-2): %s\n", count, rel,
                  pass ? "PASS" : "FAIL");
      if (!pass)
        status = 1;
      CHECK_CUDA(cudaFree(dRows));
      CHECK_CUDA(cudaFree(dCols));
      CHECK_CUDA(cudaFree(dRef));
    }
    CHECK_CUDA(cudaFree(A));
    CHECK_CUDA(cudaFree(B));
    CHECK_CUDA(cudaFree(D));
  }
  CHECK_CUDA(cudaFree(flush));
  return status;
}
