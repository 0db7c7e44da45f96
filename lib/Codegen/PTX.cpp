//===- PTX.cpp - LLVM dialect -> LLVM IR -> PTX ---------------------------===//

#include "tilegen/Codegen/PTX.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace tilegen;

/// The module flag that carries the PTX ISA version the kernels need (times 10), when an
/// instruction they issue needs a newer one than the target's default.
static constexpr llvm::StringLiteral kPtxFlag = "tilegen.ptx_version";

static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXMachine(const NVTarget &target, unsigned ptxVersion) {
  static bool initialised = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    return true;
  }();
  (void)initialised;
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!t)
    return llvm::createStringError("cannot find the NVPTX backend in LLVM: " + error);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(
      t->createTargetMachine(triple, target.name(),
                             llvm::formatv("+ptx{0}", std::max(ptxVersion, target.ptxVersion())).str(),
                             options,
                             std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!tm)
    return llvm::createStringError("LLVM's NVPTX backend cannot target " +
                                   target.name().str());
  return tm;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
tilegen::translateToLLVMIR(mlir::ModuleOp module, const NVTarget &target,
                           llvm::LLVMContext &ctx) {
  // The newest PTX ISA version an instruction of a kernel needs (MmaTable.h: minPtx).
  unsigned ptxVersion = target.ptxVersion();
  module.walk([&](mlir::LLVM::LLVMFuncOp func) {
    if (auto v = func->getAttrOfType<mlir::IntegerAttr>("tilegen.ptx_version"))
      ptxVersion = std::max<unsigned>(ptxVersion, v.getInt());
  });
  std::unique_ptr<llvm::Module> llvmModule = mlir::translateModuleToLLVMIR(module, ctx);
  if (!llvmModule)
    return llvm::createStringError("translation of the LLVM dialect to LLVM IR failed");
  if (ptxVersion != target.ptxVersion())
    llvmModule->addModuleFlag(llvm::Module::Max, kPtxFlag, ptxVersion);
  auto tm = createNVPTXMachine(target, ptxVersion);
  if (!tm)
    return tm.takeError();
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  llvmModule->setDataLayout((*tm)->createDataLayout());

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm->get());
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(*llvmModule, mam);
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return llvm::createStringError("tilegen bug: LLVM IR failed verification");
  return std::move(llvmModule);
}

llvm::Expected<std::string> tilegen::emitPTX(llvm::Module &module, const NVTarget &target) {
  unsigned ptxVersion = target.ptxVersion();
  if (auto *flag = llvm::mdconst::extract_or_null<llvm::ConstantInt>(module.getModuleFlag(kPtxFlag)))
    ptxVersion = flag->getZExtValue();
  auto tm = createNVPTXMachine(target, ptxVersion);
  if (!tm)
    return tm.takeError();
  std::string ptx;
  {
    llvm::raw_string_ostream os(ptx);
    llvm::buffer_ostream bos(os);
    llvm::legacy::PassManager pm;
    if ((*tm)->addPassesToEmitFile(pm, bos, nullptr, llvm::CodeGenFileType::AssemblyFile))
      return llvm::createStringError("LLVM's NVPTX backend cannot emit PTX");
    pm.run(module);
  }
  return ptx;
}
