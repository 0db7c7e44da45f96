//===- Pipeline.cpp - the tilegen pass pipeline ---------------------------===//

#include "tilegen/Codegen/Pipeline.h"
#include "tilegen/Dialect/Tile/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace tilegen;

void tilegen::buildTilegenPipeline(OpPassManager &pm, const PipelineOptions &options,
                                   Stage stop, std::optional<Stage> from) {
  // The description is resolved for the target once: checked (and printed with every choice
  // made) when the run stops at the description, checked and expanded otherwise.
  if (stop == Stage::Tile) {
    if (from)
      return;
    tile::TileCheckTargetOptions check;
    check.target = options.target;
    pm.addPass(tile::createTileCheckTarget(check));
    return;
  }
  if (!from || *from == Stage::Tile) {
    tile::TileExpandPipelineOptions expand;
    expand.target = options.target;
    pm.addPass(tile::createTileExpandPipeline(expand));
  }
  if (stop == Stage::Pipeline)
    return;
  if (!from || *from <= Stage::Pipeline) {
    pm.addPass(tile::createTileLowerToNVVM());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (stop == Stage::NVVM)
    return;
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

namespace {
struct TilegenPipelineOptions : public PassPipelineOptions<TilegenPipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("target (sm_80 ... sm_120a); empty: the "
                                            "description's target field")};
  Option<std::string> stop{
      *this, "stop",
      llvm::cl::desc("last stage: tile, pipeline, nvvm-scf (NVVM ops in scf/arith loops), nvvm "
                     "or llvm (both: the LLVM and NVVM dialects only)"),
      llvm::cl::init("llvm")};
};
} // namespace

void tilegen::registerTilegenPipeline() {
  PassPipelineRegistration<TilegenPipelineOptions>(
      "tilegen-pipeline", "the tilegen pipeline from tile.gemm to the LLVM dialect",
      [](OpPassManager &pm, const TilegenPipelineOptions &o) {
        Stage stop = o.stop == "tile"       ? Stage::Tile
                     : o.stop == "pipeline" ? Stage::Pipeline
                     : o.stop == "nvvm-scf" ? Stage::NVVM
                                            : Stage::LLVM;
        buildTilegenPipeline(pm, PipelineOptions{o.target}, stop);
      });
}
