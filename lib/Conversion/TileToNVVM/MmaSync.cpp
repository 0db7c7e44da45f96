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
// The warp-specialised schedule (the ring's sync is mbarrier_full_empty): the last warp is a
// TMA producer whose lane 0 fills the S-slot ring (Common.h's emitTmaProducer: wait on the
// slot's empty barrier, arm its full barrier with the slice's bytes, one TMA load of A and one
// of B), and the other warps are consumers: each waits on the full barrier of slice g (slot
// g mod S, parity (g / S) & 1), loads its fragments with ldmatrix, multiplies with mma.sync and
// releases the slot with one arrival per warp on its empty barrier (lane 0 arrives after a
// bar.warp.sync that orders the other lanes' ldmatrix reads before it). TMA writes each K-slice
// row (128 bytes) with the 128-byte swizzle, 16-byte chunk c of row r at chunk c ^ (r mod 8) of
// a 1024-byte-aligned slot: the layout below for rows of 128 bytes, so ldmatrix addresses it
// the same way. The grid is persistent, tiles in the schedule's raster order.
//
// accumulators = 1 (cooperative): the consumer warps split every tile. accumulators = 2
// (ping-pong): two groups of consumer warps take the CTA's tiles in turn (group c its tiles c,
// c + 2, ...); a turn barrier per group orders their MMAs, so that no full-barrier wait runs
// more than one phase ahead of the ring, and one group's epilogue overlaps the other's MMAs.
//
// Epilogue: with beta = 0 each warp writes one m16 block of its warp tile at a time, scaled
// and converted, into one of its two staging buffers (16 rows by up to 128 bytes, swizzled as
// D's tensor map wants) and its lane 0 stores the buffer with a TMA store, which clips the
// matrix edges (Common.h's storeChunkThroughShared); beta != 0 reads C and stores D from the
// registers.
//
// 6- and 4-bit operands (.kind::f8f6f4, sm_120a; PTX ISA 9.7.14.5.14): the instruction reads
// each element from an 8-bit container, e2m1 in bits 5..2 and e3m2/e2m3 in bits 5..0, in the
// 8-bit fragment layout of m16n8k32 (9.7.14.5.10). The producer's TMA writes them into shared
// memory in the padded 16U4_ALIGN16B / 16U6_ALIGN16B forms (16 packed elements, then 8 or 4
// bytes of gap, per 16 bytes), so a K-slice row of 128 elements is 128 bytes, swizzled as the
// FP8 rows are, and its full barrier counts the packed bytes. The consumers load the fragments
// with ldmatrix.m8n16.x4 .b8x16.b4x16_p64 / .b8x16.b6x16_p32 (9.7.14.5.15), whose 8 x 16
// matrices of 8-bit elements have the register layout of the 8 x 8 b16 matrices the FP8 path
// loads: one address scheme for both. ldmatrix puts a 4-bit value in bits 3..0 of its byte
// (CUTLASS's cute/atom/mma_traits_sm120.hpp shifts it, fp4_shift_A/B), so e2m1 registers are
// shifted left by 2 and masked to 0x3C per byte before the MMA; the 6-bit values are where the
// MMA wants them. The block-scaled .kind::mxf8f6f4 reads its 6- and 4-bit operands from the
// same containers (9.7.14.5.14), so they are loaded the same way, with the scales of MXFP8.
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
  LogicalResult setUp();
  LogicalResult emitMultistage();
  LogicalResult emitWarpSpecialized();
  /// Warp-specialised: the TMA-store epilogue of one warp tile (beta = 0).
  void storeThroughShared(ValueRange acc, Value m0, Value n0, Value staging, Value leader);
  /// Byte offset of 16-byte chunk (row, chunk) of a slice, swizzled.
  Value swizzled(const SliceLayout &s, Value row, Value chunk);
  void loadSlice(const SliceLayout &s, Value slotBase, Value tileMN, Value k0);
  /// The pieces of one 16-byte chunk whose rows are aligned to less than 16 bytes.
  void loadNarrowChunk(const SliceLayout &s, Value base, Value dst, Value gRow, Value gCol,
                       Value rowBound, Value colBound);
  SmallVector<Value> compute(Value slotBase, ValueRange acc);
  /// Stores the warp's fragments of the tile at (m0, n0) (C read when betaNonZero, known).
  void epilogue(ValueRange acc, Value m0, Value n0, bool betaNonZero = false);

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
  /// Operands in 8-bit containers (.kind::f8f6f4 and .kind::mxf8f6f4 with 6- and 4-bit types):
  /// the ldmatrix form that unpacks them, and whether the registers move the 4-bit value to
  /// bits 5..2.
  struct Unpack {
    bool on = false;
    NVVM::LdStMatrixEltType form = NVVM::LdStMatrixEltType::B8X16_B4X16_P64;
    bool shiftFp4 = false;
  } unpackA, unpackB;
  Type outType;
  // Warp-specialised kernels.
  Value tmapA, tmapB, tmapD;
  int64_t rowBytes = 0; ///< bytes of one K-slice row (bits, not bytes, per element: FP4)
  /// Block-scaled kinds (sm_120a): the slot's scale atoms after B, as in the tcgen05 lowering
  /// (Descriptors.h), read by each lane with ld.shared.b32 for the row / column whose scale it
  /// provides (mmaSyncScaleLaneA/B with thread-id 0).
  struct Scales {
    bool on = false;
    ScaleVec vec = ScaleVec::X1;
    Tcgen05ScaledKind stepKind = Tcgen05ScaledKind::MXF8F6F4; ///< the same atom/ID steps
    int64_t atomsK = 0, atomsM = 0, atomsN = 0;
    int64_t aOffset = 0, bOffset = 0, bytes = 0;
    Value tmapA, tmapB;
    Value rowInAtom, colInAtom; ///< m0 % 128, n0 % 128 of the current tile
  } sf;
  LogicalResult setUpScales();
  void loadScales(Value slot, Value k, const ProducerUnit &unit, Value tmaBar);
  /// Fragment addresses as one register per operand and slice, XOR-ed per K step (the slots
  /// TMA writes: K-major rows of 128 bytes at 1024-byte-aligned addresses).
  bool xorAddressing = false;
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
  SmallVector<Value> init(acc.begin(), acc.end());
  Value sliceA = b.gep(slotBase, b.c32(a.offsetInSlot));
  Value sliceB = b.gep(slotBase, b.c32(bl.offsetInSlot));
  Value j = b.divu(lane, 8), r = b.remu(lane, 8);
  Value jLow = b.remu(j, 2), jHigh = b.divu(j, 2);
  Type i32 = b.i32();
  auto structTy = LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32, i32, i32});
  // One ldmatrix.x4 of 8 x 8 b16 matrices at `addr`: its four registers, as f16 pairs for f16.
  // With `unpack` on: one ldmatrix.m8n16.x4 of 8 x 16 matrices of 6- or 4-bit elements widened
  // to bytes (the same register layout), e2m1 then moved to bits 5..2 of each byte.
  auto ldmatrixX4 = [&](Value addr, NVVM::MMALayout layout, const Unpack &unpack = Unpack()) {
    Value x4 = NVVM::LdMatrixOp::create(
        b, structTy, addr, 4, layout,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, unpack.on ? 16 : 8),
        unpack.on ? unpack.form : NVVM::LdStMatrixEltType::B16);
    SmallVector<Value> regs;
    for (int64_t q = 0; q < 4; ++q) {
      Value reg = LLVM::ExtractValueOp::create(b, x4, q);
      if (f16)
        reg = LLVM::BitcastOp::create(b, VectorType::get({2}, b.getF16Type()), reg);
      if (unpack.shiftFp4) // e2m1ContainersFromLdmatrix (Descriptors.h)
        reg = arith::AndIOp::create(
            b, arith::ShLIOp::create(b, reg, b.c32(kE2M1ContainerShift)),
            b.c32(static_cast<int32_t>(kE2M1ContainerMask)));
      regs.push_back(reg);
    }
    return regs;
  };
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
    return ldmatrixX4(addr, s.kContiguous ? NVVM::MMALayout::row : NVVM::MMALayout::col);
  };
  // Per K step: the A fragments of the warp's m16 blocks and the B fragments of its pairs of n8
  // columns, then every mma.sync of the warp tile.
  auto f32 = b.f32();
  auto accTy = LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  NVVM::MMATypes ptxType = v.row->mmaSyncA;
  using FragmentFn = llvm::function_ref<SmallVector<Value>(int64_t, int64_t)>;
  // Block scales: lane l provides the A scale of row l / 4 + 8 (l % 2) of each m16 block and
  // the B scale of column l / 4 of each n8 block (thread-id 0; the other lanes' words are
  // ignored), one 32-bit word per row of a scale atom: 4 consecutive scale blocks along K.
  Value g4, rowA;
  if (sf.on) {
    g4 = b.divu(lane, 4);
    rowA = b.add(g4, b.mul(b.remu(lane, 2), 8));
  }
  auto scaleWord = [&](int64_t offset, Value inAtom, Value local, int64_t atom) -> Value {
    Value rr = b.add(inAtom, local);
    Value atomIdx = b.add(b.mul(b.divu(rr, kScaleAtomRows), sf.atomsK), b.c32(atom));
    Value within = b.add(b.mul(b.remu(rr, 32), 16), b.mul(b.divu(b.remu(rr, 128), 32), 4));
    Value off = b.add(b.add(b.c32(offset), b.mul(atomIdx, kScaleAtomBytes)), within);
    return LLVM::LoadOp::create(b, b.i32(), b.gep(slotBase, off), 4);
  };
  SmallVector<Value> scaleA, scaleB;
  int64_t loadedAtom = -1;
  auto i16c = [&](int64_t x) { return arith::ConstantIntOp::create(b, x, 16); };
  auto multiply = [&](FragmentFn fragA, FragmentFn fragB, SmallVector<Value> out) {
    for (int64_t kk = 0; kk < bk / instrK; ++kk) {
      ScaleStep step{0, 0};
      if (sf.on) {
        step = llvm::cantFail(tcgen05ScaleStep(sf.stepKind, sf.vec, kk));
        if ((int64_t)step.atom != loadedAtom) {
          loadedAtom = step.atom;
          scaleA.clear();
          scaleB.clear();
          for (int64_t i = 0; i < mi; ++i)
            scaleA.push_back(scaleWord(sf.aOffset, sf.rowInAtom,
                                       b.add(b.mul(warpM, warpTileM), b.add(rowA, i * 16)),
                                       step.atom));
          for (int64_t n = 0; n < ni; ++n)
            scaleB.push_back(scaleWord(sf.bOffset, sf.colInAtom,
                                       b.add(b.mul(warpN, warpTileN), b.add(g4, n * 8)),
                                       step.atom));
        }
      }
      SmallVector<SmallVector<Value>> fa, fb;
      for (int64_t i = 0; i < mi; ++i)
        fa.push_back(fragA(kk, i));
      for (int64_t jn = 0; jn < ni / 2; ++jn)
        fb.push_back(fragB(kk, jn));
      for (int64_t i = 0; i < mi; ++i) {
        for (int64_t n = 0; n < ni; ++n) {
          ArrayRef<Value> bRegs = ArrayRef<Value>(fb[n / 2]).slice((n % 2) * 2, 2);
          int64_t base = (i * ni + n) * 4;
          SmallVector<Value> c(out.begin() + base, out.begin() + base + 4);
          Value d;
          if (sf.on) {
            const MmaInstr &row = *v.row;
            NVVM::ScaleVecSize vec = sf.vec == ScaleVec::X1   ? NVVM::ScaleVecSize::X1
                                     : sf.vec == ScaleVec::X2 ? NVVM::ScaleVecSize::X2
                                                              : NVVM::ScaleVecSize::X4;
            NVVM::BlockScaleFormat format = row.scaleElem == Elem::E8M0
                                                ? NVVM::BlockScaleFormat::UE8M0
                                                : NVVM::BlockScaleFormat::UE4M3;
            Value byteId = i16c(step.id), threadId = i16c(0);
            d = NVVM::MmaBlockScaleOp::create(
                b, accTy, fa[i], bRegs, c, scaleA[i], byteId, threadId, scaleB[n], byteId,
                threadId, {16, 8, instrK},
                std::array<NVVM::MMATypes, 2>{row.mmaSyncA, row.mmaSyncB}, vec, format,
                row.blockKind);
          } else if (fp8Intrinsic.empty()) {
            d = NVVM::MmaOp::create(
                b, accTy, fa[i], bRegs, c, {16, 8, 16}, std::nullopt, std::nullopt,
                std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
                std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
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
  };
  // Matrix j of an ldmatrix.x4: 8 rows further along M/N for one bit of j, one 16-byte chunk
  // further along K for the other.
  Value eight = b.c32(8), chunk = b.c32(perChunk);
  if (xorAddressing) {
    // Row r of a 1024-byte-aligned slice holds 16-byte chunk c at chunk c ^ (r mod 8), and an
    // ldmatrix row is r = (16-row block origin) + (matrix bit) x 8 + lane % 8, so r mod 8 =
    // lane % 8. Chunk c = 2 kk + (the other matrix bit) for K step kk (32 bytes), so its
    // swizzled position is (bit ^ lane % 8) ^ 2 kk: the lane's byte offset in the first K step,
    // XOR-ed with kk x 32; the block origin (a multiple of 2048 bytes) adds above bit 10.
    // One register per operand and slice instead of one per fragment: the per-fragment offsets
    // are loop-invariant, and hoisted out of the K loop they would hold 24 or more registers.
    auto lanePart = [&](Value mnBit, Value kBit) {
      return b.add(b.mul(b.add(b.mul(mnBit, 8), r), 128), b.mul(b.xori(kBit, r), 16));
    };
    Value rowA = b.mul(warpM, warpTileM * 128), rowB = b.mul(warpN, warpTileN * 128);
    Value qA = b.add(sharedOffset(b, sliceA), b.add(rowA, lanePart(jLow, jHigh)));
    Value qB = b.add(sharedOffset(b, sliceB), b.add(rowB, lanePart(jHigh, jLow)));
    auto load = [&](Value q, int64_t kk, int64_t block, const Unpack &unpack) {
      Value addr = b.add(kk ? b.xori(q, b.c32(kk * 32)) : q, block * 16 * 128);
      return ldmatrixX4(LLVM::IntToPtrOp::create(b, b.ptr(3), addr), NVVM::MMALayout::row,
                        unpack);
    };
    return multiply([&](int64_t kk, int64_t i) { return load(qA, kk, i, unpackA); },
                    [&](int64_t kk, int64_t jn) { return load(qB, kk, jn, unpackB); }, init);
  }
  Value aMnOff = b.mul(jLow, eight), aKOff = b.mul(jHigh, chunk);
  Value bMnOff = b.mul(jHigh, eight), bKOff = b.mul(jLow, chunk);
  if (!a.kContiguous)
    aMnOff = b.mul(jLow, chunk), aKOff = b.mul(jHigh, eight);
  if (!bl.kContiguous)
    bMnOff = b.mul(jHigh, chunk), bKOff = b.mul(jLow, eight);
  Value warpRow = b.mul(warpM, warpTileM), warpCol = b.mul(warpN, warpTileN);
  return multiply(
      [&](int64_t kk, int64_t i) {
        return fragment(a, sliceA, b.add(warpRow, i * 16), b.c32(kk * instrK), aMnOff, aKOff);
      },
      [&](int64_t kk, int64_t jn) {
        return fragment(bl, sliceB, b.add(warpCol, jn * 16), b.c32(kk * instrK), bMnOff,
                        bKOff);
      },
      init);
}

void MmaSyncEmitter::epilogue(ValueRange acc, Value m0, Value n0, bool betaNonZero) {
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
  store.betaNonZero = betaNonZero;
  storeFragments(b, store, acc);
}

LogicalResult MmaSyncEmitter::emit() {
  if (failed(setUp()))
    return failure();
  return v.ring.getSync() == tile::RingSync::MbarrierFullEmpty ? emitWarpSpecialized()
                                                               : emitMultistage();
}

LogicalResult MmaSyncEmitter::setUp() {
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
  sf.on = v.row->blockScaled;
  // NVVM's mma op has neither the e4m3/e5m2 m16n8k32 forms nor .kind::f8f6f4: the LLVM
  // intrinsics by name (llvm.nvvm.mma.m16n8k32.row.col[.kind.f8f6f4].f32.<a>.<b>.f32).
  bool f8f6f4Kind = v.row->set == MmaSyncF8F6F4;
  if (!sf.on && (elemInfo(v.row->a).fp8 || f8f6f4Kind))
    fp8Intrinsic = llvm::formatv("llvm.nvvm.mma.m16n8k32.row.col{0}.f32.{1}.{2}.f32",
                                 f8f6f4Kind ? ".kind.f8f6f4" : "",
                                 NVVM::stringifyMMATypes(v.row->mmaSyncA),
                                 NVVM::stringifyMMATypes(v.row->mmaSyncB))
                       .str();
  for (auto [unpack, e] : {std::pair<Unpack *, Elem>{&unpackA, v.row->a}, {&unpackB, v.row->b}})
    if (paddedSubByte(*v.row, e)) {
      unpack->on = true;
      unpack->form = elemInfo(e).bits == 4 ? NVVM::LdStMatrixEltType::B8X16_B4X16_P64
                                           : NVVM::LdStMatrixEltType::B8X16_B6X16_P32;
      unpack->shiftFp4 = elemInfo(e).bits == 4;
    }
  outType = v.epilogueOp.getOutType();
  if (v.epilogueOp.getOutLayout() != tile::Layout::Row)
    return v.epilogueOp.emitOpError()
           << "not supported yet: c = col with the mma.sync lowering (target "
           << v.target.name() << ")";
  // Packed 4-bit operands (K-major only) are laid out as bytes: a K-slice row of bk elements
  // is bk / 2 bytes, and each instruction still reads 32 bytes of it. 6- and 4-bit operands in
  // 8-bit containers take a byte each.
  int64_t bits = smemElemBits(*v.row, *elemOf(elem));
  int64_t eb = std::max<int64_t>(1, bits / 8);
  int64_t perByte = bits == 4 ? 2 : 1;
  rowBytes = bk * bits / 8;
  perChunk = 16 / eb;
  a = {true, ring.getALayout() == tile::Layout::Row, ring.getAShape()[0],
       ring.getAShape()[1] / perByte, eb, 0};
  bl = {false, ring.getBLayout() == tile::Layout::Col, ring.getBShape()[0],
        ring.getBShape()[1] / perByte, eb, static_cast<int64_t>(ring.getBOffset())};
  if (std::optional<ArrayRef<int64_t>> align = ring.getAlign()) {
    a.copyBytes = (*align)[0] * eb;
    bl.copyBytes = (*align)[1] * eb;
  }
  for (const SliceLayout *s : {&a, &bl})
    if (s->chunksPerRow() < 2 || s->chunks() % 8 != 0)
      return v.ring.emitOpError() << "slice of " << s->rows << "x" << s->cols
                                  << " elements is too narrow for the 128-byte swizzle";
  if (sf.on)
    return setUpScales();
  return success();
}

LogicalResult MmaSyncEmitter::setUpScales() {
  const MmaInstr &row = *v.row;
  tile::RingOp ring = v.ring;
  if (ring.getSync() != tile::RingSync::MbarrierFullEmpty)
    return v.op.emitOpError() << "not supported yet: " << row.ptx << " with schedule = "
                              << "multistage on target " << v.target.name()
                              << " (block scales are loaded by TMA into the warp-specialised "
                                 "ring: use schedule = warp_specialized)";
  sf.vec = row.scaleVec == 1 ? ScaleVec::X1 : row.scaleVec == 2 ? ScaleVec::X2 : ScaleVec::X4;
  // The scale atoms advance like tcgen05's: 4 instructions per atom with 1X, 2 with 2X, 1 with
  // 4X (the byte-id selects the byte, the half word, or 0).
  sf.stepKind = row.blockKind == NVVM::MMABlockScaleKind::MXF8F6F4
                    ? Tcgen05ScaledKind::MXF8F6F4
                    : Tcgen05ScaledKind::MXF4NVF4;
  int64_t atomK = kScaleAtomBlocks * row.scaleBlock;
  if (bk % atomK != 0)
    return ring.emitOpError() << "not supported yet: K-slice of " << bk
                              << " elements with scale atoms of " << atomK << " (4 scales of "
                              << row.scaleBlock << ")";
  for (int64_t t : {bm, bn})
    if (t % kScaleAtomRows != 0 && kScaleAtomRows % t != 0)
      return ring.emitOpError() << "not supported yet: block scales with a tile of " << bm
                                << " x " << bn << " (tile M and N must divide, or be multiples "
                                << "of, the 128 rows of a scale atom)";
  sf.atomsK = bk / atomK;
  sf.atomsM = std::max<int64_t>(1, bm / kScaleAtomRows);
  sf.atomsN = std::max<int64_t>(1, bn / kScaleAtomRows);
  sf.aOffset = bl.offsetInSlot + bn * rowBytes;
  sf.bOffset = sf.aOffset + kScaleAtomBytes * sf.atomsK * sf.atomsM;
  sf.bytes = kScaleAtomBytes * sf.atomsK * (sf.atomsM + sf.atomsN);
  if (sf.aOffset + sf.bytes > slotBytes)
    return ring.emitOpError() << "slots of " << slotBytes << " bytes do not hold A, B and "
                              << "their scale atoms (" << sf.aOffset + sf.bytes << " bytes)";
  return success();
}

void MmaSyncEmitter::loadScales(Value slot, Value k, const ProducerUnit &unit, Value tmaBar) {
  auto cluster = [&](Value ptr) { return LLVM::AddrSpaceCastOp::create(b, b.ptr(7), ptr); };
  Value kRow = b.mul(k, 32 * sf.atomsK);
  for (auto [offset, map, origin] : {std::tuple<int64_t, Value, Value>{sf.aOffset, sf.tmapA,
                                                                       unit.m0},
                                     {sf.bOffset, sf.tmapB, unit.n0}})
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, cluster(b.gep(slot, b.c32(offset))), map,
        ValueRange{b.c32(0), kRow, b.divu(origin, kScaleAtomRows)}, tmaBar, ValueRange{},
        Value(), Value(), NVVM::TMALoadMode::TILE, false, nullptr, Value());
}

LogicalResult MmaSyncEmitter::emitMultistage() {
  tile::RingOp ring = v.ring;
  // A guard for hand-written pipelines (resolveGemm says it with the description's words).
  if (unpackA.on || unpackB.on)
    return ring.emitOpError() << "not supported yet: " << v.row->ptx << " with "
                              << elemInfo(v.row->a).manifest << " x "
                              << elemInfo(v.row->b).manifest
                              << " in a cp.async ring (6- and 4-bit operands are read from "
                                 "the 8-bit containers TMA writes: use sync = "
                                 "mbarrier_full_empty)";
  int64_t eb = a.elemBytes;
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

void MmaSyncEmitter::storeThroughShared(ValueRange acc, Value m0, Value n0, Value staging,
                                        Value leader) {
  // The warp tile goes out in chunks of one m16 block by `span` bytes of columns (the D box),
  // each written into the warp's staging buffers in turn with the tensor map's swizzle: byte
  // offset o of a 1024-byte-aligned buffer holds what TMA expects at o ^ (((o >> 7) & (span /
  // 16 - 1)) << 4). Thread (g = lane / 4, q = lane % 4) holds columns 2 q, 2 q + 1 of each n8
  // fragment in rows g and g + 8.
  int64_t outBytes = sizeInBytes(1, outType);
  int64_t warpRowBytes = warpTileN * outBytes;
  int64_t span = std::min<int64_t>(128, warpRowBytes);
  int64_t spanCols = span / outBytes, chunksN = warpRowBytes / span;
  int64_t fragsPerChunk = spanCols / 8, bufBytes = 16 * span;
  // Two buffers used in turn when a tile has an even number of chunks; otherwise the next
  // tile's first chunk would reuse the buffer of the last store, so every chunk waits for
  // the store before it (one buffer).
  int64_t buffers = (mi * chunksN) % 2 == 0 ? 2 : 1;
  Value g = b.divu(lane, 4), q = b.remu(lane, 4);
  auto vecTy = VectorType::get({2}, outType);
  Value rowOrigin = b.add(m0, b.mul(warpM, warpTileM));
  Value colOrigin = b.add(n0, b.mul(warpN, warpTileN));
  for (int64_t i = 0; i < mi; ++i) {
    for (int64_t jc = 0; jc < chunksN; ++jc) {
      int64_t index = i * chunksN + jc;
      Value buf = b.gep(staging, b.c32((index % buffers) * bufBytes));
      auto write = [&] {
        for (int64_t half = 0; half < 2; ++half) {
          Value row = b.add(g, half * 8);
          for (int64_t f = 0; f < fragsPerChunk; ++f) {
            int64_t n = jc * fragsPerChunk + f;
            int64_t base = (i * ni + n) * 4 + half * 2;
            Value offset =
                b.add(b.mul(row, span), b.add(b.mul(q, 2 * outBytes), f * 8 * outBytes));
            Value bits = arith::AndIOp::create(b, b.divu(offset, 128), b.c32(span / 16 - 1));
            Value swz = b.xori(offset, b.mul(bits, 16));
            Value vec = LLVM::UndefOp::create(b, vecTy);
            for (int64_t e = 0; e < 2; ++e) {
              Value x = arith::MulFOp::create(b, alpha, acc[base + e]);
              vec = LLVM::InsertElementOp::create(b, vec, convertOut(b, outType, x), b.c32(e));
            }
            LLVM::StoreOp::create(b, vec, b.gep(buf, swz), 2 * outBytes);
          }
        }
      };
      auto coords = [&]() -> SmallVector<Value, 2> {
        return {b.add(colOrigin, jc * spanCols), b.add(rowOrigin, i * 16)};
      };
      storeChunkThroughShared(b, {tmapD, buf, leader, Value(), Value(), buffers}, write,
                              coords);
    }
  }
}

LogicalResult MmaSyncEmitter::emitWarpSpecialized() {
  tile::RingOp ring = v.ring;
  bool pingPong = v.accumulators.getCount() == 2;
  int64_t consumerWarps = v.mma.getWarps()[1];
  xorAddressing = true;
  int64_t groupWarps = warpsM * warpsN;
  int64_t outBytes = sizeInBytes(1, outType);
  int64_t span = std::min<int64_t>(128, warpTileN * outBytes);
  if (!a.kContiguous || !bl.kContiguous || rowBytes != 128)
    return v.ring.emitOpError() << "not supported yet: the warp-specialised mma.sync lowering "
                                   "takes K-major slices of 128-byte rows";
  // The bytes TMA completes per slice: the packed (global) bytes of each operand, also for the
  // 6- and 4-bit ones that land in 8-bit containers.
  int64_t txBytes = (bm * bk * elemBits(ring.getAType()) + bn * bk * elemBits(ring.getBType())) / 8;
  bool padded = unpackA.on || unpackB.on;

  b.setInsertionPointToEnd(module.getBody());
  SmallVector<KernelParam> params =
      tmaKernelParams(b, v, TmaBoxes{bk, bm, bn, span / outBytes, 16});
  unsigned scaleParams = sf.on ? appendBlockScaleParams(b, v, params, sf.atomsK, sf.atomsM,
                                                        sf.atomsN)
                               : appendScaleParams(b, v, params);
  LLVM::LLVMFuncOp func = createKernel(b, v, params);
  // One CTA per SM: the consumers' registers are the register file shared by the CTA's warps.
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));
  addTmaConstraints(func, elemBits(ring.getAType()), elemBits(outType), padded);
  Block &entry = func.getBody().front();
  tmapA = entry.getArgument(0), tmapB = entry.getArgument(1), tmapD = entry.getArgument(2);
  ptrC = entry.getArgument(3), ptrD = entry.getArgument(4), M = entry.getArgument(5),
  N = entry.getArgument(6), K = entry.getArgument(7), alpha = entry.getArgument(8),
  beta = entry.getArgument(9);
  alpha = scaleArguments(b, v, entry, alpha, scaleParams, sf.on, sf.tmapA, sf.tmapB);

  Type i32 = b.i32();
  tid = NVVM::ThreadIdXOp::create(b, i32);
  // The warp index as lane 0 has it: ptxas sees the role branches as warp-uniform.
  Value warp = warpUniform(b, b.divu(tid, 32));
  lane = b.remu(tid, 32);
  Value base = dynamicSmemBase(b, module);
  smem = b.gep(base, b.c32(ring.getOffset()));
  Value staging = b.gep(base, b.c32(v.epilogueOp.getOffset()));
  Value barBase = b.gep(base, b.c32(ring.getBarrierOffset()));
  Barriers full{barBase};
  Barriers empty{b.gep(barBase, b.c32(8 * stages))};
  Barriers turn{b.gep(barBase, b.c32(16 * stages))};
  // A slot is released by every warp of the group that reads it; a turn passes when every
  // warp of a group has waited for its tile's last slice.
  SmallVector<BarrierInit> inits;
  for (int64_t s = 0; s < stages; ++s) {
    inits.push_back({full, s, 1});
    inits.push_back({empty, s, groupWarps});
  }
  if (pingPong)
    for (int64_t c = 0; c < 2; ++c)
      inits.push_back({turn, c, groupWarps});
  SmallVector<Value> maps{tmapA, tmapB, tmapD};
  if (sf.on)
    maps.append({sf.tmapA, sf.tmapB});
  setupBarriers(b, tid, inits, /*cluster=*/false, {}, maps);

  Value tilesM = b.ceilDiv(M, bm), tilesN = b.ceilDiv(N, bn);
  Value numTiles = b.mul(tilesM, tilesN), kTiles = b.ceilDiv(K, bk);
  Value bid = NVVM::BlockIdXOp::create(b, i32), grid = NVVM::GridDimXOp::create(b, i32);
  auto slotPtr = [&](Value slot) { return b.gep(smem, b.mul(slot, slotBytes)); };

  auto roles = scf::IfOp::create(b, b.eq(warp, consumerWarps), /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&roles.getThenRegion().front());
    // Producer: lane 0 issues every TMA load, in the consumers' tile order.
    auto unit = [&](Value t) {
      auto [tm, tn] = rasterTile(b, v, t, tilesM, tilesN);
      return ProducerUnit{b.c32(0), kTiles, b.mul(tm, bm), b.mul(tn, bn)};
    };
    TmaProducer p{b.eq(lane, 0), bid,       numTiles, grid,   unit,         full,
                  empty,         stages,    smem,     slotBytes, bl.offsetInSlot, tmapA,
                  tmapB,         bk,        rowBytes, txBytes + sf.bytes};
    auto scales = [&](Value slot, Value k, const ProducerUnit &u, Value bar,
                      NVVM::CTAGroupKindAttr) { loadScales(slot, k, u, bar); };
    if (sf.on)
      p.extraLoads = scales;
    p.cacheA = v.ring.getCacheA();
    p.cacheB = v.ring.getCacheB();
    emitTmaProducer(b, p);

    b.setInsertionPointToStart(&roles.getElseRegion().front());
    Value c = pingPong ? b.divu(warp, groupWarps) : b.c32(0);
    Value w = pingPong ? b.remu(warp, groupWarps) : warp;
    warpM = b.divu(w, warpsN);
    warpN = b.remu(w, warpsN);
    Value first = bid, step = grid, g0 = b.c32(0);
    if (pingPong) {
      first = b.add(bid, b.mul(c, grid));
      step = b.mul(grid, 2);
      g0 = b.mul(c, kTiles);
    }
    Value isLane0 = b.eq(lane, 0);
    auto arrive = [&](Value bar) {
      auto ifOp = scf::IfOp::create(b, isLane0, /*withElse=*/false);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      NVVM::MBarrierArriveOp::create(b, Type(), bar, Value());
    };
    auto tileLoop = scf::ForOp::create(b, first, numTiles, step, ValueRange{g0});
    {
      OpBuilder::InsertionGuard g1(b);
      b.setInsertionPointToStart(tileLoop.getBody());
      Value t = tileLoop.getInductionVar();
      auto [tm, tn] = rasterTile(b, v, t, tilesM, tilesN);
      Value m0 = b.mul(tm, bm), n0 = b.mul(tn, bn);
      sf.rowInAtom = b.remu(m0, kScaleAtomRows);
      sf.colInAtom = b.remu(n0, kScaleAtomRows);
      if (pingPong) {
        // This group's j-th tile follows the other group's last MMAs: group 0's j-th after
        // group 1's (j-1)-th, group 1's j-th after group 0's j-th.
        Value j = b.divu(b.sub(t, first), step);
        Value parity = b.xori(b.remu(j, 2), b.xori(c, b.c32(1)));
        waitBarrier(b, turn.at(b, c), parity);
      }
      SmallVector<Value> init(mi * ni * 4, b.f32c(0.0));
      init.push_back(tileLoop.getRegionIterArgs()[0]);
      auto kLoop = scf::ForOp::create(b, b.c32(0), kTiles, b.c32(1), init);
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(kLoop.getBody());
        ValueRange args = kLoop.getRegionIterArgs();
        Value g = args.back();
        auto pos = ringPosition(b, g, stages);
        waitBarrier(b, full.at(b, pos.slot), pos.fullParity);
        SmallVector<Value> out = compute(slotPtr(pos.slot), args.drop_back());
        // Every lane's ldmatrix reads of the slot must happen before lane 0's release of it:
        // the lanes are separate threads of the memory model (ldmatrix's .sync converges
        // them but orders no memory), and bar.warp.sync orders memory among its lanes.
        NVVM::SyncWarpOp::create(b, b.c32(-1));
        arrive(empty.at(b, pos.slot));
        out.push_back(b.add(g, 1));
        scf::YieldOp::create(b, out);
      }
      if (pingPong)
        arrive(turn.at(b, b.sub(b.c32(1), c)));
      ValueRange accs = kLoop.getResults().drop_back();
      Value gEnd = kLoop.getResults().back();
      Value betaNonZero = arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, beta, b.f32c(0.0));
      auto ifBeta = scf::IfOp::create(b, betaNonZero, /*withElse=*/true);
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(&ifBeta.getThenRegion().front());
        epilogue(accs, m0, n0, /*betaNonZero=*/true);
        b.setInsertionPointToStart(&ifBeta.getElseRegion().front());
        int64_t bufBytes = 2 * 16 * span;
        storeThroughShared(accs, m0, n0, b.gep(staging, b.mul(warp, bufBytes)), isLane0);
      }
      Value next = pingPong ? b.add(gEnd, kTiles) : gEnd;
      scf::YieldOp::create(b, ValueRange{next});
    }
    // The TMA stores read the staging buffers until they complete.
    drainTmaStores(b, isLane0);
  }
  LLVM::ReturnOp::create(b, ValueRange{});
  return success();
}

LogicalResult lowering::lowerMmaSync(PipelineView &view, ModuleOp module) {
  MmaSyncEmitter emitter(view, module);
  return emitter.emit();
}
