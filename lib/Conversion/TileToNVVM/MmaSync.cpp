//===- MmaSync.cpp - the mma.sync lowering (sm_80 ... sm_120a) ------------===//
//
// The multistage schedule: every warp copies K-slices into an S-slot shared-memory ring with
// 16-byte cp.async (zero-filling what lies outside the matrices), waits on its commit groups,
// meets the CTA at a barrier, loads fragments with ldmatrix and multiplies with
// mma.sync.m16n8k16; the accumulators stay in registers and are stored, predicated, after the
// last K-slice. Shared memory is laid out in 128-byte lines of eight 16-byte chunks whose chunk
// index is XOR-ed with the line (or row) number, so that ldmatrix and cp.async are free of bank
// conflicts.
//
// Rows of A or B aligned to less than 16 bytes (the ring's `align`, from the description's
// `alignment`) are copied in pieces of the alignment into the same 16-byte chunks, each piece
// predicated on its own first element: cp.async.ca of 8 or 4 bytes (zero-filled out of range),
// or, below the 4 bytes cp.async copies, an ld.global per piece (from the matrix's first
// element when out of range, then replaced by zero) and an st.shared. A piece starts at a
// multiple of the alignment and the contiguous extent is one too (the manifest's constraint), so
// a piece whose first element is inside the matrix lies wholly inside it.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "tilegen/Pipeline/GemmPlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilegen;
using namespace tilegen::lowering;

namespace {

/// One operand's K-slice in the ring: `rows` x `cols` elements with `cols` contiguous.
struct SliceLayout {
  bool isA;
  bool kContiguous; ///< rows are M (N) and K is contiguous; else rows are K
  int64_t rows, cols, elemBytes;
  int64_t offsetInSlot;
  int64_t copyBytes = 16; ///< bytes per copy: the row alignment in global memory, at most 16
  int64_t chunksPerRow() const { return cols * elemBytes / 16; }
  int64_t chunks() const { return rows * chunksPerRow(); }
};

class MmaSyncEmitter {
public:
  MmaSyncEmitter(PipelineView &view, ModuleOp module)
      : v(view), module(module), b(view.op.getLoc(), module.getContext()) {}

  LogicalResult emit();

private:
  /// Byte offset of 16-byte chunk (row, chunk) of a slice, swizzled.
  Value swizzled(const SliceLayout &s, Value row, Value chunk);
  void loadSlice(const SliceLayout &s, Value slotBase, Value tileMN, Value k0);
  /// The pieces of one 16-byte chunk whose rows are aligned to less than 16 bytes.
  void loadNarrowChunk(const SliceLayout &s, Value base, Value dst, Value gRow, Value gCol,
                       Value rowBound, Value colBound);
  SmallVector<Value> compute(Value slotBase, ValueRange acc);
  void epilogue(ValueRange acc, Value m0, Value n0);

  PipelineView &v;
  ModuleOp module;
  KernelBuilder b;

  // Kernel-wide values.
  Value ptrA, ptrB, ptrC, ptrD, M, N, K, alpha, beta;
  Value tid, lane, warpM, warpN, smem;
  SliceLayout a{}, bl{};
  int64_t warpsM = 0, warpsN = 0, warpTileM = 0, warpTileN = 0, mi = 0, ni = 0;
  int64_t bm = 0, bn = 0, bk = 0, threads = 0, stages = 0, slotBytes = 0;
  bool f16 = false;
  int64_t instrK = 16;     ///< K of one mma.sync: 16 (16-bit types) or 32 (FP8): 32 bytes
  int64_t perChunk = 8;    ///< elements in a 16-byte chunk
  /// FP8 operands: NVVM's mma op has no e4m3/e5m2 form for m16n8k32, so the kernel calls the
  /// LLVM intrinsic by name (llvm.nvvm.mma.m16n8k32.row.col.f32.<a>.<b>.f32).
  std::string fp8Intrinsic;
  Type outType;
};

} // namespace

Value MmaSyncEmitter::swizzled(const SliceLayout &s, Value row, Value chunk) {
  // idx = row * cpr + chunk; line = idx / 8; the chunk within the line is XOR-ed with
  // (idx / max(cpr, 8)) % 8, i.e. the row for rows of >= 128 bytes, the line otherwise.
  int64_t cpr = s.chunksPerRow();
  Value idx = b.add(b.mul(row, cpr), chunk);
  Value line = b.divu(idx, 8);
  Value within = b.remu(idx, 8);
  Value x = b.remu(b.divu(idx, std::max<int64_t>(cpr, 8)), 8);
  Value phys = b.add(b.mul(line, 8), b.xori(within, x));
  return b.mul(phys, 16);
}

void MmaSyncEmitter::loadSlice(const SliceLayout &s, Value slotBase, Value tileMN, Value k0) {
  // Global coordinates of chunk (row, c): rows and columns are (mn, k) or (k, mn).
  Value base = s.isA ? ptrA : ptrB;
  Value mnExtent = s.isA ? M : N;
  Value rowBound = s.kContiguous ? mnExtent : K;
  Value colBound = s.kContiguous ? K : mnExtent;
  Value rowOrigin = s.kContiguous ? tileMN : k0;
  Value colOrigin = s.kContiguous ? k0 : tileMN;
  int64_t cpr = s.chunksPerRow();
  int64_t iters = (s.chunks() + threads - 1) / threads;
  Value slice = b.gep(slotBase, b.c32(s.offsetInSlot));
  for (int64_t i = 0; i < iters; ++i) {
    Value c = b.add(tid, i * threads);
    auto body = [&]() {
      Value row = b.divu(c, cpr), chunk = b.remu(c, cpr);
      Value gRow = b.add(rowOrigin, row);
      Value gCol = b.add(colOrigin, b.mul(chunk, 16 / s.elemBytes));
      if (s.copyBytes < 16)
        return loadNarrowChunk(s, base, b.gep(slice, swizzled(s, row, chunk)), gRow, gCol,
                               rowBound, colBound);
      Value valid = arith::AndIOp::create(b, b.ult(gRow, rowBound), b.ult(gCol, colBound));
      Value elem = b.add(b.mul(b.zext64(gRow), b.zext64(colBound)), b.zext64(gCol));
      Value offset = b.select(valid, b.mul(elem, s.elemBytes), b.c64(0));
      Value src = b.gep(base, offset);
      Value dst = b.gep(slice, swizzled(s, row, chunk));
      Value srcSize = b.select(valid, b.c32(16), b.c32(0));
      NVVM::CpAsyncOp::create(b, dst, src, b.getI32IntegerAttr(16),
                              NVVM::LoadCacheModifierKindAttr::get(
                                  b.getContext(), NVVM::LoadCacheModifierKind::CG),
                              srcSize);
    };
    if ((i + 1) * threads <= s.chunks()) {
      body();
    } else {
      auto ifOp = scf::IfOp::create(b, b.ult(c, s.chunks()), /*withElse=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      body();
    }
  }
}

void MmaSyncEmitter::loadNarrowChunk(const SliceLayout &s, Value base, Value dst, Value gRow,
                                     Value gCol, Value rowBound, Value colBound) {
  int64_t pieces = 16 / s.copyBytes, perPiece = s.copyBytes / s.elemBytes;
  Value rowOk = b.ult(gRow, rowBound);
  Value rowStart = b.mul(b.zext64(gRow), b.zext64(colBound));
  SmallVector<Value> valid, src;
  for (int64_t j = 0; j < pieces; ++j) {
    Value col = b.add(gCol, j * perPiece);
    valid.push_back(arith::AndIOp::create(b, rowOk, b.ult(col, colBound)));
    Value offset = b.mul(b.add(rowStart, b.zext64(col)), s.elemBytes);
    src.push_back(b.gep(base, b.select(valid.back(), offset, b.c64(0))));
  }
  if (s.copyBytes >= 4) {
    auto ca = NVVM::LoadCacheModifierKindAttr::get(b.getContext(),
                                                    NVVM::LoadCacheModifierKind::CA);
    for (int64_t j = 0; j < pieces; ++j)
      NVVM::CpAsyncOp::create(b, b.gep(dst, b.c32(j * s.copyBytes)), src[j],
                              b.getI32IntegerAttr(s.copyBytes), ca,
                              b.select(valid[j], b.c32(s.copyBytes), b.c32(0)));
    return;
  }
  // Every load of the chunk first, so that they are in flight together, then the stores.
  Type piece = b.getIntegerType(8 * s.copyBytes);
  Value zero = arith::ConstantOp::create(b, b.getIntegerAttr(piece, 0));
  SmallVector<Value> values;
  for (int64_t j = 0; j < pieces; ++j) {
    Value v = LLVM::LoadOp::create(b, piece, src[j], s.copyBytes);
    values.push_back(b.select(valid[j], v, zero));
  }
  for (int64_t j = 0; j < pieces; ++j)
    LLVM::StoreOp::create(b, values[j], b.gep(dst, b.c32(j * s.copyBytes)), s.copyBytes);
}

SmallVector<Value> MmaSyncEmitter::compute(Value slotBase, ValueRange acc) {
  SmallVector<Value> out(acc.begin(), acc.end());
  Value sliceA = b.gep(slotBase, b.c32(a.offsetInSlot));
  Value sliceB = b.gep(slotBase, b.c32(bl.offsetInSlot));
  Value j = b.divu(lane, 8), r = b.remu(lane, 8);
  Value jLow = b.remu(j, 2), jHigh = b.divu(j, 2);
  Type i32 = b.i32();
  auto structTy = LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32, i32, i32});
  auto fragment = [&](const SliceLayout &s, Value slice, Value mnBase, Value kBase,
                      Value mnOff, Value kOff) {
    // One ldmatrix.x4 of a 16 (mn) x 32-byte (k) block; lane l addresses row (l & 7) of
    // matrix l / 8. For K-major FP8 the four matrices are exactly the m16n8k32 fragments (each
    // thread gets four consecutive K bytes of one row).
    Value row, chunk;
    if (s.kContiguous) {
      row = b.add(b.add(mnBase, mnOff), r);
      chunk = b.divu(b.add(kBase, kOff), perChunk);
    } else {
      row = b.add(b.add(kBase, kOff), r);
      chunk = b.divu(b.add(mnBase, mnOff), perChunk);
    }
    Value addr = b.gep(slice, swizzled(s, row, chunk));
    Value x4 = NVVM::LdMatrixOp::create(
        b, structTy, addr, 4,
        s.kContiguous ? NVVM::MMALayout::row : NVVM::MMALayout::col,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8), NVVM::LdStMatrixEltType::B16);
    SmallVector<Value> regs;
    for (int64_t q = 0; q < 4; ++q) {
      Value reg = LLVM::ExtractValueOp::create(b, x4, q);
      if (f16)
        reg = LLVM::BitcastOp::create(b, VectorType::get({2}, b.getF16Type()), reg);
      regs.push_back(reg);
    }
    return regs;
  };
  // Matrix j of an ldmatrix.x4: 8 rows further along M/N for one bit of j, one 16-byte chunk
  // further along K for the other.
  Value eight = b.c32(8), chunk = b.c32(perChunk);
  Value aMnOff = b.mul(jLow, eight), aKOff = b.mul(jHigh, chunk);
  Value bMnOff = b.mul(jHigh, eight), bKOff = b.mul(jLow, chunk);
  if (!a.kContiguous)
    aMnOff = b.mul(jLow, chunk), aKOff = b.mul(jHigh, eight);
  if (!bl.kContiguous)
    bMnOff = b.mul(jHigh, chunk), bKOff = b.mul(jLow, eight);
  Value warpRow = b.mul(warpM, warpTileM), warpCol = b.mul(warpN, warpTileN);
  auto f32 = b.f32();
  auto accTy = LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  NVVM::MMATypes ptxType = v.row->mmaSyncA;
  for (int64_t kk = 0; kk < bk / instrK; ++kk) {
    Value kBase = b.c32(kk * instrK);
    SmallVector<SmallVector<Value>> fa, fb;
    for (int64_t i = 0; i < mi; ++i)
      fa.push_back(fragment(a, sliceA, b.add(warpRow, i * 16), kBase, aMnOff, aKOff));
    for (int64_t jn = 0; jn < ni / 2; ++jn)
      fb.push_back(fragment(bl, sliceB, b.add(warpCol, jn * 16), kBase, bMnOff, bKOff));
    for (int64_t i = 0; i < mi; ++i) {
      for (int64_t n = 0; n < ni; ++n) {
        ArrayRef<Value> bRegs = ArrayRef<Value>(fb[n / 2]).slice((n % 2) * 2, 2);
        int64_t base = (i * ni + n) * 4;
        SmallVector<Value> c(out.begin() + base, out.begin() + base + 4);
        Value d;
        if (fp8Intrinsic.empty()) {
          d = NVVM::MmaOp::create(b, accTy, fa[i], bRegs, c, {16, 8, 16}, std::nullopt,
                                  std::nullopt, std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
                                  std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                                 NVVM::MMALayout::col});
        } else {
          SmallVector<Value> args(fa[i]);
          args.append(bRegs.begin(), bRegs.end());
          args.append(c.begin(), c.end());
          d = LLVM::CallIntrinsicOp::create(b, accTy, b.getStringAttr(fp8Intrinsic), args)
                  .getResult(0);
        }
        for (int64_t q = 0; q < 4; ++q)
          out[base + q] = LLVM::ExtractValueOp::create(b, d, q);
      }
    }
  }
  return out;
}

void MmaSyncEmitter::epilogue(ValueRange acc, Value m0, Value n0) {
  // Thread (g = lane / 4, q = lane % 4) holds rows g and g + 8 of each m16 block.
  Value g = b.divu(lane, 4), q = b.remu(lane, 4);
  FragmentStore store{ptrC, ptrD, M, N, alpha, beta, outType};
  store.rowBase = b.add(b.add(m0, b.mul(warpM, warpTileM)), g);
  store.colBase = b.add(b.add(n0, b.mul(warpN, warpTileN)), b.mul(q, 2));
  store.tileRowEnd = b.add(m0, bm);
  store.tileColEnd = b.add(n0, bn);
  store.blocksM = mi;
  store.rowStride = 16;
  store.blocksN = ni;
  storeFragments(b, store, acc);
}

LogicalResult MmaSyncEmitter::emit() {
  tile::RingOp ring = v.ring;
  bm = v.tileM(), bn = v.tileN(), bk = v.sliceK();
  threads = v.threads();
  stages = ring.getSlots();
  slotBytes = ring.getSlotBytes();
  warpsM = v.mma.getLayout()[0], warpsN = v.mma.getLayout()[1];
  warpTileM = bm / warpsM, warpTileN = bn / warpsN;
  mi = warpTileM / 16, ni = warpTileN / 8;
  Type elem = ring.getAType();
  f16 = elem.isF16();
  instrK = v.instr.getK();
  if (elemInfo(v.row->a).fp8)
    fp8Intrinsic = llvm::formatv("llvm.nvvm.mma.m16n8k32.row.col.f32.{0}.{1}.f32",
                                 NVVM::stringifyMMATypes(v.row->mmaSyncA),
                                 NVVM::stringifyMMATypes(v.row->mmaSyncB))
                       .str();
  outType = v.epilogueOp.getOutType();
  if (v.epilogueOp.getOutLayout() != tile::Layout::Row)
    return v.epilogueOp.emitOpError()
           << "not supported yet: c = col with the mma.sync lowering (target "
           << v.target.name() << ")";
  int64_t eb = sizeInBytes(1, elem);
  perChunk = 16 / eb;
  a = {true, ring.getALayout() == tile::Layout::Row, ring.getAShape()[0], ring.getAShape()[1],
       eb, 0};
  bl = {false, ring.getBLayout() == tile::Layout::Col, ring.getBShape()[0],
        ring.getBShape()[1], eb, static_cast<int64_t>(ring.getBOffset())};
  if (std::optional<ArrayRef<int64_t>> align = ring.getAlign()) {
    a.copyBytes = (*align)[0] * eb;
    bl.copyBytes = (*align)[1] * eb;
  }
  for (const SliceLayout *s : {&a, &bl})
    if (s->chunksPerRow() < 2 || s->chunks() % 8 != 0)
      return v.ring.emitOpError() << "slice of " << s->rows << "x" << s->cols
                                  << " elements is too narrow for the 128-byte swizzle";

  b.setInsertionPointToEnd(module.getBody());
  Type g = b.ptr(1);
  Type i32 = b.i32(), f32 = b.f32();
  SmallVector<KernelParam> params = {
      {"A", "ptr", "A", "", g},         {"B", "ptr", "B", "", g},
      {"C", "ptr", "C", "", g},         {"D", "ptr", "D", "", g},
      {"M", "i32", "", "M", i32},       {"N", "i32", "", "N", i32},
      {"K", "i32", "", "K", i32},       {"alpha", "f32", "", "alpha", f32},
      {"beta", "f32", "", "beta", f32}};
  appendScaleParams(b, v, params);
  LLVM::LLVMFuncOp func = createKernel(b, v, params);
  // Copies of x bytes need every row of a contiguous dimension to start x-byte aligned: the
  // dimension is a multiple of the copy's elements (none for copies of one element).
  auto constrain = [&](const SliceLayout &s, StringRef operand, StringRef dim) {
    int64_t multiple = s.copyBytes / eb;
    if (multiple == 1)
      return;
    std::string copies = std::to_string(s.copyBytes) +
                         (s.copyBytes >= 4 ? "-byte cp.async copies" : "-byte loads");
    addConstraint(func, dim, multiple,
                  (copies + " need every row of " + operand + " (" + dim +
                   " elements) to start " + std::to_string(s.copyBytes) + "-byte aligned")
                      .str());
  };
  constrain(a, "A", a.kContiguous ? "K" : "M");
  constrain(bl, "B", bl.kContiguous ? "K" : "N");
  Block &entry = func.getBody().front();
  ptrA = entry.getArgument(0), ptrB = entry.getArgument(1), ptrC = entry.getArgument(2),
  ptrD = entry.getArgument(3), M = entry.getArgument(4), N = entry.getArgument(5),
  K = entry.getArgument(6), alpha = entry.getArgument(7), beta = entry.getArgument(8);
  // Per-tensor operand scales multiply the product: D = (alpha sa sb) (A x B) + beta C.
  alpha = perTensorAlpha(b, v, alpha, entry.getArguments().drop_front(9));

  tid = NVVM::ThreadIdXOp::create(b, i32);
  Value warp = b.divu(tid, 32);
  lane = b.remu(tid, 32);
  warpM = b.divu(warp, warpsN);
  warpN = b.remu(warp, warpsN);
  smem = b.gep(dynamicSmemBase(b, module), b.c32(ring.getOffset()));

  Value tilesM = b.ceilDiv(M, bm), tilesN = b.ceilDiv(N, bn);
  Value numTiles = b.mul(tilesM, tilesN);
  Value kTiles = b.ceilDiv(K, bk);
  Value first = NVVM::BlockIdXOp::create(b, i32);
  Value step = NVVM::GridDimXOp::create(b, i32);

  auto slot = [&](Value index) { return b.gep(smem, b.mul(b.remu(index, stages), slotBytes)); };
  auto zeros = [&]() {
    SmallVector<Value> acc(mi * ni * 4, b.f32c(0.0));
    return acc;
  };

  // for tile = blockIdx.x; tile < tiles; tile += gridDim.x  (one iteration for grid = tiles)
  auto tileLoop = scf::ForOp::create(b, first, numTiles, step);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tileLoop.getBody());
    Value t = tileLoop.getInductionVar();
    auto [tm, tn] = rasterTile(b, v, t, tilesM, tilesN);
    Value m0 = b.mul(tm, bm), n0 = b.mul(tn, bn);
    auto loadK = [&](Value kt) {
      Value s = slot(kt);
      Value k0 = b.mul(kt, bk);
      loadSlice(a, s, m0, k0);
      loadSlice(bl, s, n0, k0);
    };
    // The previous tile's last readers are done with the ring.
    NVVM::Barrier0Op::create(b);
    // Prologue: fill slots 0 .. S-2.
    for (int64_t s = 0; s < stages - 1; ++s) {
      Value kt = b.c32(s);
      auto ifOp = scf::IfOp::create(b, b.ult(kt, kTiles), false);
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        loadK(kt);
      }
      NVVM::CpAsyncCommitGroupOp::create(b);
    }
    SmallVector<Value> init = zeros();
    auto kLoop = scf::ForOp::create(b, b.c32(0), kTiles, b.c32(1), init);
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(kLoop.getBody());
      Value kt = kLoop.getInductionVar();
      // Slice kt has landed (at most S-2 younger groups in flight) and every warp is past the
      // MMAs of slice kt-1, whose slot the next copy reuses.
      NVVM::CpAsyncWaitGroupOp::create(b, stages - 2);
      NVVM::Barrier0Op::create(b);
      Value next = b.add(kt, stages - 1);
      auto ifOp = scf::IfOp::create(b, b.ult(next, kTiles), false);
      {
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        loadK(next);
      }
      NVVM::CpAsyncCommitGroupOp::create(b);
      SmallVector<Value> acc = compute(slot(kt), kLoop.getRegionIterArgs());
      scf::YieldOp::create(b, acc);
    }
    NVVM::CpAsyncWaitGroupOp::create(b, 0);
    epilogue(kLoop.getResults(), m0, n0);
  }
  LLVM::ReturnOp::create(b, ValueRange{});
  return success();
}

LogicalResult lowering::lowerMmaSync(PipelineView &view, ModuleOp module) {
  MmaSyncEmitter emitter(view, module);
  return emitter.emit();
}
