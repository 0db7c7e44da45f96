//===- Pipeline.h - the tilegen pass pipeline -------------------*- C++ -*-===//
//
// The driver and `tilegen-opt --tilegen-pipeline` build the same pipeline from this function.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_CODEGEN_PIPELINE_H
#define TILEGEN_CODEGEN_PIPELINE_H

#include "mlir/Pass/PassManager.h"
#include <optional>
#include <string>

namespace tilegen {

/// Where the MLIR part of the pipeline stops.
enum class Stage {
  Tile,     ///< the checked description (auto fields resolved)
  Pipeline, ///< tile.pipeline plans
  NVVM,     ///< kernels as NVVM ops in scf/arith loops (`--emit=nvvm-scf`)
  LLVM      ///< kernels in the LLVM and NVVM dialects only, ready for translation
            ///< (`--emit=nvvm`)
};

struct PipelineOptions {
  std::string target; ///< empty: each description's own target field
};

/// Adds the passes from `from` (the stage the input is at; none: descriptions as written) to
/// `stop`.
void buildTilegenPipeline(mlir::OpPassManager &pm, const PipelineOptions &options, Stage stop,
                          std::optional<Stage> from = std::nullopt);

/// Registers `tilegen-pipeline` (with option `target`) for tilegen-opt.
void registerTilegenPipeline();

} // namespace tilegen

#endif // TILEGEN_CODEGEN_PIPELINE_H
