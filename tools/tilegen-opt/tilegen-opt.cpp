//===- tilegen-opt.cpp - mlir-opt with tilegen's dialects and passes ------===//
//
// mlir-opt's driver with tilegen's dialects, passes and translations registered. The input is
// read here first and refused when its brackets nest deeper than kOptMaxNesting: MLIR's parser
// recurses per level, and deep enough input would overflow its stack.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Codegen/Input.h"
#include "tilegen/InitAll.h"
#include "tilegen/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "tilegen/Support/OutputErrors.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

/// tilegen-opt takes any MLIR (lowered kernels nest deeper than descriptions do), so its limit
/// is above tilegen's.
static constexpr unsigned kOptMaxNesting = 256;

int main(int argc, char **argv) {
  tilegen::checkStdoutAtExit("tilegen-opt");
  mlir::DialectRegistry registry;
  tilegen::registerAllDialects(registry);
  tilegen::registerAllTranslations(registry);
  tilegen::registerAllPasses();
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "tilegen-opt (tilegen " TILEGEN_VERSION_STRING ")\n";
  });
  auto [inputFilename, outputFilename] =
      mlir::registerAndParseCLIOptions(argc, argv, "tilegen optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::WithColor::error(llvm::errs(), "tilegen-opt") << error << "\n";
    return 1;
  }
  llvm::StringRef text = input->getBuffer();
  if (size_t at = tilegen::findTooDeepNesting(text, kOptMaxNesting); at != llvm::StringRef::npos) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    sourceMgr.PrintMessage(llvm::errs(), llvm::SMLoc::getFromPointer(text.data() + at),
                           llvm::SourceMgr::DK_Error,
                           "brackets nested more than " + llvm::Twine(kOptMaxNesting) +
                               " levels deep; tilegen-opt refuses such input (MLIR's parser "
                               "recurses per level)");
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::WithColor::error(llvm::errs(), "tilegen-opt") << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  return tilegen::keepOutput(*output, "tilegen-opt") ? 0 : 1;
}
