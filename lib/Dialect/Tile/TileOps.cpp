//===- TileOps.cpp - tile dialect ops, parser, printer, verifiers ---------===//

#include "tilegen/Dialect/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tilegen::tile;

#include "tilegen/Dialect/Tile/TileDialect.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tilegen/Dialect/Tile/TileOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// tile.gemm: `tile.gemm @name { key = value, ... }`
//===----------------------------------------------------------------------===//

namespace {
/// The description's fields, with their defaults; filled by the parser, then turned into
/// attributes.
struct GemmFields {
  Type aType, bType, cType, accType;
  std::string aLayout, bLayout, cLayout;
  SmallVector<int64_t> tile, warps, mma, cluster{1, 1, 1};
  int64_t stages = 0, accumulators = 1, ctaGroup = 1, swizzle = 8;
  std::string schedule = "auto", copy = "auto", multicast = "none", grid = "tiles",
              raster = "row";
  double alpha = 1.0, beta = 0.0;
  std::optional<std::string> target;
};
} // namespace

static ParseResult parseIntList(OpAsmParser &parser, SmallVectorImpl<int64_t> &out) {
  out.clear();
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
    int64_t v;
    if (parser.parseInteger(v))
      return failure();
    out.push_back(v);
    return success();
  });
}

static ParseResult parseOperandSpec(OpAsmParser &parser, Type &type, std::string &layout) {
  if (parser.parseType(type))
    return failure();
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef kw;
  if (parser.parseKeyword(&kw))
    return failure();
  if (kw != "row" && kw != "col")
    return parser.emitError(loc, "layout must be 'row' or 'col', got '") << kw << "'";
  layout = kw.str();
  return success();
}

ParseResult GemmOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(), result.attributes))
    return failure();
  GemmFields f;
  llvm::StringSet<> seen;
  llvm::SMLoc braceLoc = parser.getCurrentLocation();
  auto parseField = [&]() -> ParseResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc, "field '") << key << "' given twice";
    auto keyword = [&](std::string &out, ArrayRef<StringRef> allowed) -> ParseResult {
      llvm::SMLoc vloc = parser.getCurrentLocation();
      StringRef v;
      if (parser.parseKeyword(&v))
        return failure();
      if (!llvm::is_contained(allowed, v))
        return parser.emitError(vloc, "field '")
               << key << "' must be one of " << llvm::join(allowed, ", ") << ", got '" << v
               << "'";
      out = v.str();
      return success();
    };
    if (key == "a")
      return parseOperandSpec(parser, f.aType, f.aLayout);
    if (key == "b")
      return parseOperandSpec(parser, f.bType, f.bLayout);
    if (key == "c")
      return parseOperandSpec(parser, f.cType, f.cLayout);
    if (key == "accumulator")
      return parser.parseType(f.accType);
    if (key == "tile")
      return parseIntList(parser, f.tile);
    if (key == "warps")
      return parseIntList(parser, f.warps);
    if (key == "mma")
      return parseIntList(parser, f.mma);
    if (key == "cluster")
      return parseIntList(parser, f.cluster);
    if (key == "stages") {
      if (succeeded(parser.parseOptionalKeyword("auto"))) {
        f.stages = 0;
        return success();
      }
      llvm::SMLoc vloc = parser.getCurrentLocation();
      if (parser.parseInteger(f.stages))
        return failure();
      if (f.stages < 1)
        return parser.emitError(vloc, "field 'stages' must be 'auto' or at least 1, got ")
               << f.stages;
      return success();
    }
    if (key == "accumulators")
      return parser.parseInteger(f.accumulators);
    if (key == "cta_group")
      return parser.parseInteger(f.ctaGroup);
    if (key == "swizzle")
      return parser.parseInteger(f.swizzle);
    if (key == "schedule")
      return keyword(f.schedule, {"auto", "multistage", "warp_specialized"});
    if (key == "copy")
      return keyword(f.copy, {"auto", "cp_async", "tma"});
    if (key == "multicast")
      return keyword(f.multicast, {"none", "a", "b", "ab"});
    if (key == "grid")
      return keyword(f.grid, {"tiles", "persistent", "stream_k"});
    if (key == "raster")
      return keyword(f.raster, {"row", "col"});
    if (key == "alpha")
      return parser.parseFloat(f.alpha);
    if (key == "beta")
      return parser.parseFloat(f.beta);
    if (key == "target") {
      std::string t;
      if (parser.parseString(&t))
        return failure();
      f.target = t;
      return success();
    }
    return parser.emitError(loc, "unknown field '")
           << key
           << "'; expected a, b, c, accumulator, tile, stages, accumulators, schedule, copy, "
              "warps, mma, cluster, multicast, cta_group, grid, raster, swizzle, alpha, beta, "
              "target";
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Braces, parseField))
    return failure();
  for (StringRef required : {"a", "b", "c", "tile"})
    if (!seen.contains(required))
      return parser.emitError(braceLoc, "missing required field '") << required << "'";

  Builder &b = parser.getBuilder();
  if (!f.accType)
    f.accType = b.getF32Type();
  auto &props = result.getOrAddProperties<GemmOp::Properties>();
  props.a_type = TypeAttr::get(f.aType);
  props.b_type = TypeAttr::get(f.bType);
  props.c_type = TypeAttr::get(f.cType);
  props.acc_type = TypeAttr::get(f.accType);
  props.a_layout = b.getStringAttr(f.aLayout);
  props.b_layout = b.getStringAttr(f.bLayout);
  props.c_layout = b.getStringAttr(f.cLayout);
  props.tile = b.getDenseI64ArrayAttr(f.tile);
  props.warps = b.getDenseI64ArrayAttr(f.warps);
  props.mma = b.getDenseI64ArrayAttr(f.mma);
  props.cluster = b.getDenseI64ArrayAttr(f.cluster);
  props.stages = b.getI64IntegerAttr(f.stages);
  props.accumulators = b.getI64IntegerAttr(f.accumulators);
  props.cta_group = b.getI64IntegerAttr(f.ctaGroup);
  props.swizzle = b.getI64IntegerAttr(f.swizzle);
  props.schedule = b.getStringAttr(f.schedule);
  props.copy = b.getStringAttr(f.copy);
  props.multicast = b.getStringAttr(f.multicast);
  props.grid = b.getStringAttr(f.grid);
  props.raster = b.getStringAttr(f.raster);
  props.alpha = b.getF64FloatAttr(f.alpha);
  props.beta = b.getF64FloatAttr(f.beta);
  if (f.target)
    props.target = b.getStringAttr(*f.target);
  props.sym_name = name;
  result.attributes.erase(SymbolTable::getSymbolAttrName());
  return success();
}

static void printList(OpAsmPrinter &p, ArrayRef<int64_t> values) {
  p << "[";
  llvm::interleaveComma(values, p);
  p << "]";
}

void GemmOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printSymbolName(getSymName());
  p << " {";
  p.increaseIndent();
  p.printNewline();
  p << "a = " << getAType() << " " << getALayout() << ", b = " << getBType() << " "
    << getBLayout() << ", c = " << getCType() << " " << getCLayout()
    << ", accumulator = " << getAccType() << ",";
  p.printNewline();
  p << "tile = ";
  printList(p, getTile());
  p << ", stages = ";
  if (hasAutoStages())
    p << "auto";
  else
    p << getStages();
  p << ", accumulators = " << getAccumulators() << ",";
  p.printNewline();
  p << "schedule = " << getSchedule() << ", copy = " << getCopy();
  if (!getWarps().empty()) {
    p << ", warps = ";
    printList(p, getWarps());
  }
  if (!getMma().empty()) {
    p << ", mma = ";
    printList(p, getMma());
  }
  p << ",";
  p.printNewline();
  p << "cluster = ";
  printList(p, getCluster());
  p << ", multicast = " << getMulticast() << ", cta_group = " << getCtaGroup() << ",";
  p.printNewline();
  p << "grid = " << getGrid() << ", raster = " << getRaster() << ", swizzle = " << getSwizzle()
    << ",";
  p.printNewline();
  p << "alpha = ";
  p.printFloat(getAlphaAttr().getValue());
  p << ", beta = ";
  p.printFloat(getBetaAttr().getValue());
  if (getTarget())
    p << ", target = \"" << *getTarget() << "\"";
  p.decreaseIndent();
  p.printNewline();
  p << "}";
}

/// Target-independent rules. What depends on the target is `tile-check-target`'s job.
LogicalResult GemmOp::verify() {
  auto isInputType = [](Type t) { return t.isBF16() || t.isF16() || t.isF32(); };
  for (auto [field, type] : {std::pair<StringRef, Type>{"a", getAType()}, {"b", getBType()}})
    if (!isInputType(type))
      return emitOpError() << "field '" << field << "' has element type " << type
                           << "; expected bf16, f16 or f32";
  if (getAType() != getBType())
    return emitOpError() << "fields 'a' and 'b' must have one element type, got "
                         << getAType() << " and " << getBType();
  if (!isInputType(getCType()))
    return emitOpError() << "field 'c' has element type " << getCType()
                         << "; expected bf16, f16 or f32";
  if (!getAccType().isF32())
    return emitOpError() << "field 'accumulator' is " << getAccType()
                         << "; only f32 accumulation is supported";
  for (auto [field, layout] : {std::pair<StringRef, StringRef>{"a", getALayout()},
                               {"b", getBLayout()},
                               {"c", getCLayout()}})
    if (layout != "row" && layout != "col")
      return emitOpError() << "field '" << field << "' has layout '" << layout
                           << "'; expected row or col";
  // The keyword fields (the custom parser checks them too; the generic form reaches here).
  struct KeywordField {
    StringRef field, value;
    ArrayRef<StringRef> allowed;
  };
  static const StringRef schedules[] = {"auto", "multistage", "warp_specialized"};
  static const StringRef copies[] = {"auto", "cp_async", "tma"};
  static const StringRef multicasts[] = {"none", "a", "b", "ab"};
  static const StringRef grids[] = {"tiles", "persistent", "stream_k"};
  static const StringRef rasters[] = {"row", "col"};
  for (const KeywordField &k : {KeywordField{"schedule", getSchedule(), schedules},
                                KeywordField{"copy", getCopy(), copies},
                                KeywordField{"multicast", getMulticast(), multicasts},
                                KeywordField{"grid", getGrid(), grids},
                                KeywordField{"raster", getRaster(), rasters}})
    if (!llvm::is_contained(k.allowed, k.value))
      return emitOpError() << "field '" << k.field << "' is '" << k.value
                           << "'; expected one of " << llvm::join(k.allowed, ", ");
  if (getTile().size() != 3 || llvm::any_of(getTile(), [](int64_t v) { return v <= 0; }))
    return emitOpError() << "field 'tile' must be three positive sizes [M, N, K]";
  if (getStages() < 0 || getStages() > 16)
    return emitOpError() << "field 'stages' = " << getStages() << " must be auto or 1..16";
  if (getAccumulators() != 1 && getAccumulators() != 2)
    return emitOpError() << "field 'accumulators' = " << getAccumulators()
                         << " must be 1 or 2";
  if (getCtaGroup() != 1 && getCtaGroup() != 2)
    return emitOpError() << "field 'cta_group' = " << getCtaGroup() << " must be 1 or 2";
  if (!getWarps().empty() &&
      (getWarps().size() != 2 || llvm::any_of(getWarps(), [](int64_t v) { return v <= 0; })))
    return emitOpError() << "field 'warps' must be two positive counts [WM, WN]";
  if (!getMma().empty() &&
      (getMma().size() != 3 || llvm::any_of(getMma(), [](int64_t v) { return v <= 0; })))
    return emitOpError() << "field 'mma' must be three positive sizes [m, n, k]";
  if (getCluster().size() != 3 || llvm::any_of(getCluster(), [](int64_t v) { return v <= 0; }))
    return emitOpError() << "field 'cluster' must be three positive sizes [X, Y, Z]";
  if (getSwizzle() < 1)
    return emitOpError() << "field 'swizzle' = " << getSwizzle() << " must be at least 1";
  int64_t clusterSize = getCluster()[0] * getCluster()[1] * getCluster()[2];
  if (getMulticast() != "none" && clusterSize == 1)
    return emitOpError() << "field 'multicast' = " << getMulticast()
                         << " needs a cluster of more than one CTA, got cluster [1, 1, 1]";
  if (getCtaGroup() == 2 && getCluster()[0] % 2 != 0)
    return emitOpError() << "cta_group = 2 needs the cluster's M extent (cluster[0]) to be "
                            "even, got "
                         << getCluster()[0];
  return success();
}

//===----------------------------------------------------------------------===//
// tile.pipeline
//===----------------------------------------------------------------------===//

LogicalResult PipelineOp::verify() {
  Block &body = getBody().front();
  auto count = [&](auto tag) {
    using OpT = decltype(tag);
    return llvm::range_size(body.getOps<OpT>());
  };
  if (count(RingOp()) != 1 || count(AccumulatorsOp()) != 1 || count(ScheduleOp()) != 1 ||
      count(EpilogueOp()) != 1)
    return emitOpError() << "needs exactly one tile.ring, tile.accumulators, tile.schedule and "
                            "tile.epilogue";
  llvm::StringSet<> roles;
  for (RoleOp role : body.getOps<RoleOp>())
    roles.insert(role.getName());
  for (StringRef needed : {"producer", "mma", "epilogue"})
    if (!roles.contains(needed))
      return emitOpError() << "has no '" << needed << "' role";
  if (getBlock().size() != 3 || getCluster().size() != 3)
    return emitOpError() << "block and cluster must have three dimensions";
  return success();
}

#define GET_OP_CLASSES
#include "tilegen/Dialect/Tile/TileOps.cpp.inc"
