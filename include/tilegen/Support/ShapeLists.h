//===- ShapeLists.h - the named problem-size lists --------------*- C++ -*-===//
//
// The built-in lists of GEMM problem sizes that `tilegen tune --shapes` and
// `tilegen-run --sweep` accept by name (besides files of "M N K" lines). Plain
// C++ (no LLVM), as tilegen-run is built without LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_SUPPORT_SHAPELISTS_H
#define TILEGEN_SUPPORT_SHAPELISTS_H

#include <cstdint>
#include <vector>

namespace tilegen {

/// The most elements an operand of a tuned shape may have: 2^40 (2 TiB of bf16), beyond the
/// memory of any GPU, so that the model's times stay far inside the dispatch table's bound
/// (tune refuses larger shapes; explain notes them).
constexpr int64_t kMaxOperandElements = int64_t(1) << 40;

struct ShapeTriple {
  int64_t m = 0, n = 0, k = 0;
};

struct NamedShapeList {
  const char *name;
  std::vector<ShapeTriple> shapes;
};

/// square, llm, odd (`all` is their union, in that order).
inline const std::vector<NamedShapeList> &namedShapeLists() {
  static const std::vector<NamedShapeList> lists = {
      {"square",
       {{1024, 1024, 1024},
        {2048, 2048, 2048},
        {4096, 4096, 4096},
        {8192, 8192, 8192},
        {16384, 16384, 16384}}},
      // Llama-style projections: (tokens x hidden) x (hidden x ffn) etc.
      {"llm",
       {{4096, 14336, 4096},
        {8192, 4096, 14336},
        {16384, 8192, 1024},
        {128, 8192, 8192}}},
      // Ragged M and N (partial tiles on both edges), K a multiple of 8 so
      // that 16-byte strides hold for 2-byte types; a kernel whose manifest
      // constrains more skips the shapes it cannot take.
      {"odd",
       {{1, 8, 8},
        {127, 129, 136},
        {257, 385, 264},
        {1023, 777, 1000},
        {1000, 1000, 1000},
        {4095, 4097, 4096},
        {333, 8191, 520}}},
  };
  return lists;
}

} // namespace tilegen

#endif // TILEGEN_SUPPORT_SHAPELISTS_H
