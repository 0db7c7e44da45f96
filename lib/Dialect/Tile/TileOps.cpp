//===- TileOps.cpp - tile dialect ops, parser, printer, verifiers ---------===//

#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/Support/Suggest.h"
#include "tilegen/Target/NVTarget.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/bit.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdio>
#include <limits>

using namespace mlir;
using namespace tilegen::tile;

#include "tilegen/Dialect/Tile/TileDialect.cpp.inc"
#include "tilegen/Dialect/Tile/TileEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "tilegen/Dialect/Tile/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tilegen/Dialect/Tile/TileOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilegen/Dialect/Tile/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Enum fields of the plan ops, printed and parsed as bare keywords
//===----------------------------------------------------------------------===//

template <typename AttrT>
static ParseResult parseKeyword(OpAsmParser &parser, AttrT &attr) {
  using EnumT = decltype(std::declval<AttrT>().getValue());
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseKeyword(&word))
    return failure();
  std::optional<EnumT> value = symbolizeEnum<EnumT>(word);
  if (!value)
    return parser.emitError(loc, "unexpected keyword '") << word << "'";
  attr = AttrT::get(parser.getContext(), *value);
  return success();
}

template <typename AttrT>
static void printKeyword(OpAsmPrinter &p, Operation *, AttrT attr) {
  p << stringifyEnum(attr.getValue());
}

//===----------------------------------------------------------------------===//
// #tile.scale<f32 tensor> and #tile.scale<f32 [outer, k]>
//===----------------------------------------------------------------------===//

/// `type tensor`, `type [outer, k]` or `type [outer, k] * f32 tensor`, as the description and
/// the attribute write a scale.
static ParseResult parseScaleBody(AsmParser &parser, Type &type, ScaleGranularity &granularity,
                                  SmallVectorImpl<int64_t> &block, Type &tensorType) {
  if (parser.parseType(type))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("tensor"))) {
    granularity = ScaleGranularity::Tensor;
    return success();
  }
  granularity = ScaleGranularity::Block;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalLSquare()))
    return parser.emitError(loc, "a scale is 'TYPE tensor', 'TYPE [outer, k]' or 'TYPE "
                                 "[outer, k] * f32 tensor'");
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        int64_t v;
        if (parser.parseInteger(v))
          return failure();
        block.push_back(v);
        return success();
      }) ||
      parser.parseRSquare())
    return failure();
  if (failed(parser.parseOptionalStar()))
    return success();
  return failure(parser.parseType(tensorType) || parser.parseKeyword("tensor"));
}

static void printScaleBody(AsmPrinter &p, ScaleAttr scale) {
  p << scale.getType();
  if (scale.isTensor()) {
    p << " tensor";
    return;
  }
  p << " [";
  llvm::interleaveComma(scale.getBlock(), p);
  p << "]";
  if (scale.getTensorType())
    p << " * " << scale.getTensorType() << " tensor";
}

Attribute ScaleAttr::parse(AsmParser &parser, Type) {
  Type type, tensorType;
  ScaleGranularity granularity;
  SmallVector<int64_t> block;
  if (parser.parseLess() || parseScaleBody(parser, type, granularity, block, tensorType) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<ScaleAttr>(parser.getContext(), type, granularity, block,
                                      tensorType);
}

void ScaleAttr::print(AsmPrinter &p) const {
  p << "<";
  printScaleBody(p, *this);
  p << ">";
}

LogicalResult ScaleAttr::verify(function_ref<InFlightDiagnostic()> emitError, Type type,
                                ScaleGranularity granularity, ArrayRef<int64_t> block,
                                Type tensorType) {
  bool e8m0 = llvm::isa<Float8E8M0FNUType>(type), e4m3 = llvm::isa<Float8E4M3FNType>(type);
  if (!type.isF32() && !e8m0 && !e4m3)
    return emitError() << "scale type " << type
                       << " is not supported: scales are f32 (FP8 operands), f8E8M0FNU (OCP MX "
                          "block scales) or f8E4M3FN (NVFP4 block scales)";
  if (granularity == ScaleGranularity::Tensor && !block.empty())
    return emitError() << "a per-tensor scale has no block";
  if (granularity == ScaleGranularity::Tensor && !type.isF32())
    return emitError() << "scale type " << type
                       << " is a block-scale type: give its block, e.g. "
                       << (e8m0 ? "f8E8M0FNU [1, 32]" : "f8E4M3FN [1, 16]");
  // Problem sizes are 32-bit: a block larger than any M, N or K would only overflow the
  // kernel's index arithmetic.
  auto inRange = [](int64_t v) { return v >= 1 && v <= INT32_MAX; };
  if (granularity == ScaleGranularity::Block &&
      (block.size() != 2 || !inRange(block[0]) || !inRange(block[1]))) {
    InFlightDiagnostic d = emitError() << "a block scale needs two sizes [outer, k] from 1 to "
                                          "2147483647; got [";
    llvm::interleaveComma(block, d);
    return d << "]";
  }
  if (tensorType && !e4m3)
    return emitError() << "'* " << tensorType << " tensor' is given with " << type
                       << " block scales: the per-tensor factor belongs to NVFP4's f8E4M3FN "
                          "block scales only";
  if (tensorType && !tensorType.isF32())
    return emitError() << "the per-tensor factor of NVFP4 block scales is f32, got "
                       << tensorType;
  return success();
}

//===----------------------------------------------------------------------===//
// #tile.mma<family [m, n, k] A x B -> ACC, cta_group = G, scale_a = ..., scale_b = ...>
//===----------------------------------------------------------------------===//

Attribute MmaInstrAttr::parse(AsmParser &parser, Type) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef familyWord;
  SmallVector<int64_t> shape;
  Type a, b, acc;
  if (parser.parseLess() || parser.parseKeyword(&familyWord))
    return {};
  std::optional<MmaFamily> family = symbolizeMmaFamily(familyWord);
  if (!family) {
    parser.emitError(loc, "unknown MMA family '") << familyWord
                                                  << "'; expected mma_sync, wgmma or tcgen05";
    return {};
  }
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() {
                                       int64_t v;
                                       if (parser.parseInteger(v))
                                         return failure();
                                       shape.push_back(v);
                                       return success();
                                     }) ||
      parser.parseType(a) || parser.parseKeyword("x") || parser.parseType(b) ||
      parser.parseArrow() || parser.parseType(acc))
    return {};
  if (shape.size() != 3) {
    parser.emitError(loc, "an MMA shape is [m, n, k]");
    return {};
  }
  int64_t ctaGroup = 1;
  ScaleAttr scaleA, scaleB;
  Accumulation accumulation = Accumulation::Promoted;
  int64_t promotion = 0;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key == "cta_group") {
      if (parser.parseInteger(ctaGroup))
        return {};
    } else if (key == "promotion") {
      if (parser.parseInteger(promotion))
        return {};
    } else if (key == "accumulation") {
      StringRef word;
      llvm::SMLoc vloc = parser.getCurrentLocation();
      if (parser.parseKeyword(&word))
        return {};
      std::optional<Accumulation> value = symbolizeAccumulation(word);
      if (!value) {
        parser.emitError(vloc, "accumulation must be promoted or fast, got '") << word << "'";
        return {};
      }
      accumulation = *value;
    } else if (key == "scale_a" || key == "scale_b") {
      Attribute attr;
      if (parser.parseAttribute(attr))
        return {};
      auto scale = llvm::dyn_cast<ScaleAttr>(attr);
      if (!scale) {
        parser.emitError(loc) << key << " must be a #tile.scale";
        return {};
      }
      (key == "scale_a" ? scaleA : scaleB) = scale;
    } else {
      parser.emitError(loc, "unknown MMA field '") << key
                                                   << "'; expected cta_group, scale_a, scale_b, "
                                                      "accumulation, promotion";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MmaInstrAttr>(loc, parser.getContext(), *family, shape[0], shape[1],
                                         shape[2], a, b, acc, ctaGroup, scaleA, scaleB,
                                         accumulation, promotion);
}

LogicalResult MmaInstrAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   MmaFamily family, int64_t m, int64_t n, int64_t k, Type a,
                                   Type b, Type acc, int64_t ctaGroup, ScaleAttr scaleA,
                                   ScaleAttr scaleB, Accumulation accumulation,
                                   int64_t promotion) {
  for (int64_t v : {m, n, k})
    if (v < 1 || v > kMaxMmaSize)
      return emitError() << "an MMA shape [" << m << ", " << n << ", " << k
                         << "] needs sizes from 1 to " << kMaxMmaSize;
  if (ctaGroup != 1 && ctaGroup != 2)
    return emitError() << "cta_group = " << ctaGroup << " must be 1 or 2";
  if (promotion < 0 || promotion > INT32_MAX)
    return emitError() << "promotion = " << promotion
                       << " must be 0 (every K-slice) to 2147483647";
  return success();
}

void MmaInstrAttr::print(AsmPrinter &p) const {
  p << "<" << stringifyMmaFamily(getFamily()) << " [" << getM() << ", " << getN() << ", "
    << getK() << "] " << getAType() << " x " << getBType() << " -> " << getAccType();
  if (getCtaGroup() != 1)
    p << ", cta_group = " << getCtaGroup();
  if (getScaleA())
    p << ", scale_a = " << getScaleA();
  if (getScaleB())
    p << ", scale_b = " << getScaleB();
  if (getAccumulation() != Accumulation::Promoted)
    p << ", accumulation = " << stringifyAccumulation(getAccumulation());
  if (getPromotion() != 0)
    p << ", promotion = " << getPromotion();
  p << ">";
}

//===----------------------------------------------------------------------===//
// tile.gemm: `tile.gemm @name { key = value, ... }`
//===----------------------------------------------------------------------===//

namespace {
/// The description's fields, with their defaults; filled by the parser, then turned into
/// attributes.
struct GemmFields {
  Type aType, bType, cType, accType;
  Layout aLayout = Layout::Row, bLayout = Layout::Row, cLayout = Layout::Row;
  ScaleAttr scaleA, scaleB;
  std::optional<Accumulation> accumulation; ///< FP8 only; unset: the default (promoted)
  Type upcast;                              ///< the type block-scaled operands become
  std::optional<int64_t> promotion;         ///< K elements between promotions; unset: tile K
  SmallVector<int64_t> alignment;           ///< [A, B] in elements; empty: 16 bytes
  SmallVector<int64_t> tile, warps, mma, cluster{1, 1, 1};
  int64_t stages = 0, accumulators = 1, ctaGroup = 1, swizzle = 8;
  Schedule schedule = Schedule::Auto;
  Copy copy = Copy::Auto;
  Multicast multicast = Multicast::None;
  CacheHint cacheA = CacheHint::Normal, cacheB = CacheHint::Normal;
  Grid grid = Grid::Tiles;
  Raster raster = Raster::Row;
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

Location tilegen::tile::fieldLoc(Operation *op, StringRef field) {
  if (auto fused = dyn_cast<FusedLoc>(op->getLoc()))
    if (auto marker = dyn_cast_or_null<StringAttr>(fused.getMetadata());
        marker && marker.getValue() == kFieldLocsMarker)
      for (Location part : fused.getLocations())
        if (auto named = dyn_cast<NameLoc>(part); named && named.getName() == field)
          return named.getChildLoc();
  return op->getLoc();
}

Location tilegen::tile::fieldLoc(Operation *op, ArrayRef<StringRef> fields) {
  for (StringRef field : fields)
    if (Location loc = fieldLoc(op, field); loc != op->getLoc())
      return loc;
  return op->getLoc();
}

InFlightDiagnostic tilegen::tile::emitFieldError(Operation *op, StringRef field) {
  return emitFieldError(op, ArrayRef<StringRef>{field});
}

InFlightDiagnostic tilegen::tile::emitFieldError(Operation *op, ArrayRef<StringRef> fields) {
  InFlightDiagnostic d = mlir::emitError(fieldLoc(op, fields));
  // As Operation::emitError does: the op itself as a note when asked for.
  if (op->getContext()->shouldPrintOpOnDiagnostic())
    d.attachNote(op->getLoc())
        .append("see current operation: ")
        .appendOp(*op, OpPrintingFlags().printGenericOpForm());
  d << "'" << op->getName() << "' op ";
  return d;
}

/// The element types a field accepts, by name, and the names people try for them.
static ArrayRef<StringRef> acceptedTypes(StringRef field) {
  static constexpr StringRef operands[] = {"bf16",     "f16",      "f8E4M3FN", "f8E5M2",
                                           "f6E2M3FN", "f6E3M2FN", "f4E2M1FN"};
  static constexpr StringRef output[] = {"bf16", "f16", "f32"};
  static constexpr StringRef accumulator[] = {"f32"};
  static constexpr StringRef upcast[] = {"bf16"};
  if (field == "c")
    return output;
  if (field == "upcast")
    return upcast;
  if (field == "accumulator")
    return accumulator;
  return operands;
}

static StringRef typeAlias(StringRef word) {
  std::string w = word.lower();
  return llvm::StringSwitch<StringRef>(w)
      .Cases({"bfloat16", "bfloat", "bf16", "bfloat16_t", "__nv_bfloat16"}, "bf16")
      .Cases({"float16", "half", "fp16", "f16", "float16_t", "__half"}, "f16")
      .Cases({"float32", "float", "fp32", "f32"}, "f32")
      .Cases({"e4m3", "e4m3fn", "fp8e4m3", "fp8e4m3fn", "f8e4m3", "f8e4m3fn", "float8_e4m3fn"},
             "f8E4M3FN")
      .Cases({"e5m2", "fp8e5m2", "f8e5m2", "float8_e5m2"}, "f8E5M2")
      .Cases({"e2m1", "fp4", "fp4e2m1", "f4e2m1", "f4e2m1fn", "float4_e2m1fn", "mxfp4", "nvfp4"},
             "f4E2M1FN")
      .Cases({"e2m3", "fp6e2m3", "f6e2m3", "f6e2m3fn", "float6_e2m3fn"}, "f6E2M3FN")
      .Cases({"e3m2", "fp6e3m2", "f6e3m2", "f6e3m2fn", "float6_e3m2fn"}, "f6E3M2FN")
      .Default("");
}

/// The type of field `field` (a, b, c, accumulator): MLIR's builtin type syntax. A word that
/// names no type is reported with the types the field accepts, instead of the generic
/// "expected non-function type".
/// `alpha` and `beta`: a decimal integer (2, -1, which MLIR's float parser refuses) or an MLIR
/// float literal (1.5, -2.0e-3, or a hexadecimal bit pattern as the generic form prints it),
/// with an optional sign.
static ParseResult parseScalarField(OpAsmParser &parser, StringRef field, double &out) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  auto notANumber = [&](llvm::SMLoc at, StringRef word) {
    return parser.emitError(at, "field '")
           << field << "' must be a number (an integer, or a float such as 1.5 or 2.0e-3), got '"
           << word << "'";
  };
  StringRef word;
  if (succeeded(parser.parseOptionalKeyword(&word)))
    return notANumber(loc, word);
  // A hexadecimal literal is a bit pattern: MLIR's float parser reads it as one.
  const char *text = loc.getPointer();
  if (text[0] == '-' || text[0] == '+')
    ++text;
  if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    if (loc.getPointer()[0] == '+')
      (void)parser.parseOptionalPlus();
    return parser.parseFloat(out);
  }
  // A sign, as C and Python take it: '+' or '-'.
  bool negative = false;
  if (succeeded(parser.parseOptionalMinus()))
    negative = true;
  else
    (void)parser.parseOptionalPlus();
  if (succeeded(parser.parseOptionalMinus()) || succeeded(parser.parseOptionalPlus()))
    return parser.emitError(loc, "field '") << field << "' has two signs";
  APInt integer;
  OptionalParseResult isInteger = parser.parseOptionalInteger(integer);
  if (isInteger.has_value()) {
    if (failed(*isInteger))
      return failure();
    // 1e-3 lexes as the integer 1 and the word e-3.
    llvm::SMLoc wordLoc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword(&word))) {
      if (word.starts_with_insensitive("e"))
        return parser.emitError(loc, "field '")
               << field << "': an exponent needs a decimal point before it, as in 1.0e-3";
      return parser.emitError(wordLoc, "field '")
             << field << "': unexpected '" << word << "' after the number";
    }
    // Rounded to nearest, as a float literal of the same value would be.
    APFloat value(APFloat::IEEEdouble());
    (void)value.convertFromAPInt(integer, /*IsSigned=*/true, APFloat::rmNearestTiesToEven);
    double magnitude = llvm::bit_cast<double>(value.bitcastToAPInt().getZExtValue());
    out = negative ? -magnitude : magnitude;
    return success();
  }
  if (parser.parseFloat(out))
    return failure();
  if (negative)
    out = -out;
  return success();
}

static ParseResult parseFieldType(OpAsmParser &parser, StringRef field, Type &type) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  OptionalParseResult parsed = parser.parseOptionalType(type);
  if (parsed.has_value())
    return *parsed;
  StringRef word;
  if (failed(parser.parseOptionalKeyword(&word)))
    return parser.emitError(loc, "field '")
           << field << "' needs a type; accepted: " << llvm::join(acceptedTypes(field), ", ");
  ArrayRef<StringRef> accepted = acceptedTypes(field);
  InFlightDiagnostic d = parser.emitError(loc, "field '")
                         << field << "': unknown type '" << word
                         << "'; accepted: " << llvm::join(accepted, ", ");
  StringRef alias = typeAlias(word);
  if (!alias.empty() && llvm::is_contained(accepted, alias))
    d << "; did you mean '" << alias << "'?";
  else
    d << tilegen::didYouMean(word, accepted);
  return d;
}

static ParseResult parseOperandSpec(OpAsmParser &parser, StringRef field, Type &type,
                                    Layout &layout) {
  if (parseFieldType(parser, field, type))
    return failure();
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef kw;
  if (parser.parseKeyword(&kw))
    return failure();
  std::optional<Layout> l = symbolizeLayout(kw);
  if (!l)
    return parser.emitError(loc, "layout must be 'row' or 'col', got '") << kw << "'";
  layout = *l;
  return success();
}

ParseResult GemmOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(), result.attributes))
    return failure();
  GemmFields f;
  llvm::StringSet<> seen;
  SmallVector<Location> fieldLocs; // where each field was written (fieldLoc)
  llvm::SMLoc braceLoc = parser.getCurrentLocation();
  auto parseField = [&]() -> ParseResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc, "field '") << key << "' given twice";
    fieldLocs.push_back(
        NameLoc::get(parser.getBuilder().getStringAttr(key), parser.getEncodedSourceLoc(loc)));
    // An enum field: its keywords are the enum's cases.
    auto keyword = [&](auto &out, auto symbolize, ArrayRef<StringRef> allowed) -> ParseResult {
      llvm::SMLoc vloc = parser.getCurrentLocation();
      StringRef v;
      if (parser.parseKeyword(&v))
        return failure();
      auto value = symbolize(v);
      if (!value)
        return parser.emitError(vloc, "field '")
               << key << "' must be one of " << llvm::join(allowed, ", ") << ", got '" << v
               << "'" << tilegen::didYouMean(v, allowed);
      out = *value;
      return success();
    };
    auto scale = [&](ScaleAttr &out) -> ParseResult {
      llvm::SMLoc vloc = parser.getCurrentLocation();
      Type type, tensorType;
      ScaleGranularity granularity;
      SmallVector<int64_t> block;
      if (parseScaleBody(parser, type, granularity, block, tensorType))
        return failure();
      out = ScaleAttr::getChecked(
          [&]() { return parser.emitError(vloc, "field '") << key << "': "; },
          parser.getContext(), type, granularity, block, tensorType);
      return success(static_cast<bool>(out));
    };
    if (key == "a")
      return parseOperandSpec(parser, key, f.aType, f.aLayout);
    if (key == "b")
      return parseOperandSpec(parser, key, f.bType, f.bLayout);
    if (key == "c")
      return parseOperandSpec(parser, key, f.cType, f.cLayout);
    if (key == "accumulator")
      return parseFieldType(parser, key, f.accType);
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
      return keyword(f.schedule, [](StringRef w) { return symbolizeSchedule(w); }, {"auto", "multistage", "warp_specialized"});
    if (key == "copy")
      return keyword(f.copy, [](StringRef w) { return symbolizeCopy(w); }, {"auto", "cp_async", "tma"});
    if (key == "multicast")
      return keyword(f.multicast, [](StringRef w) { return symbolizeMulticast(w); }, {"none", "a", "b", "ab"});
    if (key == "cache_a" || key == "cache_b")
      return keyword(key == "cache_a" ? f.cacheA : f.cacheB,
                     [](StringRef w) { return symbolizeCacheHint(w); },
                     {"normal", "evict_first", "evict_last"});
    if (key == "grid")
      return keyword(f.grid, [](StringRef w) { return symbolizeGrid(w); }, {"tiles", "persistent", "stream_k"});
    if (key == "raster")
      return keyword(f.raster, [](StringRef w) { return symbolizeRaster(w); }, {"row", "col"});
    if (key == "promotion") {
      llvm::SMLoc vloc = parser.getCurrentLocation();
      int64_t v;
      if (parser.parseInteger(v))
        return failure();
      if (v < 1 || v > INT32_MAX)
        return parser.emitError(vloc, "field 'promotion' must be from 1 to 2147483647 K "
                                      "elements, got ")
               << v;
      f.promotion = v;
      return success();
    }
    if (key == "alignment") {
      // One value for both operands, or [a, b].
      llvm::SMLoc vloc = parser.getCurrentLocation();
      int64_t v;
      OptionalParseResult one = parser.parseOptionalInteger(v);
      if (one.has_value()) {
        if (failed(*one))
          return failure();
        f.alignment = {v, v};
        return success();
      }
      if (parseIntList(parser, f.alignment))
        return failure();
      if (f.alignment.size() != 2)
        return parser.emitError(vloc, "field 'alignment' must be one value or [a, b] (elements "
                                      "of A and of B), got ")
               << f.alignment.size() << " values";
      return success();
    }
    if (key == "accumulation") {
      Accumulation value;
      if (keyword(value, [](StringRef w) { return symbolizeAccumulation(w); },
                  {"promoted", "fast"}))
        return failure();
      f.accumulation = value;
      return success();
    }
    if (key == "upcast")
      return parseFieldType(parser, key, f.upcast);
    if (key == "scale_a")
      return scale(f.scaleA);
    if (key == "scale_b")
      return scale(f.scaleB);
    if (key == "alpha")
      return parseScalarField(parser, key, f.alpha);
    if (key == "beta")
      return parseScalarField(parser, key, f.beta);
    if (key == "target") {
      std::string t;
      if (parser.parseString(&t))
        return failure();
      f.target = t;
      return success();
    }
    static constexpr StringRef kFields[] = {
        "a",        "b",       "c",          "accumulator", "scale_a",  "scale_b", "upcast",
        "accumulation", "promotion", "tile",  "stages",      "accumulators", "schedule",
        "copy",     "warps",   "mma",        "cluster",     "multicast", "cache_a",
        "cache_b",  "cta_group",
        "grid",     "raster",  "swizzle",    "alpha",       "beta",     "alignment",
        "target"};
    return parser.emitError(loc, "unknown field '")
           << key << "'; expected " << llvm::join(ArrayRef<StringRef>(kFields), ", ")
           << tilegen::didYouMean(key, kFields);
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
  MLIRContext *ctx = parser.getContext();
  props.a_layout = LayoutAttr::get(ctx, f.aLayout);
  props.b_layout = LayoutAttr::get(ctx, f.bLayout);
  props.c_layout = LayoutAttr::get(ctx, f.cLayout);
  props.scale_a = f.scaleA;
  props.scale_b = f.scaleB;
  if (f.accumulation)
    props.accumulation = AccumulationAttr::get(ctx, *f.accumulation);
  if (f.promotion)
    props.promotion = b.getI64IntegerAttr(*f.promotion);
  if (f.upcast)
    props.upcast = TypeAttr::get(f.upcast);
  if (!f.alignment.empty())
    props.alignment = b.getDenseI64ArrayAttr(f.alignment);
  props.tile = b.getDenseI64ArrayAttr(f.tile);
  props.warps = b.getDenseI64ArrayAttr(f.warps);
  props.mma = b.getDenseI64ArrayAttr(f.mma);
  props.cluster = b.getDenseI64ArrayAttr(f.cluster);
  props.stages = b.getI64IntegerAttr(f.stages);
  props.accumulators = b.getI64IntegerAttr(f.accumulators);
  props.cta_group = b.getI64IntegerAttr(f.ctaGroup);
  props.swizzle = b.getI64IntegerAttr(f.swizzle);
  props.schedule = ScheduleAttr::get(ctx, f.schedule);
  props.copy = CopyAttr::get(ctx, f.copy);
  props.multicast = MulticastAttr::get(ctx, f.multicast);
  // `normal` is no hint: recorded as no attribute.
  if (f.cacheA != CacheHint::Normal)
    props.cache_a = CacheHintAttr::get(ctx, f.cacheA);
  if (f.cacheB != CacheHint::Normal)
    props.cache_b = CacheHintAttr::get(ctx, f.cacheB);
  props.grid = GridAttr::get(ctx, f.grid);
  props.raster = RasterAttr::get(ctx, f.raster);
  props.alpha = b.getF64FloatAttr(f.alpha);
  props.beta = b.getF64FloatAttr(f.beta);
  if (f.target)
    props.target = b.getStringAttr(*f.target);
  props.sym_name = name;
  result.attributes.erase(SymbolTable::getSymbolAttrName());
  // The op's location stays first (diagnostics about the whole op show it); the fields follow.
  if (!fieldLocs.empty()) {
    fieldLocs.insert(fieldLocs.begin(), result.location);
    result.location = FusedLoc::get(fieldLocs, b.getStringAttr(kFieldLocsMarker), ctx);
  }
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
  p << "a = " << getAType() << " " << stringifyLayout(getALayout()) << ", b = " << getBType()
    << " " << stringifyLayout(getBLayout()) << ", c = " << getCType() << " "
    << stringifyLayout(getCLayout()) << ", accumulator = " << getAccType() << ",";
  if (getScaleA() || getScaleB()) {
    p.printNewline();
    if (getScaleA()) {
      p << "scale_a = ";
      printScaleBody(p, getScaleAAttr());
      p << (getScaleB() ? ", " : ",");
    }
    if (getScaleB()) {
      p << "scale_b = ";
      printScaleBody(p, getScaleBAttr());
      p << ",";
    }
  }
  if (getUpcast()) {
    p.printNewline();
    p << "upcast = " << *getUpcast() << ",";
  }
  if (getAccumulation() || getPromotion()) {
    p.printNewline();
    if (getAccumulation())
      p << "accumulation = " << stringifyAccumulation(*getAccumulation()) << ",";
    if (getPromotion())
      p << (getAccumulation() ? " " : "") << "promotion = " << *getPromotion() << ",";
  }
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
  p << "schedule = " << stringifySchedule(getSchedule())
    << ", copy = " << stringifyCopy(getCopy());
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
  p << ", multicast = " << stringifyMulticast(getMulticast())
    << ", cta_group = " << getCtaGroup() << ",";
  if (getCacheA() || getCacheB()) {
    p.printNewline();
    if (getCacheA())
      p << "cache_a = " << stringifyCacheHint(*getCacheA()) << ",";
    if (getCacheB())
      p << (getCacheA() ? " " : "") << "cache_b = " << stringifyCacheHint(*getCacheB()) << ",";
  }
  p.printNewline();
  p << "grid = " << stringifyGrid(getGrid()) << ", raster = " << stringifyRaster(getRaster())
    << ", swizzle = " << getSwizzle() << ",";
  p.printNewline();
  p << "alpha = ";
  p.printFloat(getAlphaAttr().getValue());
  p << ", beta = ";
  p.printFloat(getBetaAttr().getValue());
  if (std::optional<ArrayRef<int64_t>> align = getAlignment()) {
    p << ", alignment = ";
    if (align->size() == 2 && (*align)[0] == (*align)[1])
      p << (*align)[0];
    else
      printList(p, *align);
  }
  if (getTarget())
    p << ", target = \"" << *getTarget() << "\"";
  p.decreaseIndent();
  p.printNewline();
  p << "}";
}

/// `1e+39`, `inf`, `nan`: a double as a diagnostic shows it.
static std::string formatScalar(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

/// Whether `name` is a PTX identifier: a letter then letters, digits, `_` and `$`, or `_`/`$`
/// followed by at least one of those (PTX ISA, "Identifiers"). `%` starts are left out (they
/// name registers in tilegen's own PTX), and so are PTX's predefined `WARP_SZ`, names starting
/// with `__tilegen`, which the lowering uses for its own symbols, and with `__cuda`, which the
/// CUDA toolchain keeps for itself.
static bool isKernelName(StringRef name, std::string &why) {
  auto follow = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; };
  if (name.empty()) {
    why = "the name is empty";
    return false;
  }
  if (name.size() > kMaxKernelNameLength) {
    why = "it has " + std::to_string(name.size()) + " characters; at most " +
          std::to_string(kMaxKernelNameLength);
    return false;
  }
  char c0 = name.front();
  if (!llvm::isAlpha(c0) && c0 != '_' && c0 != '$') {
    why = "a PTX identifier starts with a letter, '_' or '$'";
    return false;
  }
  if ((c0 == '_' || c0 == '$') && name.size() == 1) {
    why = "a PTX identifier that starts with '_' or '$' needs at least one more character";
    return false;
  }
  for (char c : name)
    if (!follow(c)) {
      why = "'" + std::string(1, c) +
            "' is not allowed in a PTX identifier (letters, digits, '_' and '$')";
      if (!llvm::isPrint(static_cast<unsigned char>(c)))
        why = "byte 0x" + llvm::utohexstr(static_cast<unsigned char>(c)) +
              " is not allowed in a PTX identifier (letters, digits, '_' and '$')";
      return false;
    }
  if (name.starts_with("__tilegen")) {
    why = "names starting with '__tilegen' are reserved for tilegen's own symbols";
    return false;
  }
  if (name.starts_with("__cuda")) {
    why = "names starting with '__cuda' are the CUDA toolchain's own (ptxas reports nothing "
          "about such entries)";
    return false;
  }
  if (name == "WARP_SZ") {
    why = "WARP_SZ is a predefined PTX identifier";
    return false;
  }
  return true;
}

/// Elements of `type` in 16 bytes (the widest copy).
static int64_t widestAlignment(Type type) {
  // 6-bit elements are stored one per byte.
  int64_t bits = tilegen::elemBits(type) == 6 ? 8 : tilegen::elemBits(type);
  return 128 / bits;
}

int64_t GemmOp::getAlignmentA() {
  if (std::optional<ArrayRef<int64_t>> align = getAlignment(); align && align->size() == 2)
    return (*align)[0];
  return widestAlignment(getAType());
}

int64_t GemmOp::getAlignmentB() {
  if (std::optional<ArrayRef<int64_t>> align = getAlignment(); align && align->size() == 2)
    return (*align)[1];
  return widestAlignment(getBType());
}

/// The operand types and their scales, target-independently: which types mix, which operands
/// take which scales, the block-scaled formats' block sizes and the tile's K against them,
/// and `upcast`. Whether a target runs them is GemmPlan's question.
LogicalResult GemmOp::verifyOperandsAndScales() {
  Type a = getAType(), b = getBType();
  const ElemInfo &ea = elemInfo(*elemOf(a)), &eb = elemInfo(*elemOf(b));
  ScaleAttr scaleA = getScaleAAttr(), scaleB = getScaleBAttr();
  std::optional<Type> upcast = getUpcast();
  // Which types mix: one type; or two narrow formats (FP8, FP6, FP4); or, converted by the
  // upcast path, a 16-bit operand of the upcast type beside a narrow one.
  bool sixteenA = !ea.narrow, sixteenB = !eb.narrow;
  if (a != b && sixteenA != sixteenB) {
    StringRef wide = sixteenA ? "a" : "b";
    Type wideType = sixteenA ? a : b;
    if (!upcast)
      return emitFieldError(*this, "b")
             << "fields 'a' = " << a << " and 'b' = " << b
             << " mix a 16-bit and a narrow format: no tensor-core instruction takes that pair; "
                "the upcast path converts the narrow operand (add upcast = "
             << wideType << ")";
    if (*upcast != wideType)
      return emitFieldError(*this, "upcast")
             << "field 'upcast' = " << *upcast << " differs from field '" << wide
             << "' = " << wideType << ": the converted operand is multiplied with the other one, "
                "so both have the upcast type";
  } else if (a != b && sixteenA) {
    return emitFieldError(*this, "b")
           << "fields 'a' and 'b' must have one element type (or two narrow formats: FP8, FP6, "
              "FP4), got "
           << a << " and " << b;
  }
  // Each operand's scale.
  for (auto [field, scale, type, info] :
       {std::tuple<StringRef, ScaleAttr, Type, const ElemInfo &>{"scale_a", scaleA, a, ea},
        {"scale_b", scaleB, b, eb}}) {
    // FP6 and FP4 without scales are the plain .kind::f8f6f4 (sm_120a mma.sync, tcgen05):
    // which targets have it is GemmPlan's question.
    if (!scale)
      continue;
    if (!info.narrow)
      return emitFieldError(*this, field)
             << "field '" << field << "' is given for an operand of type " << type
             << ": scales apply to narrow operands (f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, "
                "f4E2M1FN) only";
    Type st = scale.getType();
    if (st.isF32()) {
      if (!info.fp8)
        return emitFieldError(*this, field)
               << "field '" << field << "' = f32 scales for " << type
               << " operands: FP6 and FP4 take block scales, f8E8M0FNU [1, 32] (OCP MX)"
               << (llvm::isa<Float4E2M1FNType>(type) ? " or f8E4M3FN [1, 16] (NVFP4)" : "");
      continue;
    }
    bool e8m0 = llvm::isa<Float8E8M0FNUType>(st);
    int64_t want = e8m0 ? 32 : 16;
    if (!e8m0 && !llvm::isa<Float4E2M1FNType>(type))
      return emitFieldError(*this, field)
             << "field '" << field << "' = f8E4M3FN block scales for " << type
             << " operands: E4M3 block scales are NVFP4's, for f4E2M1FN operands only; MX "
                "formats take f8E8M0FNU [1, 32]";
    if (scale.blockOuter() != 1 || scale.blockK() != want)
      return emitFieldError(*this, field)
             << "field '" << field << "' = " << st << " [" << scale.blockOuter() << ", "
             << scale.blockK() << "]: " << (e8m0 ? "OCP MX" : "NVFP4") << " block scales cover "
             << want << " elements of K of one row, [1, " << want << "] ("
             << (e8m0 ? "E8M0" : "E4M3") << " scales per "
             << (scale.blockOuter() == 1
                     ? std::to_string(scale.blockK())
                     : "[" + std::to_string(scale.blockOuter()) + ", " +
                           std::to_string(scale.blockK()) + "] block")
             << " are no kind's)";
    if (getTileK() % want != 0)
      return emitFieldError(*this, "tile")
             << "tile K = " << getTileK() << " is not a multiple of the " << field << " block ("
             << want << " elements of K): every K-slice must hold whole scale blocks";
  }
  // One MMA applies one kind of scale to both operands.
  if (scaleA && scaleB && scaleA.isMicroScaled() != scaleB.isMicroScaled() &&
      (ea.narrow && eb.narrow))
    return emitFieldError(*this, "scale_b")
           << "scale_a = " << scaleA.getType() << " and scale_b = " << scaleB.getType()
           << " mix f32 scales with block-scaled formats: give both operands block scales of "
              "one format";
  if (scaleA && scaleB && scaleA.isMicroScaled() && scaleB.isMicroScaled() &&
      scaleA.getType() != scaleB.getType())
    return emitFieldError(*this, "scale_b")
           << "scale_a = " << scaleA.getType() << " and scale_b = " << scaleB.getType()
           << " mix two block-scale formats; no block-scaled kind takes that (one scale type "
              "per instruction)";
  bool micro = (scaleA && scaleA.isMicroScaled()) || (scaleB && scaleB.isMicroScaled());
  if (micro && ea.narrow && eb.narrow && (!scaleA || !scaleB))
    return emitFieldError(*this, scaleA ? "scale_a" : "scale_b")
           << "field '" << (scaleA ? "scale_b" : "scale_a") << "' is missing: with "
           << (scaleA ? scaleA : scaleB).getType()
           << " block scales on one narrow operand, the other narrow operand needs its own";
  if (upcast) {
    if (!upcast->isBF16())
      return emitFieldError(*this, "upcast")
             << "field 'upcast' = " << *upcast
             << " is not supported yet: the upcast path converts to bf16 only";
    if (!micro)
      return emitFieldError(*this, "upcast")
             << "field 'upcast' = " << *upcast
             << " is given without block-scaled operands (f8E8M0FNU or f8E4M3FN block scales): "
                "there is nothing to convert";
  }
  if (micro && getAccumulation())
    return emitFieldError(*this, "accumulation")
           << "field 'accumulation' is given with block-scaled formats: it chooses how FP8 "
              "products with f32 scales are accumulated; block-scaled MMAs accumulate in f32";
  return success();
}

/// The bound on alpha and beta, as the runner checks manifests and options: 3.4028235e38, the
/// shortest decimal that reads back as FLT_MAX (FLT_MAX itself, 3.40282347e38, is below it).
static constexpr double kMaxF32Literal = 3.4028235e38;
static bool fitsF32(double value) {
  return std::isfinite(value) && std::fabs(value) <= kMaxF32Literal;
}

/// Target-independent rules. What depends on the target is `tile-check-target`'s job.
/// Every numeric field is bounded here, before any product of fields is formed, so that the
/// resolver, the plan and the reports compute sizes far from int64 overflow (the bounds are
/// listed in the op's description).
LogicalResult GemmOp::verify() {
  std::string why;
  if (!isKernelName(getSymName(), why))
    return emitOpError() << "kernel name '"
                         << (getSymName().size() > 40 ? getSymName().take_front(32).str() + "..."
                                                      : getSymName().str())
                         << "' is not a PTX identifier: " << why;
  for (auto [field, value] :
       {std::pair<StringRef, double>{"alpha", getAlpha().convertToDouble()},
        {"beta", getBeta().convertToDouble()}})
    if (!fitsF32(value))
      return emitFieldError(*this, field) << "field '" << field << "' = " << formatScalar(value)
                           << " must be a finite number that fits f32, |x| <= 3.4028235e38 (the "
                              "epilogue computes in f32)";
  // Operand types: the MMA table's operand types (its f32 row is no operand of any instruction
  // tilegen issues: that would be TF32); A and B share a type, except that the two FP8 formats
  // mix.
  for (auto [field, type] : {std::pair<StringRef, Type>{"a", getAType()}, {"b", getBType()}}) {
    if (type.isF32())
      return emitFieldError(*this, field)
             << "field '" << field << "' is f32: f32 operands need a TF32 MMA, which tilegen "
                "does not support yet; use bf16, f16 or an FP8 format";
    if (llvm::isa<Float8E8M0FNUType>(type))
      return emitFieldError(*this, field)
             << "field '" << field << "' is f8E8M0FNU, a scale type (a power of two, no "
                "mantissa): it goes in scale_" << field << " = f8E8M0FNU [1, 32]";
    if (!elemOf(type) || !type.isIntOrFloat())
      return emitFieldError(*this, field)
             << "field '" << field << "' has element type " << type
             << "; expected bf16, f16, f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN or f4E2M1FN";
  }
  // A list field: `count` entries, each from 1 to `max`.
  auto list = [&](StringRef field, ArrayRef<int64_t> values, size_t count, int64_t max,
                  StringRef shape) -> LogicalResult {
    if (values.size() == count && llvm::all_of(values, [&](int64_t v) {
          return v >= 1 && v <= max;
        }))
      return success();
    InFlightDiagnostic d = emitFieldError(*this, field) << "field '" << field << "' = [";
    llvm::interleaveComma(values, d);
    return d << "] must be " << count << " sizes " << shape << ", each from 1 to " << max;
  };
  // The tile first: the operand and scale checks read its K.
  if (failed(list("tile", getTile(), 3, kMaxTileSize, "[M, N, K]")))
    return failure();
  if (failed(verifyOperandsAndScales()))
    return failure();
  Type c = getCType();
  if (!c.isBF16() && !c.isF16() && !c.isF32())
    return emitFieldError(*this, "c") << "field 'c' has element type " << c << "; expected bf16, f16 or f32";
  if (!getAccType().isF32())
    return emitFieldError(*this, "accumulator") << "field 'accumulator' is " << getAccType()
                         << "; only f32 accumulation is supported";
  // Read as signed: a negative literal must be echoed as written, not as its unsigned wrap.
  const int64_t stages = getStagesAttr().getInt(), accumulators = getAccumulatorsAttr().getInt(),
                ctaGroup = getCtaGroupAttr().getInt(), swizzle = getSwizzleAttr().getInt();
  if (stages < 0 || stages > kMaxStages)
    return emitFieldError(*this, "stages") << "field 'stages' = " << stages << " must be auto or 1 to "
                         << kMaxStages;
  if (accumulators != 1 && accumulators != 2)
    return emitFieldError(*this, "accumulators") << "field 'accumulators' = " << accumulators
                         << " must be 1 or 2";
  if (ctaGroup != 1 && ctaGroup != 2)
    return emitFieldError(*this, "cta_group") << "field 'cta_group' = " << ctaGroup << " must be 1 or 2";
  if (!getWarps().empty() && failed(list("warps", getWarps(), 2, kMaxWarps, "[WM, WN]")))
    return failure();
  if (!getMma().empty() && failed(list("mma", getMma(), 3, kMaxMmaSize, "[m, n, k]")))
    return failure();
  if (failed(list("cluster", getCluster(), 3, kMaxClusterDim, "[X, Y, Z]")))
    return failure();
  if (swizzle < 1 || swizzle > kMaxSwizzle)
    return emitFieldError(*this, "swizzle") << "field 'swizzle' = " << swizzle << " must be from 1 to "
                         << kMaxSwizzle;
  if (std::optional<uint64_t> k = getPromotion(); k && (*k < 1 || *k > INT32_MAX))
    return emitFieldError(*this, "promotion") << "field 'promotion' = " << static_cast<int64_t>(*k)
                         << " must be from 1 to 2147483647 K elements";
  if (std::optional<ArrayRef<int64_t>> align = getAlignment()) {
    if (align->size() != 2)
      return emitFieldError(*this, "alignment") << "field 'alignment' has " << align->size()
                           << " values; expected one value or [a, b]";
    for (auto [field, x, type] : {std::tuple<StringRef, int64_t, Type>{"a", (*align)[0], getAType()},
                                  {"b", (*align)[1], getBType()}}) {
      int64_t widest = widestAlignment(type);
      if (x < 1 || x > widest || !llvm::isPowerOf2_64(x))
        return emitFieldError(*this, "alignment") << "field 'alignment' = " << x << " for " << field << " = " << type
                             << " must be a power of two from 1 to " << widest
                             << " elements (copies of at most 16 bytes)";
    }
  }
  int64_t clusterSize = getCluster()[0] * getCluster()[1] * getCluster()[2];
  if (getMulticast() != Multicast::None && clusterSize == 1)
    return emitFieldError(*this, "multicast") << "field 'multicast' = " << stringifyMulticast(getMulticast())
                         << " needs a cluster of more than one CTA, got cluster [1, 1, 1]";
  if (getCtaGroup() == 2 && getCluster()[0] % 2 != 0)
    return emitFieldError(*this, "cta_group") << "cta_group = 2 needs the cluster's M extent (cluster[0]) to be "
                            "even, got "
                         << getCluster()[0];
  return success();
}

//===----------------------------------------------------------------------===//
// tile.pipeline
//===----------------------------------------------------------------------===//

/// The plan must be one the target and the MMA instruction table allow: the emitters rely on
/// it and check nothing again.
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
  std::optional<NVTarget> target = NVTarget::parse(getTarget());
  if (!target)
    return emitOpError() << "unknown target '" << getTarget()
                         << "'; known targets: " << NVTarget::knownNames()
                         << NVTarget::suggest(getTarget());
  StringRef tname = target->name();
  if (getBlock().size() != 3 || getCluster().size() != 3)
    return emitOpError() << "block and cluster must have three dimensions";
  if (getBlock()[0] < 32 || getBlock()[0] > 1024 || getBlock()[0] % 32 != 0 ||
      getBlock()[1] != 1 || getBlock()[2] != 1)
    return emitOpError() << "block = [" << getBlock()[0] << ", " << getBlock()[1] << ", "
                         << getBlock()[2] << "] must be [32 x warps, 1, 1] with 1 to 32 warps";
  int64_t warps = getBlock()[0] / 32;
  if (llvm::any_of(getCluster(), [](int64_t v) { return v < 1 || v > 16; }))
    return emitOpError() << "cluster dimensions must be 1 to 16";
  int64_t clusterSize = getCluster()[0] * getCluster()[1] * getCluster()[2];
  if (clusterSize > target->maxClusterSize())
    return emitOpError() << "cluster of " << clusterSize << " CTAs; target " << tname
                         << " allows at most " << target->maxClusterSize();
  int64_t smem = getSmemBytes();
  if (smem < 0 || smem > target->smemPerBlock())
    return emitOpError() << "smem = " << smem << " bytes; target " << tname << " has "
                         << target->smemPerBlock() << " per block";

  RoleOp roles[3] = {};
  for (RoleOp role : body.getOps<RoleOp>()) {
    RoleOp &slot = roles[static_cast<unsigned>(role.getKind())];
    if (slot)
      return role.emitOpError() << "role '" << stringifyRoleKind(role.getKind())
                                << "' is given twice";
    slot = role;
    ArrayRef<int64_t> w = role.getWarps();
    if (w.size() != 2 || w[0] < 0 || w[1] < 1 || w[0] + w[1] > warps)
      return role.emitOpError() << "warps must be [first, count] within the block's " << warps
                                << " warps";
    if ((role.getKind() == RoleKind::Mma) != static_cast<bool>(role.getInstrAttr()))
      return role.emitOpError() << "the mma role, and only it, names its instruction "
                                   "('issues #tile.mma<...>')";
  }
  for (RoleKind kind : {RoleKind::Producer, RoleKind::Mma, RoleKind::Epilogue})
    if (!roles[static_cast<unsigned>(kind)])
      return emitOpError() << "has no '" << stringifyRoleKind(kind) << "' role";

  RingOp ring = *body.getOps<RingOp>().begin();
  AccumulatorsOp accs = *body.getOps<AccumulatorsOp>().begin();
  ScheduleOp schedule = *body.getOps<ScheduleOp>().begin();
  EpilogueOp epilogue = *body.getOps<EpilogueOp>().begin();
  RoleOp mmaRole = roles[static_cast<unsigned>(RoleKind::Mma)];
  MmaInstrAttr mma = mmaRole.getInstrAttr();
  // Sizes that later rules divide by.
  int64_t ringSlots = ring.getSlots(), ringSliceK = ring.getSliceK();
  if (ringSlots < 1 || ringSlots > kMaxStages || ringSliceK < 1 || ringSliceK > kMaxTileSize)
    return ring.emitOpError() << "needs 1 to " << kMaxStages << " slots and slice_k from 1 to "
                              << kMaxTileSize;

  // The instruction: a row of the table that the target offers, at a shape its family issues.
  std::optional<Elem> a = elemOf(mma.getAType()), b = elemOf(mma.getBType()),
                      acc = elemOf(mma.getAccType());
  // Block-scaled kinds are rows of their own, found by the scales' type and block.
  ScaleAttr microScale = mma.getScaleA() && mma.getScaleA().isMicroScaled() ? mma.getScaleA()
                                                                            : ScaleAttr();
  std::optional<Elem> scaleElem = microScale ? elemOf(microScale.getType()) : std::nullopt;
  // (Without one, the plain row: the scales check below then says the family does not
  // apply them.)
  const MmaInstr *row = nullptr;
  if (a && b && acc && scaleElem)
    row = findBlockScaledMma(mma.getFamily(), *a, *b, *acc, *scaleElem,
                             unsigned(microScale.blockK()));
  if (!row && a && b && acc)
    row = findMma(mma.getFamily(), *a, *b, *acc);
  if (!row)
    return mmaRole.emitOpError()
           << "no " << familyName(mma.getFamily()) << " instruction takes " << mma.getAType()
           << " x " << mma.getBType() << " -> " << mma.getAccType();
  if (!target->offers(*row))
    return mmaRole.emitOpError() << row->ptx << " with " << mma.getAType() << " x "
                                 << mma.getBType() << " is not offered by target " << tname
                                 << " (" << target->familiesString() << ")";
  if (mma.getCtaGroup() == 2 && !target->hasCtaGroup2())
    return mmaRole.emitOpError() << "cta_group = 2 needs the sm_100a family; target " << tname;
  if (mma.getPromotion() != 0 &&
      (mma.getPromotion() < 0 || mma.getPromotion() % ring.getSliceK() != 0 ||
       mma.getFamily() != MmaFamily::Wgmma || mma.getAccumulation() != Accumulation::Promoted ||
       (mma.getScaleA() && !mma.getScaleA().isTensor())))
    return mmaRole.emitOpError() << "promotion = " << mma.getPromotion()
                                 << " needs FP8 wgmma with promoted accumulation and no block "
                                    "scales, and a multiple of the ring's slice_k = "
                                 << ring.getSliceK();
  std::string why;
  if (!validShape(*row, mma.getM(), mma.getN(), mma.getCtaGroup(), &why) ||
      mma.getK() != row->k)
    return mmaRole.emitOpError() << "shape [" << mma.getM() << ", " << mma.getN() << ", "
                                 << mma.getK() << "] is not issued: "
                                 << (why.empty() ? "K must be " + std::to_string(row->k) : why);
  for (auto [name, scale] : {std::pair<StringRef, ScaleAttr>{"scale_a", mma.getScaleA()},
                             {"scale_b", mma.getScaleB()}})
    if (scale && (row->blockScaled
                      ? !scale.isMicroScaled() || elemOf(scale.getType()) != row->scaleElem ||
                            scale.blockK() != int64_t(row->scaleBlock)
                      : scale.isMicroScaled() ||
                            !(scale.isTensor() ? row->scales.tensor : row->scales.block)))
      return mmaRole.emitOpError() << name << " = " << scale << " is not applied by the "
                                   << familyName(mma.getFamily()) << " lowering of " << row->ptx;

  if (mma.getAccumulation() == Accumulation::Fast &&
      (mma.getFamily() != MmaFamily::Wgmma || !elemInfo(*a).fp8 ||
       (mma.getScaleA() && !mma.getScaleA().isTensor())))
    return mmaRole.emitOpError() << "accumulation = fast is a choice of FP8 wgmma with "
                                    "per-tensor scales only; the role issues "
                                 << row->ptx << " with " << mma.getAType();

  // The ring carries the instruction's operands, K-major where the instruction needs it.
  // The upcast: the ring carries B packed (converted to bf16 by the consumers).
  // Without convert_offset and convert_slots the mma role converts packed FP4 B in registers
  // (beside bf16 A, which is not converted).
  bool convertRing = ring.getConvertOffset() && ring.getConvertSlots();
  bool inRegisters = !ring.getConvertOffset() && !ring.getConvertSlots() &&
                     !ring.getUpcastScaleA() && elemBits(ring.getBType()) == 4 &&
                     ring.getAType().isBF16();
  bool upcast = ring.getUpcastScaleB() && (convertRing || inRegisters) &&
                mma.getBType().isBF16() && !mma.getScaleA() && !mma.getScaleB() &&
                elemBits(ring.getBType()) < 16;
  if (ring.getUpcastScaleB() && !upcast)
    return ring.emitOpError() << "upcast_scale_b needs a narrow ring B type, a bf16 mma role "
                                 "without scales, and convert_offset with convert_slots (the "
                                 "converter role's ring), or neither with packed FP4 B beside "
                                 "bf16 A (converted in registers)";
  if (upcast && mma.getFamily() != MmaFamily::Wgmma)
    return ring.emitOpError() << "upcast_scale_b is converted by the wgmma lowering only; the "
                                 "mma role issues "
                              << familyName(mma.getFamily());
  // MXFP8 x MXFP8: A is carried narrow and converted as well.
  bool upcastA = upcast && ring.getUpcastScaleA() && mma.getAType().isBF16() &&
                 elemBits(ring.getAType()) < 16;
  if (ring.getUpcastScaleA() && !upcastA)
    return ring.emitOpError() << "upcast_scale_a needs upcast_scale_b, a narrow ring A type and "
                                 "a bf16 mma role";
  if ((!upcastA && ring.getAType() != mma.getAType()) ||
      (!upcast && ring.getBType() != mma.getBType()))
    return ring.emitOpError() << "carries " << ring.getAType() << " x " << ring.getBType()
                              << " but the mma role issues " << mma.getAType() << " x "
                              << mma.getBType();
  if (!row->mnMajor && (ring.getALayout() != Layout::Row || ring.getBLayout() != Layout::Col))
    return ring.emitOpError() << row->ptx << " with " << mma.getAType()
                              << " takes K-major operands only (a = row, b = col)";
  if (ring.getSlots() < 1 || ring.getSliceK() < 1 || ring.getSliceK() % mma.getK() != 0)
    return ring.emitOpError() << "needs at least one slot and slice_k a multiple of the MMA K = "
                              << mma.getK();
  bool mbarriers = ring.getSync() == RingSync::MbarrierFullEmpty;
  if ((!mbarriers && mma.getFamily() != MmaFamily::MmaSync) ||
      (ring.getSwizzle() == SmemSwizzle::Xor16x8) == mbarriers)
    return ring.emitOpError() << "sync = " << stringifyRingSync(ring.getSync())
                              << ", swizzle = " << stringifySmemSwizzle(ring.getSwizzle())
                              << " do not match " << familyName(mma.getFamily())
                              << " (TMA ring with mbarriers for wgmma and tcgen05, cp.async "
                                 "groups with the xor16x8 layout or a TMA ring for mma.sync)";
  // Copies narrower than 16 bytes: powers of two, of cp.async or plain loads (mma.sync).
  if (std::optional<ArrayRef<int64_t>> align = ring.getAlign()) {
    int64_t bitsA = elemBits(ring.getAType()), bitsB = elemBits(ring.getBType());
    if (align->size() != 2 ||
        llvm::any_of(llvm::zip(*align, ArrayRef<int64_t>{bitsA, bitsB}), [](auto xb) {
          auto [x, bits] = xb;
          return x < 1 || !llvm::isPowerOf2_64(x) || x * bits > 128;
        }))
      return ring.emitOpError() << "align must be [a, b] in elements: powers of two of at most "
                                   "16 bytes each";
    if (mbarriers && ((*align)[0] * bitsA < 128 || (*align)[1] * bitsB < 128))
      return ring.emitOpError() << "align [" << (*align)[0] << ", " << (*align)[1]
                                << "] is narrower than 16 bytes: "
                                << familyName(mma.getFamily())
                                << " is fed by TMA, which needs 16-byte strides";
  }
  // Checked: the sizes come from text a user may have written.
  auto end = [](int64_t offset, int64_t count, int64_t bytes, int64_t &out) {
    return offset >= 0 && count >= 0 && bytes >= 0 && !llvm::MulOverflow(count, bytes, out) &&
           !llvm::AddOverflow(out, offset, out);
  };
  int64_t ringEnd = 0, barriersEnd = 0, epilogueEnd = 0;
  int64_t slots = ring.getSlots();
  if (!end(ring.getOffset(), slots, ring.getSlotBytes(), ringEnd) || ringEnd > smem ||
      ring.getSlotBytes() < 1 ||
      !end(ring.getBarrierOffset(), mbarriers ? 2 * slots : 0, 8, barriersEnd) ||
      barriersEnd > smem || !end(epilogue.getOffset(), 1, epilogue.getSmemBytes(), epilogueEnd) ||
      epilogueEnd > smem)
    return emitOpError() << "the ring, its barriers and the epilogue buffers must lie within "
                            "smem = "
                         << smem << " bytes";

  // Accumulators and the loops.
  if ((accs.getStorage() == Storage::Tmem) != (mma.getFamily() == MmaFamily::Tcgen05))
    return accs.emitOpError() << "accumulators in " << stringifyStorage(accs.getStorage())
                              << " do not match " << familyName(mma.getFamily())
                              << " (tmem for tcgen05, registers otherwise)";
  if (accs.getType() != mma.getAccType() || accs.getCount() < 1 || accs.getCount() > 2)
    return accs.emitOpError() << "must be 1 or 2 buffers of the MMA's accumulator type "
                              << mma.getAccType();
  ArrayRef<int64_t> tile = schedule.getTile();
  if (tile.size() != 2 || tile[0] < 1 || tile[1] < 1 || tile[0] > kMaxTileSize ||
      tile[1] > kMaxTileSize || schedule.getSliceK() != ring.getSliceK() ||
      ring.getSliceK() > kMaxTileSize || schedule.getSwizzle() < 1 ||
      schedule.getSwizzle() > kMaxSwizzle)
    return schedule.emitOpError() << "needs a tile [M, N] and the ring's slice_k from 1 to "
                                  << kMaxTileSize << " and a swizzle from 1 to " << kMaxSwizzle;
  // The ring's slices and the accumulators are the CTA's share of the tile (a tcgen05 CTA pair
  // splits M, and B's N, between its two CTAs).
  int64_t ctaGroup = mma.getCtaGroup(), sliceK = ring.getSliceK();
  auto sliceShape = [&](Layout layout, bool isA, int64_t mn) {
    bool kMajor = isA ? layout == Layout::Row : layout == Layout::Col;
    return kMajor ? SmallVector<int64_t>{mn, sliceK} : SmallVector<int64_t>{sliceK, mn};
  };
  SmallVector<int64_t> aShape = sliceShape(ring.getALayout(), true, tile[0] / ctaGroup);
  SmallVector<int64_t> bShape = sliceShape(ring.getBLayout(), false, tile[1] / ctaGroup);
  if (ring.getAShape() != ArrayRef<int64_t>(aShape) || ring.getBShape() != ArrayRef<int64_t>(bShape))
    return ring.emitOpError() << "slices must be the CTA's share of the tile [" << tile[0] << ", "
                              << tile[1] << "] by slice_k " << sliceK << ": a ["
                              << aShape[0] << ", " << aShape[1] << "], b [" << bShape[0] << ", "
                              << bShape[1] << "]";
  // Bits per element as the instruction reads the ring (8 for the padded 6- and 4-bit form).
  int64_t aBits = upcast ? elemBits(ring.getAType()) : smemElemBits(*row, *elemOf(ring.getAType()));
  int64_t bBits = upcast ? elemBits(ring.getBType()) : smemElemBits(*row, *elemOf(ring.getBType()));
  int64_t aBytes = aShape[0] * aShape[1] * aBits / 8, bBytes = bShape[0] * bShape[1] * bBits / 8;
  if (ring.getBOffset() < aBytes || ring.getBOffset() + bBytes > ring.getSlotBytes())
    return ring.emitOpError() << "slot of " << ring.getSlotBytes() << " bytes with B at "
                              << ring.getBOffset() << " does not hold A (" << aBytes
                              << " bytes) then B (" << bBytes << " bytes)";
  // The upcast's converted ring (convert_slots bf16 slices of B) lies within the shared
  // memory, before the barriers.
  if (std::optional<uint64_t> conv = ring.getConvertOffset()) {
    uint64_t slots = ring.getConvertSlots().value_or(0);
    uint64_t elems = uint64_t(bShape[0] * bShape[1]) + (upcastA ? aShape[0] * aShape[1] : 0);
    if (*conv % 1024 != 0 || slots < 1 || slots > 8 ||
        *conv + slots * elems * 2 > ring.getBarrierOffset())
      return ring.emitOpError() << "convert_offset " << *conv << " must be 1024-byte aligned "
                                << "and leave convert_slots = " << slots << " (1 to 8) bf16 slices of "
                                << (upcastA ? "A and B" : "B") << " before the barriers at "
                                << ring.getBarrierOffset();
  }
  if (accs.getShape() != ArrayRef<int64_t>{tile[0] / ctaGroup, tile[1]})
    return accs.emitOpError() << "shape must be the CTA's share of the tile, ["
                              << tile[0] / ctaGroup << ", " << tile[1] << "]";
  if (tile[0] % mma.getM() != 0 && mma.getFamily() != MmaFamily::Tcgen05)
    return schedule.emitOpError() << "tile M = " << tile[0] << " is not a multiple of the MMA M = "
                                  << mma.getM();
  if (mma.getFamily() == MmaFamily::Tcgen05 && (mma.getM() != tile[0] || mma.getN() != tile[1]))
    return schedule.emitOpError() << "the tcgen05 lowering issues one instruction per tile: "
                                     "the MMA shape must be the tile";
  return success();
}

#define GET_OP_CLASSES
#include "tilegen/Dialect/Tile/TileOps.cpp.inc"
