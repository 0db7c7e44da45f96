//===- ManifestFuzz.cpp - libFuzzer target: tilegen-run's manifest reader --===//
//
//   build-sanitize/bin/tilegen-run-manifest-fuzz CORPUS_DIR SEED_DIR -timeout=10
//
// An input is the text of a manifest (docs/manifest.md), as tilegen writes it beside a cubin, or
// of a dispatch table (docs/dispatch.md: parsed without reading its kernels, then the
// nearest-entry rule for a few sizes). A manifest goes through what tilegen-run does before it
// loads the CUDA driver: parseManifest, then, for each of a few problem sizes, the padded size
// (paddedProblem), checkProblem and,
// when the size is accepted, the shape, tile and grid arithmetic, the scale-tensor sizes and,
// for small sizes, the FP8 input generator with the manifest's scale blocks. A finding is a sanitizer report, a crash, a timeout or an
// out-of-memory; an error the reader reports is an ordinary result.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h" // tools/tilegen-run
#include "Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace tilegen::run;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  // The same text as a dispatch table (kernel files not read): the reader and the nearest-entry
  // rule.
  {
    DispatchTable t;
    if (!parseDispatch(text, "fuzz-table.json", "", /*LoadKernels=*/false, t))
      for (const Problem &p : {Problem{1, 1, 1}, Problem{4096, 2112, 7168},
                               Problem{2147483647, 1, 2147483647}})
        (void)nearestEntry(t, p);
  }
  Manifest m;
  if (parseManifest(text, "fuzz.json", m))
    return 0;
  m.CubinPath = "fuzz.cubin";

  const Problem problems[] = {{1, 1, 1},
                              {int64_t(m.TileM), int64_t(m.TileN), 64},
                              {3, 5, 7},
                              {128, 128, 128},
                              {4096, 4096, 4096},
                              {128, 8192, 8192},
                              {2147483647, 2147483647, 2147483647},
                              {0, 1, 1},
                              {-1, 16, 16}};
  for (const Problem &p : problems) {
    // The zero-padded size --pad and dispatch tables run instead: when padding is possible,
    // the padded size covers the problem and is one checkProblem judges (it may still refuse).
    Problem padded;
    if (!paddedProblem(m, p, padded)) {
      if (padded.M < p.M || padded.N < p.N || padded.K < p.K)
        __builtin_trap();
      (void)checkProblem(m, padded);
    }
    if (checkProblem(m, p))
      continue;
    for (Tensor t : {Tensor::A, Tensor::B, Tensor::C, Tensor::D}) {
      int64_t rows, cols, ld;
      tensorShape(t, p, m, rows, cols, ld);
      (void)tensorElems(t, p);
    }
    (void)tileCount(m, p);
    for (int sms : {1, 132, 148})
      (void)gridSize(m, p, sms);
    (void)p.str();
    InputDistribution dist;
    (void)describeInputs(m, dist);
    for (Tensor op : {Tensor::A, Tensor::B}) {
      (void)operandText(m.operand(op));
      uint64_t bytes;
      if (!scaleTensorBytes(m, op, p, bytes))
        continue;
      if (!m.fp8() || !m.operand(op).Scale.present())
        continue;
      // What --check draws for a scaled FP8 operand, at sizes small enough to allocate.
      ScaledFp8 s = scaledOperand(m, op, p);
      if (s.Outer * s.K > 4096 || bytes > (1u << 16))
        continue;
      std::vector<uint8_t> codes(static_cast<size_t>(s.Outer * s.K));
      std::vector<float> scales;
      fillScaledFp8(codes.data(), s, dist, 1, scales);
    }
  }
  return 0;
}
