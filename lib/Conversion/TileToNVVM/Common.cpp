//===- Common.cpp - shared pieces of the tile-to-NVVM lowerings -----------===//

#include "Common.h"

using namespace mlir;
using namespace tilegen;
using namespace tilegen::lowering;

FailureOr<PipelineView> PipelineView::get(tile::PipelineOp op) {
  std::optional<NVTarget> target = NVTarget::parse(op.getTarget());
  if (!target)
    return op.emitOpError() << "unknown target '" << op.getTarget() << "'";
  PipelineView v{op, {}, {}, {}, {}, {}, {}, {}, *target, {}, nullptr};
  for (Operation &child : op.getBody().front()) {
    if (auto r = dyn_cast<tile::RingOp>(child))
      v.ring = r;
    else if (auto a = dyn_cast<tile::AccumulatorsOp>(child))
      v.accumulators = a;
    else if (auto s = dyn_cast<tile::ScheduleOp>(child))
      v.schedule = s;
    else if (auto e = dyn_cast<tile::EpilogueOp>(child))
      v.epilogueOp = e;
    else if (auto role = dyn_cast<tile::RoleOp>(child)) {
      switch (role.getKind()) {
      case tile::RoleKind::Producer:
        v.producer = role;
        break;
      case tile::RoleKind::Mma:
        v.mma = role;
        break;
      case tile::RoleKind::Epilogue:
        v.epilogue = role;
        break;
      }
    }
  }
  // The pipeline's verifier has checked the plan against the target and the instruction
  // table; what is read here exists.
  v.instr = v.mma.getInstrAttr();
  Elem a = *elemOf(v.instr.getAType()), b = *elemOf(v.instr.getBType()),
       acc = *elemOf(v.instr.getAccType());
  tile::ScaleAttr scale = v.instr.getScaleA();
  if (scale && scale.isMicroScaled())
    v.row = findBlockScaledMma(v.instr.getFamily(), a, b, acc, *elemOf(scale.getType()),
                               unsigned(scale.blockK()));
  else
    v.row = findMma(v.instr.getFamily(), a, b, acc);
  return v;
}

Value KernelBuilder::c32(int64_t v) { return arith::ConstantIntOp::create(*this, v, 32); }
Value KernelBuilder::c64(int64_t v) { return arith::ConstantIntOp::create(*this, v, 64); }
Value KernelBuilder::f32c(double v) {
  return arith::ConstantFloatOp::create(*this, getF32Type(), APFloat((float)v));
}
Value KernelBuilder::add(Value a, Value b) { return arith::AddIOp::create(*this, a, b); }
Value KernelBuilder::add(Value a, int64_t b) {
  if (b == 0)
    return a;
  return add(a, a.getType().isInteger(64) ? c64(b) : c32(b));
}
Value KernelBuilder::sub(Value a, Value b) { return arith::SubIOp::create(*this, a, b); }
Value KernelBuilder::mul(Value a, Value b) { return arith::MulIOp::create(*this, a, b); }
Value KernelBuilder::mul(Value a, int64_t b) {
  if (b == 1)
    return a;
  return mul(a, a.getType().isInteger(64) ? c64(b) : c32(b));
}
Value KernelBuilder::divu(Value a, int64_t b) {
  if (b == 1)
    return a;
  return divu(a, a.getType().isInteger(64) ? c64(b) : c32(b));
}
Value KernelBuilder::divu(Value a, Value b) { return arith::DivUIOp::create(*this, a, b); }
Value KernelBuilder::remu(Value a, int64_t b) {
  return remu(a, a.getType().isInteger(64) ? c64(b) : c32(b));
}
Value KernelBuilder::remu(Value a, Value b) { return arith::RemUIOp::create(*this, a, b); }
Value KernelBuilder::xori(Value a, Value b) { return arith::XOrIOp::create(*this, a, b); }
Value KernelBuilder::andi(Value a, Value b) { return arith::AndIOp::create(*this, a, b); }
Value KernelBuilder::minu(Value a, Value b) { return arith::MinUIOp::create(*this, a, b); }
Value KernelBuilder::maxu(Value a, Value b) { return arith::MaxUIOp::create(*this, a, b); }
Value KernelBuilder::ult(Value a, Value b) {
  return arith::CmpIOp::create(*this, arith::CmpIPredicate::ult, a, b);
}
Value KernelBuilder::ult(Value a, int64_t b) {
  return ult(a, a.getType().isInteger(64) ? c64(b) : c32(b));
}
Value KernelBuilder::eq(Value a, int64_t b) {
  return arith::CmpIOp::create(*this, arith::CmpIPredicate::eq, a,
                               a.getType().isInteger(64) ? c64(b) : c32(b));
}
Value KernelBuilder::select(Value c, Value t, Value f) {
  return arith::SelectOp::create(*this, c, t, f);
}
Value KernelBuilder::zext64(Value v) { return arith::ExtUIOp::create(*this, i64(), v); }
Value KernelBuilder::ceilDiv(Value a, int64_t b) { return divu(add(a, b - 1), b); }
Value KernelBuilder::gep(Value base, Value byteOffset) {
  return LLVM::GEPOp::create(*this, base.getType(), getI8Type(), base,
                             ValueRange{byteOffset});
}

LLVM::LLVMFuncOp lowering::createKernel(KernelBuilder &b, PipelineView &view,
                                        ArrayRef<KernelParam> params) {
  SmallVector<Type> argTypes;
  for (const KernelParam &p : params)
    argTypes.push_back(p.llvmType);
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(b.getContext()), argTypes);
  auto func = LLVM::LLVMFuncOp::create(b, view.op.getSymName(), fnType);
  MLIRContext *ctx = b.getContext();
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
  SmallVector<int32_t> block(view.op.getBlock().begin(), view.op.getBlock().end());
  func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(), b.getDenseI32ArrayAttr(block));

  // What the manifest needs, kept on the function until the driver writes it.
  SmallVector<Attribute> abi;
  for (const KernelParam &p : params) {
    NamedAttrList d;
    d.append("name", b.getStringAttr(p.name));
    d.append("kind", b.getStringAttr(p.kind));
    if (!p.tensor.empty())
      d.append("tensor", b.getStringAttr(p.tensor));
    if (!p.value.empty())
      d.append("value", b.getStringAttr(p.value));
    for (NamedAttribute na : p.extra)
      d.append(na);
    abi.push_back(d.getDictionary(ctx));
  }
  func->setAttr("tilegen.params", b.getArrayAttr(abi));
  func->setAttr("tilegen.block", view.op.getBlockAttr());
  // The grid is one-dimensional: a cluster [X, Y, Z] launches as X Y Z CTAs along x, and the
  // kernel reads its cluster coordinates from its rank (the lowering's rule).
  ArrayRef<int64_t> cl = view.op.getCluster();
  func->setAttr("tilegen.cluster", b.getDenseI64ArrayAttr({cl[0] * cl[1] * cl[2], 1, 1}));
  // The tiles a cluster takes at a time, along M and N (the dispatch rule counts its waves).
  func->setAttr("tilegen.cluster_tiles", b.getDenseI64ArrayAttr({cl[0], cl[1] * cl[2]}));
  func->setAttr("tilegen.smem", b.getI64IntegerAttr(view.op.getSmemBytes()));
  func->setAttr("tilegen.grid",
               b.getStringAttr(tile::stringifyGrid(view.schedule.getGrid())));
  func->setAttr("tilegen.tile", view.schedule.getTileAttr());
  func->setAttr("tilegen.description", view.op.getDescriptionAttr());
  func->setAttr("tilegen.target", view.op.getTargetAttr());
  if (view.row->minPtx > view.target.ptxVersion())
    func->setAttr("tilegen.ptx_version", b.getI32IntegerAttr(view.row->minPtx));
  func->setAttr("tilegen.constraints", b.getArrayAttr({}));
  auto typeName = [&](Type t) { return b.getStringAttr(manifestName(t)); };
  auto layoutName = [&](tile::Layout l) { return b.getStringAttr(tile::stringifyLayout(l)); };
  auto scaleDict = [&](tile::ScaleAttr scale) {
    NamedAttrList d;
    d.append("type", typeName(scale.getType()));
    d.append("granularity",
             b.getStringAttr(tile::stringifyScaleGranularity(scale.getGranularity())));
    if (!scale.isTensor())
      d.append("block", b.getDenseI64ArrayAttr(scale.getBlock()));
    return d.getDictionary(ctx);
  };
  NamedAttrList operands;
  operands.append("a_type", typeName(view.ring.getAType()));
  operands.append("a_layout", layoutName(view.ring.getALayout()));
  operands.append("b_type", typeName(view.ring.getBType()));
  operands.append("b_layout", layoutName(view.ring.getBLayout()));
  operands.append("c_type", typeName(view.epilogueOp.getOutType()));
  operands.append("c_layout", layoutName(view.epilogueOp.getOutLayout()));
  operands.append("accumulator", typeName(view.accumulators.getType()));
  if (view.instr.getScaleA())
    operands.append("a_scale", scaleDict(view.instr.getScaleA()));
  if (view.instr.getScaleB())
    operands.append("b_scale", scaleDict(view.instr.getScaleB()));
  if (tile::ScaleAttr up = view.ring.getUpcastScaleAAttr())
    operands.append("a_scale", scaleDict(up));
  if (tile::ScaleAttr up = view.ring.getUpcastScaleBAttr()) {
    operands.append("b_scale", scaleDict(up));
    operands.append("upcast", typeName(view.instr.getBType()));
  }
  if (elemInfo(*elemOf(view.instr.getAType())).fp8)
    operands.append("accumulation",
                    b.getStringAttr(tile::stringifyAccumulation(view.instr.getAccumulation())));
  operands.append("alpha", view.epilogueOp.getAlphaAttr());
  operands.append("beta", view.epilogueOp.getBetaAttr());
  func->setAttr("tilegen.operands", operands.getDictionary(ctx));
  for (auto [i, p] : llvm::enumerate(params)) {
    if (!p.tensorMap)
      continue;
    func.setArgAttr(i, "llvm.byval",
                    TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
    func.setArgAttr(i, "llvm.align", b.getI64IntegerAttr(64));
    func.setArgAttr(i, "nvvm.grid_constant", UnitAttr::get(ctx));
  }
  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  return func;
}

void lowering::addConstraint(LLVM::LLVMFuncOp func, StringRef dim, int64_t multiple,
                             StringRef reason) {
  Builder b(func.getContext());
  SmallVector<Attribute> all(cast<ArrayAttr>(func->getAttr("tilegen.constraints")).getValue());
  for (Attribute a : all)
    if (cast<DictionaryAttr>(a).getAs<StringAttr>("dim").getValue() == dim &&
        cast<DictionaryAttr>(a).getAs<IntegerAttr>("multiple").getInt() == multiple)
      return;
  NamedAttrList d;
  d.append("dim", b.getStringAttr(dim));
  d.append("multiple", b.getI64IntegerAttr(multiple));
  d.append("reason", b.getStringAttr(reason));
  all.push_back(d.getDictionary(func.getContext()));
  func->setAttr("tilegen.constraints", b.getArrayAttr(all));
}

SmallVector<KernelParam> lowering::tmaKernelParams(KernelBuilder &b, PipelineView &v,
                                                   const TmaBoxes &boxes) {
  auto tensorMap = [&](StringRef tensor, Type elem, StringRef inner, StringRef outer,
                       int64_t innerBox, int64_t rows) {
    // The 6- and 4-bit operands of .kind::f8f6f4 are copied into 8-bit containers (TMA's
    // 16U4_ALIGN16B / 16U6_ALIGN16B): a box row of 128 elements is 128 bytes in shared memory,
    // one 128-byte swizzle span. The manifest names the form ("smem_form").
    bool operand = tensor != "D";
    std::optional<Elem> e = elemOf(elem);
    StringRef form = operand && e ? tmaPaddedFormName(tmaDataType(*v.row, *e)) : "";
    int64_t bits = operand && e ? smemElemBits(*v.row, *e) : elemBits(elem);
    int64_t swizzle = innerBox * bits / 8;
    SmallVector<NamedAttribute> extra;
    extra.push_back(b.getNamedAttr("elem", b.getStringAttr(manifestName(elem))));
    if (!form.empty())
      extra.push_back(b.getNamedAttr("smem_form", b.getStringAttr(form)));
    extra.push_back(b.getNamedAttr(
        "dims", b.getArrayAttr({b.getStringAttr(inner), b.getStringAttr(outer)})));
    extra.push_back(b.getNamedAttr("box", b.getDenseI64ArrayAttr({innerBox, rows})));
    extra.push_back(b.getNamedAttr("swizzle", b.getI64IntegerAttr(swizzle)));
    // 128-byte L2 promotion: equal to 256 when rows start on 128-byte lines, and up to 1.2x
    // faster when they do not (a row pitch that is a multiple of 16 but not of 128 bytes, such
    // as K = 5000 bf16), where 256-byte promotion fetches lines no box row uses
    // (bench/RESULTS.md, 2026-12-01).
    extra.push_back(b.getNamedAttr("l2_promotion", b.getI64IntegerAttr(128)));
    extra.push_back(b.getNamedAttr("oob_fill", b.getStringAttr("zero")));
    return KernelParam{("tmap_" + tensor).str(), "tensormap", tensor.str(), "", b.ptr(0),
                       extra, /*tensorMap=*/true};
  };
  Type g = b.ptr(1), i32 = b.i32(), f32 = b.f32();
  Type out = v.epilogueOp.getOutType();
  return {tensorMap("A", v.ring.getAType(), "K", "M", boxes.kSlice, boxes.aRows),
          tensorMap("B", v.ring.getBType(), "K", "N", boxes.kSlice, boxes.bRows),
          tensorMap("D", out, "N", "M", boxes.dCols, boxes.dRows),
          {"C", "ptr", "C", "", g},
          {"D", "ptr", "D", "", g},
          {"M", "i32", "", "M", i32},
          {"N", "i32", "", "N", i32},
          {"K", "i32", "", "K", i32},
          {"alpha", "f32", "", "alpha", f32},
          {"beta", "f32", "", "beta", f32}};
}

Value lowering::smemDescriptor(KernelBuilder &b, Value ptr, uint64_t high) {
  Value addr = b.zext64(sharedOffset(b, ptr));
  Value start = arith::AndIOp::create(b, arith::ShRUIOp::create(b, addr, b.c64(4)),
                                      b.c64(0x3FFF));
  return arith::OrIOp::create(b, start, b.c64((int64_t)high));
}

Value lowering::smemDescriptorAt(KernelBuilder &b, Value desc, int64_t byteOffset) {
  assert(byteOffset % 16 == 0 && byteOffset >= 0 && byteOffset < (1 << 18) &&
         "descriptor offsets are 16-byte multiples inside shared memory");
  if (byteOffset == 0)
    return desc;
  Value lo = arith::TruncIOp::create(b, b.i32(), desc);
  Value hi = arith::ShRUIOp::create(b, desc, b.c64(32));
  lo = b.add(lo, byteOffset >> 4);
  return arith::OrIOp::create(b, b.zext64(lo), arith::ShLIOp::create(b, hi, b.c64(32)));
}

Value lowering::warpAny(KernelBuilder &b, ArrayRef<Value> preds) {
  assert(!preds.empty() && "a vote needs a predicate");
  Value any = preds.front();
  for (Value p : preds.drop_front())
    any = arith::OrIOp::create(b, any, p);
  return NVVM::VoteSyncOp::create(b, b.getI1Type(), b.c32(-1), any, NVVM::VoteSyncKind::any);
}

Value lowering::convertOut(KernelBuilder &b, Type outType, Value x) {
  return outType.isF32() ? x : arith::TruncFOp::create(b, outType, x);
}

unsigned lowering::appendScaleParams(KernelBuilder &b, PipelineView &v,
                                     SmallVectorImpl<KernelParam> &params) {
  unsigned n = 0;
  for (auto [name, scale] : {std::pair<StringRef, tile::ScaleAttr>{"scale_a", v.instr.getScaleA()},
                             {"scale_b", v.instr.getScaleB()}}) {
    if (!scale)
      continue;
    params.push_back({name.str(), "ptr", name.str(), "", b.ptr(1)});
    ++n;
  }
  return n;
}

unsigned lowering::appendBlockScaleParams(KernelBuilder &b, PipelineView &v,
                                          SmallVectorImpl<KernelParam> &params, int64_t atomsK,
                                          int64_t atomsA, int64_t atomsB) {
  unsigned n = 0;
  auto map = [&](StringRef tensor, tile::ScaleAttr scale, int64_t atoms) {
    SmallVector<NamedAttribute> extra;
    extra.push_back(b.getNamedAttr("elem", b.getStringAttr(manifestName(scale.getType()))));
    extra.push_back(b.getNamedAttr("layout", b.getStringAttr("scale_atoms_128x4")));
    extra.push_back(b.getNamedAttr("block", b.getI64IntegerAttr(scale.blockK())));
    extra.push_back(b.getNamedAttr(
        "dims", b.getArrayAttr({b.getStringAttr("atom_row_bytes"), b.getStringAttr("atom_rows"),
                                b.getStringAttr(tensor == "scale_a" ? "M_atoms" : "N_atoms")})));
    extra.push_back(b.getNamedAttr("box", b.getDenseI64ArrayAttr({16, 32 * atomsK, atoms})));
    extra.push_back(b.getNamedAttr("swizzle", b.getI64IntegerAttr(0)));
    extra.push_back(b.getNamedAttr("oob_fill", b.getStringAttr("zero")));
    params.push_back(KernelParam{("tmap_" + tensor).str(), "tensormap", tensor.str(), "",
                                 b.ptr(0), extra, /*tensorMap=*/true});
    ++n;
  };
  map("scale_a", v.instr.getScaleA(), atomsA);
  map("scale_b", v.instr.getScaleB(), atomsB);
  // NVFP4: one f32 per operand on top of the block scales.
  for (auto [name, scale] : {std::pair<StringRef, tile::ScaleAttr>{"scale_a_tensor",
                                                                   v.instr.getScaleA()},
                             {"scale_b_tensor", v.instr.getScaleB()}}) {
    if (!scale.getTensorType())
      continue;
    params.push_back({name.str(), "ptr", name.str(), "", b.ptr(1)});
    ++n;
  }
  return n;
}

Value lowering::perTensorAlpha(KernelBuilder &b, PipelineView &v, Value alpha,
                               ValueRange scales) {
  Value result = alpha;
  unsigned i = 0;
  for (tile::ScaleAttr scale : {v.instr.getScaleA(), v.instr.getScaleB()}) {
    if (!scale)
      continue;
    Value ptr = scales[i++];
    if (scale.isTensor())
      result = arith::MulFOp::create(b, result, LLVM::LoadOp::create(b, b.f32(), ptr, 4));
  }
  return result;
}

Value lowering::scaleArguments(KernelBuilder &b, PipelineView &v, Block &entry, Value alpha,
                               unsigned scaleParams, bool blockScales, Value &tmapA,
                               Value &tmapB) {
  if (!blockScales)
    return perTensorAlpha(b, v, alpha, entry.getArguments().slice(10, scaleParams));
  tmapA = entry.getArgument(10);
  tmapB = entry.getArgument(11);
  for (unsigned i = 2; i < scaleParams; ++i)
    alpha = arith::MulFOp::create(
        b, alpha, LLVM::LoadOp::create(b, b.f32(), entry.getArgument(10 + i), 4));
  return alpha;
}

void lowering::addTmaConstraints(LLVM::LLVMFuncOp func, int64_t elemBits, int64_t outBits,
                                 bool paddedSubByte) {
  // In elements: 128 bits of a 16-bit type are 8, of a packed 4-bit type 32.
  int64_t outBytes = outBits / 8;
  if (paddedSubByte)
    // cuTensorMapEncodeTiled: globalDim[0] a multiple of 128 for 16U4_ALIGN16B and
    // 16U6_ALIGN16B (which also makes the row strides multiples of 32 bytes, as they must be).
    addConstraint(func, "K", 128,
                  "TMA's 16U4_ALIGN16B / 16U6_ALIGN16B forms (6- and 4-bit operands in 8-bit "
                  "containers) need K, the inner dimension of A and B, to be a multiple of 128");
  else
    addConstraint(func, "K", 128 / elemBits,
                  "TMA needs the row strides of A and B (K elements) to be multiples of 16 "
                  "bytes");
  addConstraint(func, "N", 16 / outBytes,
                "the TMA store needs the row stride of D (N elements) to be a multiple of 16 "
                "bytes");
}

Value lowering::dynamicSmemBase(KernelBuilder &b, ModuleOp module) {
  static constexpr StringLiteral kName = "__tilegen_smem";
  if (!module.lookupSymbol(kName)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto arrayTy = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
    LLVM::GlobalOp::create(b, arrayTy, /*isConstant=*/false, LLVM::Linkage::External, kName,
                           Attribute(), /*alignment=*/1024, /*addrSpace=*/3);
  }
  return LLVM::AddressOfOp::create(b, b.ptr(3), kName);
}

std::pair<Value, Value> lowering::rasterTile(KernelBuilder &b, PipelineView &view,
                                             Value tile, Value tilesM, Value tilesN) {
  // Row raster: groups of `swizzle` tile rows; inside a group walk down the rows first so
  // that consecutive CTAs share B columns and A rows in L2. Column raster swaps M and N.
  bool row = view.schedule.getRaster() == tile::Raster::Row;
  // A group is at most the whole major extent, so that `minor * g` stays within the tile
  // count, which fits 32 bits, whatever the description's group size.
  Value major = row ? tilesM : tilesN, minor = row ? tilesN : tilesM;
  Value g = b.minu(major, b.c32(view.schedule.getSwizzle()));
  Value perGroup = b.mul(minor, g);
  Value group = b.divu(tile, perGroup);
  Value first = b.mul(group, g);
  Value inGroup = b.minu(b.sub(major, first), g);
  Value within = b.remu(tile, perGroup);
  Value majorIdx = b.add(first, b.remu(within, inGroup));
  Value minorIdx = b.divu(within, inGroup);
  return row ? std::make_pair(majorIdx, minorIdx) : std::make_pair(minorIdx, majorIdx);
}

Value Barriers::at(KernelBuilder &b, Value index) const {
  return b.gep(base, b.mul(index, 8));
}
Value Barriers::at(KernelBuilder &b, int64_t index) const {
  return b.gep(base, b.c32(8 * index));
}

RingPosition lowering::ringPosition(KernelBuilder &b, Value g, int64_t stages) {
  Value slot = b.remu(g, stages);
  Value full = b.remu(b.divu(g, stages), 2);
  return {slot, full, b.xori(full, b.c32(1))};
}

void lowering::waitBarrier(KernelBuilder &b, Value bar, Value parity) {
  // try_wait.parity with a suspend-time hint; the op loops until the phase completes.
  NVVM::MBarrierTryWaitParityOp::create(b, bar, parity, b.c32(0x989680));
}

Value lowering::sharedOffset(KernelBuilder &b, Value ptr) {
  return LLVM::PtrToIntOp::create(b, b.i32(), ptr);
}

void lowering::storeFragments(KernelBuilder &b, const FragmentStore &f, ValueRange acc) {
  const int64_t kCGroup = f.cGroup;
  // Fragment (i, n) holds c0, c1 at (row, col), (row, col + 1) and c2, c3 eight rows below,
  // with row = rowBase + i * rowStride and col = colBase + 8 n. Four versions of the stores,
  // chosen once per tile: with or without C (beta != 0), and unpredicated when the whole tile
  // lies inside D with an even N (aligned pairs).
  Value M = f.M, N = f.N, alpha = f.alpha, beta = f.beta, ptrC = f.C, ptrD = f.D;
  Type outType = f.outType;
  int64_t outBytes = outType.getIntOrFloatBitWidth() / 8;
  Value rowBase = f.rowBase, colBase = f.colBase;
  int64_t mi = f.blocksM, ni = f.blocksN;
  Value nEven = b.eq(b.remu(N, 2), 0);
  Value betaNonZero =
      arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, beta, b.f32c(0.0));
  Value interior = arith::AndIOp::create(
      b, arith::AndIOp::create(b, b.ult(b.sub(f.tileRowEnd, b.c32(1)), M),
                               b.ult(b.sub(f.tileColEnd, b.c32(1)), N)),
      nEven);
  auto convert = [&](Value x) { return convertOut(b, outType, x); };
  auto emitStores = [&](bool withC, bool checked) {
    // With cGroup > 0, C is read ahead of the stores, cGroup fragments of a row at a time, so
    // that those loads are in flight together (read one by one between the guarded stores,
    // each store waits for its load). In checked rows the columns are then clamped to N - 1 (a
    // column past N reads some element of the row, not used); the row itself is inside D.
    auto loadC = [&](Value offsetElems) -> Value {
      Value c = LLVM::LoadOp::create(b, outType, b.gep(ptrC, b.mul(offsetElems, outBytes)));
      return outType.isF32() ? c : arith::ExtFOp::create(b, b.f32(), c).getResult();
    };
    // C at `offsetElems` as loaded ahead (`c`), else loaded here.
    auto scaled = [&](Value accValue, Value c, Value offsetElems) -> Value {
      Value r = arith::MulFOp::create(b, alpha, accValue);
      if (!withC)
        return r;
      if (!c)
        c = loadC(offsetElems);
      return arith::AddFOp::create(b, r, arith::MulFOp::create(b, beta, c));
    };
    auto storePair = [&](Value v0, Value v1, Value off0) {
      auto vecTy = VectorType::get({2}, outType);
      Value vec = LLVM::UndefOp::create(b, vecTy);
      vec = LLVM::InsertElementOp::create(b, vec, v0, b.c32(0));
      vec = LLVM::InsertElementOp::create(b, vec, v1, b.c32(1));
      LLVM::StoreOp::create(b, vec, b.gep(ptrD, b.mul(off0, outBytes)), 2 * outBytes);
    };
    Value lastCol = kCGroup > 0 ? b.sub(N, b.c32(1)) : Value();
    for (int64_t i = 0; i < mi; ++i) {
      for (int64_t half = 0; half < 2; ++half) {
        Value row = b.add(rowBase, i * f.rowStride + half * 8);
        OpBuilder::InsertionGuard guard(b);
        if (checked) {
          auto ifRow = scf::IfOp::create(b, b.ult(row, M), /*withElse=*/false);
          b.setInsertionPointToStart(&ifRow.getThenRegion().front());
        }
        // Offsets in 64 bits from the thread's first column, so that the per-fragment
        // constant (8 n elements) folds into the store's immediate offset.
        Value colStart = b.zext64(colBase);
        Value rowOffset = b.mul(b.zext64(row), b.zext64(N));
        Value rowStart = b.add(rowOffset, colStart);
        // cv[2 n + e]: C at column colBase + 8 n + e of the row, loaded kCGroup fragments at a
        // time ahead of their stores.
        SmallVector<Value> cv(2 * ni);
        for (int64_t n = 0; n < ni; ++n) {
          for (int64_t l = n; withC && kCGroup > 0 && n % kCGroup == 0 &&
                              l < std::min(ni, n + kCGroup);
               ++l)
            for (int64_t e = 0; e < 2; ++e)
              cv[2 * l + e] =
                  checked ? loadC(b.add(rowOffset,
                                        b.zext64(b.minu(b.add(colBase, l * 8 + e), lastCol))))
                          : loadC(b.add(rowStart, l * 8 + e));
          Value col = b.add(colBase, n * 8);
          int64_t base = (i * ni + n) * 4 + half * 2;
          Value off0 = b.add(rowStart, n * 8);
          if (!checked) {
            storePair(convert(scaled(acc[base], cv[2 * n], off0)),
                      convert(scaled(acc[base + 1], cv[2 * n + 1], b.add(off0, 1))), off0);
            continue;
          }
          Value pairOk = arith::AndIOp::create(b, b.ult(b.add(col, 1), N), nEven);
          auto ifPair = scf::IfOp::create(b, pairOk, /*withElse=*/true);
          OpBuilder::InsertionGuard g2(b);
          // Both columns inside and the pair aligned: one vector store.
          b.setInsertionPointToStart(&ifPair.getThenRegion().front());
          storePair(convert(scaled(acc[base], cv[2 * n], off0)),
                    convert(scaled(acc[base + 1], cv[2 * n + 1], b.add(off0, 1))), off0);
          // Otherwise element by element.
          b.setInsertionPointToStart(&ifPair.getElseRegion().front());
          for (int64_t e = 0; e < 2; ++e) {
            Value c = b.add(col, e);
            auto ifCol = scf::IfOp::create(b, b.ult(c, N), /*withElse=*/false);
            OpBuilder::InsertionGuard g3(b);
            b.setInsertionPointToStart(&ifCol.getThenRegion().front());
            Value off = b.add(off0, e);
            LLVM::StoreOp::create(b, convert(scaled(acc[base + e], cv[2 * n + e], off)),
                                  b.gep(ptrD, b.mul(off, outBytes)), outBytes);
          }
        }
      }
    }
  };
  auto both = [&](bool withC) {
    auto ifInterior = scf::IfOp::create(b, interior, /*withElse=*/true);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifInterior.getThenRegion().front());
    emitStores(withC, /*checked=*/false);
    b.setInsertionPointToStart(&ifInterior.getElseRegion().front());
    emitStores(withC, /*checked=*/true);
  };
  // The caller's beta != 0 branch is the rarer path: only the checked stores, which keeps the
  // kernel (and ptxas's time on it) smaller.
  if (f.betaNonZero)
    return emitStores(/*withC=*/true, /*checked=*/true);
  auto ifBeta = scf::IfOp::create(b, betaNonZero, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  for (bool withC : {true, false}) {
    b.setInsertionPointToStart(withC ? &ifBeta.getThenRegion().front()
                                     : &ifBeta.getElseRegion().front());
    both(withC);
  }
}

Value lowering::clusterAddress(KernelBuilder &b, Value ptr, Value rank) {
  return NVVM::MapaOp::create(b, b.ptr(7), ptr, rank);
}

void lowering::syncCtaOrCluster(KernelBuilder &b, bool cluster, bool relaxed) {
  if (!cluster)
    return (void)NVVM::Barrier0Op::create(b);
  if (relaxed)
    NVVM::ClusterArriveRelaxedOp::create(b, b.getUnitAttr());
  else
    NVVM::ClusterArriveOp::create(b, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, b.getUnitAttr());
}

void lowering::setupBarriers(KernelBuilder &b, Value tid, ArrayRef<BarrierInit> inits,
                             bool cluster, function_ref<void()> beforeSync,
                             ValueRange tensorMaps) {
  {
    auto init = scf::IfOp::create(b, b.eq(tid, 0), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&init.getThenRegion().front());
    for (Value map : tensorMaps)
      NVVM::PrefetchOp::create(b, /*cacheLevel=*/nullptr, /*evictPriority=*/nullptr, map,
                               /*predicate=*/Value(), /*tensormap=*/true, /*uniform=*/false,
                               /*in_param_space=*/true);
    for (const BarrierInit &i : inits)
      NVVM::MBarrierInitOp::create(b, i.bars.at(b, i.index), b.c32(i.arrivals), Value());
    NVVM::FenceMbarrierInitOp::create(b);
  }
  // With nothing between the inits and the barrier, thread 0's fence.mbarrier_init (a release
  // of its inits at cluster scope) is all the barrier must carry, so its arrive is relaxed: a
  // releasing one costs every thread a MEMBAR.ALL.GPU (ptxas), about 8% of a 1000^3 launch's
  // warp samples on an H100. `beforeSync`'s work (the TMEM allocation) needs the release.
  if (beforeSync)
    beforeSync();
  syncCtaOrCluster(b, cluster, /*relaxed=*/!beforeSync);
}

/// An L2 cache policy for loads of `hint`'s priority covering all their lines (the 64-bit
/// operand of .L2::cache_hint), or null for none.
static Value l2Policy(KernelBuilder &b, std::optional<tile::CacheHint> hint) {
  if (!hint || *hint == tile::CacheHint::Normal)
    return Value();
  std::string text = ("createpolicy.fractional.L2::" + tile::stringifyCacheHint(*hint) +
                      ".b64 $0, 1.0;")
                         .str();
  // Marked as having side effects so that LLVM keeps it beside the load (no hoisting out of
  // the producer's loop, which would hold the policy across it).
  return LLVM::InlineAsmOp::create(b, b.getI64Type(), ValueRange{}, text, "=l",
                                   /*has_side_effects=*/true, /*is_align_stack=*/false,
                                   LLVM::tailcallkind::TailCallKind::None,
                                   LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

void lowering::emitTmaProducer(KernelBuilder &b, const TmaProducer &p) {
  auto issuer = scf::IfOp::create(b, p.issuer, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&issuer.getThenRegion().front());
  auto slotA = [&](Value slot) { return b.gep(p.ring, b.mul(slot, p.slotBytes)); };
  auto slotB = [&](Value slot) { return b.gep(slotA(slot), b.c32(p.bOffset)); };
  // A CTA's own shared addresses are valid shared::cluster addresses.
  auto cluster = [&](Value ptr) { return LLVM::AddrSpaceCastOp::create(b, b.ptr(7), ptr); };
  bool ctaGroup2 = p.pairing == TmaPairing::CtaGroup2;
  auto tileLoop = scf::ForOp::create(b, p.first, p.end, p.step, ValueRange{b.c32(0)});
  {
    OpBuilder::InsertionGuard g1(b);
    b.setInsertionPointToStart(tileLoop.getBody());
    ProducerUnit unit = p.unit(tileLoop.getInductionVar());
    auto kLoop = scf::ForOp::create(b, unit.kb, unit.ke, b.c32(1),
                                    ValueRange{tileLoop.getRegionIterArgs()[0]});
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(kLoop.getBody());
      Value g = kLoop.getRegionIterArgs()[0];
      auto [slot, fullParity, emptyParity] = ringPosition(b, g, p.stages);
      waitBarrier(b, p.empty.at(b, slot), emptyParity);
      Value bar = p.full.at(b, slot);
      Value tmaBar = bar;
      if (ctaGroup2) {
        // Both CTAs' copies complete on the leader's full barrier, which the leader's producer
        // alone arms with the pair's byte count.
        Value clusterAddr =
            LLVM::PtrToIntOp::create(b, b.i32(), clusterAddress(b, bar, b.c32(0)));
        tmaBar = LLVM::IntToPtrOp::create(b, b.ptr(3), clusterAddr);
        auto lead = scf::IfOp::create(b, b.eq(p.rank, 0), false);
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPointToStart(&lead.getThenRegion().front());
        NVVM::MBarrierArriveExpectTxOp::create(b, Type(), bar, b.c32(p.expectBytes),
                                               NVVM::MemScopeKind::CTA, false, Value());
      } else {
        NVVM::MBarrierArriveExpectTxOp::create(b, Type(), bar, b.c32(p.expectBytes),
                                               NVVM::MemScopeKind::CTA, false, Value());
      }
      Value k0 = b.mul(kLoop.getInductionVar(), p.sliceK);
      Value k0B = b.mul(kLoop.getInductionVar(), p.sliceK / p.bKDivisor);
      NVVM::CTAGroupKindAttr tmaGroup =
          ctaGroup2 ? NVVM::CTAGroupKindAttr::get(b.getContext(), NVVM::CTAGroupKind::CTA_2)
                    : nullptr;
      // The hints' policies are made beside the loads (one instruction each), not once before
      // the loop: a 64-bit value live across it costs the producer's few registers (the
      // upcast's producer warps run with 40 and spill).
      Value policyA = l2Policy(b, p.cacheA), policyB = l2Policy(b, p.cacheB);
      bool multicast = p.pairing == TmaPairing::Multicast;
      // The CTA's cluster coordinates (x along M, y along N); the rank itself along the one
      // extent of a one-dimensional cluster.
      auto clusterXY = [&]() -> std::pair<Value, Value> {
        if (p.clusterY == 1)
          return {p.rank, b.c32(0)};
        if (p.clusterX == 1)
          return {b.c32(0), p.rank};
        return {b.remu(p.rank, p.clusterX), b.divu(p.rank, p.clusterX)};
      };
      auto mask16 = [&](int64_t bits, Value shift, bool shifted) -> Value {
        if (!shifted)
          return arith::ConstantIntOp::create(b, bits, 16);
        Value m = arith::ShLIOp::create(b, b.c32(bits), shift);
        return arith::TruncIOp::create(b, b.getIntegerType(16), m);
      };
      // One operand's copy into the slot: its whole box, or with multicast (`part`: this
      // CTA's part, in rows) those rows at the same offset in every CTA of the mask.
      auto load = [&](Value slotBase, Value tmap, Value k, Value origin, Value policy,
                      Value part, function_ref<Value()> mask) {
        if (!part) {
          NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
              b, cluster(slotBase), tmap, ValueRange{k, origin}, tmaBar, ValueRange{}, Value(),
              policy, NVVM::TMALoadMode::TILE, false, tmaGroup, Value());
          return;
        }
        Value dst = b.gep(slotBase, b.mul(part, p.rowBytes));
        Value ctaMask = mask();
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            b, cluster(dst), tmap, ValueRange{k, b.add(origin, part)}, tmaBar, ValueRange{},
            ctaMask, policy, NVVM::TMALoadMode::TILE, false, tmaGroup, Value());
      };
      // A: part y, into every CTA of the cluster row (ranks x + X j), which share its rows.
      if (!multicast || p.clusterY == 1) {
        load(slotA(slot), p.tmapA, k0, unit.m0, policyA, Value(), nullptr);
      } else {
        auto [x, y] = clusterXY();
        Value part = b.mul(y, p.aRows / p.clusterY);
        int64_t rowMask = 0;
        for (int64_t j = 0; j < p.clusterY; ++j)
          rowMask |= int64_t(1) << (p.clusterX * j);
        load(slotA(slot), p.tmapA, k0, unit.m0, policyA, part,
             [&] { return mask16(rowMask, x, p.clusterX > 1); });
      }
      // B: part x, into every CTA of the cluster column (ranks X y + i), which share its
      // columns.
      if (!multicast || p.clusterX == 1) {
        load(slotB(slot), p.tmapB, k0B, unit.n0, policyB, Value(), nullptr);
      } else {
        auto [x, y] = clusterXY();
        Value part = b.mul(x, p.bRows / p.clusterX);
        load(slotB(slot), p.tmapB, k0, unit.n0, policyB, part, [&] {
          return mask16((int64_t(1) << p.clusterX) - 1,
                        p.clusterY > 1 ? b.mul(y, p.clusterX) : Value(), p.clusterY > 1);
        });
      }
      if (p.extraLoads)
        p.extraLoads(slotA(slot), kLoop.getInductionVar(), unit, tmaBar, tmaGroup);
      scf::YieldOp::create(b, ValueRange{b.add(g, 1)});
    }
    scf::YieldOp::create(b, kLoop.getResults());
  }
  if (!p.drain)
    return;
  Value gEnd = tileLoop.getResults()[0];
  for (int64_t i = 0; i < p.stages; ++i) {
    Value g = b.add(gEnd, i);
    auto pos = ringPosition(b, g, p.stages);
    waitBarrier(b, p.empty.at(b, pos.slot), pos.emptyParity);
  }
}

void lowering::storeChunkThroughShared(KernelBuilder &b, const TmaStoreChunk &c,
                                       function_ref<void()> write,
                                       function_ref<SmallVector<Value, 2>()> coords) {
  {
    auto ifOp = scf::IfOp::create(b, c.leader, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    NVVM::CpAsyncBulkWaitGroupOp::create(b, b.getI32IntegerAttr(c.buffers - 1),
                                         b.getUnitAttr());
  }
  // The writers meet: a named barrier, or the warp itself when one warp writes the buffer.
  auto meet = [&] {
    if (c.barrierId)
      NVVM::BarrierOp::create(b, Type(), c.barrierId, c.threads, nullptr, Value());
    else
      NVVM::SyncWarpOp::create(b, b.c32(-1));
  };
  meet();
  write();
  // Generic-proxy writes, read next by the TMA engine (async proxy).
  NVVM::FenceProxyOp::create(
      b, NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
  meet();
  auto ifOp = scf::IfOp::create(b, c.leader, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(b, c.tmapD, c.buffer, coords(), Value(),
                                                     NVVM::TMAStoreMode::TILE, Value());
  NVVM::CpAsyncBulkCommitGroupOp::create(b);
}

void lowering::drainTmaStores(KernelBuilder &b, Value leader) {
  auto drain = scf::IfOp::create(b, leader, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&drain.getThenRegion().front());
  NVVM::CpAsyncBulkWaitGroupOp::create(b, b.getI32IntegerAttr(0), nullptr);
}

Value lowering::warpUniform(KernelBuilder &b, Value x) {
  return NVVM::ShflOp::create(b, b.i32(), b.c32(-1), x, b.c32(0), b.c32(0x1f),
                              NVVM::ShflKind::idx, UnitAttr());
}
