//===- Pipeline.h - the tilegen pass pipeline -------------------*- C++ -*-===//
//
// The driver and `tilegen-opt --tilegen-pipeline` build the same pipeline from this function.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_CODEGEN_PIPELINE_H
#define TILEGEN_CODEGEN_PIPELINE_H

#include "mlir/Pass/PassManager.h"
#include <string>

namespace tilegen {

/// Where the MLIR part of the pipeline stops.
enum class Stage {
  Tile,     ///< the checked description (auto fields resolved)
  Pipeline, ///< tile.pipeline plans
  NVVM,     ///< kernels in llvm/nvvm/scf/arith
  LLVM      ///< kernels in the LLVM dialect only, ready for translation
};

struct PipelineOptions {
  std::string target; ///< empty: each description's own target field
};

void buildTilegenPipeline(mlir::OpPassManager &pm, const PipelineOptions &options, Stage stop);

/// Registers `tilegen-pipeline` (with option `target`) for tilegen-opt.
void registerTilegenPipeline();

} // namespace tilegen

#endif // TILEGEN_CODEGEN_PIPELINE_H
