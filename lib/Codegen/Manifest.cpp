//===- Manifest.cpp - the JSON manifest beside a cubin --------------------===//

#include "tilegen/Codegen/Manifest.h"
#include "tilegen/Version.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilegen;

SmallVector<LLVM::LLVMFuncOp> tilegen::findKernels(ModuleOp module) {
  SmallVector<LLVM::LLVMFuncOp> kernels;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (func->hasAttr("tilegen.params"))
      kernels.push_back(func);
  return kernels;
}

static llvm::json::Array intArray(Attribute attr) {
  llvm::json::Array out;
  for (int64_t v : cast<DenseI64ArrayAttr>(attr).asArrayRef())
    out.push_back(v);
  return out;
}

std::string tilegen::manifestJSON(LLVM::LLVMFuncOp kernel, StringRef cubinName) {
  StringRef description = kernel->getAttrOfType<StringAttr>("tilegen.description").getValue();
  auto ops = kernel->getAttrOfType<DictionaryAttr>("tilegen.operands");
  auto str = [&](StringRef key) { return ops.getAs<StringAttr>(key).getValue().str(); };
  auto operand = [&](StringRef key) {
    llvm::json::Object o{{"type", str((key + "_type").str())},
                         {"layout", str((key + "_layout").str())}};
    // An operand scale: {"type": "f32", "granularity": "tensor"} or with "block": [outer, k].
    if (auto scale = ops.getAs<DictionaryAttr>((key + "_scale").str())) {
      llvm::json::Object so{
          {"type", scale.getAs<StringAttr>("type").getValue().str()},
          {"granularity", scale.getAs<StringAttr>("granularity").getValue().str()}};
      if (auto block = scale.get("block"))
        so["block"] = intArray(block);
      o["scale"] = std::move(so);
    }
    return o;
  };
  auto tile = cast<DenseI64ArrayAttr>(kernel->getAttr("tilegen.tile")).asArrayRef();
  std::string grid = kernel->getAttrOfType<StringAttr>("tilegen.grid").getValue().str();
  llvm::json::Object gridObj{
      {"rule", grid}, {"tile_m", tile[0]}, {"tile_n", tile[1]}, {"ctas_per_sm", 1}};
  if (Attribute clusterTiles = kernel->getAttr("tilegen.cluster_tiles"))
    gridObj["cluster_tiles"] = intArray(clusterTiles);

  llvm::json::Array params;
  for (Attribute a : kernel->getAttrOfType<ArrayAttr>("tilegen.params")) {
    llvm::json::Object p;
    for (NamedAttribute na : cast<DictionaryAttr>(a)) {
      if (auto s = dyn_cast<StringAttr>(na.getValue()))
        p[na.getName().str()] = s.getValue().str();
      else if (auto flag = dyn_cast<BoolAttr>(na.getValue()))
        p[na.getName().str()] = flag.getValue();
      else if (auto i = dyn_cast<IntegerAttr>(na.getValue()))
        p[na.getName().str()] = i.getInt();
      else if (auto arr = dyn_cast<DenseI64ArrayAttr>(na.getValue()))
        p[na.getName().str()] = intArray(arr);
      else if (auto arr = dyn_cast<ArrayAttr>(na.getValue())) {
        llvm::json::Array items;
        for (Attribute item : arr)
          items.push_back(cast<StringAttr>(item).getValue().str());
        p[na.getName().str()] = std::move(items);
      }
    }
    params.push_back(std::move(p));
  }
  llvm::json::Array constraints;
  for (Attribute a : kernel->getAttrOfType<ArrayAttr>("tilegen.constraints")) {
    auto d = cast<DictionaryAttr>(a);
    constraints.push_back(llvm::json::Object{
        {"dim", d.getAs<StringAttr>("dim").getValue().str()},
        {"multiple", d.getAs<IntegerAttr>("multiple").getInt()},
        {"reason", d.getAs<StringAttr>("reason").getValue().str()}});
  }
  auto number = [&](StringRef key) {
    return ops.getAs<FloatAttr>(key).getValueAsDouble();
  };
  llvm::json::Object operandsObj{{"a", operand("a")},
                                 {"b", operand("b")},
                                 {"c", operand("c")},
                                 {"accumulator", str("accumulator")}};
  // FP8 kernels: "promoted" or "fast" (docs/manifest.md).
  if (ops.get("accumulation"))
    operandsObj["accumulation"] = str("accumulation");
  // sm_90a upcast: the type the narrow operand is converted to before the MMA.
  if (ops.get("upcast"))
    operandsObj["upcast"] = str("upcast");
  llvm::json::Object m{
      {"format", "tilegen-manifest"},
      {"version", 1},
      {"tilegen_version", TILEGEN_VERSION_STRING},
      {"kernel", kernel.getSymName().str()},
      {"cubin", cubinName.str()},
      {"target", kernel->getAttrOfType<StringAttr>("tilegen.target").getValue().str()},
      {"block", intArray(kernel->getAttr("tilegen.block"))},
      {"cluster", intArray(kernel->getAttr("tilegen.cluster"))},
      {"dynamic_smem", kernel->getAttrOfType<IntegerAttr>("tilegen.smem").getInt()},
      {"grid", std::move(gridObj)},
      {"operands", std::move(operandsObj)},
      {"epilogue",
       llvm::json::Object{{"alpha", number("alpha")}, {"beta", number("beta")}}},
      {"constraints", std::move(constraints)},
      {"params", std::move(params)},
      {"description", description.str()},
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(m))) << "\n";
  return text;
}
