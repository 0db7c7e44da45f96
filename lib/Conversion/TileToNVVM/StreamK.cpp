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
  // A tile is split at most kTiles / 8 ways (at least 1, at most 16). The split is used
  // only when there is no full wave (T < P, e.g. M = 128 with N = 8192: 32 tiles for 132
  // SMs) and it gives the tail at least a tenth more CTAs (S >= 10 r / 9). Splitting the
  // tail after full waves was no faster on the H200 for any shape of the square and LLM
  // sweep (bench/RESULTS.md, 2026-11-29) and up to 9% slower: the partial tiles' round trips
  // cost more than the idle part of the last wave. Otherwise S = r: the first r CTAs take one
  // tail tile each, as the persistent grid would.
  Value r = b.remu(numTiles, grid);
  dpTiles = b.divu(numTiles, grid);
  tailBase = b.sub(numTiles, r);
  Value split = b.minu(arith::MaxUIOp::create(b, b.divu(kTiles, 8), b.c32(1)), b.c32(16));
  Value spread = b.minu(grid, b.mul(r, split));
  Value worth = arith::AndIOp::create(
      b, b.eq(dpTiles, 0),
      arith::CmpIOp::create(b, arith::CmpIPredicate::uge, b.mul(spread, 9), b.mul(r, 10)));
  Value S = b.select(worth, spread, r);
  skCtas = b.zext64(arith::MaxUIOp::create(b, S, b.c32(1))); // a divisor; S = 0 gives R = 0
  skTotal = b.mul(b.zext64(r), b.zext64(kTiles));
  Value mine = b.zext64(b.minu(bid, S)); // CTAs from S on get the empty range [R, R)
  Value skStart = b.divu(b.mul(mine, skTotal), skCtas);
  Value skStop = b.divu(b.mul(b.add(mine, b.c64(1)), skTotal), skCtas);
  skStop = b.select(b.ult(bid, S), skStop, skStart);
  Value k64 = b.zext64(kTiles);
  Value tFirst = b.divu(skStart, k64);
  Value tEnd = b.select(b.ult(skStart, skStop),
                        b.add(b.divu(b.sub(skStop, b.c64(1)), k64), b.c64(1)), tFirst);
  // The schedule in 32 bits from here (the tail has fewer than 2^31 K-slices: K < 2^31
  // elements and r < P).
  auto trunc = [&](Value x) { return arith::TruncIOp::create(b, b.i32(), x).getResult(); };
  tailFirst = trunc(tFirst);
  skStart32 = trunc(skStart);
  skStop32 = trunc(skStop);
  // The loops below run over units [bid, numTiles) step grid: [0, dpTiles + tail tiles).
  numTiles = b.add(dpTiles, trunc(b.sub(tEnd, tFirst)));
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
  Value base = b.mul(local, kTiles);
  // Only the first tail tile can start inside the CTA's range (kb > 0); every tail tile it
  // touches starts before its stop. (min keeps the unsigned differences from wrapping.)
  Value kb = b.sub(skStart32, b.minu(base, skStart32));
  Value ke = b.minu(b.sub(skStop32, b.minu(base, skStop32)), kTiles);
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
  // last slice, owner(x) = ceil((x + 1) P / T) - 1 with P stream-K CTAs and T tail slices.
  // Every one of them holds slices (a CTA's share is at least 8 slices, setUp()).
  Value P = skCtas;
  Value T = skTotal;
  Value last = b.sub(b.mul(b.zext64(b.add(local, 1)), b.zext64(kTiles)), b.c64(1));
  Value owner = b.sub(b.divu(b.add(b.mul(b.add(last, 1), P), b.sub(T, b.c64(1))), T), b.c64(1));
  Value bid = NVVM::BlockIdXOp::create(b, b.i32());
  Value first = b.add(bid, 1);
  // A whole tile (data-parallel, or a tail tile inside this CTA's range) has no peers.
  Value end = b.select(b.ult(ke, kTiles), b.add(arith::TruncIOp::create(b, b.i32(), owner), 1),
                       first);
  Value idx = b.add(b.mul(c, 128), tInWg);
  Value isLeader = b.eq(b.add(c, tInWg), 0);
  int64_t bytes = bm * bn * 4;
  auto loop = scf::ForOp::create(b, first, end, b.c32(1), values);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value other = loop.getInductionVar();
  // The partial comes into shared memory in one bulk copy, into the ring: a tile with peers is
  // its CTA's last unit, so once the consumer warpgroups are past this barrier (their last
  // wgmmas retired, the previous partial read) no slot is read or written any more. Plain
  // loads from global memory would be limited to a few 16-byte loads in flight per thread by
  // the 128 accumulator registers.
  NVVM::BarrierOp::create(b, Type(), b.c32(kPartialBarrier), b.c32(threads), nullptr, Value());
  Value flag = b.gep(flags, b.mul(b.zext64(other), 4));
  {
    auto ifOp = scf::IfOp::create(b, isLeader, false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    // Spin until the other CTA has published its partial. The GPU-scope acquire orders the
    // copy after the other CTA's stores; the proxy fence, the generic-proxy writes before the
    // async-proxy (TMA) read.
    auto wait = scf::WhileOp::create(b, TypeRange{}, ValueRange{});
    b.createBlock(&wait.getBefore());
    Value seen = LLVM::LoadOp::create(b, b.i32(), flag, 4, /*isVolatile=*/false,
                                      /*isNonTemporal=*/false, /*isInvariant=*/false,
                                      /*isInvariantGroup=*/false, LLVM::AtomicOrdering::acquire,
                                      "device");
    scf::ConditionOp::create(b, b.eq(seen, 0), ValueRange{});
    Block *after = b.createBlock(&wait.getAfter());
    b.setInsertionPointToStart(after);
    NVVM::NanosleepOp::create(b, b.c32(32));
    scf::YieldOp::create(b, ValueRange{});
    b.setInsertionPointAfter(wait);
    NVVM::FenceProxyOp::create(b, NVVM::ProxyKind::async_global, nullptr);
    Value theirs = b.gep(ws, b.mul(b.zext64(other), bytes));
    NVVM::MBarrierArriveExpectTxOp::create(b, Type(), fixup, b.c32(bytes),
                                           NVVM::MemScopeKind::CTA, false, Value());
    NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
        b, LLVM::AddrSpaceCastOp::create(b, b.ptr(7), ring), theirs, fixup, b.c32(bytes),
        Value(), Value());
  }
  // The fix-up barrier completes once per partial: parity (other - first) & 1.
  waitBarrier(b, fixup, b.remu(b.sub(other, first), 2));
  {
    // Read and published: clear the flag for the next launch.
    auto ifOp = scf::IfOp::create(b, isLeader, false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    LLVM::StoreOp::create(b, b.c32(0), flag, 4, /*isVolatile=*/true);
  }
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
