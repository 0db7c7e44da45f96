//===- Ptxas.h - running ptxas ----------------------------------*- C++ -*-===//

#ifndef TILEGEN_CODEGEN_PTXAS_H
#define TILEGEN_CODEGEN_PTXAS_H

#include "tilegen/Target/NVTarget.h"

#include "llvm/Support/Error.h"
#include <string>

namespace tilegen {

struct PtxasTool {
  std::string path;
  unsigned major = 0, minor = 0; ///< CUDA release, e.g. 13.0
  std::string versionLine;
};

/// Finds ptxas: $TILEGEN_PTXAS, then `explicitPath`, then PATH, then /usr/local/cuda/bin.
/// Fails with a message naming what to install.
llvm::Expected<PtxasTool> findPtxas(llvm::StringRef explicitPath = "");

/// The oldest CUDA release whose ptxas knows `target` (12.8 for sm_100a/sm_120a ...).
std::pair<unsigned, unsigned> minimumPtxasFor(const NVTarget &target);

struct PtxasResult {
  std::string info; ///< ptxas -v output: registers, shared memory, spills
};

/// Assembles `ptx` into `cubinPath` with a time limit. A rejection is reported with the PTX
/// line it points at and called a tilegen bug, unless the PTX assembles without
/// `extraOptions` (the user's --ptxas-options): then it is reported as those options' error.
llvm::Expected<PtxasResult> runPtxas(const PtxasTool &tool, llvm::StringRef ptx,
                                     const NVTarget &target, llvm::StringRef cubinPath,
                                     llvm::StringRef extraOptions, unsigned timeoutSeconds);

} // namespace tilegen

#endif // TILEGEN_CODEGEN_PTXAS_H
