//===- StreamK.cpp - stream-K for the wgmma lowering (sm_90a) -------------===//
//
// The schedule (setUp, unitAt) and the partial tiles (storePartial, addPartials) of
// grid = stream_k; StreamK.h says what it does, SM90.cpp's consumer calls it.
//
//===----------------------------------------------------------------------===//

#include "StreamK.h"

using namespace mlir;
using namespace tilegen;
using namespace tilegen::lowering;

void StreamK::appendParams(SmallVectorImpl<KernelParam> &params, int64_t bm, int64_t bn) {
  if (!enabled)
    return;
  auto scratch = [&](StringRef name, int64_t bytes, bool zero) {
    return KernelParam{name.str(), "scratch", "", "", b.ptr(1),
                       {b.getNamedAttr("bytes_per_cta", b.getI64IntegerAttr(bytes)),
                        b.getNamedAttr("zero", b.getBoolAttr(zero))}};
  };
  params.push_back(scratch("workspace", bm * bn * 4, false));
  params.push_back(scratch("flags", 4, true));
}

void StreamK::setUp(Value &bid, Value &grid, Value &numTiles, Value kTiles, Value ws,
                    Value flags, Value ring, Value fixup, int64_t bm, int64_t bn) {
  this->ws = ws, this->flags = flags, this->ring = ring, this->fixup = fixup;
  this->bm = bm, this->bn = bn;
  // Stream-K as a tail treatment. With T tiles on P CTAs, the first floor(T / P) waves are
  // whole tiles in the persistent order (CTA i: tiles i, i + P, ...), which keeps the L2
  // reuse of the grouped raster. The r = T mod P tiles left can have their r x kTiles
  // K-slices split evenly over S CTAs, CTA i < S taking [i R / S, (i + 1) R / S) with
  // R = r x kTiles; a tile cut between CTAs is summed through the workspace (addPartials).
  // A tile is split at most kTiles / 8 ways (at least 1, at most 16). After full waves,
  // S = min(P, r x split), used when it gives the tail at least a tenth more CTAs
  // (S >= 10 r / 9) and the tail fills at most half a wave (2 r <= P). With no full wave,
  // S = r x min(floor(P / r), split): every tile in the same whole number of parts, used when
  // that is two or more (2 r <= P). On the H200 a split last wave ran 3072^3 (r = 24 of 132)
  // 1.12x, 4096x2112x7168 (24) 1.17x and 2048x7168x16384 (52) 1.08x faster than whole tail
  // tiles; with fuller tails (76, 96) it gained 0-1%. With no full wave, S = min(P, r x split)
  // ran 0.93x, 0.93x, 0.91x and 0.64x at r = 52, 64, 96 and 112 (2.5, 2.1, 1.4 and 1.2 parts a
  // tile; H100) against the same tile unsplit. Whole parts ran 1.02-1.49x faster than
  // S = min(P, r x split) with three parts a tile or more, else unsplit, at the twelve tiles
  // and shapes where the two differ (r = 27 to 66, 2 to 4 parts), and at 0.92-1.35x the
  // persistent kernel's speed (H100, bench/RESULTS.md).
  // Otherwise S = r: the first r CTAs take one tail tile each, as the persistent grid would.
  Value r = b.remu(numTiles, grid);
  dpTiles = b.divu(numTiles, grid);
  tailBase = b.sub(numTiles, r);
  Value split = b.minu(arith::MaxUIOp::create(b, b.divu(kTiles, 8), b.c32(1)), b.c32(16));
  // With no full wave, a whole number of CTAs per tile, min(floor(P / r), split), so that
  // every tile is cut into the same number of parts; after full waves, min(P, r x split).
  Value perTile = b.minu(b.divu(grid, arith::MaxUIOp::create(b, r, b.c32(1))), split);
  Value spread = b.select(b.eq(dpTiles, 0), b.mul(r, perTile), b.minu(grid, b.mul(r, split)));
  // The split's arithmetic below is in 32 bits for grids of at most 2^16 CTAs (the launch
  // rule's grid is the SM count); a larger grid runs the tail unsplit.
  Value tailOk = b.select(
      b.eq(dpTiles, 0),
      arith::CmpIOp::create(b, arith::CmpIPredicate::uge, spread, b.mul(r, 2)).getResult(),
      arith::CmpIOp::create(b, arith::CmpIPredicate::ule, b.mul(r, 2), grid).getResult());
  Value worth = arith::AndIOp::create(
      b, arith::AndIOp::create(b, b.ult(grid, b.c32(1 << 16)), tailOk),
      arith::CmpIOp::create(b, arith::CmpIPredicate::uge, b.mul(spread, 9), b.mul(r, 10)));
  Value S = b.select(worth, spread, r);
  this->S = S;
  this->r = r;
  // Split: CTA i < S starts at tail K-slice floor(i R / S), R = r kTiles, kept as (tile,
  // slice): floor(i r / S) and floor((i r mod S) kTiles / S) < kTiles, the latter as
  // (i r mod S) kq + floor((i r mod S) kr / S) with kTiles = kq S + kr. Every product is below
  // 2^32 (i, r, S at most the grid, below 2^16; (i r mod S) kq <= kTiles). Unsplit: CTA i < r
  // takes tile i, (i, 0) to (i + 1, 0). No 64-bit division: ptxas calls a subroutine for one,
  // and its result, no longer provably warp-uniform, would take the main loop's slot and
  // descriptor arithmetic off the uniform datapath.
  Value Sd = arith::MaxUIOp::create(b, S, b.c32(1)); // a divisor; S = 0 gives the empty tail
  Value kq = b.divu(kTiles, Sd), kr = b.remu(kTiles, Sd);
  auto position = [&](Value i) -> std::pair<Value, Value> {
    Value ir = b.mul(i, r);
    Value q = b.divu(ir, Sd), rest = b.remu(ir, Sd);
    Value off = b.add(b.mul(rest, kq), b.divu(b.mul(rest, kr), Sd));
    return {b.select(worth, q, i), b.select(worth, off, b.c32(0))};
  };
  Value mine = b.minu(bid, S); // CTAs from S on get the empty range
  auto [sQ, sOff] = position(mine);
  auto [eQ, eOff] = position(b.add(mine, b.c32(1)));
  Value inTail = b.ult(bid, S);
  startQ = sQ, startOff = sOff;
  stopQ = b.select(inTail, eQ, sQ);
  stopOff = b.select(inTail, eOff, sOff);
  auto eqv = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, x, y).getResult();
  };
  Value nonEmpty = arith::OrIOp::create(
      b, b.ult(startQ, stopQ),
      arith::AndIOp::create(b, eqv(startQ, stopQ), b.ult(startOff, stopOff)));
  // The tail tiles this CTA touches: [startQ, stopQ], or [startQ, stopQ) when its range ends
  // on a tile boundary.
  Value tEnd = b.select(
      nonEmpty, b.add(stopQ, arith::ExtUIOp::create(b, b.i32(), b.ult(b.c32(0), stopOff))),
      startQ);
  tailFirst = startQ;
  // The loops below run over units [bid, numTiles) step grid: [0, dpTiles + tail tiles).
  numTiles = b.add(dpTiles, b.sub(tEnd, startQ));
  bid = b.c32(0);
  grid = b.c32(1);
}

StreamK::Unit StreamK::unitAt(Value u, Value kTiles) {
  if (!enabled)
    return {u, b.c32(0), kTiles, Value()};
  // Units [0, dpTiles) are whole tiles bid + u * grid; the rest are the tail tiles this CTA's
  // K-slices touch, in order.
  Value bid = NVVM::BlockIdXOp::create(b, b.i32());
  Value grid = NVVM::GridDimXOp::create(b, b.i32());
  Value isDp = b.ult(u, dpTiles);
  Value local = b.add(tailFirst, b.sub(u, dpTiles));
  Value tile = b.select(isDp, b.add(bid, b.mul(u, grid)), b.add(tailBase, local));
  // The first tail tile may start inside it (kb > 0), the last one end inside it (ke < kTiles).
  auto eqv = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, x, y).getResult();
  };
  Value kb = b.select(eqv(local, startQ), startOff, b.c32(0));
  Value ke = b.select(eqv(local, stopQ), stopOff, kTiles);
  return {tile, b.select(isDp, b.c32(0), kb), b.select(isDp, kTiles, ke), local};
}

// Stream-K partial tiles: the `threads` consumer threads (128 per consumer warpgroup) keep their
// accumulators; thread i's values 4q .. 4q + 3 go to 16 bytes at (q * threads + i) * 16 of the
// CTA's slice (bm x bn x 4 bytes, filled exactly), so a warp's vector store covers 512
// contiguous bytes.
static constexpr int kPartialBarrier = 3; // named barrier of the consumer warpgroups

void StreamK::storePartial(ArrayRef<Value> values, Value c, Value tInWg) {
  Value idx = b.add(b.mul(c, 128), tInWg);
  Value bid = NVVM::BlockIdXOp::create(b, b.i32());
  Value mine = b.gep(ws, b.mul(b.zext64(bid), (int64_t)bm * bn * 4));
  auto vecTy = VectorType::get({4}, b.f32());
  // One base address and constant offsets (folded into the stores' immediates).
  Value base = b.gep(mine, b.mul(b.zext64(idx), 16));
  for (int64_t q = 0; q < (int64_t)values.size() / 4; ++q) {
    Value vec = LLVM::UndefOp::create(b, vecTy);
    for (int64_t e = 0; e < 4; ++e)
      vec = LLVM::InsertElementOp::create(b, vec, values[4 * q + e], b.c32(e));
    LLVM::StoreOp::create(b, vec, b.gep(base, b.c64(q * threads * 16)), 16);
  }
  // Publish: after the consumers' barrier, one thread raises the flag with a GPU-scope
  // release, which orders every consumer thread's stores before it (the barrier makes them
  // part of its history).
  NVVM::BarrierOp::create(b, Type(), b.c32(kPartialBarrier), b.c32(threads), nullptr, Value());
  auto leader = scf::IfOp::create(b, b.eq(b.add(c, tInWg), 0), false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&leader.getThenRegion().front());
  LLVM::StoreOp::create(b, b.c32(1), b.gep(flags, b.mul(b.zext64(bid), 4)), 4,
                        /*isVolatile=*/false, /*isNonTemporal=*/false,
                        /*isInvariantGroup=*/false, LLVM::AtomicOrdering::release, "device");
}

SmallVector<Value> StreamK::addPartials(ArrayRef<Value> values, Value c, Value tInWg,
                                        Value local, Value ke, Value kTiles) {
  // The CTAs after this one that hold K-slices of tail tile `local`: up to the owner of its
  // last slice x = (local + 1) kTiles - 1, the largest i with floor(i R / S) <= x, which is
  // ceil((x + 1) S / R) - 1 = ceil((local + 1) S / r) - 1 (kTiles cancels; 32 bits: local < r,
  // S <= the grid). Every one of them holds slices (a CTA's share is at least 8 slices,
  // setUp()). r > 0 wherever a tile is split; the max keeps the unused quotient defined.
  Value rd = arith::MaxUIOp::create(b, r, b.c32(1));
  Value owner = b.sub(b.divu(b.add(b.mul(b.add(local, 1), S), b.sub(rd, b.c32(1))), rd), b.c32(1));
  Value bid = NVVM::BlockIdXOp::create(b, b.i32());
  Value first = b.add(bid, 1);
  // A whole tile (data-parallel, or a tail tile inside this CTA's range) has no peers.
  Value end = b.select(b.ult(ke, kTiles), b.add(owner, 1), first);
  Value idx = b.add(b.mul(c, 128), tInWg);
  int64_t bytes = bm * bn * 4;
  // Every consumer thread copies bytes / threads of the partial (16-byte multiples: bm x bn
  // is a multiple of 8 x 128 per 128 threads) and arrives on the fix-up barrier, which counts
  // the consumer threads.
  int64_t chunk = bytes / threads;
  assert(chunk * threads == bytes && chunk % 16 == 0 && "partial tile not split in 16-byte chunks");
  auto loop = scf::ForOp::create(b, first, end, b.c32(1), values);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value other = loop.getInductionVar();
  // The partial comes into shared memory by bulk copies, into the ring: a tile with peers is
  // its CTA's last unit, so once the consumer warpgroups are past this barrier (their last
  // wgmmas retired, the previous partial read) no slot is read or written any more. Plain
  // loads from global memory would be limited to a few 16-byte loads in flight per thread by
  // the 128 accumulator registers.
  //
  // No thread-divergent code here: with a single thread spinning and copying (a branch on the
  // thread index inside this loop), ptxas no longer proves the consumers' main loop
  // warp-uniform and computes its slot addresses and wgmma descriptors in vector registers
  // (R2UR before every wgmma); so every consumer thread spins (its exit decided by a warp vote,
  // hence uniform), copies its share and clears the flag.
  NVVM::BarrierOp::create(b, Type(), b.c32(kPartialBarrier), b.c32(threads), nullptr, Value());
  Value flag = b.gep(flags, b.mul(b.zext64(other), 4));
  {
    // Spin until the other CTA has published its partial. The GPU-scope acquire orders the
    // copy after the other CTA's stores; the proxy fence, the generic-proxy writes before the
    // async-proxy (TMA) read.
    auto wait = scf::WhileOp::create(b, TypeRange{}, ValueRange{});
    b.createBlock(&wait.getBefore());
    Value seen = LLVM::LoadOp::create(b, b.i32(), flag, 4, /*isVolatile=*/false,
                                      /*isNonTemporal=*/false, /*isInvariant=*/false,
                                      /*isInvariantGroup=*/false, LLVM::AtomicOrdering::acquire,
                                      "device");
    Value pending = warpAny(b, {b.eq(seen, 0)});
    scf::ConditionOp::create(b, pending, ValueRange{});
    Block *after = b.createBlock(&wait.getAfter());
    b.setInsertionPointToStart(after);
    NVVM::NanosleepOp::create(b, b.c32(32));
    scf::YieldOp::create(b, ValueRange{});
    b.setInsertionPointAfter(wait);
    NVVM::FenceProxyOp::create(b, NVVM::ProxyKind::async_global, nullptr);
    Value theirs = b.gep(ws, b.add(b.mul(b.zext64(other), bytes), b.mul(b.zext64(idx), chunk)));
    NVVM::MBarrierArriveExpectTxOp::create(b, Type(), fixup, b.c32(chunk),
                                           NVVM::MemScopeKind::CTA, false, Value());
    NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
        b, LLVM::AddrSpaceCastOp::create(b, b.ptr(7), b.gep(ring, b.mul(idx, chunk))), theirs,
        fixup, b.c32(chunk), Value(), Value());
  }
  // The fix-up barrier completes once per partial: parity (other - first) & 1.
  waitBarrier(b, fixup, b.remu(b.sub(other, first), 2));
  // Read and published: clear the flag for the next launch (every thread stores the same 0).
  LLVM::StoreOp::create(b, b.c32(0), flag, 4, /*isVolatile=*/true);
  auto vecTy = VectorType::get({4}, b.f32());
  SmallVector<Value> sum(loop.getRegionIterArgs().begin(), loop.getRegionIterArgs().end());
  // One base address and constant offsets, which fold into the loads' immediates (separate
  // addresses would be hoisted out of the loop and held in registers).
  Value mine = b.gep(ring, b.mul(idx, 16));
  for (int64_t q = 0; q < (int64_t)sum.size() / 4; ++q) {
    Value vec = LLVM::LoadOp::create(b, vecTy, b.gep(mine, b.c32(q * threads * 16)), 16);
    for (int64_t e = 0; e < 4; ++e)
      sum[4 * q + e] = arith::AddFOp::create(b, sum[4 * q + e],
                                             LLVM::ExtractElementOp::create(b, vec, b.c32(e)));
  }
  scf::YieldOp::create(b, sum);
  return SmallVector<Value>(loop.getResults().begin(), loop.getResults().end());
}
