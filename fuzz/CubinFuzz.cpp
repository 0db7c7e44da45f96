//===- CubinFuzz.cpp - libFuzzer target: tilegen-run's cubin check --------===//
//
//   build-sanitize/bin/tilegen-run-cubin-fuzz CORPUS_DIR SEED_DIR -timeout=10
//
// An input is the bytes of a file given to tilegen-run as the cubin; checkCubinImage decides
// whether it is a well-formed CUDA ELF file before the driver sees it. A finding is a sanitizer
// report, a crash, a timeout or an out-of-memory; a refusal is an ordinary result.
//
//===----------------------------------------------------------------------===//

#include "Cubin.h" // tools/tilegen-run

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string image(reinterpret_cast<const char *>(data), size);
  for (const char *target : {"sm_90a", ""})
    (void)tilegen::run::checkCubinImage(image, "fuzz.cubin", target);
  return 0;
}
