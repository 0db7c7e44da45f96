//===- tilegen-opt.cpp - mlir-opt with tilegen's dialects and passes ------===//

#include "tilegen/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tilegen::registerAllDialects(registry);
  tilegen::registerAllTranslations(registry);
  tilegen::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilegen optimizer driver\n", registry));
}
