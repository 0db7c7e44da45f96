//===- Passes.td - tilegen passes ---------------------------*- tablegen -*-===//

#ifndef TILEGEN_DIALECT_TILE_PASSES_TD
#define TILEGEN_DIALECT_TILE_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileCheckTarget : Pass<"tile-check-target", "mlir::ModuleOp"> {
  let summary = "reject what the chosen target cannot do, before any code generation";
  let description = [{
    Checks every `tile.gemm` against the target table (MMA family and shapes, TMA, multicast,
    clusters, tcgen05/TMEM, cta_group, shared memory per block) and reports the field, its
    value, the target and the reason. Resolves `stages = auto`, `schedule = auto`,
    `copy = auto`, `warps` and `mma` for the target.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "target (sm_80 ... sm_120a); empty: the op's `target` attribute">
  ];
  let dependentDialects = [];
}

def TileExpandPipeline : Pass<"tile-expand-pipeline", "mlir::ModuleOp"> {
  let summary = "check each tile.gemm against its target and expand it into its tile.pipeline";
  let description = [{
    Resolves the description for the target once (the same rules and diagnostics as
    `tile-check-target`) and builds from that plan the roles (the mma role naming its row of the
    MMA instruction table), the S-slot ring with its barriers, the accumulator buffers, the
    loops over output tiles and K-slices and the epilogue, with shared-memory offsets and the
    launch shape. The `tile.pipeline` verifier checks the result against the table; the
    lowerings read it without resolving anything again.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "target (sm_80 ... sm_120a); empty: the op's `target` attribute">
  ];
}

def TileLowerToNVVM : Pass<"tile-lower-to-nvvm", "mlir::ModuleOp"> {
  let summary = "lower tile.pipeline ops to kernels in the LLVM and NVVM dialects";
  let description = [{
    Dispatches on the pipeline's target: mma.sync (sm_80 ... sm_120a), wgmma (sm_90a) or tcgen05
    (sm_100a family). Produces one `llvm.func` kernel per pipeline, using scf/arith/llvm/nvvm ops.
  }];
  let dependentDialects = [
    "mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect",
    "mlir::arith::ArithDialect"
  ];
}

#endif // TILEGEN_DIALECT_TILE_PASSES_TD
