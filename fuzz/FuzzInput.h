//===- FuzzInput.h - tilegen-fuzz's input format ----------------*- C++ -*-===//
//
// An input is a description file exactly as `tilegen` reads it. Its first line may be an MLIR
// comment that carries the options of the run:
//
//   // target=sm_90a emit=ptx
//   tile.gemm @k { a = bf16 row, b = bf16 col, c = bf16 row, tile = [128, 128, 64] }
//
// `target` is a target name (`none` or absent: each description's own `target` field, as when
// `--target` is not given); `emit` is the stage to stop at: tile, pipeline, nvvm, llvm or ptx
// (`cubin` is read as ptx; absent: ptx). Optional `stages=`, `accumulators=`, `tiles=`,
// `k-slices=`, `timeline-tiles=`, `width=`, `m=`, `n=`, `k=` and `clock-ghz=` are explain's
// options of the same names, and `load=`, `mma=`, `epilogue=`, `issue=` the parts of its
// `--costs`. Unknown keys are ignored. Because the line is a comment, a saved input replays with the normal tool:
//
//   build/bin/tilegen INPUT --target=sm_90a --emit=ptx
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_FUZZ_FUZZINPUT_H
#define TILEGEN_FUZZ_FUZZINPUT_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tilegen {
namespace fuzz {

/// The stages the harness can stop at (the driver's --emit values, cubin read as ptx).
enum class Emit { Tile, Pipeline, NVVM, LLVM, PTX };

struct FuzzOptions {
  std::string target; ///< empty: the description's own field
  bool badTarget = false; ///< `target=` names no known target (the driver refuses it)
  Emit emit = Emit::PTX;
  std::optional<int> stages, accumulators, tiles, kSlices, timelineTiles, width;
  std::optional<double> load, mma, epilogue, issue; ///< explain's --costs
  std::optional<std::string> m, n, k, clockGHz;    ///< as given: explain parses them itself
};

/// Reads the options line, if any, from the start of `text`.
FuzzOptions parseOptions(llvm::StringRef text);

/// The spelling of `emit` on tilegen's command line.
llvm::StringRef emitName(Emit emit);

} // namespace fuzz
} // namespace tilegen

#endif // TILEGEN_FUZZ_FUZZINPUT_H
