//===- SM90.cpp - the wgmma lowering (sm_90a) -----------------------------===//
//
// Warp-specialised: warpgroup 0 is the producer (registers given back with setmaxnreg; its
// thread 0 issues every TMA load), warpgroups 1 and 2 are consumers that issue wgmma.mma_async
// from shared-memory descriptors with their accumulators in registers, then run the epilogue.
//
// The ring (the producer side is Common.h's emitTmaProducer): S slots, each one K-slice of A
// (BM x BK) and B (BN x BK), both K-major as TMA writes them with the 128/64/32-byte swizzle of
// one row. Per slot a full barrier (the producer's arrive.expect_tx with the slot's byte count;
// TMA completes the transaction) and an empty barrier (one arrival per consumer warpgroup that
// reads the slot). Slice g of the CTA's sequence lives in slot g mod S; consumers wait on full
// with parity (g / S) & 1 (ringPosition).
//
// accumulators = 1 (cooperative): both consumers work on every tile, each on half the rows.
// accumulators = 2 (ping-pong): consumer c takes the CTA's tiles c, c + 2, ...; the other's
// epilogue overlaps its MMAs. A consumer keeps one wgmma batch in flight: after committing
// slice g it waits for slice g - 1's batch and only then releases that slot.
//
// Clusters (cluster [X, Y, 1], X and Y 1 or 2; multicast = b along M, a along N, ab for both):
// the CTA of rank r = x + X y takes tile (X u + x, Y v + y) of its cluster's unit (u, v). The
// CTAs of a cluster row (same x) share A's rows, those of a cluster column (same y) B's: each
// loads part y of A and part x of B and multicasts it into every CTA sharing it
// (TmaPairing::Multicast), so a slot is written by up to three producers (its own, its row's
// and its column's) and is released in each of those CTAs.
//
// grid = stream_k (StreamK.h, StreamK.cpp): whole tiles in the persistent order for the full
// waves; the K-slices of the tiles left, when they fill at most half a wave, are split over
// the CTAs (with no full wave, every tile in the same whole number of parts), and the CTA
// holding a tile's first slice adds the others' f32 partial tiles before the epilogue.
//
// upcast (MXFP4 B beside bf16 A): the ring carries B packed as FP4, its E8M0 scales stay in
// global memory. Warps 1 to 3 of the producer warpgroup (the converter; warp 0 issues the
// TMA loads) convert each slice into a second ring of bf16 slices of B laid out as a bf16
// slot's B, so that the consumers' wgmmas and descriptors are the bf16 kernel's and the
// conversion runs beside the tensor core instead of in front of it (converter() says how).
//
// Epilogue (beta = 0): the accumulators, scaled and converted, go to a 128-byte-swizzled staging
// buffer (stmatrix for 16-bit outputs; two buffers per consumer warpgroup, used in turn) and
// from there to D by TMA stores (Common.h's storeChunkThroughShared); beta != 0 reads C and
// stores D from the registers.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "StreamK.h"
#include "tilegen/Pipeline/GemmPlan.h"
#include "tilegen/Support/UpcastBits.h"
#include "tilegen/Target/Descriptors.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace tilegen;
using namespace tilegen::lowering;

namespace {
class WgmmaEmitter {
public:
  WgmmaEmitter(PipelineView &view, ModuleOp module)
      : v(view), module(module), b(view.op.getLoc(), module.getContext()) {}
  LogicalResult emit();

private:
  void producer(Value bid, Value grid, Value numTiles, Value tilesM, Value tilesN, Value kTiles);
  /// Block scales: warp 1 of the producer warpgroup copies each slice's scales into its slot.
  void scaleLoader(Value bid, Value grid, Value numTiles,
                   llvm::function_ref<ProducerUnit(Value)> unitOf);
  void consumer(Value c, Value bid, Value grid, Value numTiles, Value tilesM, Value tilesN,
                Value kTiles);
  Value slotA(Value slot) { return b.gep(ring, b.mul(slot, slotBytes)); }
  Value slotB(Value slot) { return b.gep(slotA(slot), b.c32(bOffset)); }
  /// `x` (i32) as lane 0 of the warp has it: visibly warp-uniform to ptxas.
  Value uniform(Value x);
  /// wgmma descriptor of the 8-row-group-aligned sub-tile at `ptr`.
  Value descriptor(Value ptr);
  Value zeroAccumulator();
  using SliceFn =
      llvm::function_ref<SmallVector<Value>(SmallVector<Value>, Value, bool, bool)>;
  /// Promoted accumulation (block scales, or FP8 with accumulation = promoted): the K-slices
  /// [kb, ke) of one tile, issued K block by K block into a second set of accumulators and
  /// promoted into the first while the next block's wgmmas run; returns the accumulators and
  /// the next g. The last block's slot is released.
  SmallVector<Value> promotedSlices(SliceFn slice, llvm::function_ref<void(Value)> release,
                                    Value g0, Value kb, Value ke, Value m0, Value n0,
                                    Value rowOff, Value warp, Value lane);
  void storeThroughShared(ArrayRef<Value> values, Value c, Value warp, Value lane, Value leader,
                          Value m0, Value n0, Value rowOff);

  PipelineView &v;
  ModuleOp module;
  KernelBuilder b;
  Value tmapA, tmapB, tmapD, ptrC, ptrD, M, N, K, alpha, beta, tid, ring, epilogue;
  Value scaleA, scaleB; ///< block scales: f32 device pointers (docs/manifest.md)
  Barriers full, empty, turn; ///< turn: ping-pong's MMA order between the two consumers
  int64_t bm = 0, bn = 0, bk = 0, stages = 0, slotBytes = 0, bOffset = 0, elemBytes = 2;
  int64_t consumers = 2, rowsPerConsumer = 0, mBlocks = 0;
  /// Bytes of one staged column chunk of D (128, 64 or 32): the widest that divides a row of
  /// the tile, or narrower where the plan sized the staging for narrower columns to fit the
  /// ring (two buffers of rowsPerConsumer rows per consumer warpgroup).
  int64_t epilogueChunk = 0;
  bool pingPong = false;
  /// upcast: the ring carries B packed (FP4); the converter turns each slice, its E8M0
  /// scales applied, into slot g mod convertSlots of the converted ring at `convert`, with
  /// full / empty barriers convFull / convEmpty (converter()).
  bool upcast = false;
  /// MXFP8 x MXFP8: A is carried as FP8 too, and each converted slot holds the bf16 A slice
  /// before the bf16 B slice (converterFp8()).
  bool upcastA = false;
  /// NVFP4 weights: E4M3 scales per 16 elements of K (else E8M0 per 32).
  bool nvfp4 = false;
  Value convert;
  Barriers convFull, convEmpty;
  int64_t convertSlots = 0, convSlotBytes = 0;
  Value convSlot(Value slot) { return b.gep(convert, b.mul(slot, convSlotBytes)); }
  void converter(Value bid, Value grid, Value numTiles, Value tilesM, Value tilesN,
                 Value kTiles);
  /// The upcast of FP4 B in registers: the consumers' K loop and transposed epilogue.
  void consumerRegisters(Value c, Value bid, Value grid, Value numTiles, Value tilesM,
                         Value tilesN, Value kTiles);
  /// An E8M0 (E4M3 with NVFP4) block-scale code as the bf16x2 factor of UpcastBits.h; with
  /// `folded` (NVFP4 only), the scale x 2^118 that replaces steps 4 and 5.
  Value blockScale(Value code, bool folded = false);
  /// One 32-bit word of packed FP4 (eight elements, element 2i in the low nibble of byte i)
  /// as four bf16x2 words by UpcastBits.h's steps, bf16x2 word j scaled by scaleOf(j); with
  /// `folded`, scaleOf(j) is a factor that includes step 4's 2^126 and replaces steps 4 and 5
  /// (E8M0: foldedScaleBits; NVFP4: blockScale(code, true), the scale x 2^118).
  SmallVector<Value, 4> fp4ToBf16(Value word, llvm::function_ref<Value(unsigned)> scaleOf,
                                  bool folded = false);
  /// fp4ToBf16's steps before the multiplies: the four bf16x2 words of `word` holding the
  /// E2M1 values times 2^-126.
  SmallVector<Value, 4> fp4Decode(Value word);
  /// fp4ToBf16's multiplies of one decoded word `x`: by 2^126 and `scale`, or with `folded` by
  /// the factor `scale` alone.
  Value fp4Scale(Value x, Value scale, bool folded);
  /// The upcast in registers: the producer warpgroup's warp 1 copies each slice's E8M0 scale
  /// codes into its slot after B (ringAsyncCopyWarp); with E4M3 codes its warps 1 and 2
  /// write the consumers' bf16x2 factors instead (ringCopyWarp).
  void codeLoader(Value bid, Value grid, Value numTiles,
                  llvm::function_ref<ProducerUnit(Value)> unitOf);
  /// Warp 1 of the producer warpgroup (`warps` = 2: warps 1 and 2, lanes numbered across
  /// them) walks the producer's slices: `slice` (unit, slice k, its ring slot, the slot's
  /// empty parity, lane) for each, then `tail` (may be empty) in the warps' branch.
  void ringWalk(Value bid, Value grid, Value numTiles,
                llvm::function_ref<ProducerUnit(Value)> unitOf, int64_t warps,
                llvm::function_ref<void(const ProducerUnit &, Value, Value, Value, Value)> slice,
                llvm::function_ref<void()> tail = {});
  /// ringWalk for `warps` warps: `loads` (unit, slice k, lane) issues its global loads,
  /// then it waits for the slot to be released, `stores` (the slot's area after B, the loaded
  /// values, lane) writes them, and every lane arrives on the slot's full barrier.
  void ringCopyWarp(
      Value bid, Value grid, Value numTiles, llvm::function_ref<ProducerUnit(Value)> unitOf,
      llvm::function_ref<SmallVector<Value>(const ProducerUnit &, Value, Value)> loads,
      llvm::function_ref<void(Value, ArrayRef<Value>, Value)> stores, int64_t warps);
  /// ringWalk for warp 1: it waits for the slot to be released, `copies` (unit, slice k, the
  /// slot's B, lane) issues the lane's cp.async copies into it, and every lane's
  /// cp.async.mbarrier.arrive.noinc arrives on the slot's full barrier once its copies have
  /// landed; the warp goes on to the next slot at once.
  void ringAsyncCopyWarp(
      Value bid, Value grid, Value numTiles, llvm::function_ref<ProducerUnit(Value)> unitOf,
      llvm::function_ref<void(const ProducerUnit &, Value, Value, Value)> copies);
  /// Warps of the producer warpgroup that arrive on a full slot besides the TMA producer
  /// (codeLoader): one for E8M0 codes (asynchronous copies), two for E4M3 (at most one lane
  /// per row of the tile), so that a lane's codes of a slice and their factors fit the
  /// producer's 40 registers.
  int64_t codeWarps() const { return nvfp4 ? std::min<int64_t>(2, bn / 32) : 1; }
  /// The upcast converts B in the consumers' registers (no converter, no converted ring).
  bool regUpcast = false;
  void converterFp8(Value bid, Value grid, Value numTiles, Value tilesM, Value tilesN,
                    Value kTiles);
  /// The converters' K loop over `unit`'s slices, g0 the first slice's sequence number: the
  /// scale codes of slice k + 1 loaded while slice k converts (carried by the loop), the waits
  /// on ring slot g mod S (full) and converted slot g mod C (empty), `convertSlice` (the ring
  /// slot, the converted slot, slice k's codes), then the proxy fence and this thread's arrival
  /// on the converted slot's full barrier. Returns the sequence number after the last slice.
  Value convertSlices(Value g0, StreamK::Unit unit,
                      llvm::function_ref<SmallVector<Value>(Value)> loadCodes,
                      llvm::function_ref<void(Value, Value, ArrayRef<Value>)> convertSlice);
  /// The cluster's extent along M (CTAs sharing B) and N (CTAs sharing A); `clustered`: more
  /// than one CTA (the ring's slots are multicast into).
  int64_t clusterX = 1, clusterY = 1;
  bool clustered = false;
  /// The CTAs whose producers write this CTA's slots, as rank ^ i for i < writers (this CTA,
  /// its cluster column's peer 1, its cluster row's peer X): each consumer release goes to them.
  int64_t writers() const { return 1 + (clusterX > 1) + (clusterY > 1); }
  /// The tile of the cluster's unit (unitM, unitN) this CTA computes.
  std::pair<Value, Value> clusterTile(Value unitM, Value unitN);
  /// grid = stream_k: whole tiles in the persistent order, then the K-slices of a short last
  /// wave split over the CTAs (StreamK.cpp).
  StreamK streamK{b};
  using Unit = StreamK::Unit;
  Value rank;                ///< the CTA's rank in its cluster (0 without clusters)
  uint64_t descHigh = 0; ///< descriptor bits other than the start address
  Type outType, accStruct;
  /// Block scales copied into the ring by the scale loader (two-set tiles; scaleLoader).
  bool scalesInRing = false;
};
} // namespace

std::pair<Value, Value> WgmmaEmitter::clusterTile(Value unitM, Value unitN) {
  if (!clustered)
    return {unitM, unitN};
  if (clusterY == 1)
    return {b.add(b.mul(unitM, clusterX), rank), unitN};
  Value x = clusterX == 1 ? b.c32(0) : b.remu(rank, clusterX);
  Value y = clusterX == 1 ? rank : b.divu(rank, clusterX);
  return {b.add(b.mul(unitM, clusterX), x), b.add(b.mul(unitN, clusterY), y)};
}

Value WgmmaEmitter::descriptor(Value ptr) { return smemDescriptor(b, ptr, descHigh); }

Value WgmmaEmitter::uniform(Value x) {
  return NVVM::ShflOp::create(b, b.i32(), b.c32(-1), x, b.c32(0), b.c32(0x1f),
                              NVVM::ShflKind::idx, UnitAttr());
}

Value WgmmaEmitter::zeroAccumulator() {
  Value acc = LLVM::UndefOp::create(b, accStruct);
  Value zero = b.f32c(0.0);
  for (int64_t i = 0; i < bn / 2; ++i)
    acc = LLVM::InsertValueOp::create(b, acc, zero, i);
  return acc;
}

void WgmmaEmitter::producer(Value bid, Value grid, Value numTiles, Value tilesM, Value tilesN,
                            Value kTiles) {
  NVVM::SetMaxRegisterOp::create(b, v.producer.getRegs(), NVVM::SetMaxRegisterAction::decrease);
  auto unit = [&](Value u) {
    Unit unit = streamK.unitAt(u, kTiles);
    auto [unitM, unitN] = rasterTile(b, v, unit.tile, tilesM, tilesN);
    auto [tm, tn] = clusterTile(unitM, unitN);
    Value m0 = b.mul(tm, bm), n0 = b.mul(tn, bn);
    return ProducerUnit{unit.kb, unit.ke, m0, n0};
  };
  int64_t bBytes = upcast ? sizeInBytes(bn * bk, v.ring.getBType()) : bn * bk * elemBytes;
  int64_t aBytes = upcastA ? sizeInBytes(bm * bk, v.ring.getAType()) : bm * bk * elemBytes;
  TmaProducer p{b.eq(tid, 0), bid, numTiles, grid, unit, full, empty, stages, ring, slotBytes,
                bOffset, tmapA, tmapB, bk, bk * elemBytes, aBytes + bBytes};
  // The packed FP4 B is a byte tensor to TMA: two elements of K per byte.
  if (upcast && elemBits(v.ring.getBType()) == 4)
    p.bKDivisor = 2;
  if (clustered) {
    p.pairing = TmaPairing::Multicast;
    p.rank = rank;
    p.clusterX = clusterX, p.clusterY = clusterY;
    p.aRows = bm, p.bRows = bn;
    // The peer's consumers release this CTA's slots (remote arrivals): the producer waits for
    // every release before the CTA may leave (see the closing barrier in emit()).
    p.drain = true;
  }
  p.cacheA = v.ring.getCacheA();
  p.cacheB = v.ring.getCacheB();
  emitTmaProducer(b, p);
  // upcast: warps 1 to 3 convert. (No shfl.sync here to make the condition visibly uniform:
  // warp 0's lanes 1 to 31 would wait in it for lane 0 to leave the TMA loop.)
  if (upcast && !regUpcast) {
    auto conv = scf::IfOp::create(b, b.ult(b.c32(31), tid), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&conv.getThenRegion().front());
    if (upcastA)
      converterFp8(bid, grid, numTiles, tilesM, tilesN, kTiles);
    else
      converter(bid, grid, numTiles, tilesM, tilesN, kTiles);
  }
  if (scalesInRing)
    scaleLoader(bid, grid, numTiles, unit);
  if (regUpcast)
    codeLoader(bid, grid, numTiles, unit);
}

// The block scales of the upcast in registers reach the consumers through the ring, as the
// block scales of two-set FP8 tiles do (scaleLoader): the producer warpgroup's warps besides
// the TMA producer follow the producer's sequence of slices and put the scales of slice k
// (byte (k blocks + q) x N + n of scale_b for row n of the tile and block q of the slice) into
// the slot after B once it is released; the slot's full barrier counts their lanes' arrivals
// besides the producer's with the TMA bytes. E8M0: warp 1 copies the codes as they lie in
// global memory, block q's bn codes at byte q bn (the consumers load a row's code of each block
// with a byte load), four bytes per cp.async (a chunk past N reads the last chunk, a block past
// K the last block), and each lane arrives when its copies have landed
// (ringAsyncCopyWarp): the warp runs as far ahead as the ring's free slots, as the TMA
// producer does (MXFP4 1.03x at 4096^3 and within 1% elsewhere against plain loads one slice
// ahead and shared stores, on an H100: bench/RESULTS.md, 2026-12-06). E4M3: warps 1 and 2
// turn each code into the bf16x2 factor the consumers multiply by, row n's four at byte 16 n
// (one 16-byte shared load per row), so that the decode (a prmt, a shift, a mask and two
// multiplies) runs once per code rather than in each of the four consumer threads that read a
// row (NVFP4 about 2% faster on an H100), with plain loads and shared stores (ringCopyWarp).
// The same for E8M0 (folded factors, or the scales and a flag, chosen by a vote of one writer
// warp) ran MXFP4 6-10% slower than the consumers' decode: the writer fell behind
// (bench/RESULTS.md, 2026-12-06).
void WgmmaEmitter::ringWalk(
    Value bid, Value grid, Value numTiles, llvm::function_ref<ProducerUnit(Value)> unitOf,
    int64_t warps,
    llvm::function_ref<void(const ProducerUnit &, Value, Value, Value, Value)> slice,
    llvm::function_ref<void()> tail) {
  Value w = b.divu(tid, 32);
  Value inWarps = warps == 1 ? b.eq(w, 1) : b.andi(b.ult(b.c32(0), w), b.ult(w, 1 + warps));
  auto loader = scf::IfOp::create(b, inWarps, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&loader.getThenRegion().front());
  Value lane = warps == 1 ? b.remu(tid, 32) : b.sub(tid, b.c32(32)); // 0 ... 32 warps - 1
  auto tileLoop = scf::ForOp::create(b, bid, numTiles, grid, ValueRange{b.c32(0)});
  {
    OpBuilder::InsertionGuard g1(b);
    b.setInsertionPointToStart(tileLoop.getBody());
    ProducerUnit unit = unitOf(tileLoop.getInductionVar());
    auto kLoop = scf::ForOp::create(b, unit.kb, unit.ke, b.c32(1),
                                    ValueRange{tileLoop.getRegionIterArgs()[0]});
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value g = kLoop.getRegionIterArgs()[0];
    auto [slot, fullParity, emptyParity] = ringPosition(b, g, stages);
    slice(unit, kLoop.getInductionVar(), slot, emptyParity, lane);
    scf::YieldOp::create(b, ValueRange{b.add(g, 1)});
    b.setInsertionPointAfter(kLoop);
    scf::YieldOp::create(b, ValueRange{kLoop.getResult(0)});
  }
  if (tail)
    tail();
}

void WgmmaEmitter::ringCopyWarp(
    Value bid, Value grid, Value numTiles, llvm::function_ref<ProducerUnit(Value)> unitOf,
    llvm::function_ref<SmallVector<Value>(const ProducerUnit &, Value, Value)> loads,
    llvm::function_ref<void(Value, ArrayRef<Value>, Value)> stores, int64_t warps) {
  ringWalk(bid, grid, numTiles, unitOf, warps,
           [&](const ProducerUnit &unit, Value k, Value slot, Value emptyParity, Value lane) {
             // The loads first (their latency overlaps the wait for the slot), the stores
             // once the slot is free.
             SmallVector<Value> values = loads(unit, k, lane);
             waitBarrier(b, empty.at(b, slot), emptyParity);
             stores(slotB(slot), values, lane);
             // Every lane releases its own stores with its own arrival (compute-sanitizer's
             // racecheck does not count a warp barrier before one lane's arrival as ordering
             // the other lanes' stores, though the memory model does).
             NVVM::MBarrierArriveOp::create(b, Type(), full.at(b, slot), Value());
           });
}

void WgmmaEmitter::ringAsyncCopyWarp(
    Value bid, Value grid, Value numTiles, llvm::function_ref<ProducerUnit(Value)> unitOf,
    llvm::function_ref<void(const ProducerUnit &, Value, Value, Value)> copies) {
  ringWalk(
      bid, grid, numTiles, unitOf, /*warps=*/1,
      [&](const ProducerUnit &unit, Value k, Value slot, Value emptyParity, Value lane) {
        waitBarrier(b, empty.at(b, slot), emptyParity);
        copies(unit, k, slotB(slot), lane);
        // noinc: the arrival is one of the barrier's expected count (not an extra pending one).
        NVVM::CpAsyncMBarrierArriveOp::create(b, full.at(b, slot), /*noinc=*/true);
      },
      [&] {
        // Nothing of this warp's copies is still in flight when it leaves (the consumers'
        // waits on the full barriers order them already; this keeps the warp's own exit
        // clean).
        NVVM::CpAsyncCommitGroupOp::create(b);
        NVVM::CpAsyncWaitGroupOp::create(b, 0);
      });
}

void WgmmaEmitter::codeLoader(Value bid, Value grid, Value numTiles,
                              llvm::function_ref<ProducerUnit(Value)> unitOf) {
  const int64_t blocksPerSlice = nvfp4 ? 4 : 2;
  Value lastBlk = b.sub(b.ceilDiv(K, nvfp4 ? 16 : 32), b.c32(1));
  auto blockRow = [&](Value k, int64_t q) { // scale_b's codes of block q of slice k
    Value blk = b.minu(b.add(b.mul(k, blocksPerSlice), q), lastBlk);
    return b.gep(scaleB, arith::MulIOp::create(b, b.zext64(blk), b.zext64(N)));
  };
  if (!nvfp4) {
    // E8M0: bn codes per block, four per copy (N is a multiple of 8, so a chunk is wholly
    // inside or wholly past N; one past N reads the last chunk's).
    const int64_t chunksPerBlock = bn / 4, chunks = blocksPerSlice * chunksPerBlock;
    Value lastChunk = b.sub(N, b.c32(4));
    auto ca = NVVM::LoadCacheModifierKindAttr::get(b.getContext(),
                                                    NVVM::LoadCacheModifierKind::CA);
    auto copies = [&](const ProducerUnit &unit, Value k, Value slotOfB, Value lane) {
      Value area = b.gep(slotOfB, b.c32(bn * bk / 2));
      for (int64_t c0 = 0; c0 < chunks; c0 += 32) {
        auto body = [&] {
          Value c = b.add(lane, c0);
          Value q = b.divu(c, chunksPerBlock), col = b.mul(b.remu(c, chunksPerBlock), 4);
          // q takes two values at most; select between the two block rows.
          Value row = blockRow(k, 0);
          for (int64_t qq = 1; qq < blocksPerSlice; ++qq)
            row = b.select(b.eq(q, qq), blockRow(k, qq), row);
          Value n = b.minu(b.add(unit.n0, col), lastChunk);
          NVVM::CpAsyncOp::create(b, b.gep(area, b.add(b.mul(q, bn), col)),
                                  b.gep(row, b.zext64(n)), b.getI32IntegerAttr(4), ca,
                                  Value());
        };
        if (c0 + 32 <= chunks) {
          body();
        } else {
          auto part = scf::IfOp::create(b, b.ult(b.add(lane, c0), b.c32(chunks)), false);
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(&part.getThenRegion().front());
          body();
        }
      }
    };
    ringAsyncCopyWarp(bid, grid, numTiles, unitOf, copies);
    return;
  }
  // E4M3: the consumers' bf16x2 factors (blockScale(code, true)), computed here once per
  // code instead of once in each of the four consumer threads that read a row, a row's four
  // words together.
  const int64_t lanes = 32 * codeWarps(), rowsPerLane = bn / lanes;
  Value lastN = b.sub(N, b.c32(1));
  auto loads = [&](const ProducerUnit &unit, Value k, Value lane) {
    SmallVector<Value> codes; // codes[q * rowsPerLane + j]: block q of row lane + lanes j
    for (int64_t q = 0; q < blocksPerSlice; ++q) {
      Value row = blockRow(k, q);
      for (int64_t j = 0; j < rowsPerLane; ++j) {
        Value col = b.zext64(b.minu(b.add(unit.n0, b.add(lane, lanes * j)), lastN));
        codes.push_back(LLVM::LoadOp::create(b, b.getI8Type(), b.gep(row, col), 1));
      }
    }
    return codes;
  };
  auto v4i32 = VectorType::get({4}, b.i32());
  auto stores = [&](Value slotOfB, ArrayRef<Value> codes, Value lane) {
    Value area = b.gep(slotOfB, b.c32(bn * bk / 2));
    for (int64_t j = 0; j < rowsPerLane; ++j) {
      Value words = LLVM::UndefOp::create(b, v4i32);
      for (int64_t q = 0; q < blocksPerSlice; ++q) {
        Value code = arith::ExtUIOp::create(b, b.i32(), codes[q * rowsPerLane + j]);
        Value f = LLVM::BitcastOp::create(b, b.i32(), blockScale(code, /*folded=*/true));
        words = LLVM::InsertElementOp::create(b, words, f, b.c32(q));
      }
      LLVM::StoreOp::create(b, words, b.gep(area, b.mul(b.add(lane, lanes * j), 16)), 16);
    }
  };
  ringCopyWarp(bid, grid, numTiles, unitOf, loads, stores, codeWarps());
}

// Block scales reach the consumers through the ring: warp 1 of the producer warpgroup (idle
// otherwise) follows the producer's sequence of slices, waits for each slot to be released
// like the producer, copies the scales of the slice's K block into the slot after B (the
// tile's bm rows of scale_a, row r at float r, then its B blocks; rows past M read row M - 1,
// blocks past N the last block) with cp.async, and each lane arrives on the slot's full
// barrier when its copies have landed (which therefore expects 33 arrivals: the producer's
// with the TMA bytes, and each lane's of this warp; ringAsyncCopyWarp). The consumers read
// them from shared memory once the slot is full, so that no global load latency reaches the K
// loop of a two-set tile, which drains every K block (loaded by the consumers two blocks ahead
// instead, the 128 x 192 tile ran 7-12% slower at 4096^3, 8192^3 and 2048 x 7168 x 16384 on
// the H200, bench/RESULTS.md).
void WgmmaEmitter::scaleLoader(Value bid, Value grid, Value numTiles,
                               llvm::function_ref<ProducerUnit(Value)> unitOf) {
  tile::ScaleAttr sa = v.instr.getScaleA(), sb = v.instr.getScaleB();
  int64_t perBlock = sa.blockK() / bk, aOuter = sa.blockOuter(), bOuter = sb.blockOuter();
  int64_t bScales = bOuter % bn == 0 ? 1 : bn % bOuter == 0 ? bn / bOuter : 2;
  Value aBlocks = b.ceilDiv(M, aOuter), bBlocks = b.ceilDiv(N, bOuter);
  Value lastRow = b.sub(M, b.c32(1)), lastColBlock = b.sub(bBlocks, b.c32(1));
  auto ca = NVVM::LoadCacheModifierKindAttr::get(b.getContext(), NVVM::LoadCacheModifierKind::CA);
  auto copy = [&](Value dst, Value ptr, Value idx) {
    NVVM::CpAsyncOp::create(b, dst, b.gep(ptr, b.mul(b.zext64(idx), 4)),
                            b.getI32IntegerAttr(4), ca, Value());
  };
  // The lane's rows of scale_a (lane + 32 i), then its block of B.
  auto copies = [&](const ProducerUnit &unit, Value k, Value slotOfB, Value lane) {
    Value area = b.gep(slotOfB, b.c32(bn * bk * elemBytes));
    Value blk = b.divu(k, perBlock);
    for (int64_t r = 0; r < bm; r += 32) {
      Value row = b.minu(b.add(unit.m0, b.add(lane, r)), lastRow);
      copy(b.gep(area, b.mul(b.add(lane, r), 4)), scaleA,
           b.add(b.mul(blk, aBlocks), b.divu(row, aOuter)));
    }
    auto ifB = scf::IfOp::create(b, b.ult(lane, bScales), false);
    OpBuilder::InsertionGuard g3(b);
    b.setInsertionPointToStart(&ifB.getThenRegion().front());
    Value col = b.minu(b.add(b.divu(unit.n0, bOuter), lane), lastColBlock);
    copy(b.gep(area, b.mul(b.add(lane, bm), 4)), scaleB, b.add(b.mul(blk, bBlocks), col));
  };
  ringAsyncCopyWarp(bid, grid, numTiles, unitOf, copies);
}

void WgmmaEmitter::consumer(Value c, Value bid, Value grid, Value numTiles, Value tilesM,
                            Value tilesN, Value kTiles) {
  NVVM::SetMaxRegisterOp::create(b, v.mma.getRegs(), NVVM::SetMaxRegisterAction::increase);
  Value tInWg = b.remu(tid, 128);           // thread in warpgroup
  Value warp = b.divu(tInWg, 32), lane = b.remu(tInWg, 32);
  Value first = bid, step = grid, g0 = b.c32(0), rowOff = b.c32(0);
  if (pingPong) {
    first = b.add(bid, b.mul(c, grid));
    step = b.mul(grid, 2);
    g0 = b.mul(c, kTiles);
  } else {
    rowOff = b.mul(c, rowsPerConsumer);
  }
  // FP8 with promoted accumulation (block scales always): K blocks are promoted into the
  // accumulators (promotedSlices).
  bool promoted = elemInfo(*elemOf(v.instr.getAType())).fp8 &&
                  v.instr.getAccumulation() == tile::Accumulation::Promoted;
  Value isReleaser = b.eq(tInWg, 0);
  // In a cluster, lanes 0, 8 (and 16) of the warpgroup's first warp each release the slot in
  // one of the CTAs whose producers write it (rank ^ (lane / 8): writers()): one arrive
  // instruction per release, as CUTLASS's PipelineTmaAsync spreads its empty-barrier arrivals
  // over the consumer warpgroup.
  Value signals = isReleaser;
  for (int64_t i = 1; clustered && i < writers(); ++i)
    signals = arith::OrIOp::create(b, signals, b.eq(tInWg, 8 * i)).getResult();
  // Block scales: every thread reads the slot's scales with its own shared loads, and nothing
  // orders another thread's loads before thread 0's release; so every thread releases with
  // its own arrival (the empty barriers expect 128 arrivals per consumer warpgroup). A warp
  // barrier and lane 0's arrival order them too by the memory model, but compute-sanitizer's
  // racecheck counts only a thread's own arrival, and reports the loader's next stores to the
  // slot as hazards.
  if (scalesInRing)
    signals = Value(); // every thread
  auto release = [&](Value g) {
    OpBuilder::InsertionGuard guard(b);
    if (signals) {
      auto ifOp = scf::IfOp::create(b, signals, false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    Value bar = empty.at(b, b.remu(g, stages));
    if (!clustered) {
      NVVM::MBarrierArriveOp::create(b, Type(), bar, Value());
      // The upcast: the slice's converted B goes back to the converter as well.
      if (upcast)
        NVVM::MBarrierArriveOp::create(b, Type(), convEmpty.at(b, b.remu(g, convertSlots)),
                                       Value());
      return;
    }
    // The cluster's producers all write this slot (parts of A and B): release it in each of
    // their CTAs. The default .release.cta semantics (CUTLASS's ClusterBarrier::arrive(cta_id,
    // pred)): the only hazard is a peer's TMA overwriting what our wgmmas read, and
    // wgmma.wait_group has retired those reads. A .cluster-scope release costs MEMBAR.ALL.GPU
    // + ERRBAR + CGAERRBAR in front of every arrive (ptxas, sm_90a).
    if (signals) {
      // (A pair's two ranks are lane / 8 itself.)
      Value dest = clusterY == 1 ? b.divu(tInWg, 8) : b.xori(rank, b.divu(tInWg, 8));
      Value remote = NVVM::MapaOp::create(b, b.ptr(7), bar, dest);
      NVVM::MBarrierArriveOp::create(b, Type(), remote, Value(), NVVM::MemScopeKind::CTA, false);
      return;
    }
    // Every thread releases its own reads of the slot's scales in its CTA; the peers'
    // producers, which multicast into this slot, need only the retired wgmmas: thread 0 of
    // the warpgroup releases there.
    NVVM::MBarrierArriveOp::create(b, Type(), bar, Value());
    auto peer = scf::IfOp::create(b, isReleaser, false);
    b.setInsertionPointToStart(&peer.getThenRegion().front());
    for (int64_t i = 1; i < writers(); ++i) {
      Value remote = NVVM::MapaOp::create(b, b.ptr(7), bar, b.xori(rank, b.c32(i)));
      NVVM::MBarrierArriveOp::create(b, Type(), remote, Value(), NVVM::MemScopeKind::CTA,
                                     false);
    }
  };
  auto tileLoop = scf::ForOp::create(b, first, numTiles, step, ValueRange{g0});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(tileLoop.getBody());
  Unit unit = streamK.unitAt(tileLoop.getInductionVar(), kTiles);
  auto [unitM, unitN] = rasterTile(b, v, unit.tile, tilesM, tilesN);
  auto [tm, tn] = clusterTile(unitM, unitN);
  Value m0 = b.mul(tm, bm), n0 = b.mul(tn, bn);
  // Ping-pong: the consumers issue their tiles' MMAs in turn (consumer 0's j-th tile after
  // consumer 1's (j-1)-th, consumer 1's j-th after consumer 0's j-th). Besides ordering the
  // tensor core, this keeps every full-barrier wait at most one phase ahead of the ring.
  Value j = b.divu(b.sub(tileLoop.getInductionVar(), first), step); // this consumer's tile count
  if (pingPong) {
    Value parity = b.xori(b.remu(j, 2), b.xori(b.remu(c, 2), b.c32(1)));
    waitBarrier(b, turn.at(b, c), parity);
  }
  // One K-slice: wait for its slot, issue its wgmmas as one batch, keep that batch in flight
  // and release the previous slice's slot once the batch before has retired. The first slice
  // of a tile starts the accumulators with scale-d = 0 instead of zeroing registers: zeroing
  // movs that land between two wgmmas (LLVM places the constants at their use) make ptxas
  // insert warpgroup.arrive there and serialise every wgmma of the kernel (C7520).
  Value kb = unit.kb, ke = unit.ke;
  // `zeroAcc`: the batch starts the accumulators (scale-d = 0 on its first instruction);
  // `releasePrevious`: slice g - 1's slot is still held and goes back once its batch retired.
  Value g0Tile = tileLoop.getRegionIterArgs()[0];
  auto slice = [&](SmallVector<Value> acc, Value g, bool zeroAcc, bool releasePrevious) {
    auto [slot, fullParity, emptyParity] = ringPosition(b, g, stages);
    Value bBase = slotB(slot), aSlot;
    if (upcast) {
      // The converted slice (the converter waited for the slot's TMA loads before it wrote
      // it); A still comes from the ring slot, whose full phase has completed by then: the
      // wait below returns at once and makes the TMA's writes of A visible to this thread.
      auto conv = ringPosition(b, g, convertSlots);
      waitBarrier(b, convFull.at(b, conv.slot), conv.fullParity);
      bBase = convSlot(conv.slot);
      // MXFP8: A converted as well, the converted slot's first bm rows.
      if (upcastA) {
        aSlot = bBase;
        bBase = b.gep(bBase, b.c32(bm * bk * elemBytes));
      }
    }
    waitBarrier(b, full.at(b, slot), fullParity);
    NVVM::WgmmaFenceAlignedOp::create(b);
    Value aBase = b.gep(aSlot ? aSlot : slotA(slot), b.mul(rowOff, bk * elemBytes));
    int64_t instrK = v.instr.getK();
    auto shape = NVVM::MMAShapeAttr::get(b.getContext(), 64, bn, instrK);
    NVVM::WGMMATypes ta = v.row->wgmmaA, tb = v.row->wgmmaB;
    // One descriptor per operand and slice; each instruction's is an offset of it
    // (smemDescriptorAt: two uniform instructions instead of six, which the promoting and
    // converting consumers' own work competes with for issue slots).
    Value descB0 = descriptor(bBase), descA0 = descriptor(aBase);
    for (int64_t kk = 0; kk < bk / instrK; ++kk) {
      // One instruction's K is 32 bytes along the swizzled row (K = 16 of bf16, 32 of FP8).
      Value descB = smemDescriptorAt(b, descB0, kk * 32);
      auto scaleD = zeroAcc && kk == 0 ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one;
      for (int64_t i = 0; i < mBlocks; ++i) {
        Value descA = smemDescriptorAt(b, descA0, i * 64 * bk * elemBytes + kk * 32);
        acc[i] = NVVM::WgmmaMmaAsyncOp::create(
            b, accStruct, acc[i], descA, descB, shape, ta, tb, NVVM::WGMMATypes::f32, scaleD,
            NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
            NVVM::MMALayout::col, nullptr);
      }
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b);
    if (stages == 1) {
      // A one-slot ring cannot keep a batch in flight: the next slice needs this very slot.
      NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
      release(g);
    } else {
      // Keep this batch in flight; the previous one has retired, so its slot can go back.
      NVVM::WgmmaWaitGroupSyncOp::create(b, 1);
      if (releasePrevious)
        release(b.sub(g, b.c32(1)));
    }
    acc.push_back(b.add(g, 1));
    return acc;
  };
  SmallVector<Type> carried(mBlocks, accStruct);
  carried.push_back(b.i32());
  auto anySlice = scf::IfOp::create(b, carried, b.ult(kb, ke), /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&anySlice.getThenRegion().front());
    if (promoted) {
      scf::YieldOp::create(b, promotedSlices(slice, release, g0Tile, kb, ke, m0, n0, rowOff,
                                             warp, lane));
    } else {
      SmallVector<Value> undef(mBlocks, LLVM::UndefOp::create(b, accStruct));
      SmallVector<Value> init =
          slice(undef, g0Tile, /*zeroAcc=*/true, /*releasePrevious=*/false);
      auto kLoop = scf::ForOp::create(b, b.add(kb, 1), ke, b.c32(1), init);
      {
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPointToStart(kLoop.getBody());
        ValueRange args = kLoop.getRegionIterArgs();
        scf::YieldOp::create(b, slice(SmallVector<Value>(args.begin(), args.begin() + mBlocks),
                                      args[mBlocks], /*zeroAcc=*/false,
                                      /*releasePrevious=*/true));
      }
      scf::YieldOp::create(b, kLoop.getResults());
    }
    // No K-slices (K = 0, or a stream-K CTA without any): D = alpha * 0 + beta * C.
    b.setInsertionPointToStart(&anySlice.getElseRegion().front());
    SmallVector<Value> zeros(mBlocks, zeroAccumulator());
    zeros.push_back(g0Tile);
    scf::YieldOp::create(b, zeros);
  }
  if (pingPong) {
    // Every MMA of this tile is issued: the other consumer's turn.
    auto ifOp = scf::IfOp::create(b, isReleaser, false);
    OpBuilder::InsertionGuard g3(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    NVVM::MBarrierArriveOp::create(b, Type(), turn.at(b, b.sub(b.c32(1), c)), Value());
  }
  Value gEnd = anySlice.getResults()[mBlocks];
  // Promoted: the last K block was drained with wait_group 0 and its slot released.
  if (!promoted)
    NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  if (stages > 1 && !promoted) {
    // The last slice's slot (the one-slot ring released it in the loop).
    auto any = scf::IfOp::create(b, b.ult(kb, ke), false);
    OpBuilder::InsertionGuard g3(b);
    b.setInsertionPointToStart(&any.getThenRegion().front());
    release(b.sub(gEnd, b.c32(1)));
  }

  // Epilogue: warp w of the warpgroup holds rows 16 w + lane / 4 (and + 8) of each m64 block;
  // the n8 columns follow the mma.sync fragment order. With beta = 0 (the common case) D goes
  // through shared memory and a TMA store, which also clips the edges; with beta != 0 the
  // threads read C and store D themselves.
  SmallVector<Value> values;
  for (int64_t i = 0; i < mBlocks; ++i)
    for (int64_t q = 0; q < bn / 2; ++q)
      values.push_back(LLVM::ExtractValueOp::create(b, anySlice.getResults()[i], q));
  Operation *partialSplit = nullptr;
  if (streamK) {
    // A tile's K-slices may be spread over consecutive CTAs. The one holding slice 0 finishes
    // it (it reaches that slice last in time); the others publish partial tiles for it.
    auto ifPartial = scf::IfOp::create(b, b.ult(b.c32(0), kb), /*withElse=*/true);
    partialSplit = ifPartial;
    b.setInsertionPointToStart(&ifPartial.getThenRegion().front());
    streamK.storePartial(values, c, tInWg);
    b.setInsertionPointToStart(&ifPartial.getElseRegion().front());
    values = streamK.addPartials(values, c, tInWg, unit.local, ke, kTiles);
  }
  Value betaNonZero = arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, beta, b.f32c(0.0));
  auto ifBeta = scf::IfOp::create(b, betaNonZero, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g3(b);
    b.setInsertionPointToStart(&ifBeta.getThenRegion().front());
    FragmentStore store{ptrC, ptrD, M, N, alpha, beta, outType};
    store.rowBase = b.add(b.add(b.add(m0, rowOff), b.mul(warp, 16)), b.divu(lane, 4));
    store.colBase = b.add(n0, b.mul(b.remu(lane, 4), 2));
    store.tileRowEnd = b.add(b.add(m0, rowOff), rowsPerConsumer);
    store.tileColEnd = b.add(n0, bn);
    store.blocksM = mBlocks;
    store.rowStride = 64;
    store.blocksN = bn / 8;
    store.betaNonZero = true;
    // Four fragments' C (eight loads) in flight per thread: no spills beside the accumulators
    // of any sm_90a example (more, a row of 128 x 256's at once, spilled).
    store.cGroup = 4;
    storeFragments(b, store, values);
    b.setInsertionPointToStart(&ifBeta.getElseRegion().front());
    storeThroughShared(values, c, warp, lane, isReleaser, m0, n0, rowOff);
  }
  if (partialSplit)
    b.setInsertionPointAfter(partialSplit);
  Value next = pingPong ? b.add(gEnd, kTiles) : gEnd;
  scf::YieldOp::create(b, ValueRange{next});
  b.setInsertionPointAfter(tileLoop);
  drainTmaStores(b, isReleaser);
}

Value WgmmaEmitter::convertSlices(
    Value g0, StreamK::Unit unit, llvm::function_ref<SmallVector<Value>(Value)> loadCodes,
    llvm::function_ref<void(Value, Value, ArrayRef<Value>)> convertSlice) {
  SmallVector<Value> init{g0};
  init.append(loadCodes(unit.kb));
  auto kLoop = scf::ForOp::create(b, unit.kb, unit.ke, b.c32(1), init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(kLoop.getBody());
  Value g = kLoop.getRegionIterArgs()[0], k = kLoop.getInductionVar();
  SmallVector<Value> codes(kLoop.getRegionIterArgs().begin() + 1,
                           kLoop.getRegionIterArgs().end());
  SmallVector<Value> next = loadCodes(b.add(k, 1));
  auto raw = ringPosition(b, g, stages);
  auto conv = ringPosition(b, g, convertSlots);
  waitBarrier(b, full.at(b, raw.slot), raw.fullParity);
  waitBarrier(b, convEmpty.at(b, conv.slot), conv.emptyParity);
  convertSlice(raw.slot, conv.slot, codes);
  NVVM::FenceProxyOp::create(
      b, NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
  NVVM::MBarrierArriveOp::create(b, Type(), convFull.at(b, conv.slot), Value());
  SmallVector<Value> yield{b.add(g, 1)};
  yield.append(next);
  scf::YieldOp::create(b, yield);
  return kLoop.getResults()[0];
}


// The upcast's converter: warps 1 to 3 of the producer warpgroup (96 threads; warp 0's thread
// 0 issues the TMA loads) walk the CTA's K-slices in the consumers' order. For slice g they
// wait for ring slot g mod S (full: A and the packed B have landed) and for converted slot
// g mod C (empty: the consumers' wgmmas that read it C slices ago have retired), convert B
// into that slot, fence their generic-proxy stores against the async proxy (the wgmmas) and
// arrive on the converted slot's full barrier (one arrival per thread: count 96). The
// consumers wait on it, issue the bf16 kernel's wgmmas with B from the converted slot and, once
// those retired, release the ring slot and the converted slot together. C = 3: while the
// consumers issue slice g with slice g - 1 in flight, the converter may write slice g + 1
// into the slot of g - 2, so it has two slices' MMA time to convert one.
//
// The work of a slice: tile N rows of 64 FP4 elements (32 bytes, K-major as TMA wrote them
// without swizzle) become tile N rows of 128 bytes of bf16 with the 128-byte swizzle (16-byte
// chunk j of row n at chunk j ^ (n mod 8)), the layout of the bf16 kernel's B slot. A unit is
// one E8M0 block: 32 elements of one row, a 16-byte shared load, one scale, four 16-byte
// shared stores; unit q of the slice is row q / 2, block q mod 2, and thread t takes units
// t, t + 96, ... A warp's units are 16 consecutive rows: its loads read 512 contiguous bytes
// and each quarter-warp's stores hit eight distinct 16-byte bank groups (chunk (4 blk + w)
// ^ (n mod 8) over four rows and both blocks), so neither conflicts. Each 32-bit word (eight
// elements) becomes four bf16x2 words by UpcastBits.h's steps: two masks, and per output
// word a prmt, a multiply-and-mask placing the fields, and two bf16x2 multiplies (by 2^126,
// then by the block's scale). The scale of a unit is byte kb x N + n of scale_b
// (docs/manifest.md), loaded from global memory one slice ahead (during the previous slice's
// conversion); a row past N takes the last column's scale and a block past K the last block's
// (TMA zero-filled those elements, and the stores clip what they produce).
void WgmmaEmitter::converter(Value bid, Value grid, Value numTiles, Value tilesM, Value tilesN,
                             Value kTiles) {
  constexpr int64_t threads = 96;
  const int64_t blocksPerRow = bk / 32, units = bn * blocksPerRow; // bk = 64: 2
  static_assert(threads % 2 == 0, "a thread's units share one K block");
  const int64_t steps = (units + threads - 1) / threads;
  const int64_t packedRow = bk / 2; // bytes of one packed row of the slice
  const int64_t rowStep = threads / blocksPerRow; // rows between a thread's units: 48
  Value t = b.sub(tid, b.c32(32));
  Type i8 = b.getI8Type(), i32 = b.i32();
  auto v4i32 = VectorType::get({4}, i32);
  Value lastKb = b.sub(b.ceilDiv(K, 32), b.c32(1));
  Value lastN = b.sub(N, b.c32(1));

  auto tileLoop = scf::ForOp::create(b, bid, numTiles, grid, ValueRange{b.c32(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(tileLoop.getBody());
  Unit unit = streamK.unitAt(tileLoop.getInductionVar(), kTiles);
  Value n0 = b.mul(rasterTile(b, v, unit.tile, tilesM, tilesN).second, bn);
  // Thread t's units: rows t / 2 + 48 i of block t mod 2 (96 threads is a whole number of
  // rows' blocks, so the block is the same in every step: one K block of scales per thread and
  // slice). In the last step the threads past the slice's units do nothing; their scale loads
  // read the last row's byte.
  Value blk = b.remu(t, blocksPerRow), row0 = b.divu(t, blocksPerRow);
  SmallVector<Value> rows;
  for (int64_t i = 0; i < steps; ++i)
    rows.push_back(b.add(row0, i * rowStep));
  // The scale codes of the units of slice k (a K block past K reads the last block's).
  // NVFP4: two codes per unit, of its two blocks of 16 (rows 2 kBlk and 2 kBlk + 1 of scale_b).
  const int64_t codesPerUnit = nvfp4 ? 2 : 1;
  auto loadCodes = [&](Value k) {
    Value kBlk = b.minu(b.add(b.mul(k, blocksPerRow), blk), lastKb);
    SmallVector<Value, 2> scaleRows;
    for (int64_t c = 0; c < codesPerUnit; ++c) {
      Value scaleBlk = nvfp4 ? b.add(b.mul(kBlk, 2), c) : kBlk;
      scaleRows.push_back(
          b.gep(scaleB, arith::MulIOp::create(b, b.zext64(scaleBlk), b.zext64(N))));
    }
    SmallVector<Value> codes;
    for (int64_t i = 0; i < steps; ++i) {
      Value row = (i + 1) * threads > units ? b.minu(rows[i], b.c32(bn - 1)) : rows[i];
      Value col = b.minu(b.add(n0, row), lastN);
      for (Value scaleRow : scaleRows)
        codes.push_back(LLVM::LoadOp::create(b, i8, b.gep(scaleRow, b.zext64(col)), 1));
    }
    return codes;
  };
  // The codes are loaded one slice ahead (carried by the K loop): a load issued at the top of
  // the slice it serves would stall the converter for a global-memory latency every slice
  // whenever it, not the tensor core, is the bottleneck (it then never waits on the barriers
  // that would hide the load).
  Value gEnd = convertSlices(
      tileLoop.getRegionIterArgs()[0], unit, loadCodes,
      [&](Value rawSlot, Value convSlotIndex, ArrayRef<Value> codes) {
    // The swizzle term n mod 8 is row0 mod 8 in every step (rows step by 48): the four
    // stores' addresses of step i are those of step 0 plus i x 48 rows, an immediate offset.
    Value src = b.gep(slotB(rawSlot), b.mul(row0, packedRow)), dst = convSlot(convSlotIndex);
    SmallVector<Value, 4> dstWord;
    for (int64_t w = 0; w < 4; ++w) {
      Value chunk = b.xori(b.add(b.mul(blk, 4), w), b.remu(row0, 8));
      dstWord.push_back(b.gep(dst, b.add(b.mul(row0, 128), b.mul(chunk, 16))));
    }
    for (int64_t i = 0; i < steps; ++i) {
      OpBuilder::InsertionGuard g2(b);
      if ((i + 1) * threads > units) {
        auto inside = scf::IfOp::create(b, b.ult(rows[i], b.c32(bn)), false);
        b.setInsertionPointToStart(&inside.getThenRegion().front());
      }
      // The block's scale as a bf16x2 power of two (UpcastBits.h's scaleBits); NVFP4: the two
      // blocks' E4M3 scales as bf16x2 values (e4m3ScaleBits, times 2^120).
      SmallVector<Value, 2> unitScales;
      for (int64_t c = 0; c < codesPerUnit; ++c)
        unitScales.push_back(
            blockScale(arith::ExtUIOp::create(b, i32, codes[i * codesPerUnit + c])));
      Value packed = LLVM::LoadOp::create(
          b, v4i32, b.gep(src, b.add(b.c32(i * rowStep * packedRow), b.mul(blk, 16))), 16);
      for (int64_t w = 0; w < 4; ++w) {
        Value word = LLVM::ExtractElementOp::create(b, packed, b.c32(w));
        Value out = LLVM::UndefOp::create(b, v4i32);
        // Words 0, 1 are the unit's first 16 elements, 2, 3 its last 16.
        SmallVector<Value, 4> x =
            fp4ToBf16(word, [&](unsigned) { return unitScales[nvfp4 ? w / 2 : 0]; });
        for (unsigned j = 0; j < 4; ++j)
          out = LLVM::InsertElementOp::create(b, out, LLVM::BitcastOp::create(b, i32, x[j]),
                                              b.c32(j));
        LLVM::StoreOp::create(b, out, b.gep(dstWord[w], b.c32(i * rowStep * 128)), 16);
      }
    }
      });
  scf::YieldOp::create(b, ValueRange{gEnd});
}

// The MXFP8 converter: as converter(), but both operands are FP8 in the ring and both are
// converted, A into the first bm rows of the converted slot and B after it, each laid out as
// the bf16 kernel's slot (128-byte rows, 16-byte chunk j of row n at chunk j ^ (n mod 8)). A
// slot's A and B are one sequence of bm + bn rows of 64 bytes (B follows A at bm x 64 bytes),
// written by TMA with the 64-byte swizzle (chunk c of row r at c ^ ((r / 2) mod 4)), and so is
// the converted slot's (B follows A at bm x 128 bytes); unit q of the slice is row q / 2 of
// that sequence, block q mod 2, one E8M0 block of 32 FP8 elements: two 16-byte shared loads,
// one scale, four 16-byte shared stores. Thread t takes units t, t + 96, ...: rows t / 2 + 48 i
// of block t mod 2, so that the swizzle terms (r / 2) mod 4 and r mod 8 are the same in every
// step (48 is a multiple of 8, and so is bm). A quarter-warp's loads (four rows, both blocks)
// hit the eight 16-byte bank groups once each thanks to the 64-byte swizzle, and its stores
// too (as converter()'s). Each 32-bit word (four elements) becomes two bf16x2 words by
// UpcastBits.h's FP8 steps: a prmt, a shift and a mask, and one bf16x2 multiply by
// 2^(code - bias) where every code the warp reads in the slice allows it (fp8FoldMaxCode),
// else two (by 2^(127 - bias), then by the block's scale). The scale of row m of A is byte kb x M + m of
// scale_a, of column n of B byte kb x N + n of scale_b (docs/manifest.md), loaded one slice
// ahead; rows past M or N read the last row's scale and blocks past K the last block's. A
// warp's 16 rows of a step are all A or all B (bm is a multiple of 16); the steps whose rows
// straddle the two choose by a warp-uniform select.
void WgmmaEmitter::converterFp8(Value bid, Value grid, Value numTiles, Value tilesM,
                                Value tilesN, Value kTiles) {
  constexpr int64_t threads = 96;
  const int64_t blocksPerRow = bk / 32, rowsAll = bm + bn, units = rowsAll * blocksPerRow;
  const int64_t steps = (units + threads - 1) / threads;
  const int64_t ringRow = bk;                     // bytes of one FP8 row of the slice
  const int64_t rowStep = threads / blocksPerRow; // 48
  Value t = b.sub(tid, b.c32(32));
  Type i8 = b.getI8Type(), i32 = b.i32();
  auto v2bf16 = VectorType::get({2}, b.getBF16Type());
  auto v4i32 = VectorType::get({4}, i32);
  Value lastKb = b.sub(b.ceilDiv(K, 32), b.c32(1));
  Value lastM = b.sub(M, b.c32(1)), lastN = b.sub(N, b.c32(1));
  auto format = [](Type type) {
    return isa<Float8E5M2Type>(type) ? tilegen::upcast::kE5M2 : tilegen::upcast::kE4M3;
  };
  tilegen::upcast::Fp8Format fa = format(v.ring.getAType()), fb = format(v.ring.getBType());
  bool sameFormat = fa.shift == fb.shift;

  auto tileLoop = scf::ForOp::create(b, bid, numTiles, grid, ValueRange{b.c32(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(tileLoop.getBody());
  Unit unit = streamK.unitAt(tileLoop.getInductionVar(), kTiles);
  auto [tm, tn] = rasterTile(b, v, unit.tile, tilesM, tilesN);
  Value m0 = b.mul(tm, bm), n0 = b.mul(tn, bn);
  Value blk = b.remu(t, blocksPerRow), row0 = b.divu(t, blocksPerRow);
  // Step i: rows row0 + 48 i; whether they are A's is known for the steps that do not
  // straddle bm (kind 0: A, 1: B), else a warp-uniform condition (kind 2).
  SmallVector<Value> rows, isA;
  SmallVector<int> kinds;
  for (int64_t i = 0; i < steps; ++i) {
    rows.push_back(b.add(row0, i * rowStep));
    int64_t lo = i * rowStep, hi = std::min(lo + rowStep, rowsAll) - 1;
    kinds.push_back(hi < bm ? 0 : lo >= bm ? 1 : 2);
    isA.push_back(kinds.back() == 2 ? b.ult(rows.back(), b.c32(bm)) : Value());
  }
  auto pick = [&](int64_t i, llvm::function_ref<Value()> a, llvm::function_ref<Value()> bb) {
    if (kinds[i] == 0)
      return a();
    if (kinds[i] == 1)
      return bb();
    Value x = a(), y = bb();
    return b.select(isA[i], x, y);
  };
  // The scale codes of the units of slice k (a K block past K reads the last block's).
  auto loadCodes = [&](Value k) {
    Value kBlk = b.zext64(b.minu(b.add(b.mul(k, blocksPerRow), blk), lastKb));
    Value rowA = b.gep(scaleA, arith::MulIOp::create(b, kBlk, b.zext64(M)));
    Value rowB = b.gep(scaleB, arith::MulIOp::create(b, kBlk, b.zext64(N)));
    SmallVector<Value> codes;
    for (int64_t i = 0; i < steps; ++i) {
      Value r = (i + 1) * threads > units ? b.minu(rows[i], b.c32(rowsAll - 1)) : rows[i];
      Value ptr = pick(
          i, [&] { return b.gep(rowA, b.zext64(b.minu(b.add(m0, r), lastM))); },
          [&] {
            // (For an A row of a straddling step this is some valid column, not used.)
            Value col = b.minu(b.add(n0, b.sub(r, b.c32(bm))), lastN);
            return b.gep(rowB, b.zext64(col));
          });
      codes.push_back(LLVM::LoadOp::create(b, i8, ptr, 1));
    }
    return codes;
  };
  Value gEnd = convertSlices(
      tileLoop.getRegionIterArgs()[0], unit, loadCodes,
      [&](Value rawSlot, Value convSlotIndex, ArrayRef<Value> codes) {
    // Step 0's addresses; step i adds 48 rows (an immediate offset).
    Value src = b.gep(slotA(rawSlot), b.mul(row0, ringRow)), dst = convSlot(convSlotIndex);
    Value srcSwizzle = b.remu(b.divu(row0, 2), 4), dstSwizzle = b.remu(row0, 8);
    SmallVector<Value, 2> srcChunk;
    for (int64_t q = 0; q < 2; ++q)
      srcChunk.push_back(b.mul(b.xori(b.add(b.mul(blk, 2), q), srcSwizzle), 16));
    SmallVector<Value, 4> dstWord;
    for (int64_t w = 0; w < 4; ++w) {
      Value chunk = b.xori(b.add(b.mul(blk, 4), w), dstSwizzle);
      dstWord.push_back(b.gep(dst, b.add(b.mul(row0, 128), b.mul(chunk, 16))));
    }
    // Where every code this warp converts in the slice is at most the formats' fold limit
    // (E4M3: 134, scales up to 2^7), one multiply per register by the folded factor
    // 2^(code - bias) (UpcastBits.h); else the two (by 2^(127 - bias), then by the scale). The
    // choice is the warp's (a vote, before any step's guard), so that it does not run both.
    uint32_t foldMax = std::min(tilegen::upcast::fp8FoldMaxCode(fa),
                                tilegen::upcast::fp8FoldMaxCode(fb));
    SmallVector<Value> over;
    for (int64_t i = 0; i < steps; ++i)
      over.push_back(b.ult(b.c32(int32_t(foldMax)), arith::ExtUIOp::create(b, i32, codes[i])));
    Value twoSteps = warpAny(b, over);
    for (int64_t i = 0; i < steps; ++i) {
      OpBuilder::InsertionGuard g2(b);
      if ((i + 1) * threads > units) {
        auto inside = scf::IfOp::create(b, b.ult(rows[i], b.c32(rowsAll)), false);
        b.setInsertionPointToStart(&inside.getThenRegion().front());
      }
      // The element format's constants (a select only where A and B differ and the step
      // straddles them).
      auto constant = [&](auto field) -> Value {
        if (sameFormat || kinds[i] != 2)
          return b.c32(int32_t(field(kinds[i] == 1 ? fb : fa)));
        return b.select(isA[i], b.c32(int32_t(field(fa))), b.c32(int32_t(field(fb))));
      };
      Value shift = constant([](tilegen::upcast::Fp8Format f) { return f.shift; });
      Value mask = constant([](tilegen::upcast::Fp8Format f) { return f.mask; });
      Value code = arith::ExtUIOp::create(b, i32, codes[i]);
      // The step: `unbias` (the two multiplies) or null (one, by `scale` = the folded factor).
      auto convertStep = [&](Value unbias, Value scale) {
        for (int64_t q = 0; q < 2; ++q) {
          Value packed = LLVM::LoadOp::create(
              b, v4i32, b.gep(src, b.add(b.c32(i * rowStep * ringRow), srcChunk[q])), 16);
          // Source words 0, 1 of the load become destination chunk 2q, words 2, 3 chunk 2q + 1.
          for (int64_t h = 0; h < 2; ++h) {
            Value out = LLVM::UndefOp::create(b, v4i32);
            for (int64_t e = 0; e < 4; ++e) {
              Value word = LLVM::ExtractElementOp::create(b, packed, b.c32(2 * h + e / 2));
              Value z = NVVM::PermuteOp::create(
                  b, i32, word, b.c32(0), b.c32(int32_t(tilegen::upcast::fp8Selector(e % 2))),
                  NVVM::PermuteMode::DEFAULT);
              Value bits = b.andi(arith::ShLIOp::create(b, z, shift), mask);
              Value x = LLVM::BitcastOp::create(b, v2bf16, bits);
              if (unbias)
                x = arith::MulFOp::create(b, x, unbias);
              x = arith::MulFOp::create(b, x, scale);
              out = LLVM::InsertElementOp::create(b, out, LLVM::BitcastOp::create(b, i32, x),
                                                  b.c32(e));
            }
            LLVM::StoreOp::create(b, out,
                                  b.gep(dstWord[2 * q + h], b.c32(i * rowStep * 128)), 16);
          }
        }
      };
      auto choice = scf::IfOp::create(b, twoSteps, /*withElse=*/true);
      {
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPointToStart(&choice.getThenRegion().front());
        // 2^(127 - bias), then the block's scale as a bf16x2 power of two (scaleBits).
        Value unbias = LLVM::BitcastOp::create(
            b, v2bf16,
            b.mul(constant([](tilegen::upcast::Fp8Format f) { return uint32_t(f.unbias); }),
                  b.c32(0x10001)));
        convertStep(unbias, blockScale(code));
        b.setInsertionPointToStart(&choice.getElseRegion().front());
        // 2^(code - bias) in both halves: code x 0x800080 + (127 - bias) x 0x800080.
        Value base = constant([](tilegen::upcast::Fp8Format f) {
          return tilegen::upcast::fp8FoldedScaleBits(0, f);
        });
        Value folded = b.add(b.mul(code, b.c32(int32_t(tilegen::upcast::kFoldMul))), base);
        convertStep(Value(), LLVM::BitcastOp::create(b, v2bf16, folded));
      }
    }
      });
  scf::YieldOp::create(b, ValueRange{gEnd});
}

/// `regs` (i32 or f32 scalars) pinned in registers at this point, as fenceRegisters pins f32
/// sets: what computes them cannot sink below the fence, nor can what reads them rise above it.
static SmallVector<Value> fenceScalars(KernelBuilder &b, ArrayRef<Value> regs) {
  if (regs.empty())
    return {};
  SmallVector<Type> types;
  std::string constraints;
  for (auto [e, reg] : llvm::enumerate(regs)) {
    types.push_back(reg.getType());
    constraints += (e ? ",=" : "=");
    assert((reg.getType().isF32() || reg.getType().isInteger(32)) && "a 32-bit scalar");
    constraints += reg.getType().isF32() ? "f" : "r";
  }
  for (size_t e = 0; e < regs.size(); ++e)
    constraints += "," + std::to_string(e);
  // One output is the asm's value itself, several a struct of them.
  Type type = regs.size() == 1 ? types.front()
                               : Type(LLVM::LLVMStructType::getLiteral(b.getContext(), types));
  auto fence = LLVM::InlineAsmOp::create(b, type, regs, "", constraints,
                                         /*has_side_effects=*/true, /*is_align_stack=*/false,
                                         LLVM::tailcallkind::TailCallKind::None,
                                         LLVM::AsmDialectAttr(), ArrayAttr());
  if (regs.size() == 1)
    return {fence.getResult(0)};
  SmallVector<Value> out;
  for (size_t e = 0; e < regs.size(); ++e)
    out.push_back(LLVM::ExtractValueOp::create(b, fence.getResult(0), e));
  return out;
}

/// `set` (a struct of f32) pinned in registers at this point of the program: an empty asm
/// statement that reads and writes every value (CUTLASS's warpgroup_fence_operand). The only
/// inline asm of the lowering: no NVVM op orders pure arithmetic against the wgmma batches.
/// Arithmetic on the fenced values cannot move above the fence (e.g. above a wgmma.wait_group),
/// nor can the arithmetic that computes them sink below it (e.g. past the next batch's issue,
/// where its operands would have to stay live next to two more accumulator sets).
static Value fenceRegisters(KernelBuilder &b, Value set) {
  auto type = cast<LLVM::LLVMStructType>(set.getType());
  int64_t n = type.getBody().size();
  SmallVector<Value> values;
  std::string constraints;
  for (int64_t e = 0; e < n; ++e) {
    values.push_back(LLVM::ExtractValueOp::create(b, set, e));
    constraints += (e ? ",=f" : "=f");
  }
  for (int64_t e = 0; e < n; ++e)
    constraints += "," + std::to_string(e);
  auto fence = LLVM::InlineAsmOp::create(b, type, values, "", constraints,
                                         /*has_side_effects=*/true, /*is_align_stack=*/false,
                                         LLVM::tailcallkind::TailCallKind::None,
                                         LLVM::AsmDialectAttr(), ArrayAttr());
  return fence.getResult(0);
}

// Promoted accumulation (FP8 on wgmma, whose tensor core accumulates FP8 products with
// reduced precision): the K-slices of a tile are issued K block by K block into a second set of
// f32 accumulators, `part` (scale-d = 0 on the block's first instruction), and each block's
// `part` is added into the accumulators `acc` in registers. With block scales (DeepSeek-style)
// D = alpha sum_kb sa(m, kb) sb(n, kb) (A x B)[K block kb] + beta C, so the scales cannot fold
// into alpha: acc += part x sa(row) x sb(col), one FMA per value with the products precomputed.
// With per-tensor scales (accumulation = promoted) a K block is one K-slice (or `promotion` K
// elements, several slices) and the promotion is acc += part (the scales stay folded into
// alpha); no scale is loaded in the K loop.
//
// The promotion overlaps the next block's wgmmas: `part` is double-buffered (P0 for blocks
// j0, j0 + 2, ...; P1 for the others). Block j + 1's first K-slice is issued into the free set,
// committed, and wgmma.wait_group 1 retires block j's last batch; block j's last slot goes back
// (the slice's usual release of its predecessor), then block j's set is promoted while block
// j + 1's wgmmas run; block j + 1's other slices follow (each keeping one batch in flight and
// releasing its predecessor's slot). The last block is drained with wait_group 0, its slot
// released, and promoted. A slot thus goes back only after the wgmmas reading it retired. The
// loop over blocks is unrolled by two so that each set keeps its registers (a swap of sets
// across the back edge would copy a set whose wgmmas are in flight); an odd block left over is
// the tail. acc starts at -0.0 (x + -0.0 = x exactly, so the first promotion is exact): those
// movs are to registers no wgmma touches. Registers: three sets (acc, P0, P1) per consumer
// thread; the plan keeps them within 192 of the consumers' setmaxnreg budget. A tile too wide
// for three sets (promotedAccumulatorSets) holds two, acc and one `part`, and drains each block
// before promoting it: the overlap then comes from the other consumer warpgroup (see there).
//
// With three sets, a block's scales are loaded from global memory ahead of its predecessor's
// wgmmas (the first block's just before its own) and turned into products at the start of the
// iteration that promotes it (below); with two, they are read from the ring slot. Fragment
// layout (as the epilogue reads it): value e of
// m64 block i is fragment n = e / 4 (an n8 column block), row 16 warp + lane / 4 (+ 8 for
// e % 4 >= 2), column 8 n + 2 (lane % 4) (+ 1 for odd e).
SmallVector<Value> WgmmaEmitter::promotedSlices(SliceFn slice,
                                                llvm::function_ref<void(Value)> release,
                                                Value g0, Value kb, Value ke, Value m0, Value n0,
                                                Value rowOff, Value warp, Value lane) {
  bool scaled = v.blockScales();
  // Per-tensor: a K block is a K-slice (or `promotion` K elements). Block scales: the plan
  // guarantees the K block is a whole number of K-slices and B's blocks are a multiple of the
  // tile's N or a multiple-of-8 divisor of it. Slice k is in K block k / perBlock; a stream-K
  // unit's slices [kb, ke) may start or end inside a block, whose slices there are promoted
  // (with the block's scales) as a block of their own.
  int64_t perBlock = 1, bOuter = 1, bScales = 0;
  Value aBlocks, bBlocks;
  // aIdx[2 i + half]; bIdx[j]: floats of the slot's scale area (scalesInRing), else the
  // operands' scale indices within a K block.
  SmallVector<Value> aIdx, bIdx;
  // Tiles that straddle two B blocks at a run-time boundary (GemmPlan: tile N 192 or 160 with
  // blocks of 128): fragment n takes B block 0 of the tile if 8 n < `boundary` (the tile's
  // columns left in its first block), else block 1; `common` = gcd(tile N, block) bounds the
  // boundary from below, so fragments below it and at or past one block are fixed.
  bool straddle = false;
  int64_t common = 0;
  Value boundary;
  if (scaled) {
    tile::ScaleAttr sa = v.instr.getScaleA(), sb = v.instr.getScaleB();
    perBlock = sa.blockK() / bk, bOuter = sb.blockOuter();
    straddle = bOuter % bn != 0 && bn % bOuter != 0;
    // B column blocks of one tile (two when the tile straddles a boundary).
    bScales = bOuter % bn == 0 ? 1 : straddle ? 2 : bn / bOuter;
    common = std::gcd(bn, bOuter);
    if (straddle)
      boundary = b.sub(b.c32(bOuter), b.remu(n0, bOuter));
    if (scalesInRing) {
      // This thread's rows of the tile (16 warp + lane / 4, + 8, per m64 block), as the scale
      // loader stored them: float r of the slot's scale area is row r of the tile, the
      // tile's B blocks follow at bm (scaleLoader).
      Value rowBase = b.add(b.add(rowOff, b.mul(warp, 16)), b.divu(lane, 4));
      for (int64_t i = 0; i < mBlocks; ++i)
        for (int64_t half = 0; half < 2; ++half)
          aIdx.push_back(b.add(rowBase, i * 64 + half * 8));
      for (int64_t j = 0; j < bScales; ++j)
        bIdx.push_back(b.c32(bm + j));
    } else {
      // Scale (ob, kb) of an operand is at kb * ceil(extent / outer) + ob (docs/manifest.md).
      // This thread's rows, clamped to M - 1 (a row past M reads the last row's scale; its
      // results are clipped by the stores), and the tile's column blocks, clamped to the last.
      int64_t aOuter = sa.blockOuter();
      aBlocks = b.ceilDiv(M, aOuter), bBlocks = b.ceilDiv(N, bOuter);
      Value rowBase = b.add(b.add(b.add(m0, rowOff), b.mul(warp, 16)), b.divu(lane, 4));
      Value lastRow = b.sub(M, b.c32(1)), lastColBlock = b.sub(bBlocks, b.c32(1));
      for (int64_t i = 0; i < mBlocks; ++i)
        for (int64_t half = 0; half < 2; ++half)
          aIdx.push_back(b.divu(b.minu(b.add(rowBase, i * 64 + half * 8), lastRow), aOuter));
      for (int64_t j = 0; j < bScales; ++j)
        bIdx.push_back(b.minu(b.add(b.divu(n0, bOuter), j), lastColBlock));
    }
  }
  // Two-set tiles: the scales of the K block whose first slice is at ring position g (this
  // thread's rows of A, then the tile's blocks of B), read from the slot while it is held.
  auto readScales = [&](Value g) {
    SmallVector<Value> raw;
    if (!scaled)
      return raw;
    Value area = b.gep(slotB(b.remu(g, stages)), b.c32(bn * bk * elemBytes));
    for (Value idx : llvm::concat<Value>(aIdx, bIdx))
      raw.push_back(LLVM::LoadOp::create(b, b.f32(), b.gep(area, b.mul(idx, 4)), 4));
    return raw;
  };
  // Three-set tiles: the scales of K block `blk` from global memory, loaded two blocks before
  // the block is promoted, so that a load that misses in L2 has two blocks of wgmmas to arrive
  // in (one block measured too short: the promotion waited on it). (Copied into the ring as
  // for two sets, they measured 2-5% slower on the 128 x 128 tile on the H200.)
  auto load = [&](Value ptr, Value idx) -> Value {
    return LLVM::LoadOp::create(b, b.f32(), b.gep(ptr, b.mul(b.zext64(idx), 4)), 4);
  };
  size_t nr = scaled ? aIdx.size() + bIdx.size() : 0;
  auto loadScales = [&](Value blk) {
    SmallVector<Value> raw;
    if (!scaled)
      return raw;
    // blk < ceil(K / scaleBlockK) = ceil(kTiles / perBlock): every load reads an existing
    // block (the last, partial K block included).
    for (Value idx : aIdx)
      raw.push_back(load(scaleA, b.add(b.mul(blk, aBlocks), idx)));
    for (Value idx : bIdx)
      raw.push_back(load(scaleB, b.add(b.mul(blk, bBlocks), idx)));
    return raw;
  };
  // The products of loaded scales: prod[(2 i + half) bScales + j].
  auto products = [&](ArrayRef<Value> raw) {
    SmallVector<Value> prod;
    for (size_t a = 0; a < aIdx.size() && scaled; ++a)
      for (size_t s = 0; s < bIdx.size(); ++s)
        prod.push_back(arith::MulFOp::create(b, raw[a], raw[aIdx.size() + s]));
    return prod;
  };
  // acc += part (x the block's products).
  auto promote = [&](ArrayRef<Value> acc, ArrayRef<Value> part, ArrayRef<Value> prod) {
    // The fences keep the promotion after the wait that retired `part` and before the next
    // batch is issued.
    SmallVector<Value> out;
    // The scale of fragment n in row half h of m64 block i: chosen[(2 i + h) (bn / 8) + n]
    // (a select on the tile's boundary only for the fragments that can lie on either side).
    SmallVector<Value> chosen;
    if (scaled) {
      for (int64_t r = 0; r < 2 * mBlocks; ++r)
        for (int64_t n = 0; n < bn / 8; ++n) {
          ArrayRef<Value> two(prod.begin() + r * bScales, bScales);
          if (!straddle)
            chosen.push_back(two[bScales == 1 ? 0 : n * 8 / bOuter]);
          else if (n * 8 < common || n * 8 >= bOuter)
            chosen.push_back(two[n * 8 < common ? 0 : 1]);
          else
            chosen.push_back(b.select(b.ult(b.c32(n * 8), boundary), two[0], two[1]));
        }
    }
    for (int64_t i = 0; i < mBlocks; ++i) {
      Value retired = fenceRegisters(b, part[i]);
      Value sum = LLVM::UndefOp::create(b, accStruct);
      for (int64_t e = 0; e < bn / 2; ++e) {
        Value x = LLVM::ExtractValueOp::create(b, retired, e);
        Value y = LLVM::ExtractValueOp::create(b, acc[i], e);
        Value r;
        if (scaled) {
          int64_t n = e / 4, half = (e % 4) / 2;
          r = LLVM::FMAOp::create(b, x, chosen[(2 * i + half) * (bn / 8) + n], y);
        } else {
          r = arith::AddFOp::create(b, y, x);
        }
        sum = LLVM::InsertValueOp::create(b, sum, r, e);
      }
      out.push_back(fenceRegisters(b, sum));
    }
    return out;
  };
  // K block `blk`'s slices into a new set (the first instruction has scale-d = 0, so its input
  // is undef: tying it to a promoted set would make LLVM copy registers next to the wgmmas),
  // from ring position g: returns part..., g. `between` runs after the first slice's
  // wait_group 1 (the previous block's wgmmas retired).
  Value undef = LLVM::UndefOp::create(b, accStruct);
  auto issueBlock = [&](Value g, Value blk, bool releasePrevious,
                        llvm::function_ref<void()> between, SmallVector<Value> &prodOut) {
    SmallVector<Value> st =
        slice(SmallVector<Value>(mBlocks, undef), g, /*zeroAcc=*/true, releasePrevious);
    // Two sets: the block's scales, from its first slot (full, and held until a later slice).
    if (scalesInRing)
      prodOut = products(readScales(g));
    if (between)
      between();
    if (perBlock > 1) {
      // The block's slices of this unit: from kb for a unit that starts inside the block, to
      // the block's end or ke.
      Value blockStart = b.mul(blk, perBlock);
      Value k0 = b.maxu(blockStart, kb);
      auto kLoop = scf::ForOp::create(b, b.add(k0, 1),
                                      b.minu(b.add(blockStart, b.c32(perBlock)), ke), b.c32(1),
                                      st);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(kLoop.getBody());
      ValueRange args = kLoop.getRegionIterArgs();
      scf::YieldOp::create(b, slice(SmallVector<Value>(args.begin(), args.begin() + mBlocks),
                                    args[mBlocks], /*zeroAcc=*/false,
                                    /*releasePrevious=*/true));
      st.assign(kLoop.getResults().begin(), kLoop.getResults().end());
    }
    return st;
  };
  // The last block (in `part`, in flight): retire it, release its slot, promote it. (A
  // one-slot ring waited and released in every slice.)
  auto drain = [&](ArrayRef<Value> acc, ArrayRef<Value> part, ArrayRef<Value> prod, Value g) {
    if (stages > 1) {
      NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
      release(b.sub(g, b.c32(1)));
    }
    return promote(acc, part, prod);
  };
  auto range = [](ValueRange r, size_t from, size_t n) {
    return SmallVector<Value>(r.begin() + from, r.begin() + from + n);
  };

  // Per-tensor scales: `promotion` K elements (several slices) between promotions, if given.
  if (!scaled && v.instr.getPromotion() != 0)
    perBlock = v.instr.getPromotion() / bk;
  // Blocks [jb, je): block j holds slices [max(j perBlock, kb), min((j + 1) perBlock, ke)).
  bool multiSlice = scaled || perBlock > 1;
  Value jb = multiSlice ? b.divu(kb, perBlock) : kb;
  Value je = multiSlice ? b.ceilDiv(ke, perBlock) : ke;
  size_t nm = mBlocks, np = scaled ? 2 * mBlocks * bScales : 0;
  SmallVector<Value> acc;
  {
    Value negZero = b.f32c(-0.0);
    Value start = LLVM::UndefOp::create(b, accStruct);
    for (int64_t e = 0; e < bn / 2; ++e)
      start = LLVM::InsertValueOp::create(b, start, negZero, e);
    acc.assign(mBlocks, start);
  }
  // Block `blk`, clamped to the last (the loads ahead of the last blocks read it again).
  Value lastBlock = b.sub(je, b.c32(1));
  auto clamped = [&](Value blk) { return b.minu(blk, lastBlock); };
  if (promotedAccumulatorSets(mBlocks * bn / 2) == 2) {
    // Two sets (the sum and one K block; a tile too wide for three, e.g. 128 x 192): each block
    // is issued into `part`, drained with wait_group 0 (its last slot released) and promoted
    // before the next block is issued; only the other consumer warpgroup's wgmmas keep the
    // tensor core busy meanwhile.
    SmallVector<Value> init(acc);
    init.push_back(g0);
    auto loop = scf::ForOp::create(b, jb, je, b.c32(1), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      ValueRange args = loop.getRegionIterArgs();
      Value j = loop.getInductionVar();
      SmallVector<Value> prodJ;
      SmallVector<Value> st =
          issueBlock(args[nm], j, /*releasePrevious=*/false, nullptr, prodJ);
      SmallVector<Value> yield =
          drain(range(args, 0, nm), ArrayRef<Value>(st).take_front(nm), prodJ, st[nm]);
      yield.push_back(st[nm]);
      scf::YieldOp::create(b, yield);
    }
    return range(loop.getResults(), 0, nm + 1);
  }

  // (The scales come from global memory here: issueBlock's copy from the ring is unused.)
  SmallVector<Value> unused;
  // Two blocks' raw scales are carried, X (the block in flight in P0, promoted next) and Y
  // (the block after it). An iteration first computes both blocks' products, which it
  // promotes, then loads the scales of its own two blocks' successors into X and Y; so the
  // products wait only for the loads of the previous iteration, two blocks earlier (ptxas puts
  // the scale loads on one scoreboard, and a wait on it is a wait for every load outstanding
  // there), and no register copy of a load in flight crosses the back edge. The products are
  // pinned where they are computed (fenceScalars): left to LLVM, they sink to their
  // promotions, past the next loads, and the raw scales carried across the back edge become
  // copies of loads still in flight, which hold the next block's wgmmas until they return.
  auto productsOf = [&](ArrayRef<Value> x, ArrayRef<Value> y) {
    SmallVector<Value> both = products(x);
    llvm::append_range(both, products(y));
    both = fenceScalars(b, both);
    return std::make_pair(SmallVector<Value>(both.begin(), both.begin() + np),
                          SmallVector<Value>(both.begin() + np, both.end()));
  };
  // Prologue: the scales of blocks jb and jb + 1 on their way, block jb into P0.
  SmallVector<Value> rawX = loadScales(jb);
  SmallVector<Value> rawY = loadScales(clamped(b.add(jb, 1)));
  SmallVector<Value> st = issueBlock(g0, jb, /*releasePrevious=*/false, nullptr, unused);
  SmallVector<Value> p0(st.begin(), st.begin() + nm);
  Value g = st[nm];

  // Pairs: blocks j (into P1, promoting P0, block j - 1) and j + 1 (into P0, promoting P1,
  // block j), while j + 1 < je. Only P0 is carried (in flight); P1 lives within an iteration.
  SmallVector<Value> init;
  init.append(acc);
  init.append(p0);
  init.push_back(g);
  init.append(rawX);
  init.append(rawY);
  auto pairLoop = scf::ForOp::create(b, b.add(jb, 1), b.sub(je, b.c32(1)), b.c32(2), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(pairLoop.getBody());
    ValueRange args = pairLoop.getRegionIterArgs();
    Value j = pairLoop.getInductionVar();
    SmallVector<Value> a = range(args, 0, nm), q0 = range(args, nm, nm),
                       x = range(args, 2 * nm + 1, nr), y = range(args, 2 * nm + 1 + nr, nr);
    Value gj = args[2 * nm];
    auto [prodX, prodY] = productsOf(x, y);
    SmallVector<Value> nextX = loadScales(clamped(b.add(j, 1)));
    SmallVector<Value> nextY = loadScales(clamped(b.add(j, 2)));
    SmallVector<Value> s1 = issueBlock(gj, j, /*releasePrevious=*/true,
                                       [&]() { a = promote(a, q0, prodX); }, unused);
    SmallVector<Value> n1(s1.begin(), s1.begin() + nm);
    Value j1 = b.add(j, 1);
    SmallVector<Value> s0 = issueBlock(s1[nm], j1, /*releasePrevious=*/true,
                                       [&]() { a = promote(a, n1, prodY); }, unused);
    SmallVector<Value> yield(a);
    yield.append(s0.begin(), s0.begin() + nm);
    yield.push_back(s0[nm]);
    yield.append(nextX);
    yield.append(nextY);
    scf::YieldOp::create(b, yield);
  }
  ValueRange res = pairLoop.getResults();
  acc = range(res, 0, nm), p0 = range(res, nm, nm);
  g = res[2 * nm];
  rawX = range(res, 2 * nm + 1, nr);
  // The scales of the block after the loop (the last one, when one is left).
  rawY = range(res, 2 * nm + 1 + nr, nr);

  // The tail: with an even number of blocks after the prologue's, block je - 1 is left (into
  // P1, promoting P0, then drained); otherwise P0 holds the last block.
  SmallVector<Type> types(mBlocks, accStruct);
  types.push_back(b.i32());
  Value odd = b.eq(b.remu(b.sub(b.sub(je, jb), b.c32(1)), 2), 1);
  auto tail = scf::IfOp::create(b, types, odd, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&tail.getThenRegion().front());
    Value last = b.sub(je, b.c32(1));
    auto [prodX, prodY] = productsOf(rawX, rawY);
    SmallVector<Value> a = acc;
    SmallVector<Value> s1 = issueBlock(g, last, /*releasePrevious=*/true,
                                       [&]() { a = promote(a, p0, prodX); }, unused);
    SmallVector<Value> out = drain(a, ArrayRef<Value>(s1).take_front(nm), prodY, s1[nm]);
    out.push_back(s1[nm]);
    scf::YieldOp::create(b, out);
    b.setInsertionPointToStart(&tail.getElseRegion().front());
    out = drain(acc, p0, fenceScalars(b, products(rawX)), g);
    out.push_back(g);
    scf::YieldOp::create(b, out);
  }
  return SmallVector<Value>(tail.getResults().begin(), tail.getResults().end());
}

void WgmmaEmitter::storeThroughShared(ArrayRef<Value> values, Value c, Value warp, Value lane,
                                      Value leader, Value m0, Value n0, Value rowOff) {
  // Each consumer warpgroup owns two buffers of rowsPerConsumer rows x S bytes (S = 128, 64
  // or 32: epilogueChunk), laid out as the D tensor map's S-byte swizzle wants them: the
  // TMA XORs address bits 4.. with bits 7.., so 16-byte unit x of row r sits at unit
  // x ^ ((r S / 128) % (S / 16)) (x ^ (r % 8) for S = 128). Column chunk j of the tile (S bytes
  // wide) goes to buffer j % 2; before filling a buffer the leader waits until the TMA store
  // that last read it is done.
  int64_t outBytes = sizeInBytes(1, outType);
  const int64_t S = epilogueChunk;
  int64_t chunkCols = S / outBytes, chunks = bn / chunkCols, fragsPerChunk = chunkCols / 8;
  int64_t bufBytes = rowsPerConsumer * S;
  // The XOR term of a row from row % 8 (the other terms of the rows below are multiples of 8,
  // which the term drops).
  auto swizzleTerm = [&](Value rowMod8) {
    return S == 128 ? rowMod8 : b.remu(b.divu(b.mul(rowMod8, S), 128), S / 16);
  };
  Value mine = b.gep(epilogue, b.mul(c, 2 * bufBytes));
  Value barId = b.add(c, 1), threads = b.c32(128);
  Value g = b.divu(lane, 4), q = b.remu(lane, 4);
  Value alphaV = alpha;
  auto convert = [&](Value x) {
    return convertOut(b, outType, arith::MulFOp::create(b, alphaV, x));
  };
  auto vecTy = VectorType::get({2}, outType);
  for (int64_t j = 0; j < chunks; ++j) {
    Value buf = b.gep(mine, b.c32((j % 2) * bufBytes));
    auto write = [&] {
      if (outBytes == 2) {
        // 16-bit output: stmatrix.x4 writes four 8 x 8 matrices per instruction, each thread
        // giving one packed pair per matrix in the accumulator's fragment order (row lane / 4,
        // columns 2 (lane % 4) and + 1). The four are rows +0 and +8 of fragments nn and nn + 1;
        // lane l addresses row l % 8 of matrix l / 8, 16 bytes of one swizzled row.
        Value m = b.divu(lane, 8), r8 = b.remu(lane, 8);
        Value mHalf = b.remu(m, 2), mFrag = b.divu(m, 2);
        auto pack = [&](Value x0, Value x1) {
          Value vec = LLVM::UndefOp::create(b, vecTy);
          vec = LLVM::InsertElementOp::create(b, vec, convert(x0), b.c32(0));
          vec = LLVM::InsertElementOp::create(b, vec, convert(x1), b.c32(1));
          return LLVM::BitcastOp::create(b, b.i32(), vec).getResult();
        };
        for (int64_t i = 0; i < mBlocks; ++i) {
          Value row = b.add(b.add(b.add(b.mul(warp, 16), b.mul(mHalf, 8)), r8), i * 64);
          for (int64_t nn = 0; nn < fragsPerChunk; nn += 2) {
            SmallVector<Value> regs;
            for (int64_t mat = 0; mat < 4; ++mat) {
              int64_t n = j * fragsPerChunk + nn + mat / 2, half = mat % 2;
              int64_t base = (i * (bn / 8) + n) * 4 + half * 2;
              regs.push_back(pack(values[base], values[base + 1]));
            }
            Value chunk = b.xori(b.add(mFrag, nn), swizzleTerm(r8)); // row % 8 == lane % 8
            Value offset = b.add(b.mul(row, S), b.mul(chunk, 16));
            NVVM::StMatrixOp::create(
                b, b.gep(buf, offset), regs,
                NVVM::MMALayoutAttr::get(b.getContext(), NVVM::MMALayout::row),
                NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
                NVVM::LdStMatrixEltTypeAttr::get(b.getContext(), NVVM::LdStMatrixEltType::B16));
          }
        }
      }
      for (int64_t i = 0; i < mBlocks && outBytes != 2; ++i) {
        for (int64_t half = 0; half < 2; ++half) {
          Value row = b.add(b.add(b.mul(warp, 16), g), i * 64 + half * 8);
          for (int64_t nn = 0; nn < fragsPerChunk; ++nn) {
            int64_t n = j * fragsPerChunk + nn;
            int64_t base = (i * (bn / 8) + n) * 4 + half * 2;
            Value byte = b.add(b.mul(q, 2 * outBytes), nn * 8 * outBytes);
            Value chunk = b.xori(b.divu(byte, 16), swizzleTerm(g)); // row % 8 == lane / 4
            Value offset = b.add(b.add(b.mul(row, S), b.mul(chunk, 16)), b.remu(byte, 16));
            Value vec = LLVM::UndefOp::create(b, vecTy);
            vec = LLVM::InsertElementOp::create(b, vec, convert(values[base]), b.c32(0));
            vec = LLVM::InsertElementOp::create(b, vec, convert(values[base + 1]), b.c32(1));
            LLVM::StoreOp::create(b, vec, b.gep(buf, offset), 2 * outBytes);
          }
        }
      }
    };
    auto coords = [&]() -> SmallVector<Value, 2> {
      return {b.add(n0, j * chunkCols), b.add(m0, rowOff)};
    };
    // Chunk j reuses the buffer of chunk j - 2, so one store may stay in flight; with an odd
    // number of chunks the previous tile's last store read buffer 0 as well, so the first
    // chunk of a tile waits for every store (as if there were one buffer).
    int64_t turns = (j == 0 && chunks % 2 == 1) ? 1 : 2;
    storeChunkThroughShared(b, {tmapD, buf, leader, barId, threads, turns}, write, coords);
  }
}

/// wgmma.mma_async m64nNk16 f32 += bf16 x bf16 with A from four registers (the mma.sync A
/// fragment of each warp) and K-major B from shared memory by descriptor. NVVM's op takes A
/// by descriptor only, so this form is written here as PTX: `acc` (N / 2 f32, read and
/// written), a0 ... a3, the descriptor, and scale-d (0: D = A x B) as a predicate.
static Value wgmmaRegisterA(KernelBuilder &b, Value acc, ArrayRef<Value> a, Value descB,
                            bool scaleD) {
  auto type = cast<LLVM::LLVMStructType>(acc.getType());
  int64_t n = type.getBody().size(); // N / 2
  SmallVector<Value> operands;
  std::string constraints, dList;
  for (int64_t e = 0; e < n; ++e) {
    operands.push_back(LLVM::ExtractValueOp::create(b, acc, e));
    constraints += (e ? ",=f" : "=f");
    dList += (e ? ", $" : "$") + std::to_string(e);
  }
  for (int64_t e = 0; e < n; ++e)
    constraints += "," + std::to_string(e);
  for (Value r : a)
    operands.push_back(r);
  operands.push_back(descB);
  operands.push_back(b.c32(scaleD ? 1 : 0));
  constraints += ",r,r,r,r,l,n";
  std::string asmText = llvm::formatv(
      "{{\n.reg .pred p;\nsetp.ne.b32 p, ${0}, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n{1}k16.f32.bf16.bf16 {{{2}}, {{${3}, ${4}, ${5}, "
      "${6}}, ${7}, p, 1, 1, 0;\n}\n",
      2 * n + 5, 2 * n, dList, 2 * n, 2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 4).str();
  auto op = LLVM::InlineAsmOp::create(b, type, operands, asmText, constraints,
                                      /*has_side_effects=*/true, /*is_align_stack=*/false,
                                      LLVM::tailcallkind::TailCallKind::None,
                                      LLVM::AsmDialectAttr(), ArrayAttr());
  return op.getResult(0);
}

// The block scale of E8M0 code `code` (i32) as a bf16x2 power of two (UpcastBits.h's
// scaleBits), or with NVFP4 of E4M3 code `code` as a bf16x2 value (e4m3ScaleBits, times 2^120);
// with `folded` (NVFP4), the E4M3 bits times 2^119 twice: the scale x 2^118, which also carries
// fp4ToBf16's 2^126 less 2^8 (the accumulators then hold D x 2^-8).
Value WgmmaEmitter::blockScale(Value code, bool folded) {
  auto v2bf16 = VectorType::get({2}, b.getBF16Type());
  auto splat = [&](uint16_t bits) {
    return LLVM::BitcastOp::create(b, v2bf16, b.c32(int32_t(bits * 0x10001u)));
  };
  if (nvfp4) {
    Value z = NVVM::PermuteOp::create(b, b.i32(), code, b.c32(0),
                                      b.c32(int32_t(tilegen::upcast::kE4M3ScaleSelector)),
                                      NVVM::PermuteMode::DEFAULT);
    Value bits = LLVM::BitcastOp::create(
        b, v2bf16,
        b.andi(arith::ShLIOp::create(b, z, b.c32(int32_t(tilegen::upcast::kE4M3.shift))),
               b.c32(int32_t(tilegen::upcast::kE4M3.mask))));
    if (!folded)
      return arith::MulFOp::create(b, bits, splat(tilegen::upcast::kE4M3.unbias));
    Value two119 = splat(tilegen::upcast::kTwo119);
    return arith::MulFOp::create(b, arith::MulFOp::create(b, bits, two119), two119);
  }
  Value sbits = b.select(b.eq(code, 0), b.c32(tilegen::upcast::kScaleOfCode0),
                         arith::ShLIOp::create(b, code, b.c32(7)));
  sbits = b.select(b.eq(code, 255), b.c32(tilegen::upcast::kScaleNaN), sbits);
  return LLVM::BitcastOp::create(b, v2bf16, b.mul(sbits, b.c32(0x10001)));
}

SmallVector<Value, 4> WgmmaEmitter::fp4Decode(Value word) {
  auto v2bf16 = VectorType::get({2}, b.getBF16Type());
  Value nibbles = b.c32(tilegen::upcast::kNibbleMask);
  Value lo = b.andi(word, nibbles);
  Value hi = b.andi(arith::ShRUIOp::create(b, word, b.c32(4)), nibbles);
  SmallVector<Value, 4> out;
  for (unsigned j = 0; j < 4; ++j) {
    Value z = NVVM::PermuteOp::create(b, b.i32(), lo, hi,
                                      b.c32(int32_t(tilegen::upcast::selector(j))),
                                      NVVM::PermuteMode::DEFAULT);
    Value bits = b.andi(b.mul(z, b.c32(tilegen::upcast::kSpread)),
                        b.c32(tilegen::upcast::kFieldMask));
    out.push_back(LLVM::BitcastOp::create(b, v2bf16, bits));
  }
  return out;
}

Value WgmmaEmitter::fp4Scale(Value x, Value scale, bool folded) {
  if (!folded) {
    auto v2bf16 = VectorType::get({2}, b.getBF16Type());
    Value two126 = LLVM::BitcastOp::create(
        b, v2bf16, b.c32(int32_t(tilegen::upcast::kTwo126 * 0x10001u)));
    x = arith::MulFOp::create(b, x, two126);
  }
  return arith::MulFOp::create(b, x, scale);
}

SmallVector<Value, 4> WgmmaEmitter::fp4ToBf16(Value word,
                                              llvm::function_ref<Value(unsigned)> scaleOf,
                                              bool folded) {
  SmallVector<Value, 4> out = fp4Decode(word);
  for (unsigned j = 0; j < 4; ++j)
    out[j] = fp4Scale(out[j], scaleOf(j), folded);
  return out;
}

// The upcast of FP4 B in registers (computing the tile transposed, D^T = B^T A^T). A K-slice's
// packed B (tile N rows of 32 bytes, K-major, no swizzle) is wgmma's M side: consumer c owns
// rows [c R, (c + 1) R) of it, R = tile N / consumers, as mBlocks m64 blocks; A's slice (tile
// M rows of 128 swizzled bytes, as the bf16 kernel's B) is wgmma's B, read by descriptor, so
// one m64nMk16 per block and K step covers the whole tile M.
//
// wgmma's register operand for m64nNk16 (bf16) is the mma.sync m16n8k16 A fragment per warp:
// warp w of the warpgroup holds rows 16 w + lane / 4 and + 8 of the m64 block; registers a0 /
// a1 hold elements 2 (lane % 4) and + 1 of K step s of the upper / lower row, a2 / a3 elements
// 8 + 2 (lane % 4) and + 1. In packed FP4 (element 2i in the low nibble of byte i) that is
// byte 8 s + lane % 4, and byte 8 s + 4 + lane % 4, of each row: byte t = lane % 4 of every
// 32-bit word of the row's 32 bytes (word 2 s + part, part 0 for a0 / a1, 1 for a2 / a3). A
// thread loads its two rows (two 16-byte shared loads each), gathers byte t of words 4 G ...
// 4 G + 3 into one word with three prmt (G = 0, 1: the slice's two E8M0 blocks of 32, or
// NVFP4's blocks 2 G and 2 G + 1 of 16), and converts it by UpcastBits.h's steps (as the
// converter does) into four bf16x2 registers, scale applied. The scale codes of slice k + 1
// (bytes of scale_b, docs/manifest.md; a row past N reads the last column's, a block past K
// the last block's) are loaded during slice k.
//
// Per slice: wait for the slot, load and convert all four K steps' registers (they are pinned
// in front of the wgmma fence), issue the four K steps' wgmmas as one batch, keep it in flight
// and release the previous slice's slot once its batch retired (every thread with its own
// arrival: every thread read the slot with its own shared loads). The conversion of slice g + 1
// thus runs while the tensor core multiplies slice g.
void WgmmaEmitter::consumerRegisters(Value c, Value bid, Value grid, Value numTiles,
                                     Value tilesM, Value tilesN, Value kTiles) {
  NVVM::SetMaxRegisterOp::create(b, v.mma.getRegs(), NVVM::SetMaxRegisterAction::increase);
  Type i32 = b.i32();
  auto v4i32 = VectorType::get({4}, i32);
  const int64_t accLen = bm / 2; // f32 accumulators per m64 block: wgmma N = tile M
  Value tInWg = b.remu(tid, 128);
  Value warp = b.divu(tInWg, 32), lane = b.remu(tInWg, 32);
  Value g8 = b.divu(lane, 4), t = b.remu(lane, 4);
  Value rowOff = b.mul(c, rowsPerConsumer);
  Value isLeader = b.eq(tInWg, 0);
  // wgmma reads its register operand asynchronously, and ptxas does not keep those registers
  // from being reassigned before the wait that retires the batch: left to itself, it puts the
  // next slice's conversion into the registers the previous, still running, batch reads. So
  // the registers of slice g stay live until after the wait that retires its batch: they
  // are pinned there (fenceScalars) and feed the address of slot g's release through
  // (xor of them) & (K >> 31), which is 0 for every K the kernel takes (K < 2^31) but not
  // known to ptxas, which must then give slice g + 1's conversion other registers.
  Value keepZero = arith::ShRUIOp::create(b, K, b.c32(31));
  auto release = [&](Value g, ArrayRef<Value> regsOfG) {
    Value bar = empty.at(b, b.remu(g, stages));
    if (!regsOfG.empty()) {
      SmallVector<Value> kept = fenceScalars(b, regsOfG);
      Value x = kept[0];
      for (Value r : ArrayRef<Value>(kept).drop_front())
        x = b.xori(x, r);
      bar = b.gep(bar, b.mul(b.andi(x, keepZero), 8));
    }
    NVVM::MBarrierArriveOp::create(b, Type(), bar, Value());
  };
  // prmt selectors: byte t of the first and of the second word into bytes 0 and 1; then the
  // low halves of two such words into one.
  Value gatherSel = b.add(t, b.mul(b.add(t, 4), 16));
  Value mergeSel = b.c32(0x5410);
  auto prmt = [&](Value x, Value y, Value sel) -> Value {
    return NVVM::PermuteOp::create(b, i32, x, y, sel, NVVM::PermuteMode::DEFAULT);
  };
  // This thread's local rows of B: (block i, half h) -> 64 i + 16 warp + 8 h + lane / 4.
  SmallVector<Value> localRows;
  for (int64_t i = 0; i < mBlocks; ++i)
    for (int64_t h = 0; h < 2; ++h)
      localRows.push_back(b.add(b.add(rowOff, b.add(b.mul(warp, 16), g8)), i * 64 + h * 8));
  // Scale blocks per slice and row: two of 32 (E8M0) or four of 16 (E4M3); their codes (E8M0)
  // or factors (E4M3) sit after B in the slot, a row's together (codeLoader).
  const int64_t blocksPerSlice = nvfp4 ? 4 : 2;
  auto factorRow = VectorType::get({blocksPerSlice}, i32);

  auto tileLoop = scf::ForOp::create(b, bid, numTiles, grid, ValueRange{b.c32(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(tileLoop.getBody());
  Unit unit = streamK.unitAt(tileLoop.getInductionVar(), kTiles);
  auto [tm, tn] = rasterTile(b, v, unit.tile, tilesM, tilesN);
  Value m0 = b.mul(tm, bm), n0 = b.mul(tn, bn);
  const int64_t rows = 2 * mBlocks, nCodes = 0;
  Value g0Tile = tileLoop.getRegionIterArgs()[0];
  Value kb = unit.kb, ke = unit.ke;

  // One slice: acc..., g, registers of slice g - 1 -> acc..., g + 1, registers of this slice.
  auto slice = [&](ArrayRef<Value> acc, Value g, ArrayRef<Value> /*codes*/,
                   ArrayRef<Value> prevRegs, bool zeroAcc, bool releasePrevious, Value /*k*/) {
    auto [slot, fullParity, emptyParity] = ringPosition(b, g, stages);
    waitBarrier(b, full.at(b, slot), fullParity);
    // The slice's scales. E4M3 (NVFP4): this thread's rows' factors (bf16x2 words written by
    // codeLoader), one 16-byte shared load per row (factor(q, r): block q's of row r), loaded
    // first: the multiplies that end the conversion wait for them, and left to itself ptxas
    // issues these loads after the decode, just before the multiplies, so each row's gather
    // selector takes (its first factor word & (K >> 31)), 0 for every K the kernel takes but
    // not known to ptxas. E8M0 (MXFP4): the rows' codes, one byte load per row and block
    // (code(q, r)), loaded where first used and before any branch that uses it. Then the
    // packed B words, two 16-byte shared loads per row, each loaded where first used.
    Value scaleArea = b.gep(slotB(slot), b.c32(bn * bk / 2));
    SmallVector<Value> factorWords(rows);
    if (nvfp4)
      for (int64_t r = 0; r < rows; ++r)
        factorWords[r] = LLVM::LoadOp::create(
            b, factorRow, b.gep(scaleArea, b.mul(localRows[r], 4 * blocksPerSlice)),
            4 * blocksPerSlice);
    auto factor = [&](int64_t q, int64_t r) -> Value {
      return LLVM::BitcastOp::create(
          b, VectorType::get({2}, b.getBF16Type()),
          LLVM::ExtractElementOp::create(b, factorWords[r], b.c32(q)));
    };
    // E8M0: block q's codes at byte q bn of the area, row n's at byte n (codeLoader).
    SmallVector<Value> codes(blocksPerSlice * rows);
    auto code = [&](int64_t q, int64_t r) -> Value {
      Value &c = codes[q * rows + r];
      if (!c)
        c = arith::ExtUIOp::create(
            b, i32,
            LLVM::LoadOp::create(b, b.getI8Type(),
                                 b.gep(scaleArea, b.add(localRows[r], b.c32(q * bn))), 1));
      return c;
    };
    Value bSlot = slotB(slot);
    SmallVector<SmallVector<Value, 8>> packed(rows);
    auto packedRow = [&](int64_t r) -> ArrayRef<Value> {
      if (packed[r].empty()) {
        Value src = b.gep(bSlot, b.mul(localRows[r], bk / 2));
        for (int64_t half = 0; half < 2; ++half) {
          Value vec = LLVM::LoadOp::create(b, v4i32, b.gep(src, b.c32(16 * half)), 16);
          for (int64_t e = 0; e < 4; ++e)
            packed[r].push_back(LLVM::ExtractElementOp::create(b, vec, b.c32(e)));
        }
      }
      return packed[r];
    };
    // The slice's registers decoded, before their scales (fp4Decode): decoded[n] for
    // register n = (i * 4 + s) * 4 + a (block i, K step s, register a), of scale block
    // blockOf[n] (E8M0 per 32: G; E4M3 per 16: 2 G + j / 2) of row rowOf[n]. Decoded ahead of
    // the scale choice below, which then holds the multiplies alone.
    SmallVector<Value> decoded(mBlocks * 16);
    SmallVector<int64_t> blockOf(mBlocks * 16), rowOf(mBlocks * 16);
    for (int64_t r = 0; r < rows; ++r) {
      int64_t i = r / 2, h = r % 2;
      ArrayRef<Value> w = packedRow(r);
      Value sel = gatherSel;
      if (nvfp4) {
        Value first = LLVM::ExtractElementOp::create(b, factorWords[r], b.c32(0));
        sel = arith::OrIOp::create(b, gatherSel, b.andi(first, keepZero));
      }
      for (int64_t G = 0; G < 2; ++G) {
        Value q = prmt(prmt(w[4 * G], w[4 * G + 1], sel), prmt(w[4 * G + 2], w[4 * G + 3], sel),
                       mergeSel);
        SmallVector<Value, 4> x = fp4Decode(q);
        for (unsigned j = 0; j < 4; ++j) {
          int64_t word = 4 * G + j, s = word / 2, part = word % 2;
          int64_t n = (i * 4 + s) * 4 + part * 2 + h;
          decoded[n] = x[j];
          blockOf[n] = nvfp4 ? 2 * G + j / 2 : G;
          rowOf[n] = r;
        }
      }
    }
    // scaleOf(q, r): the factor of block q of row r (blockScale, or with `folded`
    // foldedScaleBits or NVFP4's blockScale(code, true)).
    auto convertRows = [&](llvm::function_ref<Value(int64_t, int64_t)> scaleOf, bool folded) {
      SmallVector<Value> scales(blocksPerSlice * rows);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t q = 0; q < blocksPerSlice; ++q)
          scales[q * rows + r] = scaleOf(q, r);
      SmallVector<Value> regs(mBlocks * 16);
      for (size_t n = 0; n < regs.size(); ++n)
        regs[n] = LLVM::BitcastOp::create(
            b, i32, fp4Scale(decoded[n], scales[blockOf[n] * rows + rowOf[n]], folded));
      return regs;
    };
    auto twoSteps = [&](int64_t q, int64_t r) { return blockScale(code(q, r)); };
    SmallVector<Value> regs;
    if (nvfp4) {
      // E4M3 scales: always one multiply, by the scale x 2^118 (UpcastBits.h); the
      // accumulators hold D x 2^-8, which the epilogue's alpha undoes.
      regs = convertRows(factor, /*folded=*/true);
    } else {
      // E8M0: where every code this warp reads in the slice is at most kFoldMaxCode (block
      // scales up to 2, as model weights have), one multiply by the folded factor per
      // register (UpcastBits.h); else the two multiplies. The choice is the warp's (a vote),
      // so that the warp does not run both.
      SmallVector<Value> over;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t q = 0; q < blocksPerSlice; ++q)
          over.push_back(b.ult(b.c32(int32_t(tilegen::upcast::kFoldMaxCode)), code(q, r)));
      Value anyBig = warpAny(b, over);
      SmallVector<Type> regTypes(mBlocks * 16, i32);
      auto choice = scf::IfOp::create(b, regTypes, anyBig, /*withElse=*/true);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(&choice.getThenRegion().front());
      scf::YieldOp::create(b, convertRows(twoSteps, /*folded=*/false));
      b.setInsertionPointToStart(&choice.getElseRegion().front());
      auto v2bf16 = VectorType::get({2}, b.getBF16Type());
      auto foldedScale = [&](int64_t q, int64_t r) -> Value {
        Value bits = b.add(b.mul(code(q, r), b.c32(int32_t(tilegen::upcast::kFoldMul))),
                           b.c32(int32_t(tilegen::upcast::kFoldAdd)));
        return LLVM::BitcastOp::create(b, v2bf16, bits);
      };
      scf::YieldOp::create(b, convertRows(foldedScale, /*folded=*/true));
      regs.assign(choice.getResults().begin(), choice.getResults().end());
    }
    // The registers are computed here, not between the wgmmas (a non-wgmma instruction that
    // defines a wgmma input inside the batch makes ptxas serialise it).
    regs = fenceScalars(b, regs);
    NVVM::WgmmaFenceAlignedOp::create(b);
    SmallVector<Value> out(acc.begin(), acc.end());
    // One descriptor per slice; K step s's is its start field plus 2 s (smemDescriptorAt).
    Value aDesc = descriptor(slotA(slot));
    for (int64_t s = 0; s < bk / 16; ++s) {
      Value descB = smemDescriptorAt(b, aDesc, s * 32);
      for (int64_t i = 0; i < mBlocks; ++i)
        out[i] = wgmmaRegisterA(b, out[i], ArrayRef<Value>(regs).slice((i * 4 + s) * 4, 4),
                                descB, /*scaleD=*/!(zeroAcc && s == 0));
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b);
    NVVM::WgmmaWaitGroupSyncOp::create(b, 1);
    if (releasePrevious)
      release(b.sub(g, b.c32(1)), prevRegs);
    out.push_back(b.add(g, 1));
    out.append(regs);
    return out;
  };
  SmallVector<Type> carried(mBlocks, accStruct);
  carried.push_back(i32);
  auto anySlice = scf::IfOp::create(b, carried, b.ult(kb, ke), /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&anySlice.getThenRegion().front());
    SmallVector<Value> undef(mBlocks, LLVM::UndefOp::create(b, accStruct));
    SmallVector<Value> init = slice(undef, g0Tile, {}, {}, /*zeroAcc=*/true,
                                    /*releasePrevious=*/false, kb);
    const int64_t nRegs = mBlocks * 16;
    // state = acc..., g, codes..., registers of the last slice issued.
    auto step = [&](ArrayRef<Value> state, Value k) {
      return slice(state.take_front(mBlocks), state[mBlocks],
                   state.slice(mBlocks + 1, nCodes), state.take_back(nRegs),
                   /*zeroAcc=*/false, /*releasePrevious=*/true, k);
    };
    // Slices kb + 1 ... ke - 1 two per iteration (so that the registers carried from one
    // iteration to the next are one set, which LLVM keeps in place instead of copying: a
    // copy that defines a wgmma input while the batch is in flight makes ptxas serialise the
    // wgmmas), then the odd one left.
    Value first = b.add(kb, 1);
    Value pairs = b.divu(b.sub(ke, first), 2);
    Value pairEnd = b.add(first, b.mul(pairs, 2));
    auto kLoop = scf::ForOp::create(b, first, pairEnd, b.c32(2), init);
    {
      OpBuilder::InsertionGuard g3(b);
      b.setInsertionPointToStart(kLoop.getBody());
      SmallVector<Value> args(kLoop.getRegionIterArgs());
      Value k = kLoop.getInductionVar();
      SmallVector<Value> mid = step(args, k);
      scf::YieldOp::create(b, step(mid, b.add(k, 1)));
    }
    SmallVector<Value> state(kLoop.getResults());
    auto odd = scf::IfOp::create(b, TypeRange(ValueRange(state)), b.ult(pairEnd, ke),
                                 /*withElse=*/true);
    {
      OpBuilder::InsertionGuard g3(b);
      b.setInsertionPointToStart(&odd.getThenRegion().front());
      scf::YieldOp::create(b, step(state, pairEnd));
      b.setInsertionPointToStart(&odd.getElseRegion().front());
      scf::YieldOp::create(b, state);
    }
    state.assign(odd.getResults().begin(), odd.getResults().end());
    SmallVector<Value> res(state.begin(), state.begin() + mBlocks + 1);
    NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
    release(b.sub(res[mBlocks], b.c32(1)), ArrayRef<Value>(state).take_back(nRegs));
    scf::YieldOp::create(b, res);
    // No K-slices (K = 0): D = alpha * 0 + beta * C.
    b.setInsertionPointToStart(&anySlice.getElseRegion().front());
    Value zero = LLVM::UndefOp::create(b, accStruct);
    for (int64_t e = 0; e < accLen; ++e)
      zero = LLVM::InsertValueOp::create(b, zero, b.f32c(0.0), e);
    SmallVector<Value> zeros(mBlocks, zero);
    zeros.push_back(g0Tile);
    scf::YieldOp::create(b, zeros);
  }
  Value gEnd = anySlice.getResults()[mBlocks];

  // Epilogue. Accumulator e of block i: fragment q = e / 4 (columns 8 q + 2 (lane % 4) and + 1
  // of the transposed tile, rows of D), row half (e / 2) % 2 (row lane / 4 or + 8 of the warp's
  // 16, columns of D).
  SmallVector<Value> values;
  for (int64_t i = 0; i < mBlocks; ++i)
    for (int64_t e = 0; e < accLen; ++e)
      values.push_back(LLVM::ExtractValueOp::create(b, anySlice.getResults()[i], e));
  // NVFP4's accumulators hold D x 2^-8 (the folded scales): alpha x 2^8 undoes it, exactly.
  Value alphaD = nvfp4 ? arith::MulFOp::create(
                             b, alpha, b.f32c(std::ldexp(1.0, tilegen::upcast::kNvfp4FoldShift)))
                       : alpha;
  Value betaNonZero = arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, beta, b.f32c(0.0));
  auto ifBeta = scf::IfOp::create(b, betaNonZero, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g3(b);
    // beta != 0: each thread reads C and writes D element by element (D's row is the
    // fragment's column). C is read eight elements at a time ahead of their stores, from rows
    // clamped to M - 1 (a row past M reads some element of the column, not used), so that
    // the loads are in flight together.
    b.setInsertionPointToStart(&ifBeta.getThenRegion().front());
    int64_t outBytes = sizeInBytes(1, outType);
    Value colBase = b.add(m0, b.mul(t, 2));
    Value lastRow = b.sub(M, b.c32(1));
    constexpr int64_t kGroup = 8;
    const int64_t perColumn = 2 * (bm / 8);
    for (int64_t r = 0; r < rows; ++r) {
      int64_t i = r / 2, h = r % 2;
      Value dCol = b.add(n0, localRows[r]);
      auto ifCol = scf::IfOp::create(b, b.ult(dCol, N), false);
      OpBuilder::InsertionGuard g4(b);
      b.setInsertionPointToStart(&ifCol.getThenRegion().front());
      // Element x = 2 q + e: D row colBase + 8 q + e.
      SmallVector<Value> cv(perColumn);
      for (int64_t x = 0; x < perColumn; ++x) {
        int64_t q = x / 2, e = x % 2;
        for (int64_t l = x; x % kGroup == 0 && l < std::min(perColumn, x + kGroup); ++l) {
          Value row = b.minu(b.add(colBase, (l / 2) * 8 + l % 2), lastRow);
          Value off =
              b.mul(b.add(b.mul(b.zext64(row), b.zext64(N)), b.zext64(dCol)), outBytes);
          Value loaded = LLVM::LoadOp::create(b, outType, b.gep(ptrC, off));
          cv[l] = arith::ExtFOp::create(b, b.f32(), loaded);
        }
        Value dRow = b.add(colBase, q * 8 + e);
        auto ifRow = scf::IfOp::create(b, b.ult(dRow, M), false);
        OpBuilder::InsertionGuard g5(b);
        b.setInsertionPointToStart(&ifRow.getThenRegion().front());
        Value off = b.mul(b.add(b.mul(b.zext64(dRow), b.zext64(N)), b.zext64(dCol)), outBytes);
        Value v = values[i * accLen + q * 4 + h * 2 + e];
        Value y = arith::AddFOp::create(b, arith::MulFOp::create(b, alphaD, v),
                                        arith::MulFOp::create(b, beta, cv[x]));
        LLVM::StoreOp::create(b, convertOut(b, outType, y), b.gep(ptrD, off));
      }
    }
    // beta = 0: stmatrix .trans writes each 8 x 8 block of the transposed tile as D's rows
    // into a staging buffer of 64 rows of D by the block's 64 columns (128 bytes, swizzled as
    // D's tensor map wants: 16-byte unit x of row r at x ^ (r % 8)), and a TMA store writes
    // it. Chunk (i, j): block i, rows 64 j ... 64 j + 63 of the tile; buffers used in turn.
    b.setInsertionPointToStart(&ifBeta.getElseRegion().front());
    const int64_t bufBytes = 64 * 128;
    Value mine = b.gep(epilogue, b.mul(c, 2 * bufBytes));
    Value barId = b.add(c, 1), threads = b.c32(128);
    Value mat = b.divu(lane, 8), p8 = b.remu(lane, 8);
    Value mHalf = b.remu(mat, 2), mFrag = b.divu(mat, 2);
    auto vecTy = VectorType::get({2}, outType);
    auto pack = [&](Value x0, Value x1) {
      Value vec = LLVM::UndefOp::create(b, vecTy);
      vec = LLVM::InsertElementOp::create(
          b, vec, convertOut(b, outType, arith::MulFOp::create(b, alphaD, x0)), b.c32(0));
      vec = LLVM::InsertElementOp::create(
          b, vec, convertOut(b, outType, arith::MulFOp::create(b, alphaD, x1)), b.c32(1));
      return LLVM::BitcastOp::create(b, i32, vec).getResult();
    };
    // Lane l addresses row l % 8 of matrix l / 8 (matrix = half + 2 x fragment of the pair):
    // D row 8 (2 p + l / 16) + l % 8 of the chunk, 16-byte unit 2 warp + half.
    Value unitX = b.xori(b.add(b.mul(warp, 2), mHalf), p8);
    const int64_t chunksPerBlock = bm / 64, chunks = mBlocks * chunksPerBlock;
    for (int64_t ch = 0; ch < chunks; ++ch) {
      int64_t i = ch / chunksPerBlock, j = ch % chunksPerBlock;
      Value buf = b.gep(mine, b.c32((ch % 2) * bufBytes));
      auto write = [&] {
        for (int64_t pr = 0; pr < 4; ++pr) {
          SmallVector<Value> regsOut;
          for (int64_t m = 0; m < 4; ++m) {
            int64_t q = j * 8 + pr * 2 + m / 2, h = m % 2;
            int64_t base = i * accLen + q * 4 + h * 2;
            regsOut.push_back(pack(values[base], values[base + 1]));
          }
          Value row = b.add(b.mul(mFrag, 8), p8);
          Value offset = b.add(b.mul(b.add(row, pr * 16), 128), b.mul(unitX, 16));
          NVVM::StMatrixOp::create(
              b, b.gep(buf, offset), regsOut,
              NVVM::MMALayoutAttr::get(b.getContext(), NVVM::MMALayout::col),
              NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
              NVVM::LdStMatrixEltTypeAttr::get(b.getContext(), NVVM::LdStMatrixEltType::B16));
        }
      };
      auto coords = [&]() -> SmallVector<Value, 2> {
        return {b.add(n0, b.add(rowOff, i * 64)), b.add(m0, j * 64)};
      };
      int64_t turns = (ch == 0 && chunks % 2 == 1) ? 1 : 2;
      storeChunkThroughShared(b, {tmapD, buf, isLeader, barId, threads, turns}, write, coords);
    }
  }
  scf::YieldOp::create(b, ValueRange{gEnd});
  b.setInsertionPointAfter(tileLoop);
  drainTmaStores(b, isLeader);
}

LogicalResult WgmmaEmitter::emit() {
  tile::RingOp r = v.ring;
  bm = v.tileM(), bn = v.tileN(), bk = v.sliceK();
  stages = r.getSlots();
  slotBytes = r.getSlotBytes();
  bOffset = r.getBOffset();
  // The MMA's element (the ring's, except for an upcast A: FP8 in the ring, bf16 to wgmma).
  elemBytes = sizeInBytes(1, v.instr.getAType());
  pingPong = v.accumulators.getCount() == 2;
  consumers = v.mma.getLayout()[0];
  // The upcast in registers (no converted ring): consumers split B's tile N rows, each m64
  // block's wgmma spans the tile's M (GemmPlan's upcastRegisters).
  regUpcast = r.getUpcastScaleBAttr() && !r.getConvertSlots();
  rowsPerConsumer = regUpcast ? bn / consumers : pingPong ? bm : bm / consumers;
  mBlocks = rowsPerConsumer / 64;
  scalesInRing = v.blockScales() && promotedAccumulatorSets(mBlocks * bn / 2) == 2;
  outType = v.epilogueOp.getOutType();
  epilogueChunk = std::min<int64_t>(tmaStoreChunkBytes(bn, sizeInBytes(1, outType) * 8),
                           v.epilogueOp.getSmemBytes() / (consumers * 2 * rowsPerConsumer));
  if (regUpcast) {
    // Chunks of 64 rows of D by one m64 block's 64 columns (SM90.cpp, consumerRegisters).
    epilogueChunk = 128;
    if (sizeInBytes(1, outType) != 2 || bm % 64 != 0 || bm > 256 || rowsPerConsumer % 64 != 0 ||
        int64_t(v.epilogueOp.getSmemBytes()) < consumers * 2 * 64 * 128 || bk != 64 || pingPong)
      return r.emitOpError() << "not supported yet: the upcast in registers with tile [" << bm
                             << ", " << bn << ", " << bk << "], " << consumers
                             << " consumer warpgroups, output " << outType << " and "
                             << v.epilogueOp.getSmemBytes() << " bytes of staging";
  }
  if (epilogueChunk < 32)
    return v.epilogueOp.emitOpError()
           << "not supported yet: an epilogue staging of " << v.epilogueOp.getSmemBytes()
           << " bytes for " << consumers << " consumer warpgroups of " << rowsPerConsumer
           << " rows and tile N = " << bn << " (chunks of at least 32 bytes)";
  if (r.getALayout() != tile::Layout::Row || r.getBLayout() != tile::Layout::Col)
    return r.emitOpError() << "not supported yet: wgmma with a = "
                           << tile::stringifyLayout(r.getALayout())
                           << ", b = " << tile::stringifyLayout(r.getBLayout())
                           << " (the sm_90a lowering takes K-major operands: a = row, b = col)";
  if (v.epilogueOp.getOutLayout() != tile::Layout::Row)
    return v.epilogueOp.emitOpError() << "not supported yet: c = col on target sm_90a";
  Swizzle sw = bk * elemBytes == 128 ? Swizzle::B128
               : bk * elemBytes == 64 ? Swizzle::B64
                                      : Swizzle::B32;
  auto desc = encodeWgmmaSmemDesc(0, 16, 8 * bk * elemBytes, sw);
  if (!desc)
    return r.emitOpError() << llvm::toString(desc.takeError());
  descHigh = *desc;

  SmallVector<Type> fields((regUpcast ? bm : bn) / 2, b.f32());
  accStruct = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  b.setInsertionPointToEnd(module.getBody());
  Type i32 = b.i32();
  SmallVector<KernelParam> params = tmaKernelParams(
      b, v,
      TmaBoxes{bk, bm / v.op.getCluster()[1], bn / v.op.getCluster()[0],
               epilogueChunk / sizeInBytes(1, outType),
               regUpcast ? 64 : rowsPerConsumer});
  unsigned scaleParams = appendScaleParams(b, v, params);
  upcast = static_cast<bool>(r.getUpcastScaleBAttr());
  upcastA = static_cast<bool>(r.getUpcastScaleAAttr());
  nvfp4 = upcast && isa<Float8E4M3FNType>(r.getUpcastScaleBAttr().getType());
  bool nvfp4Tensor = nvfp4 && r.getUpcastScaleBAttr().getTensorType();
  if (upcast && !upcastA) {
    // Packed FP4 B: loaded without swizzle (32-byte rows); its E8M0 / E4M3 scales are bytes.
    for (NamedAttribute &a : params[1].extra)
      if (a.getName() == "swizzle")
        a = b.getNamedAttr("swizzle", b.getI64IntegerAttr(0));
    params.push_back({"scale_b", "ptr", "scale_b", "", b.ptr(1)});
    ++scaleParams;
    // NVFP4: the per-tensor f32, applied once with alpha.
    if (nvfp4Tensor) {
      params.push_back({"scale_b_tensor", "ptr", "scale_b_tensor", "", b.ptr(1)});
      ++scaleParams;
    }
  }
  // MXFP8: A and B FP8 in the ring with the 64-byte swizzle of their 64-byte rows (the
  // tensor maps' own), each with its E8M0 scale bytes.
  if (upcastA) {
    params.push_back({"scale_a", "ptr", "scale_a", "", b.ptr(1)});
    params.push_back({"scale_b", "ptr", "scale_b", "", b.ptr(1)});
    scaleParams += 2;
  }
  streamK.enabled = v.schedule.getGrid() == tile::Grid::StreamK;
  streamK.threads = consumers * 128;
  streamK.appendParams(params, bm, bn);
  LLVM::LLVMFuncOp func = createKernel(b, v, params);
  // One CTA per SM: the register cap at entry that setmaxnreg redistributes.
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));
  addTmaConstraints(func, elemBits(r.getAType()), elemBits(outType));
  if (upcast && !upcastA)
    addConstraint(func, "K", 32,
                  nvfp4 ? "packed FP4 rows of B are K / 2 bytes, which TMA needs in multiples "
                          "of 16, and the converter takes K in units of 32 (two E4M3 scale "
                          "blocks of 16)"
                        : "packed FP4 rows of B are K / 2 bytes, which TMA needs in multiples "
                          "of 16, and K is a whole number of E8M0 scale blocks of 32");
  if (upcastA)
    addConstraint(func, "K", 32, "K is a whole number of E8M0 scale blocks of 32");
  Block &entry = func.getBody().front();
  tmapA = entry.getArgument(0), tmapB = entry.getArgument(1), tmapD = entry.getArgument(2),
  ptrC = entry.getArgument(3), ptrD = entry.getArgument(4), M = entry.getArgument(5),
  N = entry.getArgument(6), K = entry.getArgument(7), alpha = entry.getArgument(8),
  beta = entry.getArgument(9);
  ValueRange scales = entry.getArguments().slice(10, scaleParams);

  tid = NVVM::ThreadIdXOp::create(b, i32);
  // Per-tensor operand scales multiply the product: D = (alpha sa sb) (A x B) + beta C.
  alpha = perTensorAlpha(b, v, alpha, scales);
  if (v.blockScales())
    scaleA = scales[0], scaleB = scales[1];
  if (upcast && !upcastA)
    scaleB = scales[0];
  if (upcastA)
    scaleA = scales[0], scaleB = scales[1];
  // NVFP4's per-tensor f32 multiplies alpha.
  if (nvfp4Tensor)
    alpha = arith::MulFOp::create(b, alpha, LLVM::LoadOp::create(b, b.f32(), scales[1], 4));
  clusterX = v.op.getCluster()[0], clusterY = v.op.getCluster()[1];
  clustered = clusterX * clusterY > 1;
  rank = clustered ? Value(NVVM::ClusterId::create(b, i32)) : b.c32(0);
  Value smem = dynamicSmemBase(b, module);
  ring = b.gep(smem, b.c32(r.getOffset()));
  epilogue = b.gep(smem, b.c32(v.epilogueOp.getOffset()));
  if (upcast && !regUpcast) {
    convert = b.gep(smem, b.c32(*r.getConvertOffset()));
    convertSlots = *r.getConvertSlots();
    convSlotBytes = (bn + (upcastA ? bm : 0)) * bk * 2;
    // The converter reads A and B of a slot as one sequence of rows.
    if (upcastA && bOffset != bm * bk)
      return r.emitOpError() << "not supported yet: the MXFP8 upcast with B at " << bOffset
                             << " in the slot (the converter needs it right after A, at "
                             << bm * bk << ")";
  }
  Value barBase = b.gep(smem, b.c32(r.getBarrierOffset()));
  full = Barriers{barBase};
  empty = Barriers{b.gep(barBase, b.c32(8 * stages))};
  turn = Barriers{b.gep(barBase, b.c32(16 * stages))};
  // The converted ring's barriers follow the two turn barriers per accumulator.
  int64_t convBars = 16 * stages + 16 * v.accumulators.getCount();
  convFull = Barriers{b.gep(barBase, b.c32(convBars))};
  convEmpty = Barriers{b.gep(barBase, b.c32(convBars + 8 * convertSlots))};
  Value fixup = turn.at(b, 0); // stream-K: a partial tile has arrived in shared memory
  // Thread 0 initialises the barriers; everyone (in a cluster, of every CTA) meets before use.
  SmallVector<BarrierInit> inits;
  // Block scales in the ring, and the upcast in registers: every consumer thread releases
  // (each read the slot with its own shared loads); in a cluster, thread 0 of each consumer
  // warpgroup of every peer that writes the slot as well (the consumer's release).
  int64_t groups = pingPong ? 1 : consumers;
  int64_t releasers = scalesInRing || regUpcast ? groups * 128 + groups * (writers() - 1)
                                                : groups * writers();
  for (int64_t s = 0; s < stages; ++s) {
    // Block scales: the scale loader's 32 arrivals besides the producer's (scaleLoader).
    // The upcast in registers: its code warps' (codeLoader).
    inits.push_back({full, s, regUpcast ? 1 + 32 * codeWarps() : scalesInRing ? 33 : 1});
    inits.push_back({empty, s, releasers});
  }
  if (pingPong)
    for (int64_t c = 0; c < consumers; ++c)
      inits.push_back({turn, c, 1});
  if (streamK) // stream-K runs without ping-pong: the first turn barrier is its fix-up barrier,
                // on which every consumer thread arrives with its share of a partial tile
    inits.push_back({turn, 0, consumers * 128});
  // The converted ring: the converter's 96 threads arrive on full, each consumer warpgroup
  // releases empty (as the ring's).
  for (int64_t s = 0; s < convertSlots; ++s) {
    inits.push_back({convFull, s, 96});
    inits.push_back({convEmpty, s, releasers});
  }
  setupBarriers(b, tid, inits, /*cluster=*/clustered, {}, ValueRange{tmapA, tmapB, tmapD});

  // The loops run over scheduling units: output tiles, or in a cluster, its X x Y block of
  // tiles (clusterTile; a tile past M or N is all zero-filled loads and clipped stores).
  Value tilesM = b.ceilDiv(M, clusterX * bm), tilesN = b.ceilDiv(N, clusterY * bn);
  Value numTiles = b.mul(tilesM, tilesN), kTiles = b.ceilDiv(K, bk);
  Value bid = NVVM::BlockIdXOp::create(b, i32), grid = NVVM::GridDimXOp::create(b, i32);
  if (clustered) {
    bid = b.divu(bid, clusterX * clusterY);
    grid = b.divu(grid, clusterX * clusterY);
  }
  if (streamK)
    streamK.setUp(bid, grid, numTiles, kTiles, entry.getArgument(10 + scaleParams),
                  entry.getArgument(11 + scaleParams), ring, fixup, bm, bn);
  // The warpgroup index, made visibly warp-uniform (lane 0's value) so that ptxas can see the
  // role branches and everything derived from the consumer index as uniform; a wgmma on a path
  // it must treat as divergent gets serialised.
  Value wg = uniform(b.divu(tid, 128));
  auto roles = scf::IfOp::create(b, b.eq(wg, 0), true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&roles.getThenRegion().front());
    producer(bid, grid, numTiles, tilesM, tilesN, kTiles);
    b.setInsertionPointToStart(&roles.getElseRegion().front());
    if (regUpcast)
      consumerRegisters(b.sub(wg, b.c32(1)), bid, grid, numTiles, tilesM, tilesN, kTiles);
    else
      consumer(b.sub(wg, b.c32(1)), bid, grid, numTiles, tilesM, tilesN, kTiles);
  }
  // The peers multicast into this CTA's shared memory and arrive on its barriers until they
  // are done. Their multicasts are all consumed here (the consumers wait for every slice's
  // bytes), and their releases all observed (the producer drains the ring), before this CTA's
  // threads get here; no CTA of a cluster leaves before all are, with a relaxed arrive (a
  // releasing one costs every thread a MEMBAR.ALL.GPU, which here orders nothing the drain
  // does not).
  if (clustered)
    syncCtaOrCluster(b, /*cluster=*/true, /*relaxed=*/true);
  LLVM::ReturnOp::create(b, ValueRange{});
  return success();
}

LogicalResult lowering::lowerWgmma(PipelineView &view, ModuleOp module) {
  WgmmaEmitter emitter(view, module);
  return emitter.emit();
}
