//===- tilegen-opt.cpp - mlir-opt with tilegen's dialects and passes ------===//

#include "tilegen/InitAll.h"
#include "tilegen/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tilegen::registerAllDialects(registry);
  tilegen::registerAllTranslations(registry);
  tilegen::registerAllPasses();
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "tilegen-opt (tilegen " TILEGEN_VERSION_STRING ")\n";
  });
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilegen optimizer driver\n", registry));
}
