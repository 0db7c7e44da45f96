//===- SM100.cpp - the tcgen05 lowering (sm_100a family) ------------------===//
//
// Warp-specialised, one CTA per SM, 192 threads:
//   warp 0      producer: one elected thread issues the TMA loads of A and B into the S-slot ring
//               (Common.h's emitTmaProducer; full[s]: arrive.expect_tx + complete_tx; empty[s]:
//               the MMA's tcgen05.commit);
//   warp 1      MMA issuer: allocates Tensor Memory for the CTA, and one elected thread issues
//               every tcgen05.mma (kind::f16, f32 accumulator in TMEM), commits each slot back to
//               empty[s] and, after a tile's last K-slice, commits accFull[buf];
//   warps 2..5  epilogue warpgroup: waits accFull[buf], reads its 32 TMEM lanes with
//               tcgen05.ld.32x32b (warp w may only touch lanes 32 * (w % 4) ... + 31), arrives on
//               accEmpty[buf] once the last column chunk is in registers, and stores D: through a
//               128-byte-swizzled shared buffer and a TMA store (beta = 0; Common.h's
//               storeChunkThroughShared), or directly with C (beta != 0).
//
// Parities: slice g of the CTA's sequence uses slot g mod S; the MMA waits full with
// (g / S) & 1 (ringPosition), the producer empty with the opposite one. The j-th tile of the
// CTA uses accumulator buffer j mod A (TMEM columns [buf * N, buf * N + N)); the epilogue waits
// accFull with (j / A) & 1, the MMA waits accEmpty with the opposite parity. The first MMA of a
// tile runs with enable-input-d = false, so TMEM is never zeroed.
//
// cta_group = 2 (cluster [2, 1, 1]): the pair computes one 256 x N tile. Each CTA loads its own
// 128 rows of A and its half (N / 2 rows) of B into the same shared offsets; the leader's (rank
// 0) elected MMA thread issues tcgen05.mma.cta_group::2 with M = 256 from descriptors that name
// its own shared memory (the hardware reads the peer's at the same offsets) and D in both CTAs'
// TMEM (rows 0-127 in the leader, 128-255 in the peer). Both producers' TMA loads complete on the
// LEADER's full[s] (cp.async.bulk.tensor .cta_group::2 with the leader's shared::cluster barrier
// address; TmaPairing::CtaGroup2); only the leader's producer arrives there, with expect_tx of
// both CTAs' bytes. Commits are multicast to both CTAs (mask 0b11): each CTA's empty[s] and
// accFull[buf]. accEmpty[buf] lives in the leader and counts the 4 epilogue warps of both CTAs
// (remote arrive through mapa).
// TMEM is allocated and freed with cta_group::2 by warp 1 of each CTA; cluster barriers after
// the set-up and before the dealloc.
//
// Block-scaled kinds (.kind::mxf8f6f4 with E8M0 scales per 32, .kind::mxf4 with E8M0 per 32,
// .kind::mxf4nvf4 with E4M3 per 16 or E8M0 per 32): each slot of the ring also holds the slice's
// scale factors, after B: A's for the CTA's 128 rows, then B's for the tile's whole N (each
// CTA of a pair computes D for all N, so each needs every column's scales), as "scale atoms"
// of 128 rows x 4 scale blocks, 512 bytes each (Descriptors.h; the global layout the manifest
// states and docs/sm100a.md draws). The producer loads them with TMA on the slot's full
// barrier. After waiting for a slot the MMA thread copies them into Tensor Memory with
// tcgen05.cp.32x128b.warpx4 (each atom to 4 columns of all four lane quarters, as the ISA
// requires scale factors to be duplicated) and then issues tcgen05.mma ... .block_scale whose
// scale operands address those columns and whose instruction descriptor selects the byte
// (1X), half word (2X) or word (4X) of each column: tcgen05.cp followed by tcgen05.mma from the
// same thread is one of the ISA's implicitly pipelined pairs, so no wait separates them. Every
// stage has its own scale columns (after the accumulators): slot s's columns are rewritten
// only after the full barrier of a later round, which the producer armed after the MMAs that
// read them had committed the slot empty. 6- and 4-bit operands of .kind::mxf8f6f4 arrive as
// for the plain .kind::f8f6f4 (below, in emit: TMA's padded forms, 128-byte K-slice rows); only
// the instruction descriptor's type codes and the full barrier's packed byte count tell them
// from MXFP8.
//
// None of this has run on a Blackwell GPU: it is checked by ptxas (sm_100a, sm_103a), FileCheck
// census tests of the PTX and the descriptor unit tests (docs/sm100a.md).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <numeric>
#include "tilegen/Pipeline/GemmPlan.h"
#include "tilegen/Target/Descriptors.h"

using namespace mlir;
using namespace tilegen;
using namespace tilegen::lowering;

namespace {
class Tcgen05Emitter {
public:
  Tcgen05Emitter(PipelineView &view, ModuleOp module)
      : v(view), module(module), b(view.op.getLoc(), module.getContext()) {}
  LogicalResult emit();

private:
  LogicalResult setUpScales();
  void producer(Value first, Value step, Value numTiles, Value tilesM, Value tilesN,
                Value kTiles);
  void loadScales(Value slot, Value k, const ProducerUnit &unit, Value tmaBar,
                  NVVM::CTAGroupKindAttr group);
  void issueScaledMmas(Value slot, Value d, Value notFirstSlice);
  void mmaIssuer(Value first, Value step, Value numTiles, Value kTiles);
  void epilogue(Value first, Value step, Value numTiles, Value tilesM, Value tilesN,
                Value kTiles);
  void storeChunkShared(ArrayRef<Value> vals, int64_t chunk, Value row, Value leader, Value m0,
                        Value n0);
  void storeChunkDirect(ArrayRef<Value> vals, int64_t chunk, Value row, Value n0);
  Value slotA(Value slot) { return b.gep(ring, b.mul(slot, slotBytes)); }
  Value slotB(Value slot) { return b.gep(slotA(slot), b.c32(bOffset)); }
  /// tcgen05 shared-memory descriptor of the K-major operand tile at `ptr`.
  Value descriptor(Value ptr, uint64_t high);
  /// The TMEM address `base + lane << 16 + column` as a Tensor Memory pointer.
  Value tmemPtr(Value lane, Value column);
  /// The address of `bar` in the leader CTA (rank 0) of the pair, as a shared::cluster pointer.
  Value leaderBarrier(Value bar);
  /// An elected lane of the (converged) current warp.
  Value elect() { return NVVM::ElectSyncOp::create(b, b.i1(), Value()); }
  NVVM::CTAGroupKind group() {
    return pair ? NVVM::CTAGroupKind::CTA_2 : NVVM::CTAGroupKind::CTA_1;
  }
  void commit(Value bar);
  void fence(NVVM::Tcgen05FenceKind kind) { NVVM::Tcgen05FenceOp::create(b, kind); }

  PipelineView &v;
  ModuleOp module;
  KernelBuilder b;
  Value tmapA, tmapB, tmapD, ptrC, ptrD, M, N, K, alpha, beta, tid, ring, epi, tmem, rank;
  Barriers full, empty, accFull, accEmpty;
  int64_t bm = 0, bn = 0, bk = 0, stages = 0, slotBytes = 0, bOffset = 0, elemBytes = 2;
  int64_t ctaRows = 128, bRows = 0, accs = 1, tmemCols = 0, chunkCols = 0, chunks = 0;
  int64_t epiBuffers = 1;
  bool pair = false;
  uint64_t descHighA = 0, descHighB = 0;
  uint32_t idesc = 0;
  Type outType;
  int64_t rowBytes = 0; ///< bytes of one K-slice row of A or B in shared memory
  int64_t txBytes = 0;  ///< bytes TMA completes for the CTA's slices of A and B (packed)
  bool padded = false;  ///< a 6- or 4-bit operand in 8-bit containers ((mx)f8f6f4)
  /// Block scales (v.row->blockScaled): the slot's scale atoms and their TMEM columns.
  struct Scales {
    bool on = false;
    Tcgen05ScaledKind kind = Tcgen05ScaledKind::MXF8F6F4;
    ScaleVec vec = ScaleVec::X1;
    int64_t atomsK = 0;  ///< scale atoms along K per slice (4 scale blocks each)
    int64_t atomsN = 0;  ///< B's atoms across the tile's N (128 columns each)
    int64_t aOffset = 0, bOffset = 0; ///< within a slot
    int64_t bytes = 0;   ///< A's and B's, one CTA
    int64_t colsPerStage = 0, colBase = 0;
    SmallVector<uint32_t> idescs; ///< per instruction of a slice (the scale IDs differ)
    Value tmapA, tmapB;
  } sf;
};
} // namespace

Value Tcgen05Emitter::descriptor(Value ptr, uint64_t high) {
  return smemDescriptor(b, ptr, high);
}

Value Tcgen05Emitter::tmemPtr(Value lane, Value column) {
  Value addr = b.add(b.add(tmem, arith::ShLIOp::create(b, lane, b.c32(16))), column);
  return LLVM::IntToPtrOp::create(b, b.ptr(6), addr);
}

Value Tcgen05Emitter::leaderBarrier(Value bar) { return clusterAddress(b, bar, b.c32(0)); }

void Tcgen05Emitter::commit(Value bar) {
  // The arrive happens when every tcgen05 operation this thread issued before has completed.
  Value mask;
  if (pair)
    mask = arith::ConstantIntOp::create(b, 0b11, 16);
  NVVM::Tcgen05CommitOp::create(b, bar, mask, group());
}

void Tcgen05Emitter::producer(Value first, Value step, Value numTiles, Value tilesM,
                              Value tilesN, Value kTiles) {
  auto unit = [&](Value tile) {
    auto [tm, tn] = rasterTile(b, v, tile, tilesM, tilesN);
    Value m0 = b.add(b.mul(tm, bm), b.mul(rank, ctaRows));
    Value n0 = b.add(b.mul(tn, bn), b.mul(rank, bRows));
    return ProducerUnit{b.c32(0), kTiles, m0, n0};
  };
  int64_t ctaBytes = txBytes + sf.bytes;
  TmaProducer p{elect(), first, numTiles, step, unit, full, empty, stages, ring, slotBytes,
                bOffset, tmapA, tmapB, bk, rowBytes, ctaBytes};
  auto scales = [&](Value slot, Value k, const ProducerUnit &u, Value bar,
                    NVVM::CTAGroupKindAttr tmaGroup) { loadScales(slot, k, u, bar, tmaGroup); };
  if (sf.on)
    p.extraLoads = scales;
  if (pair) {
    p.pairing = TmaPairing::CtaGroup2;
    p.rank = rank;
    p.expectBytes = 2 * ctaBytes;
  }
  // Tail: wait until the MMA has released every slot, so that no commit (multicast from the
  // leader in a pair) arrives on this CTA's barriers after it exits.
  p.drain = true;
  p.cacheA = v.ring.getCacheA();
  p.cacheB = v.ring.getCacheB();
  emitTmaProducer(b, p);
}

void Tcgen05Emitter::mmaIssuer(Value first, Value step, Value numTiles, Value kTiles) {
  auto elected = scf::IfOp::create(b, elect(), false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&elected.getThenRegion().front());
  Value idescV = b.c32((int32_t)idesc);
  auto tileLoop =
      scf::ForOp::create(b, first, numTiles, step, ValueRange{b.c32(0), b.c32(0)});
  b.setInsertionPointToStart(tileLoop.getBody());
  Value g0 = tileLoop.getRegionIterArgs()[0], j = tileLoop.getRegionIterArgs()[1];
  Value buf = b.remu(j, accs);
  // The epilogue has drained this buffer (a fresh barrier passes with parity 1).
  waitBarrier(b, accEmpty.at(b, buf), b.xori(b.remu(b.divu(j, accs), 2), b.c32(1)));
  fence(NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  Value d = tmemPtr(b.c32(0), b.mul(buf, bn));
  auto kLoop = scf::ForOp::create(b, b.c32(0), kTiles, b.c32(1), ValueRange{g0});
  {
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value k = kLoop.getInductionVar();
    Value g = kLoop.getRegionIterArgs()[0];
    auto [slot, fullParity, emptyParity] = ringPosition(b, g, stages);
    waitBarrier(b, full.at(b, slot), fullParity);
    fence(NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value aBase = slotA(slot), bBase = slotB(slot);
    Value notFirstSlice = b.ult(b.c32(0), k);
    Value yes = arith::ConstantIntOp::create(b, 1, 1);
    int64_t instrK = v.instr.getK();
    if (sf.on)
      issueScaledMmas(slot, d, notFirstSlice);
    for (int64_t kk = 0; !sf.on && kk < bk / instrK; ++kk) {
      // One instruction's K (16 of bf16, 32 of FP8) is 32 bytes along the swizzled K-major row.
      Value descA = descriptor(b.gep(aBase, b.c32(kk * 32)), descHighA);
      Value descB = descriptor(b.gep(bBase, b.c32(kk * 32)), descHighB);
      Value accumulate = kk == 0 ? notFirstSlice : yes;
      NVVM::Tcgen05MMAOp::create(b, v.row->tcgen05Kind, group(),
                                 NVVM::Tcgen05MMACollectorOp::DISCARD, false, d, descA, descB,
                                 idescV, accumulate, Value(), Value());
    }
    // The slot goes back to the producer(s) once these MMAs have read it.
    commit(empty.at(b, slot));
    scf::YieldOp::create(b, ValueRange{b.add(g, 1)});
  }
  // The tile's accumulator is complete once every MMA issued so far has.
  commit(accFull.at(b, buf));
  scf::YieldOp::create(b, ValueRange{kLoop.getResults()[0], b.add(j, 1)});
}

void Tcgen05Emitter::epilogue(Value first, Value step, Value numTiles, Value tilesM,
                              Value tilesN, Value kTiles) {
  Value warp = b.divu(tid, 32), lane = b.remu(tid, 32);
  // tcgen05.ld: warp w reaches TMEM lanes 32 * (w % 4) ... + 31, so warps 2, 3, 4, 5 own rows
  // 64-95, 96-127, 0-31, 32-63 of the CTA's 128.
  Value quarter = b.remu(warp, 4);
  Value laneBase = b.mul(quarter, 32);
  Value rowInCta = b.add(laneBase, lane);
  Value leader = b.eq(tid, 64); // the first epilogue thread issues the TMA stores
  Value betaNonZero = arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, beta, b.f32c(0.0));
  Value anyK = b.ult(b.c32(0), kTiles);
  auto tileLoop = scf::ForOp::create(b, first, numTiles, step, ValueRange{b.c32(0)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tileLoop.getBody());
    Value j = tileLoop.getRegionIterArgs()[0];
    auto [tm, tn] = rasterTile(b, v, tileLoop.getInductionVar(), tilesM, tilesN);
    Value m0 = b.add(b.mul(tm, bm), b.mul(rank, ctaRows));
    Value n0 = b.mul(tn, bn);
    Value buf = b.remu(j, accs);
    waitBarrier(b, accFull.at(b, buf), b.remu(b.divu(j, accs), 2));
    fence(NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    auto vecTy = VectorType::get({chunkCols}, b.i32());
    for (int64_t c = 0; c < chunks; ++c) {
      // With K = 0 no MMA wrote the buffer: the accumulator is zero.
      auto ifK = scf::IfOp::create(b, TypeRange{vecTy}, anyK, /*withElse=*/true);
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(&ifK.getThenRegion().front());
        Value ld = NVVM::Tcgen05LdOp::create(
            b, vecTy, false, NVVM::Tcgen05LdStShape::SHAPE_32X32B,
            tmemPtr(laneBase, b.add(b.mul(buf, bn), c * chunkCols)), Value());
        NVVM::Tcgen05WaitOp::create(b, NVVM::Tcgen05WaitKind::LOAD);
        scf::YieldOp::create(b, ValueRange{ld});
        b.setInsertionPointToStart(&ifK.getElseRegion().front());
        Value zero = arith::ConstantOp::create(
            b, vecTy, DenseElementsAttr::get(vecTy, b.getI32IntegerAttr(0).getValue()));
        scf::YieldOp::create(b, ValueRange{zero});
      }
      SmallVector<Value> vals;
      for (int64_t i = 0; i < chunkCols; ++i)
        vals.push_back(LLVM::BitcastOp::create(
            b, b.f32(), LLVM::ExtractElementOp::create(b, ifK.getResult(0), b.c32(i))));
      if (c == chunks - 1) {
        // The whole buffer is in registers: hand it back to the MMA (in the leader of a pair).
        fence(NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
        NVVM::SyncWarpOp::create(b, b.c32(-1));
        auto first = scf::IfOp::create(b, b.eq(lane, 0), false);
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(&first.getThenRegion().front());
        if (pair)
          NVVM::MBarrierArriveOp::create(b, Type(), leaderBarrier(accEmpty.at(b, buf)), Value(),
                                         NVVM::MemScopeKind::CLUSTER, false);
        else
          NVVM::MBarrierArriveOp::create(b, Type(), accEmpty.at(b, buf), Value());
      }
      auto ifBeta = scf::IfOp::create(b, betaNonZero, /*withElse=*/true);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(&ifBeta.getThenRegion().front());
      storeChunkDirect(vals, c, b.add(m0, rowInCta), n0);
      b.setInsertionPointToStart(&ifBeta.getElseRegion().front());
      storeChunkShared(vals, c, rowInCta, leader, m0, n0);
    }
    scf::YieldOp::create(b, ValueRange{b.add(j, 1)});
  }
  drainTmaStores(b, leader);
}


void Tcgen05Emitter::storeChunkShared(ArrayRef<Value> vals, int64_t chunk, Value row,
                                      Value leader, Value m0, Value n0) {
  // One buffer holds 128 rows x 128 bytes as the D tensor map's 128-byte swizzle wants them:
  // 16-byte piece x of row r at x ^ (r % 8). Thread r writes its row; before refilling a
  // buffer the leader waits until the TMA store that last read it has.
  int64_t outBytes = sizeInBytes(1, outType), perPiece = 16 / outBytes;
  int64_t bufBytes = ctaRows * 128;
  Value buffer = b.gep(epi, b.c32((chunk % epiBuffers) * bufBytes));
  Value barId = b.c32(1), threads = b.c32(128);
  auto write = [&] {
    auto pieceTy = VectorType::get({perPiece}, outType);
    Value rowMod = b.remu(row, 8), rowOffset = b.mul(row, 128);
    for (int64_t x = 0; x < 128 / 16; ++x) {
      Value piece = LLVM::UndefOp::create(b, pieceTy);
      for (int64_t e = 0; e < perPiece; ++e)
        piece = LLVM::InsertElementOp::create(
            b, piece,
            convertOut(b, outType, arith::MulFOp::create(b, alpha, vals[x * perPiece + e])),
            b.c32(e));
      Value offset = b.add(rowOffset, b.mul(b.xori(b.c32(x), rowMod), 16));
      LLVM::StoreOp::create(b, piece, b.gep(buffer, offset), 16);
    }
  };
  auto coords = [&]() -> SmallVector<Value, 2> { return {b.add(n0, chunk * chunkCols), m0}; };
  storeChunkThroughShared(b, {tmapD, buffer, leader, barId, threads, epiBuffers}, write,
                          coords);
}

void Tcgen05Emitter::storeChunkDirect(ArrayRef<Value> vals, int64_t chunk, Value row,
                                      Value n0) {
  // D = alpha * acc + beta * C for this thread's row, columns col0 ... col0 + chunkCols - 1:
  // 16-byte vectors when the chunk lies inside D (N is a multiple of 16 bytes, so they are
  // aligned), element by element at the edges.
  int64_t outBytes = sizeInBytes(1, outType), perPiece = 16 / outBytes;
  Value col0 = b.add(n0, chunk * chunkCols);
  Value rowOk = b.ult(row, M);
  Value inside = arith::AndIOp::create(b, rowOk, b.ult(b.add(col0, chunkCols - 1), N));
  Value rowStart = b.add(b.mul(b.zext64(row), b.zext64(N)), b.zext64(col0));
  auto scaled = [&](Value acc, Value c) -> Value {
    if (!outType.isF32())
      c = arith::ExtFOp::create(b, b.f32(), c);
    return arith::AddFOp::create(b, arith::MulFOp::create(b, alpha, acc),
                                 arith::MulFOp::create(b, beta, c));
  };
  auto ifInside = scf::IfOp::create(b, inside, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifInside.getThenRegion().front());
  auto pieceTy = VectorType::get({perPiece}, outType);
  for (int64_t x = 0; x < chunkCols / perPiece; ++x) {
    Value off = b.mul(b.add(rowStart, x * perPiece), outBytes);
    Value cVec = LLVM::LoadOp::create(b, pieceTy, b.gep(ptrC, off), 16);
    Value piece = LLVM::UndefOp::create(b, pieceTy);
    for (int64_t e = 0; e < perPiece; ++e) {
      Value c = LLVM::ExtractElementOp::create(b, cVec, b.c32(e));
      piece = LLVM::InsertElementOp::create(
          b, piece, convertOut(b, outType, scaled(vals[x * perPiece + e], c)), b.c32(e));
    }
    LLVM::StoreOp::create(b, piece, b.gep(ptrD, off), 16);
  }
  b.setInsertionPointToStart(&ifInside.getElseRegion().front());
  auto ifRow = scf::IfOp::create(b, rowOk, false);
  b.setInsertionPointToStart(&ifRow.getThenRegion().front());
  for (int64_t i = 0; i < chunkCols; ++i) {
    auto ifCol = scf::IfOp::create(b, b.ult(b.add(col0, i), N), false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifCol.getThenRegion().front());
    Value off = b.mul(b.add(rowStart, i), outBytes);
    Value c = LLVM::LoadOp::create(b, outType, b.gep(ptrC, off), outBytes);
    LLVM::StoreOp::create(b, convertOut(b, outType, scaled(vals[i], c)), b.gep(ptrD, off),
                          outBytes);
  }
}

LogicalResult Tcgen05Emitter::setUpScales() {
  tile::RingOp r = v.ring;
  const MmaInstr &row = *v.row;
  sf.on = true;
  switch (row.blockKind) {
  case NVVM::MMABlockScaleKind::MXF8F6F4:
    sf.kind = Tcgen05ScaledKind::MXF8F6F4;
    break;
  case NVVM::MMABlockScaleKind::MXF4:
    sf.kind = Tcgen05ScaledKind::MXF4;
    break;
  case NVVM::MMABlockScaleKind::MXF4NVF4:
    sf.kind = Tcgen05ScaledKind::MXF4NVF4;
    break;
  }
  sf.vec = row.scaleVec == 1 ? ScaleVec::X1 : row.scaleVec == 2 ? ScaleVec::X2 : ScaleVec::X4;
  if (bn % kScaleAtomRows != 0)
    return r.emitOpError() << "not supported yet: block scales with tile N = " << bn
                           << " on target " << v.target.name()
                           << " (a scale atom covers 128 columns of B; the tcgen05 lowering "
                              "takes tile N = 128 or 256)";
  int64_t atomK = kScaleAtomBlocks * row.scaleBlock; // K elements of one scale atom
  if (bk % atomK != 0)
    return r.emitOpError() << "not supported yet: K-slice of " << bk
                           << " elements with scale atoms of " << atomK << " (4 scales of "
                           << row.scaleBlock << "); the tcgen05 lowering copies whole atoms";
  sf.atomsK = bk / atomK;
  sf.atomsN = (bn + kScaleAtomRows - 1) / kScaleAtomRows;
  // The slot: A, B, then A's scale atoms (the CTA's 128 rows), then B's (the tile's N).
  sf.aOffset = bOffset + bRows * rowBytes;
  sf.bOffset = sf.aOffset + kScaleAtomBytes * sf.atomsK;
  sf.bytes = kScaleAtomBytes * sf.atomsK * (1 + sf.atomsN);
  if (sf.aOffset + sf.bytes > slotBytes)
    return r.emitOpError() << "slots of " << slotBytes << " bytes do not hold A, B and their "
                           << "scale atoms (" << sf.aOffset + sf.bytes << " bytes)";
  sf.colsPerStage = kScaleAtomColumns * sf.atomsK * (1 + sf.atomsN);
  sf.colBase = accs * bn;
  int64_t instrK = v.instr.getK();
  if (instrK != tcgen05ScaledK(sf.kind))
    return r.emitOpError() << "instruction K = " << instrK << " is not the K of "
                           << row.ptx << " (" << tcgen05ScaledK(sf.kind) << ")";
  for (int64_t i = 0; i < bk / instrK; ++i) {
    auto step = tcgen05ScaleStep(sf.kind, sf.vec, i);
    if (!step)
      return r.emitOpError() << llvm::toString(step.takeError());
    Tcgen05ScaledInstrDesc d;
    d.kind = sf.kind;
    d.aType = elemInfo(row.a).tcgen05;
    d.bType = elemInfo(row.b).tcgen05;
    d.scaleType = row.scaleElem == Elem::E8M0 ? ScaleElem::UE8M0 : ScaleElem::UE4M3;
    d.scaleVec = sf.vec;
    d.m = bm;
    d.n = bn;
    d.ctaGroup = pair ? 2 : 1;
    d.sfaId = d.sfbId = step->id;
    auto enc = encodeTcgen05ScaledInstrDesc(d);
    if (!enc)
      return r.emitOpError() << llvm::toString(enc.takeError());
    sf.idescs.push_back(*enc);
  }
  return success();
}

void Tcgen05Emitter::loadScales(Value slot, Value k, const ProducerUnit &unit, Value tmaBar,
                                NVVM::CTAGroupKindAttr tmaGroup) {
  // Box {16 bytes, 32 rows x atomsK, atoms}: the slice's atoms along K of one M atom (A) or of
  // the tile's N atoms (B), laid out atom after atom (B: N atom-major).
  auto cluster = [&](Value ptr) { return LLVM::AddrSpaceCastOp::create(b, b.ptr(7), ptr); };
  Value kRow = b.mul(k, 32 * sf.atomsK);
  Value mAtom = b.divu(unit.m0, kScaleAtomRows);
  // n0 is this CTA's half of B in a pair; the scales cover the tile's whole N.
  Value nAtom = b.divu(b.sub(unit.n0, b.mul(rank, bRows)), kScaleAtomRows);
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, cluster(b.gep(slot, b.c32(sf.aOffset))), sf.tmapA, ValueRange{b.c32(0), kRow, mAtom},
      tmaBar, ValueRange{}, Value(), Value(), NVVM::TMALoadMode::TILE, false, tmaGroup, Value());
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, cluster(b.gep(slot, b.c32(sf.bOffset))), sf.tmapB, ValueRange{b.c32(0), kRow, nAtom},
      tmaBar, ValueRange{}, Value(), Value(), NVVM::TMALoadMode::TILE, false, tmaGroup, Value());
}

void Tcgen05Emitter::issueScaledMmas(Value slot, Value d, Value notFirstSlice) {
  Value base = slotA(slot);
  // This stage's scale columns: A's atoms, then B's (for each atom along K, the N atoms side
  // by side, so that one MMA's B scales are 4 x atomsN consecutive columns).
  Value colA = b.add(b.c32(sf.colBase), b.mul(slot, sf.colsPerStage));
  Value colB = b.add(colA, kScaleAtomColumns * sf.atomsK);
  uint64_t copyHigh = llvm::cantFail(encodeTcgen05ScaleCopyDesc(0));
  auto copy = [&](int64_t smemOffset, Value column) {
    Value desc = descriptor(b.gep(base, b.c32(smemOffset)), copyHigh);
    NVVM::Tcgen05CpOp::create(b, NVVM::Tcgen05CpShape::SHAPE_32x128b, group(),
                              NVVM::Tcgen05CpMulticast::WARPX4, nullptr,
                              tmemPtr(b.c32(0), column), desc);
  };
  for (int64_t a = 0; a < sf.atomsK; ++a)
    copy(sf.aOffset + a * kScaleAtomBytes, b.add(colA, a * kScaleAtomColumns));
  for (int64_t n = 0; n < sf.atomsN; ++n)
    for (int64_t a = 0; a < sf.atomsK; ++a)
      copy(sf.bOffset + (n * sf.atomsK + a) * kScaleAtomBytes,
           b.add(colB, (a * sf.atomsN + n) * kScaleAtomColumns));
  NVVM::Tcgen05MMABlockScale blockScale = NVVM::Tcgen05MMABlockScale::DEFAULT;
  if (sf.kind != Tcgen05ScaledKind::MXF8F6F4)
    blockScale = sf.vec == ScaleVec::X4 ? NVVM::Tcgen05MMABlockScale::BLOCK16
                                        : NVVM::Tcgen05MMABlockScale::BLOCK32;
  Value yes = arith::ConstantIntOp::create(b, 1, 1);
  Value aBase = slotA(slot), bBase = slotB(slot);
  for (int64_t i = 0; i < (int64_t)sf.idescs.size(); ++i) {
    // Every kind reads 32 bytes of each K-major row per instruction.
    Value descA = descriptor(b.gep(aBase, b.c32(i * 32)), descHighA);
    Value descB = descriptor(b.gep(bBase, b.c32(i * 32)), descHighB);
    ScaleStep step = llvm::cantFail(tcgen05ScaleStep(sf.kind, sf.vec, i));
    Value scaleA = tmemPtr(b.c32(0), b.add(colA, step.atom * kScaleAtomColumns));
    Value scaleB =
        tmemPtr(b.c32(0), b.add(colB, step.atom * sf.atomsN * kScaleAtomColumns));
    NVVM::Tcgen05MMABlockScaleOp::create(
        b, v.row->blockKind, group(), blockScale, NVVM::Tcgen05MMACollectorOp::DISCARD, d,
        descA, descB, b.c32((int32_t)sf.idescs[i]), i == 0 ? notFirstSlice : yes, scaleA,
        scaleB);
  }
}

LogicalResult Tcgen05Emitter::emit() {
  tile::RingOp r = v.ring;
  bm = v.tileM(), bn = v.tileN(), bk = v.sliceK();
  stages = r.getSlots();
  slotBytes = r.getSlotBytes();
  bOffset = r.getBOffset();
  elemBytes = sizeInBytes(1, r.getAType());
  accs = v.accumulators.getCount();
  outType = v.epilogueOp.getOutType();
  // resolveGemm rejects what follows with the description's words; these guard the lowering
  // against a hand-written tile.pipeline.
  if (r.getALayout() != tile::Layout::Row || r.getBLayout() != tile::Layout::Col)
    return r.emitOpError() << "not supported yet: tcgen05 with a = "
                           << tile::stringifyLayout(r.getALayout())
                           << ", b = " << tile::stringifyLayout(r.getBLayout())
                           << " (the sm_100a lowering takes K-major operands: a = row, b = col)";
  if (v.epilogueOp.getOutLayout() != tile::Layout::Row)
    return v.epilogueOp.emitOpError()
           << "not supported yet: c = col on target " << v.target.name();
  ctaRows = r.getAShape()[0];
  bRows = r.getBShape()[0];
  // The plan's instruction names the CTA group; the verifier has checked the slices against it.
  int64_t ctaGroup = v.instr.getCtaGroup();
  pair = ctaGroup == 2;
  ArrayRef<int64_t> cluster = v.op.getCluster();
  if (ctaRows != 128)
    return r.emitOpError() << "not supported yet: tcgen05 with " << ctaRows
                           << " rows of A per CTA (tile M = " << bm
                           << "); the lowering takes 128 rows per CTA";
  if (cluster[0] != ctaGroup || cluster[1] != 1 || cluster[2] != 1)
    return v.op.emitOpError() << "not supported yet: cluster = [" << cluster[0] << ", "
                              << cluster[1] << ", " << cluster[2] << "] with cta_group = "
                              << ctaGroup << " (the tcgen05 lowering takes cluster = ["
                              << ctaGroup << ", 1, 1])";
  if (v.threads() != 192)
    return v.op.emitOpError() << "the tcgen05 lowering needs 192 threads (producer warp, MMA "
                                 "warp, epilogue warpgroup), not "
                              << v.threads();
  // Bits, not bytes: a K-slice of packed e2m1 is bk / 2 bytes; 6- and 4-bit operands of
  // kind::f8f6f4 and kind::mxf8f6f4 take one byte each in shared memory (TMA's 16U4_ALIGN16B /
  // 16U6_ALIGN16B padded form, PTX ISA 9.7.16.10.4.4), so their rows are bk bytes, read by the
  // same descriptors as FP8 rows. The full barrier counts the packed bytes TMA brings (txBytes).
  rowBytes = bk * smemElemBits(*v.row, v.row->a) / 8;
  padded = paddedSubByte(*v.row, v.row->a) || paddedSubByte(*v.row, v.row->b);
  txBytes = (ctaRows * elemBits(r.getAType()) + bRows * elemBits(r.getBType())) * bk / 8;
  Swizzle sw = rowBytes == 128 ? Swizzle::B128 : rowBytes == 64 ? Swizzle::B64 : Swizzle::B32;
  if (rowBytes != 32 && rowBytes != 64 && rowBytes != 128)
    return r.emitOpError() << "not supported yet: tcgen05 with K-slice rows of " << rowBytes
                           << " bytes (one swizzle span: 32, 64 or 128)";
  // A guard for hand-written pipelines (resolveGemm says it with the description's words).
  if (padded && bk != 128)
    return r.emitOpError() << "slice_k = " << bk << " with the 6- and 4-bit operands of "
                           << v.row->ptx << ": TMA's 16U4_ALIGN16B / 16U6_ALIGN16B boxes are "
                              "128 elements of K";
  auto check = [&](auto expected, uint64_t &out) -> LogicalResult {
    if (!expected)
      return r.emitOpError() << llvm::toString(expected.takeError());
    out = *expected;
    return success();
  };
  // K-major, swizzled: SBO = 8 rows of one swizzle span; LBO unused (encoded as 16 bytes).
  if (failed(check(encodeTcgen05SmemDesc(0, 16, 8 * rowBytes, sw), descHighA)) ||
      failed(check(encodeTcgen05SmemDesc(0, 16, 8 * rowBytes, sw), descHighB)))
    return failure();
  uint64_t id = 0;
  if (v.row->blockScaled) {
    if (failed(setUpScales()))
      return failure();
  } else if (v.row->tcgen05Kind == NVVM::Tcgen05MMAKind::F8F6F4) {
    if (failed(check(encodeTcgen05InstrDescF8F6F4(v.row->tcgen05A, v.row->tcgen05B,
                                                  MmaElem::F32, bm, bn, ctaGroup),
                     id)))
      return failure();
  } else if (failed(check(encodeTcgen05InstrDescF16(v.row->tcgen05A, MmaElem::F32, bm, bn,
                                                    ctaGroup),
                          id))) {
    return failure();
  }
  idesc = (uint32_t)id;
  uint64_t cols = 0;
  int64_t scaleCols = sf.on ? stages * sf.colsPerStage : 0;
  if (accs * bn + scaleCols > kTmemColumns)
    return r.emitOpError() << "tensor memory: " << accs << " accumulator(s) x N = " << bn
                           << " + " << stages << " stages x " << sf.colsPerStage
                           << " scale columns = " << accs * bn + scaleCols << " columns > "
                           << kTmemColumns << " (use fewer stages or accumulators)";
  if (failed(check(tmemAllocColumns(accs * bn + scaleCols), cols)))
    return failure();
  tmemCols = cols;
  int64_t outBytes = sizeInBytes(1, outType);
  chunkCols = 128 / outBytes;
  if (bn % chunkCols != 0)
    return r.emitOpError() << "tile N = " << bn << " of " << outType
                           << " is not a whole number of 128-byte column chunks";
  chunks = bn / chunkCols;
  // Buffers in turn across tiles too: their count must divide the chunks of a tile, or the
  // next tile's first chunk would refill a buffer its last TMA store may still be reading.
  epiBuffers = std::gcd<int64_t>(
      std::max<int64_t>(1, v.epilogueOp.getSmemBytes() / (ctaRows * 128)), chunks);
  if (v.epilogueOp.getSmemBytes() < uint64_t(ctaRows) * 128)
    return v.epilogueOp.emitOpError() << "the tcgen05 epilogue needs " << ctaRows * 128
                                      << " bytes of shared memory, not "
                                      << v.epilogueOp.getSmemBytes();

  b.setInsertionPointToEnd(module.getBody());
  Type i32 = b.i32();
  SmallVector<KernelParam> params =
      tmaKernelParams(b, v, TmaBoxes{bk, ctaRows, bRows, chunkCols, ctaRows});
  unsigned scaleParams = 0;
  if (sf.on)
    scaleParams = appendBlockScaleParams(b, v, params, sf.atomsK, 1, sf.atomsN);
  else
    scaleParams = appendScaleParams(b, v, params);
  LLVM::LLVMFuncOp func = createKernel(b, v, params);
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));
  if (pair) {
    // The grid rule counts CTAs: a pair's 256-row tile is two 128-row CTA tiles. The kernel
    // loops over the pair's tiles, so any grid is correct; this one gives about one per pair.
    func->setAttr("tilegen.tile", b.getDenseI64ArrayAttr({ctaRows, bn}));
  }
  addTmaConstraints(func, elemBits(r.getAType()), elemBits(outType), padded);
  Block &entry = func.getBody().front();
  tmapA = entry.getArgument(0), tmapB = entry.getArgument(1), tmapD = entry.getArgument(2),
  ptrC = entry.getArgument(3), ptrD = entry.getArgument(4), M = entry.getArgument(5),
  N = entry.getArgument(6), K = entry.getArgument(7), alpha = entry.getArgument(8),
  beta = entry.getArgument(9);

  tid = NVVM::ThreadIdXOp::create(b, i32);
  alpha = scaleArguments(b, v, entry, alpha, scaleParams, sf.on, sf.tmapA, sf.tmapB);
  Value warp = b.divu(tid, 32);
  Value smem = dynamicSmemBase(b, module);
  ring = b.gep(smem, b.c32(r.getOffset()));
  epi = b.gep(smem, b.c32(v.epilogueOp.getOffset()));
  Value barBase = b.gep(smem, b.c32(r.getBarrierOffset()));
  full = Barriers{barBase};
  empty = Barriers{b.gep(barBase, b.c32(8 * stages))};
  accFull = Barriers{b.gep(barBase, b.c32(16 * stages))};
  accEmpty = Barriers{b.gep(barBase, b.c32(16 * stages + 8 * accs))};
  rank = pair ? (Value)NVVM::ClusterId::create(b, i32) : b.c32(0);

  // Set-up: thread 0 initialises the barriers; warp 1 allocates TMEM and writes its address to
  // the first word of the epilogue buffer (dead once everyone has read it: a second barrier
  // separates the reads from the epilogue's first writes).
  SmallVector<BarrierInit> inits;
  for (int64_t s = 0; s < stages; ++s) {
    inits.push_back({full, s, 1});
    inits.push_back({empty, s, 1});
  }
  for (int64_t a = 0; a < accs; ++a) {
    inits.push_back({accFull, a, 1});
    // One arrival per epilogue warp, of both CTAs in a pair (the leader's is the one used).
    inits.push_back({accEmpty, a, 4 * ctaGroup});
  }
  SmallVector<Value> maps{tmapA, tmapB, tmapD};
  if (sf.on)
    maps.append({sf.tmapA, sf.tmapB});
  // Every barrier of both CTAs of a pair is initialised before either CTA signals the other's.
  setupBarriers(b, tid, inits, /*cluster=*/pair, [&] {
    {
      auto alloc = scf::IfOp::create(b, b.eq(warp, 1), false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&alloc.getThenRegion().front());
      NVVM::Tcgen05AllocOp::create(b, epi, b.c32(tmemCols), group());
      NVVM::Tcgen05RelinquishAllocPermitOp::create(b, group());
    }
    fence(NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    NVVM::Barrier0Op::create(b);
    fence(NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    tmem = LLVM::LoadOp::create(b, i32, epi, 4);
  }, maps);

  Value tilesM = b.ceilDiv(M, bm), tilesN = b.ceilDiv(N, bn);
  Value numTiles = b.mul(tilesM, tilesN), kTiles = b.ceilDiv(K, bk);
  Value bid = NVVM::BlockIdXOp::create(b, i32), grid = NVVM::GridDimXOp::create(b, i32);
  // A pair shares its tile sequence: cluster c of the 1-D grid takes tiles c, c + clusters...
  Value first = b.divu(bid, ctaGroup), step = b.divu(grid, ctaGroup);
  auto isProducer = scf::IfOp::create(b, b.eq(warp, 0), true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&isProducer.getThenRegion().front());
    producer(first, step, numTiles, tilesM, tilesN, kTiles);
    b.setInsertionPointToStart(&isProducer.getElseRegion().front());
    auto isMma = scf::IfOp::create(b, b.eq(warp, 1), true);
    b.setInsertionPointToStart(&isMma.getThenRegion().front());
    {
      // In a pair only the leader issues; the peer's MMA warp just holds its TMEM.
      OpBuilder::InsertionGuard g2(b);
      if (pair) {
        auto lead = scf::IfOp::create(b, b.eq(rank, 0), false);
        b.setInsertionPointToStart(&lead.getThenRegion().front());
      }
      mmaIssuer(first, step, numTiles, kTiles);
    }
    b.setInsertionPointToStart(&isMma.getElseRegion().front());
    epilogue(first, step, numTiles, tilesM, tilesN, kTiles);
  }
  // Teardown: every TMEM read and remote arrival is done before warp 1 frees the columns.
  NVVM::SyncWarpOp::create(b, b.c32(-1));
  fence(NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  syncCtaOrCluster(b, /*cluster=*/pair);
  {
    auto dealloc = scf::IfOp::create(b, b.eq(warp, 1), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&dealloc.getThenRegion().front());
    fence(NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    NVVM::Tcgen05DeallocOp::create(b, tmemPtr(b.c32(0), b.c32(0)), b.c32(tmemCols), group());
  }
  LLVM::ReturnOp::create(b, ValueRange{});
  return success();
}

LogicalResult lowering::lowerTcgen05(PipelineView &view, ModuleOp module) {
  Tcgen05Emitter emitter(view, module);
  return emitter.emit();
}
