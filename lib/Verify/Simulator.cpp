//===- Simulator.cpp - run a tilegen kernel's PTX and check its synchronisation --------===//
//
// One schedule of the grid is run at a time. Threads are interpreted one by one; a thread
// runs until it executes an operation other threads can observe (a barrier operation, an
// asynchronous copy or MMA, a flag in global memory), blocks, or exits, and then the schedule
// picks the next thread or asynchronous completion (a TMA load's complete_tx, a
// tcgen05.commit's arrival) to run. Only the registers that control flow, addresses and
// barrier operands depend on are kept (`relevance` below); the rest of the math is skipped.
//
// Ordering is decided with vector clocks: one component per thread and one per mbarrier
// (counting its completed phases). An access remembers who made it: a thread at a clock
// value, or an asynchronous operation that ends when its wait (wait_group, wait::ld), its
// mbarrier phase (TMA loads, tcgen05.commit) or its bulk group completes. A later access
// that conflicts with it (write after read, read after write, write after write) must know
// that end through its own clock, else the checker reports the two accesses. Generic-proxy
// writes read by the async proxy (TMA stores, wgmma, tcgen05.mma operands) must in addition
// be followed, in the writing thread, by a fence.proxy.async that the reader knows.
//
//===--------------------------------------------------------------------------------------===//

#include "tilegen/Verify/Protocol.h"

#include "Decode.h"

#include "llvm/ADT/bit.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <random>

using namespace tilegen::verify;
using llvm::StringRef;

namespace {

using VC = std::vector<uint32_t>;

// Address encoding of the interpreter (values in registers).
// shared::cluster addresses fit in 32 bits, as on the GPU (kernels truncate them): the tag,
// the CTA rank in bits 24-30 and the offset.
constexpr uint64_t kClusterTag = 1ull << 31;
constexpr uint64_t kGenericShared = 1ull << 44;
constexpr uint64_t kParamTag = 1ull << 48; // | index << 16 | offset
constexpr uint64_t kGlobalTag = 1ull << 52; // | (param + 1) << 40 | offset
constexpr unsigned kLine = 16;             // bytes per tracked shared-memory line
constexpr unsigned kTmemCols = 512;
constexpr unsigned kMaxBarriersPerCta = 64;

struct Access {
  int32_t op = -1; // asynchronous operation, or -1 for the thread's own access
  int32_t thread = -1;
  uint32_t epoch = 0;
  int32_t stmt = -1;
  bool generic = true;
  bool valid = false;
  uint16_t mask = 0xffff; ///< the bytes of the line accessed

  /// The access of asynchronous operation `op`, issued by `thread` at `stmt`, through the
  /// generic proxy or the async one.
  static Access ofOp(int op, int thread, int stmt, bool generic) {
    Access a;
    a.op = op;
    a.thread = thread;
    a.stmt = stmt;
    a.generic = generic;
    return a;
  }
};

/// A tracked line: the last writes of its bytes (disjoint masks) and the reads since.
struct Line {
  llvm::SmallVector<Access, 1> ws;
  llvm::SmallVector<Access, 2> reads;
};

struct AsyncOp {
  Op kind;
  int issuer;
  int stmt;
  bool done = false;
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 2> ends; // (agent, clock) known => done
  // Loads completing on an mbarrier.
  int barrier = -1;
  unsigned bytes = 0;
  int dstCta = -1; ///< the CTA whose shared memory a load writes
  unsigned issued = 0; ///< wgmma: threads of the warpgroup that have issued it
};

struct Event {
  enum Kind { LoadDone, CommitArrive } kind;
  int thread;
  int stmt;
  std::vector<int> ops;
  std::vector<int> barriers;
  VC vc;
  bool fired = false;
  uint64_t since = 0; ///< exploration: the first scheduling step at which it may fire
};

struct MBar {
  int cta = 0;
  uint32_t off = 0;
  bool init = false;
  unsigned count = 0;
  int64_t pending = 0, tx = 0;
  uint32_t completed = 0;
  int agent = 0;
  VC pendingVC, doneVC;
  Access initAccess;
  std::vector<int> waiters;
};

struct NamedBar {
  unsigned expected = 0, arrived = 0;
  VC vc;
  std::vector<int> waiters;
  int firstStmt = -1;
};

struct WarpColl {
  uint32_t arrived = 0, mask = 0;
  uint64_t vals[32] = {};
  uint8_t known[32] = {};
  std::vector<int> waiters;
  VC vc; // bar.warp.sync: what the participating lanes knew when they arrived
};

enum class State : uint8_t { Runnable, Blocked, Exited };

struct Thread {
  unsigned cta = 0, tid = 0, lane = 0, warp = 0, wg = 0;
  int pc = 0;
  State state = State::Runnable;
  std::vector<uint64_t> val;
  std::vector<uint8_t> known;
  VC vc;
  std::vector<uint32_t> fences;
  VC globalFenceVC; ///< the clock at the thread's last fence.proxy.async of global memory
  VC initFenceVC;   ///< the clock at its last fence.mbarrier_init (released by a relaxed
                    ///< cluster arrive)
  std::vector<int> cpPending;
  std::deque<std::vector<int>> cpGroups;
  std::vector<int> bulkPending;
  std::deque<std::vector<int>> bulkGroups;
  unsigned wgmmaIssued = 0, wgmmaAtCommit = 0, wgmmaCommits = 0, wgmmaRetired = 0;
  std::vector<int> tcPending; ///< tcgen05.mma not yet covered by a commit
  std::vector<int> tcIssued;  ///< tcgen05.mma covered by a commit
  std::vector<int> ldPending;
  llvm::DenseMap<int, unsigned> instances; ///< per statement: executions (collectives)
  unsigned clusterPhase = 0;
  uint64_t flagSeen = 0;   ///< flag stores seen at the thread's last acquire load
  int convergedAt = -1; ///< released from the warp convergence at this statement
  std::string blockedWhy;
  int blockedBar = -1;  ///< the mbarrier a try_wait waits on
  unsigned blockedParity = 0;
};

struct CTA {
  unsigned ctaid = 0, rank = 0, cluster = 0;
  std::vector<Line> smem;
  std::vector<Line> tmem;
  std::map<uint32_t, uint32_t> regions; ///< TMA-written boxes: start -> end
  llvm::DenseMap<uint32_t, uint64_t> words;
  std::vector<int> tmemOwner; ///< per column: cta_group of the allocation, 0 = free
  bool relinquished = false;
  NamedBar bars[16];
  unsigned live = 0;
  bool checkedExit = false;
};

struct ClusterBar {
  unsigned arrived = 0, phase = 0;
  VC vc, doneVC;
  std::vector<int> waiters;
};

struct Failure {
  std::string message;
};

enum class Policy { RoundRobin, LateAsync, HighestFirst, Random, Explore };

// Exhaustive exploration (docs/verify.md, "Exhaustive search"): the scheduling choices of one
// run and the synchronisation objects each step touched, so that the explorer can decide which
// other orders of the steps lead to different outcomes.
namespace explore {
/// A scheduling choice: a thread index (>= 0) or a pending event (-1 - event index).
using Choice = int32_t;
constexpr Choice kAnyUntried = INT32_MIN; ///< the first enabled choice not yet explored here

/// How a step used a synchronisation object. Reads commute with reads, commutative updates
/// (arrivals that do not complete a phase, bar.sync arrivals) with reads and with each other;
/// a write (an mbarrier phase completing, an init, expect_tx, a flag store) conflicts with
/// every other use. Observe: a wait that passes because of the last write (a completed
/// phase); run before that write it would only block (a step without effect), so only later
/// writes conflict with it (a phase completing before the wait makes it miss the phase).
/// Join: an arrival's use of the phase it arrives in: it conflicts with the write that ended
/// the previous phase (ordered the other way, it would count for that phase), not with the
/// write that completes its own phase (the arrivals of one phase commute).
enum Mode : uint8_t { Read, Observe, Join, Commute, Write };

/// One use of an object. `agent` (a vector-clock component, or -1) and `clock`: whoever knows
/// agent's component at `clock` is ordered after the use.
struct Touch {
  uint64_t key;
  Mode mode;
  int agent;
  uint32_t clock;
};

/// The last two uses of an object by different scheduling choices (steps), or of its writes.
struct Last {
  struct Use {
    int64_t step = -1;
    Choice by = 0;
    int agent = -1;
    uint32_t clock = 0;
  };
  Use u1, u2;
  void add(int64_t i, Choice by, const Touch &t) {
    if (u1.step >= 0 && by != u1.by)
      u2 = u1;
    u1 = {i, by, t.agent, t.clock};
  }
  const Use &other(Choice b) const { return u1.step >= 0 && u1.by != b ? u1 : u2; }
};

struct Run {
  std::vector<Choice> prefix;   ///< choices to replay (the last may be kAnyUntried)
  std::vector<Choice> excluded; ///< for kAnyUntried: the choices already explored there
  bool noneLeft = false;        ///< kAnyUntried found no untried enabled choice
  std::vector<Choice> steps;    ///< the choice made at each step
  std::vector<Touch> touches;   ///< of the current step
  /// Backtracking points found: (step, the choice to run there first, or kAnyUntried).
  std::vector<std::pair<uint64_t, Choice>> points;
  llvm::DenseMap<uint64_t, std::pair<Last, Last>> last; ///< per object: any use, writes
};

// Object keys: the kind in the top bits, the object below.
// An mbarrier has two: its counts (arrivals, transaction bytes) and its phase.
constexpr uint64_t kMbarKey = 1ull << 60, kNamedBarKey = 2ull << 60, kFlagKey = 3ull << 60,
                   kAnyFlagKey = 4ull << 60, kTmemKey = 5ull << 60, kClusterKey = 6ull << 60,
                   kMbarPhaseKey = 7ull << 60;
} // namespace explore

struct Problem {
  int64_t m, n, k;
  unsigned sms;
  /// Part of the exhaustive search (the seven-slice problem is run by the schedules alone:
  /// it is there to reach a path, and the search's step bound is shared by the problems).
  bool explore = true;
};

// The problems checked by default (docs/verify.md): nine K-slices, so that every ring wraps
// at least once and a tile ends on an odd ring position, then eight (kernels that pair
// K-slices take other paths for an even count), then seven in two tiles (with nine and eight,
// every remainder modulo 3 of the slices after a tile's first, and three of four modulo 4: K
// loops unrolled by three or four reach their leftover paths); a CTA (or cluster) runs four
// tiles of a persistent grid or two of a one-CTA-per-tile grid (one CTA looping over tiles
// exercises the reuse of the ring, accumulators and epilogue buffers), two in the second and
// third problems; stream-K splits one tile's twenty-seven K-slices over three CTAs (two
// partial tiles to add; the shares start at slices 9 and 18, inside the two- and four-slice
// blocks of promoted kernels that promote per scale block or interval), then runs full waves
// of whole tiles (eight K-slices), four tiles on two CTAs, then a full wave followed by a
// split last tile (three tiles of sixteen K-slices on two CTAs: each CTA's second unit is
// half of the third tile).
std::vector<Problem> problemsFor(const KernelConfig &cfg, const VerifyOptions &opt) {
  int64_t tk = cfg.tileK ? cfg.tileK : 64, tm = cfg.tileM, tn = cfg.tileN;
  unsigned cl = cfg.cluster[0];
  std::vector<Problem> ps;
  if (cfg.gridRule == "stream_k") {
    ps.push_back({tm * cl, tn, 27 * tk, 3 * cl});
    ps.push_back({4 * tm * cl, tn, 8 * tk, 2 * cl});
    ps.push_back({3 * tm * cl, tn, 16 * tk, 2 * cl});
  } else {
    ps.push_back({(cfg.gridRule == "persistent" ? 4 : 2) * tm * cl, tn, 9 * tk, cl});
    ps.push_back({2 * tm * cl, tn, 8 * tk, cl});
    ps.push_back({2 * tm * cl, tn, 7 * tk, cl, /*explore=*/false});
  }
  if (opt.m || opt.n || opt.k || opt.smCount) {
    Problem p = ps.front();
    p.m = opt.m ? opt.m : p.m;
    p.n = opt.n ? opt.n : p.n;
    p.k = opt.k ? opt.k : p.k;
    p.sms = opt.smCount ? opt.smCount : p.sms;
    ps = {p};
  }
  return ps;
}

class Sim {
public:
  Sim(const Kernel &k, const KernelConfig &cfg, const std::vector<Decoded> &dec,
      const std::vector<int> &relIndex, unsigned nRel, const VerifyOptions &opt,
      const Problem &prob, double beta, Policy policy, uint64_t seed,
      std::vector<uint8_t> &reached)
      : k(k), cfg(cfg), dec(dec), relIndex(relIndex), nRel(nRel), opt(opt), prob(prob),
        beta(beta), policy(policy), rng(seed), reached(reached) {}

  std::optional<std::string> run(uint64_t &steps, std::string &shape);
  bool exploreStep(uint64_t steps);

  /// Exploration: replays `r.prefix`, then schedules round-robin, recording every step.
  explore::Run *exploring = nullptr;
  /// VerifyOptions::traceMma: the MMAs and Tensor Memory copies issued, per (CTA, warpgroup).
  std::map<std::pair<unsigned, unsigned>, std::vector<std::string>> *mmaLog = nullptr;

private:
  void touch(uint64_t key, explore::Mode mode, int agent, uint32_t clock) {
    if (exploring)
      exploring->touches.push_back({key, mode, agent, clock});
  }
  void touchBy(uint64_t key, explore::Mode mode, const Thread &t) {
    if (exploring)
      touch(key, mode, int(threadAgent(t)), t.vc[threadAgent(t)]);
  }
  bool eventEligible(size_t idx) const;
  std::vector<uint64_t> enabledSince; ///< per thread: first step since which it is runnable
  uint64_t curStep = 0;
  VC vcBefore;       ///< the stepping agent's clock before the step
  int curActor = -1; ///< the thread of the step, or -1 for an event
  // --- setup and values
  bool setup(std::string &shape);
  uint64_t paramValue(unsigned idx, int64_t off, unsigned bytes, bool &ok);
  bool read(Thread &t, const Operand &o, uint64_t &v);
  bool readKnown(Thread &t, const Operand &o, uint64_t &v, StringRef what);
  void write(Thread &t, const Operand &o, uint64_t v, bool isKnown);
  bool special(Thread &t, StringRef name, uint64_t &v);
  bool address(Thread &t, const Operand &o, uint64_t &addr, StringRef what);
  bool sharedAddr(Thread &t, uint64_t addr, unsigned &cta, uint32_t &off, StringRef what);

  // --- stepping
  void runThread(int ti);
  bool step(int ti); ///< executes one statement; true when the thread yields
  bool execPure(Thread &t, const Statement &s, const Decoded &d);
  void exitThread(int ti);
  void block(int ti, const std::string &why);
  void wake(int ti);
  void fireEvent(int ei);

  // --- synchronisation objects
  int mbarAt(Thread &t, const Operand &o, bool cluster, StringRef what);
  /// Appends an asynchronous operation; returns its index in `ops`.
  int addOp(const AsyncOp &op) {
    ops.push_back(op);
    return int(ops.size()) - 1;
  }
  /// The mbarrier at shared offset `off` of CTA `cta` (created on first use).
  int mbarIn(Thread &t, unsigned cta, uint32_t off);
  void arrive(int b, unsigned count, const VC &vc, int ti, int stmt);
  void completeTx(int b, int64_t bytes, int ti, int stmt);
  void tryComplete(int b, int ti, int stmt);
  bool warpCollective(int ti, uint32_t mask, uint64_t v, bool vKnown, WarpColl *&done);
  bool converge(int ti);
  void checkConvergence(unsigned warp);
  uint32_t liveLanes(unsigned warp) const;

  // --- memory
  bool knows(const VC &vc, const Access &a) const;
  std::string describe(const Access &a) const;
  bool checkRead(int ti, const VC &vc, Line &l, const char *space, unsigned cta, uint64_t at,
                 bool asyncProxy, int stmt, uint16_t mask = 0xffff);
  bool checkWrite(int ti, const VC &vc, Line &l, const char *space, unsigned cta,
                  uint64_t at, int stmt, int sameIssuerOp, uint16_t mask = 0xffff);
  bool accessSmem(int ti, const VC &vc, unsigned cta, uint32_t off, uint32_t bytes,
                  bool isWrite, Access acc, bool asyncProxy, int stmt);
  bool accessTmem(int ti, const VC &vc, unsigned cta, uint32_t col, uint32_t cols,
                  bool isWrite, Access acc, int stmt);
  bool regionAt(unsigned cta, uint32_t off, uint32_t &start, uint32_t &end);
  bool stepTcCp(int ti, Thread &t, const Decoded &d, const std::vector<Operand> &o, int stmt);
  bool scratchAt(uint64_t addr) const;
  bool accessGlobal(int ti, const VC &vc, uint64_t addr, uint32_t bytes, bool isWrite,
                    Access acc, bool asyncProxy, int stmt);

  // --- reporting
  void fail(int ti, int stmt, const std::string &msg);
  void trace(int ti, int stmt, const std::string &note = "");
  std::string where(int ti) const;
  std::string stmtRef(int stmt) const;
  std::string witness() const;
  std::string deadlockReport();
  void tick(Thread &t) { ++t.vc[threadAgent(t)]; }
  unsigned threadAgent(const Thread &t) const { return unsigned(&t - threads.data()); }
  static void join(VC &a, const VC &b) {
    for (size_t i = 0, e = a.size(); i < e; ++i)
      a[i] = std::max(a[i], b[i]);
  }

  const Kernel &k;
  const KernelConfig &cfg;
  const std::vector<Decoded> &dec;
  const std::vector<int> &relIndex;
  unsigned nRel;
  const VerifyOptions &opt;
  Problem prob;
  double beta;
  Policy policy;
  std::mt19937_64 rng;
  std::vector<uint8_t> &reached; ///< per statement: executed by some thread
  /// Votes over predicates the checker does not know (data from memory) decided so far: the
  /// outcome of the next such vote alternates from one to the next, starting at 0 or 1 by
  /// the policy (a random bit with Policy::Random), so that the schedules take both paths.
  uint64_t dataVotes = 0;

  int64_t M = 0, N = 0, K = 0;
  unsigned threadsPerCta = 0, clusterSize = 1, gridCtas = 1;
  unsigned nAgents = 0;
  std::vector<Thread> threads;
  std::vector<CTA> ctas;
  std::vector<MBar> mbars;
  llvm::DenseMap<uint64_t, int> mbarIndex;
  std::vector<AsyncOp> ops;
  std::vector<Event> events;
  std::vector<int> pendingEvents;
  std::vector<int> runnable;
  std::vector<int> runPos;
  std::vector<std::vector<int>> wgOps;                          // per warpgroup: wgmma ops
  std::vector<std::vector<std::pair<unsigned, unsigned>>> wgGroups; // op index ranges
  std::vector<llvm::DenseMap<uint64_t, int>> warpInstance;     // (stmt, n) -> op / done mark
  std::vector<std::map<int, WarpColl>> warpColl;
  std::vector<std::map<int, WarpColl>> warpConv; // .aligned convergence per warp
  std::vector<std::vector<int>> wgWaiters;        // threads waiting for wgmma issue
  std::vector<ClusterBar> clusterBars;
  llvm::DenseMap<uint64_t, uint64_t> flags; // global words written by release/volatile stores
  llvm::DenseMap<uint64_t, Line> globalLines; // 16-byte lines of the scratch buffers
  llvm::DenseMap<uint64_t, VC> flagVC;        // the clocks released into each flag
  bool trackGlobalMem = false;
  std::vector<int> sleepers;
  uint64_t flagStores = 0; ///< stores to flags so far
  std::deque<std::pair<int, std::string>> traceBuf; // thread, text
  void logMma(Thread &t, const Statement &s, bool tcgen05);
  std::optional<Failure> failure;
  bool yielded = false;
};

// ---------------------------------------------------------------------------------------
// Setup

static uint64_t floatBits(double v) {
  float f = float(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

uint64_t Sim::paramValue(unsigned idx, int64_t off, unsigned bytes, bool &ok) {
  ok = true;
  if (idx >= cfg.params.size()) {
    ok = false;
    return 0;
  }
  const KernelConfig::Param &p = cfg.params[idx];
  if (p.kind == "i32" || p.kind == "f32") {
    if (off != 0 || bytes != 4) {
      ok = false;
      return 0;
    }
    if (p.value == "M")
      return uint64_t(M);
    if (p.value == "N")
      return uint64_t(N);
    if (p.value == "K")
      return uint64_t(K);
    if (p.value == "alpha")
      return floatBits(cfg.alpha);
    if (p.value == "beta")
      return floatBits(beta);
    ok = false;
    return 0;
  }
  if (p.kind == "ptr" || p.kind == "scratch") {
    if (off != 0 || bytes != 8) {
      ok = false;
      return 0;
    }
    return kGlobalTag | (uint64_t(idx + 1) << 40);
  }
  ok = false; // tensor maps are not read as values
  return 0;
}

bool Sim::setup(std::string &shape) {
  threadsPerCta = cfg.block[0] * cfg.block[1] * cfg.block[2];
  if (cfg.block[1] != 1 || cfg.block[2] != 1 || cfg.cluster[1] != 1 || cfg.cluster[2] != 1) {
    failure = Failure{"only 1-D blocks and clusters are modelled (block [" +
                      std::to_string(cfg.block[0]) + ", " + std::to_string(cfg.block[1]) +
                      ", " + std::to_string(cfg.block[2]) + "])"};
    return false;
  }
  clusterSize = cfg.cluster[0];
  M = prob.m;
  N = prob.n;
  K = prob.k;
  // The kernels take 32-bit sizes; the simulation runs every K-slice of every thread.
  constexpr int64_t kMaxSlices = 1024;
  int64_t tk = cfg.tileK ? cfg.tileK : 64;
  if (M < 1 || N < 1 || K < 1 || M > INT32_MAX || N > INT32_MAX || K > INT32_MAX) {
    failure = Failure{llvm::formatv("problem M={0} N={1} K={2}: each size must be in [1, {3}]",
                                    M, N, K, INT32_MAX)
                          .str()};
    return false;
  }
  if ((K + tk - 1) / tk > kMaxSlices) {
    failure = Failure{llvm::formatv("K={0} is {1} K-slices of {2}; the checker simulates at "
                                    "most {3} (choose a smaller --k)",
                                    K, (K + tk - 1) / tk, tk, kMaxSlices)
                          .str()};
    return false;
  }
  int64_t tiles = ((M + cfg.tileM - 1) / cfg.tileM) * ((N + cfg.tileN - 1) / cfg.tileN);
  int64_t grid;
  if (cfg.gridRule == "tiles" || cfg.gridRule == "persistent")
    grid = std::min<int64_t>(tiles, int64_t(prob.sms) * cfg.ctasPerSm);
  else if (cfg.gridRule == "stream_k")
    grid = int64_t(prob.sms) * cfg.ctasPerSm;
  else {
    failure = Failure{"grid rule '" + cfg.gridRule + "' outside the model"};
    return false;
  }
  grid = std::max<int64_t>(clusterSize, grid / clusterSize * clusterSize);
  if (grid > 16 || grid * threadsPerCta > 4096) {
    failure = Failure{"the problem needs " + std::to_string(grid) +
                      " CTAs; the checker simulates at most 16 CTAs and 4096 threads "
                      "(choose a smaller --m/--n or --sms)"};
    return false;
  }
  gridCtas = unsigned(grid);
  trackGlobalMem = llvm::any_of(cfg.params, [](const KernelConfig::Param &p) {
    return p.kind == "scratch";
  });
  shape = llvm::formatv("M={0} N={1} K={2}, {3} CTA(s) x {4} threads", M, N, K, gridCtas,
                        threadsPerCta)
              .str();
  if (clusterSize > 1)
    shape += llvm::formatv(", clusters of {0}", clusterSize).str();
  unsigned nThreads = gridCtas * threadsPerCta;
  nAgents = nThreads + kMaxBarriersPerCta * gridCtas;
  ctas.resize(gridCtas);
  unsigned lines = (cfg.dynamicSmem + kLine - 1) / kLine;
  for (unsigned c = 0; c < gridCtas; ++c) {
    ctas[c].ctaid = c;
    ctas[c].rank = c % clusterSize;
    ctas[c].cluster = c / clusterSize;
    ctas[c].smem.resize(lines);
    ctas[c].tmem.resize(kTmemCols);
    ctas[c].tmemOwner.assign(kTmemCols, 0);
    ctas[c].live = threadsPerCta;
  }
  clusterBars.resize(gridCtas / clusterSize);
  for (ClusterBar &cb : clusterBars) {
    cb.vc.assign(nAgents, 0);
    cb.doneVC.assign(nAgents, 0);
  }
  threads.resize(nThreads);
  unsigned warpsPerCta = (threadsPerCta + 31) / 32;
  unsigned wgPerCta = (threadsPerCta + 127) / 128;
  wgOps.resize(gridCtas * wgPerCta);
  wgGroups.resize(gridCtas * wgPerCta);
  warpInstance.resize(gridCtas * warpsPerCta);
  warpColl.resize(gridCtas * warpsPerCta);
  warpConv.resize(gridCtas * warpsPerCta);
  wgWaiters.resize(gridCtas * wgPerCta);
  runPos.assign(nThreads, -1);
  for (unsigned i = 0; i < nThreads; ++i) {
    Thread &t = threads[i];
    t.cta = i / threadsPerCta;
    t.tid = i % threadsPerCta;
    t.lane = t.tid % 32;
    t.warp = t.cta * warpsPerCta + t.tid / 32;
    t.wg = t.cta * wgPerCta + t.tid / 128;
    t.val.assign(nRel, 0);
    t.known.assign(nRel, 0);
    t.vc.assign(nAgents, 0);
    t.initFenceVC.assign(nAgents, 0);
    t.vc[i] = 1;
    runPos[i] = int(runnable.size());
    runnable.push_back(int(i));
  }
  enabledSince.assign(threads.size(), 0);
  return true;
}

// ---------------------------------------------------------------------------------------
// Reporting

std::string Sim::stmtRef(int stmt) const {
  if (stmt < 0)
    return "?";
  const Statement &s = k.stmts[stmt];
  std::string text = s.text;
  if (text.size() > 90)
    text = text.substr(0, 87) + "...";
  return llvm::formatv("line {0}: {1}", s.line, text).str();
}

std::string Sim::where(int ti) const {
  const Thread &t = threads[ti];
  std::string s = llvm::formatv("cta {0} warp {1} thread {2}", t.cta,
                                t.tid / 32, t.tid).str();
  return s;
}

void Sim::trace(int ti, int stmt, const std::string &note) {
  std::string s = where(ti) + ": " + stmtRef(stmt);
  if (!note.empty())
    s += "  [" + note + "]";
  if (!traceBuf.empty() && traceBuf.back().second == s)
    return;
  traceBuf.push_back({ti, s});
  if (traceBuf.size() > 16)
    traceBuf.pop_front();
}

std::string Sim::witness() const {
  std::string s = "  last synchronisation events of this schedule (oldest first):\n";
  for (const auto &[ti, text] : traceBuf)
    s += "    " + text + "\n";
  return s;
}

void Sim::fail(int ti, int stmt, const std::string &msg) {
  if (failure)
    return;
  std::string s = msg;
  if (ti >= 0)
    s += "\n  at " + where(ti) + ", " + stmtRef(stmt);
  s += "\n" + witness();
  failure = Failure{s};
}

std::string Sim::describe(const Access &a) const {
  if (a.op >= 0) {
    const AsyncOp &o = ops[a.op];
    const char *st = o.done ? "completed" : "still in flight";
    return llvm::formatv("{0} issued by {1} ({2}), {3}", stmtRef(o.stmt), where(o.issuer),
                         "async", st)
        .str();
  }
  return llvm::formatv("{0} by {1}", stmtRef(a.stmt), where(a.thread)).str();
}

// ---------------------------------------------------------------------------------------
// Values

bool Sim::special(Thread &t, StringRef name, uint64_t &v) {
  const CTA &c = ctas[t.cta];
  if (name == "tid.x")
    v = t.tid;
  else if (name == "tid.y" || name == "tid.z" || name == "ctaid.y" || name == "ctaid.z" ||
           name == "cluster_ctaid.y" || name == "cluster_ctaid.z" || name == "clusterid.y" ||
           name == "clusterid.z")
    v = 0;
  else if (name == "ntid.x")
    v = threadsPerCta;
  else if (name == "ntid.y" || name == "ntid.z" || name == "nctaid.y" || name == "nctaid.z" ||
           name == "cluster_nctaid.y" || name == "cluster_nctaid.z" ||
           name == "nclusterid.y" || name == "nclusterid.z")
    v = 1;
  else if (name == "ctaid.x")
    v = c.ctaid;
  else if (name == "nctaid.x")
    v = gridCtas;
  else if (name == "laneid")
    v = t.lane;
  else if (name == "warpid")
    v = t.tid / 32;
  else if (name == "cluster_ctarank" || name == "cluster_ctaid.x")
    v = c.rank;
  else if (name == "cluster_nctarank" || name == "cluster_nctaid.x")
    v = clusterSize;
  else if (name == "clusterid.x")
    v = c.cluster;
  else if (name == "nclusterid.x")
    v = gridCtas / clusterSize;
  else if (name == "is_explicit_cluster")
    v = clusterSize > 1;
  else
    return false;
  return true;
}

// Reads an operand; false when its value is not known (the caller decides).
bool Sim::read(Thread &t, const Operand &o, uint64_t &v) {
  switch (o.kind) {
  case Operand::Imm:
    v = uint64_t(o.imm);
    return true;
  case Operand::Reg: {
    int r = relIndex[o.reg];
    if (r < 0)
      return false;
    v = t.val[r];
    return t.known[r];
  }
  case Operand::Sym: {
    const Symbol &s = k.symbols[o.sym];
    if (s.kind == Symbol::SharedArray)
      v = uint64_t(o.imm);
    else
      v = kParamTag | (uint64_t(s.param) << 16) | uint64_t(o.imm);
    return true;
  }
  case Operand::Special:
    return special(t, o.special, v);
  default:
    return false;
  }
}

bool Sim::readKnown(Thread &t, const Operand &o, uint64_t &v, StringRef what) {
  if (read(t, o, v))
    return true;
  fail(int(&t - threads.data()), t.pc,
       ("the " + what + " depends on a value outside the model (data loaded from global "
                        "memory or computed by math the checker does not execute)")
           .str());
  return false;
}

void Sim::write(Thread &t, const Operand &o, uint64_t v, bool isKnown) {
  if (o.kind != Operand::Reg)
    return;
  int r = relIndex[o.reg];
  if (r < 0)
    return;
  unsigned bits = k.registers[o.reg].bits;
  if (bits < 64)
    v &= (1ull << bits) - 1;
  t.val[r] = v;
  t.known[r] = isKnown;
}

bool Sim::address(Thread &t, const Operand &o, uint64_t &addr, StringRef what) {
  if (o.kind != Operand::Mem) {
    if (o.kind == Operand::Reg || o.kind == Operand::Sym)
      return readKnown(t, o, addr, what);
    fail(int(&t - threads.data()), t.pc, ("expected an address for the " + what).str());
    return false;
  }
  uint64_t base = 0;
  if (o.reg >= 0) {
    Operand r;
    r.kind = Operand::Reg;
    r.reg = o.reg;
    if (!readKnown(t, r, base, what))
      return false;
  } else if (o.sym >= 0) {
    Operand s;
    s.kind = Operand::Sym;
    s.sym = o.sym;
    read(t, s, base);
  }
  addr = base + uint64_t(o.imm);
  return true;
}

bool Sim::sharedAddr(Thread &t, uint64_t addr, unsigned &cta, uint32_t &off,
                     StringRef what) {
  int ti = int(&t - threads.data());
  if (addr & kClusterTag) {
    unsigned rank = unsigned((addr >> 24) & 0x7f);
    if (rank >= clusterSize) {
      fail(ti, t.pc, (what + ": shared::cluster address names CTA rank " +
                      llvm::Twine(rank) + " of a cluster of " + llvm::Twine(clusterSize))
                         .str());
      return false;
    }
    cta = ctas[t.cta].cluster * clusterSize + rank;
    off = uint32_t(addr & 0xffffffu);
  } else if (addr & kGenericShared) {
    cta = t.cta;
    off = uint32_t(addr & 0xffffffffu);
  } else if (addr < (1ull << 24)) {
    cta = t.cta;
    off = uint32_t(addr);
  } else {
    fail(ti, t.pc, (what + ": address is not in shared memory").str());
    return false;
  }
  if (off >= cfg.dynamicSmem) {
    fail(ti, t.pc, llvm::formatv("{0}: shared memory offset {1} is outside the {2} bytes of "
                                 "dynamic shared memory",
                                 what, off, cfg.dynamicSmem)
                       .str());
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// Memory tracking

bool Sim::knows(const VC &vc, const Access &a) const {
  if (!a.valid)
    return true;
  if (a.op >= 0) {
    const AsyncOp &o = ops[a.op];
    if (!o.done)
      return false;
    for (auto [agent, clock] : o.ends)
      if (vc[agent] >= clock)
        return true;
    return false;
  }
  return vc[a.thread] >= a.epoch;
}

// The first byte two accesses of the line (or Tensor Memory column) at `at` share: a shared-
// memory line's offset plus the first byte of `shared` (Tensor Memory accesses have full masks).
static uint64_t firstByte(uint64_t at, uint16_t shared) {
  return at + (shared ? uint64_t(llvm::countr_zero(shared)) : 0);
}

bool Sim::checkRead(int ti, const VC &vc, Line &l, const char *space, unsigned cta,
                    uint64_t at, bool asyncProxy, int stmt, uint16_t mask) {
  for (const Access &w : l.ws) {
    if (!(w.mask & mask))
      continue;
    if (!knows(vc, w)) {
      fail(ti, stmt, llvm::formatv("read of {0} (cta {1}, offset {2}) is not ordered after "
                                   "the write it needs: {3}",
                                   space, cta, firstByte(at, w.mask & mask), describe(w))
                         .str());
      return false;
    }
    if (asyncProxy && w.generic && w.op < 0) {
      const Thread &wt = threads[w.thread];
      auto f = std::lower_bound(wt.fences.begin(), wt.fences.end(), w.epoch);
      if (f == wt.fences.end() || vc[w.thread] < *f) {
        fail(ti, stmt,
             llvm::formatv("the async proxy reads {0} (cta {1}, offset {2}) written through "
                           "the generic proxy with no fence.proxy.async between the write and "
                           "the barrier that orders it: {3}",
                           space, cta, firstByte(at, w.mask & mask), describe(w))
                 .str());
        return false;
      }
    }
  }
  return true;
}

bool Sim::checkWrite(int ti, const VC &vc, Line &l, const char *space, unsigned cta,
                     uint64_t at, int stmt, int sameIssuerOp, uint16_t mask) {
  auto sameIssuer = [&](const Access &a) {
    return sameIssuerOp >= 0 && a.op >= 0 && ops[a.op].issuer == ops[sameIssuerOp].issuer &&
           ops[a.op].kind == ops[sameIssuerOp].kind;
  };
  for (const Access &r : l.reads)
    if ((r.mask & mask) && !knows(vc, r) && !sameIssuer(r)) {
      fail(ti, stmt, llvm::formatv("write of {0} (cta {1}, offset {2}) may overwrite data "
                                   "before this read of it is done: {3}",
                                   space, cta, firstByte(at, r.mask & mask), describe(r))
                         .str());
      return false;
    }
  for (const Access &w : l.ws)
    if ((w.mask & mask) && !knows(vc, w) && !sameIssuer(w)) {
      fail(ti, stmt, llvm::formatv("write of {0} (cta {1}, offset {2}) is not ordered after "
                                   "the previous write: {3}",
                                   space, cta, firstByte(at, w.mask & mask), describe(w))
                         .str());
      return false;
    }
  return true;
}

// Records a write of `mask` (after checkWrite): earlier writes and reads keep the other bytes.
static void applyWrite(Line &l, const Access &acc) {
  auto covered = [&](Access &a) {
    a.mask &= uint16_t(~acc.mask);
    return a.mask == 0;
  };
  l.ws.erase(std::remove_if(l.ws.begin(), l.ws.end(), covered), l.ws.end());
  l.reads.erase(std::remove_if(l.reads.begin(), l.reads.end(), covered), l.reads.end());
  l.ws.push_back(acc);
}

static void applyRead(Line &l, const Access &acc) {
  if (acc.op < 0)
    for (Access &r : l.reads)
      if (r.op < 0 && r.thread == acc.thread) {
        uint16_t m = r.mask | acc.mask;
        r = acc;
        r.mask = m;
        return;
      }
  l.reads.push_back(acc);
}

bool Sim::accessSmem(int ti, const VC &vc, unsigned cta, uint32_t off, uint32_t bytes,
                     bool isWrite, Access acc, bool asyncProxy, int stmt) {
  CTA &c = ctas[cta];
  uint32_t first = off / kLine, last = (off + bytes - 1) / kLine;
  if (uint64_t(off) + bytes > cfg.dynamicSmem) {
    fail(ti, stmt, llvm::formatv("access of {0} bytes at shared offset {1} runs past the {2} "
                                 "bytes of dynamic shared memory",
                                 bytes, off, cfg.dynamicSmem)
                       .str());
    return false;
  }
  acc.valid = true;
  for (uint32_t i = first; i <= last; ++i) {
    Line &l = c.smem[i];
    uint32_t lo = std::max(off, i * kLine) - i * kLine;
    uint32_t hi = std::min<uint64_t>(uint64_t(off) + bytes, uint64_t(i + 1) * kLine) - i * kLine;
    acc.mask = uint16_t(((1u << hi) - 1) & ~((1u << lo) - 1));
    if (isWrite) {
      if (!checkWrite(ti, vc, l, "shared memory", cta, uint64_t(i) * kLine, stmt, acc.op,
                      acc.mask))
        return false;
      // Loaded data that nothing read before it is replaced: a reader took another phase's
      // data (parity aliasing), or no one consumes this load.
      for (const Access &w : l.ws) {
        bool load = w.op >= 0 && (ops[w.op].kind == Op::TmaLoad ||
                                  ops[w.op].kind == Op::BulkLoad ||
                                  (ops[w.op].kind == Op::CpAsync && ops[w.op].bytes == kLine));
        bool read = llvm::any_of(l.reads, [&](const Access &r) { return r.mask & w.mask; });
        if (load && !read && (w.mask & ~acc.mask) == 0) {
          fail(ti, stmt, llvm::formatv("shared memory (cta {0}, offset {1}) loaded by {2} is "
                                       "overwritten before anything read it (a reader took "
                                       "another phase's data, or nothing consumes the load)",
                                       cta, uint64_t(i) * kLine, describe(w))
                             .str());
          return false;
        }
      }
      applyWrite(l, acc);
    } else {
      if (!checkRead(ti, vc, l, "shared memory", cta, uint64_t(i) * kLine, asyncProxy, stmt,
                     acc.mask))
        return false;
      applyRead(l, acc);
    }
  }
  return true;
}

bool Sim::accessTmem(int ti, const VC &vc, unsigned cta, uint32_t col, uint32_t cols,
                     bool isWrite, Access acc, int stmt) {
  CTA &c = ctas[cta];
  if (col + cols > kTmemCols) {
    fail(ti, stmt, llvm::formatv("Tensor Memory columns [{0}, {1}) are past column 512", col,
                                 col + cols)
                       .str());
    return false;
  }
  acc.valid = true;
  acc.generic = false;
  for (uint32_t i = col; i < col + cols; ++i) {
    if (!c.tmemOwner[i]) {
      fail(ti, stmt, llvm::formatv("Tensor Memory column {0} of cta {1} is used but not "
                                   "allocated",
                                   i, cta)
                         .str());
      return false;
    }
    Line &l = c.tmem[i];
    if (isWrite) {
      if (!checkWrite(ti, vc, l, "Tensor Memory column", cta, i, stmt, acc.op))
        return false;
      applyWrite(l, acc);
    } else {
      if (!checkRead(ti, vc, l, "Tensor Memory column", cta, i, false, stmt))
        return false;
      applyRead(l, acc);
    }
  }
  return true;
}

/// A shared-memory matrix descriptor, raw and decoded: start address (bits 0-13), leading and
/// stride byte offsets (bits 16-29, 32-45), all >> 4, and the layout field, which is bits 62-63
/// for wgmma (PTX ISA 9.7.15.5.1: 1 = 128-byte swizzle, 2 = 64-byte, 3 = 32-byte) and bits
/// 61-63 for tcgen05 (9.7.16.4.1: 2 = 128-byte, 4 = 64-byte, 6 = 32-byte, 1 = 128-byte with
/// 32-byte atoms), with tcgen05's base offset (bits 49-51) beside it.
static std::string smemDescText(uint64_t desc, bool tcgen05) {
  auto field = [&](unsigned lo, unsigned bits) {
    return unsigned(desc >> lo) & ((1u << bits) - 1);
  };
  std::string layout;
  if (tcgen05) {
    static const char *names[8] = {"none", "128B-32B-atom", "128B", "?3", "64B", "?5", "32B",
                                   "?7"};
    layout = llvm::formatv("{0}, base offset {1}", names[field(61, 3)], field(49, 3)).str();
  } else {
    static const char *names[4] = {"none", "128B", "64B", "32B"};
    layout = names[field(62, 2)];
  }
  return llvm::formatv("{0:x16} (start {1}, lbo {2}, sbo {3}, swizzle {4})", desc,
                       field(0, 14) << 4, field(16, 14) << 4, field(32, 14) << 4, layout)
      .str();
}

// One line per MMA or Tensor Memory copy: the opcode, then each operand after the destination
// (the accumulator registers of a wgmma, which name no value, are left out): a 64-bit register
// as a shared-memory descriptor, a register vector as "registers", an address as "[0x...]",
// anything else as its value, or "?" where the value is outside the model.
void Sim::logMma(Thread &t, const Statement &s, bool tcgen05) {
  std::string line = s.opcode;
  for (size_t i = 0; i < s.ops.size(); ++i) {
    const Operand &o = s.ops[i];
    if (i == 0 && !tcgen05)
      continue;
    uint64_t v = 0;
    line += i == (tcgen05 ? 0 : 1) ? " " : ", ";
    if (o.kind == Operand::Vec) {
      line += "registers";
    } else if (o.kind == Operand::Mem) {
      bool known = true;
      if (o.reg >= 0) {
        Operand r;
        r.kind = Operand::Reg;
        r.reg = o.reg;
        known = read(t, r, v);
      }
      line += known ? llvm::formatv("[{0:x}]", v + uint64_t(o.imm)).str() : "[?]";
    } else if (!read(t, o, v)) {
      line += "?";
    } else if (o.kind == Operand::Reg && k.registers[o.reg].bits == 64) {
      line += smemDescText(v, tcgen05);
    } else {
      line += llvm::formatv("{0:x}", v).str();
    }
  }
  (*mmaLog)[{t.cta, t.tid / 128}].push_back(std::move(line));
}

/// The shared memory a wgmma operand occupies, from its descriptor (PTX ISA 9.7.15.5.1: start
/// address bits 0-13, stride byte offset bits 32-45, both >> 4; swizzle mode bits 62-63:
/// 1 = 128-byte, 2 = 64-byte, 3 = 32-byte), for operands that ordinary stores wrote (no TMA
/// box to take the extent from): a K-major swizzled operand of R rows (64 for A, N of the
/// m64nNk16 shape for B) is R / 8 groups of 8 swizzle rows, SBO bytes apart, starting at the
/// swizzle row that holds the start address. Only for swizzled K-major layouts; false
/// otherwise.
static bool wgmmaFootprint(const std::string &opcode, unsigned operand, uint64_t desc,
                           uint32_t &start, uint32_t &end) {
  unsigned mode = unsigned(desc >> 62) & 3;
  if (mode == 0)
    return false;
  uint32_t span = mode == 1 ? 128 : mode == 2 ? 64 : 32;
  uint32_t sbo = uint32_t((desc >> 32) & 0x3fff) << 4;
  size_t at = opcode.find(".m64n");
  if (at == std::string::npos || sbo == 0)
    return false;
  unsigned n = unsigned(std::strtoul(opcode.c_str() + at + 5, nullptr, 10));
  unsigned rows = operand == 1 ? 64 : n;
  if (rows == 0 || rows % 8 != 0)
    return false;
  uint32_t addr = uint32_t(desc & 0x3fff) << 4;
  start = addr / span * span;
  end = start + (rows / 8) * sbo;
  return true;
}

bool Sim::regionAt(unsigned cta, uint32_t off, uint32_t &start, uint32_t &end) {
  auto &r = ctas[cta].regions;
  auto it = r.upper_bound(off);
  if (it == r.begin())
    return false;
  --it;
  if (off >= it->second)
    return false;
  start = it->first;
  end = it->second;
  return true;
}

bool Sim::scratchAt(uint64_t addr) const {
  if (!(addr & kGlobalTag))
    return false;
  uint64_t idx = ((addr & ~kGlobalTag) >> 40) - 1;
  return idx < cfg.params.size() && cfg.params[idx].kind == "scratch";
}

// Global memory of the scratch buffers: generic writes (st.global) read by bulk copies (async
// proxy). The proxy fence may be the writer's (before its release) or the reader's (after its
// acquire): fence.proxy.async.global in the issuing thread at a point where it already knew
// the write.
bool Sim::accessGlobal(int ti, const VC &vc, uint64_t addr, uint32_t bytes, bool isWrite,
                       Access acc, bool asyncProxy, int stmt) {
  acc.valid = true;
  for (uint64_t i = addr / kLine, e = (addr + bytes - 1) / kLine; i <= e; ++i) {
    Line &l = globalLines[i];
    if (isWrite) {
      if (!checkWrite(ti, vc, l, "global memory", 0, i * kLine, stmt, acc.op))
        return false;
      applyWrite(l, acc);
      continue;
    }
    for (const Access &w : l.ws) {
      if (!knows(vc, w)) {
        fail(ti, stmt, llvm::formatv("read of global memory (scratch offset {0}) is not "
                                     "ordered after the write it needs: {1}",
                                     (i * kLine) & 0xffffffffffull, describe(w))
                           .str());
        return false;
      }
      if (asyncProxy && w.generic) {
        const Thread &wt = threads[w.thread];
        auto f = std::lower_bound(wt.fences.begin(), wt.fences.end(), w.epoch);
        bool writerFenced = f != wt.fences.end() && vc[w.thread] >= *f;
        const VC &rf = threads[ti].globalFenceVC;
        bool readerFenced = !rf.empty() && knows(rf, w);
        if (!writerFenced && !readerFenced) {
          fail(ti, stmt, llvm::formatv("the async proxy reads global memory (scratch offset "
                                       "{0}) written through the generic proxy with no "
                                       "fence.proxy.async between: {1}",
                                       (i * kLine) & 0xffffffffffull, describe(w))
                             .str());
          return false;
        }
      }
    }
    applyRead(l, acc);
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// Barriers

int Sim::mbarAt(Thread &t, const Operand &o, bool cluster, StringRef what) {
  uint64_t addr;
  if (!address(t, o, addr, what))
    return -1;
  unsigned cta;
  uint32_t off;
  if (!sharedAddr(t, addr, cta, off, what))
    return -1;
  if (!cluster && cta != t.cta) {
    fail(int(&t - threads.data()), t.pc, (what + ": a .shared::cta mbarrier operation on "
                                                   "another CTA's barrier")
                                              .str());
    return -1;
  }
  return mbarIn(t, cta, off);
}

int Sim::mbarIn(Thread &t, unsigned cta, uint32_t off) {
  uint64_t key = (uint64_t(cta) << 32) | off;
  auto it = mbarIndex.find(key);
  if (it != mbarIndex.end())
    return it->second;
  MBar b;
  b.cta = int(cta);
  b.off = off;
  unsigned perCta = 0;
  for (const MBar &m : mbars)
    perCta += m.cta == int(cta);
  if (perCta >= kMaxBarriersPerCta) {
    fail(int(&t - threads.data()), t.pc, "more than 64 mbarriers in one CTA");
    return -1;
  }
  b.agent = int(gridCtas * threadsPerCta + cta * kMaxBarriersPerCta + perCta);
  b.pendingVC.assign(nAgents, 0);
  b.doneVC.assign(nAgents, 0);
  mbars.push_back(std::move(b));
  mbarIndex[key] = int(mbars.size()) - 1;
  return int(mbars.size()) - 1;
}

void Sim::tryComplete(int bi, int ti, int stmt) {
  MBar &b = mbars[bi];
  if (b.pending == 0 && b.tx < 0) {
    fail(ti, stmt, llvm::formatv("mbarrier at shared offset {0} (cta {1}), phase {2}: the "
                                 "copies completed {3} more bytes than expect_tx announced",
                                 b.off, b.cta, b.completed, -b.tx)
                       .str());
    return;
  }
  if (b.pending != 0 || b.tx != 0)
    return;
  ++b.completed;
  // Whoever acquired this phase knows the barrier's component at `completed`.
  touch(explore::kMbarPhaseKey | unsigned(bi), explore::Write, b.agent, b.completed);
  b.pendingVC[b.agent] = b.completed;
  b.doneVC = b.pendingVC;
  b.pending = b.count;
  for (int w : b.waiters)
    wake(w);
  b.waiters.clear();
}

void Sim::arrive(int bi, unsigned count, const VC &vc, int ti, int stmt) {
  MBar &b = mbars[bi];
  if (b.pending < int64_t(count)) {
    fail(ti, stmt, llvm::formatv("arrive with count {0} on an mbarrier with {1} pending "
                                 "arrivals",
                                 count, b.pending)
                       .str());
    return;
  }
  join(b.pendingVC, vc);
  b.pending -= count;
  // A thread's arrival is known to whoever knows its clock at the arrival; a tcgen05.commit
  // arrival (an event) to whoever acquired the completion of the phase it arrives in.
  int agent = curActor >= 0 ? ti : b.agent;
  uint32_t clock = curActor >= 0 ? vc[ti] : b.completed + 1;
  touch(explore::kMbarKey | unsigned(bi), explore::Commute, agent, clock);
  touch(explore::kMbarPhaseKey | unsigned(bi), explore::Join, agent, clock);
  tryComplete(bi, ti, stmt);
}

void Sim::completeTx(int bi, int64_t bytes, int ti, int stmt) {
  MBar &b = mbars[bi];
  b.tx -= bytes;
  // Known to whoever acquired the completion of the phase the bytes count for.
  touch(explore::kMbarKey | unsigned(bi), explore::Commute, b.agent, b.completed + 1);
  touch(explore::kMbarPhaseKey | unsigned(bi), explore::Join, b.agent, b.completed + 1);
  tryComplete(bi, ti, stmt);
}

bool Sim::warpCollective(int ti, uint32_t mask, uint64_t v, bool vKnown, WarpColl *&done) {
  Thread &t = threads[ti];
  if (!(mask & (1u << t.lane))) {
    fail(ti, t.pc, "a thread executes a .sync warp instruction whose member mask excludes it");
    return false;
  }
  WarpColl &c = warpColl[t.warp][t.pc];
  if (c.arrived == 0)
    c.mask = mask;
  else if (c.mask != mask) {
    fail(ti, t.pc, "lanes of one warp disagree on the member mask of a .sync instruction");
    return false;
  }
  c.arrived |= 1u << t.lane;
  c.vals[t.lane] = v;
  c.known[t.lane] = vKnown;
  done = nullptr;
  if ((c.arrived & c.mask) == c.mask) {
    done = &c;
    return true;
  }
  c.waiters.push_back(ti);
  block(ti, "waits for the other lanes of its warp at a .sync warp instruction");
  return true;
}

uint32_t Sim::liveLanes(unsigned warp) const {
  unsigned warpsPerCta = (threadsPerCta + 31) / 32;
  unsigned cta = warp / warpsPerCta, first = cta * threadsPerCta + (warp % warpsPerCta) * 32;
  uint32_t mask = 0;
  for (unsigned l = 0; l < 32 && (warp % warpsPerCta) * 32 + l < threadsPerCta; ++l)
    if (threads[first + l].state != State::Exited)
      mask |= 1u << l;
  return mask;
}

// .aligned instructions are executed by all the (non-exited) threads of a warp together: a
// lane waits at one until every lane has reached it, then each executes it.
bool Sim::converge(int ti) {
  Thread &t = threads[ti];
  if (t.convergedAt == t.pc)
    return true; // released; cleared once the thread moves on
  WarpColl &c = warpConv[t.warp][t.pc];
  c.arrived |= 1u << t.lane;
  c.waiters.push_back(ti);
  uint32_t live = liveLanes(t.warp);
  if ((c.arrived & live) == live) {
    std::vector<int> ws = std::move(c.waiters);
    warpConv[t.warp].erase(t.pc);
    t.convergedAt = t.pc;
    for (int w : ws)
      if (w != ti) {
        threads[w].convergedAt = threads[w].pc;
        wake(w);
      }
    return true;
  }
  block(ti, "waits for the other lanes of its warp at this .aligned instruction");
  return false;
}

void Sim::checkConvergence(unsigned warp) {
  uint32_t live = liveLanes(warp);
  auto &m = warpConv[warp];
  for (auto it = m.begin(); it != m.end();) {
    if ((it->second.arrived & live) == live && !it->second.waiters.empty()) {
      for (int w : it->second.waiters) {
        threads[w].convergedAt = threads[w].pc;
        wake(w);
      }
      it = m.erase(it);
    } else {
      ++it;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Scheduling

void Sim::block(int ti, const std::string &why) {
  Thread &t = threads[ti];
  t.state = State::Blocked;
  t.blockedWhy = why;
  t.blockedBar = -1;
  int p = runPos[ti];
  if (p >= 0) {
    int lastT = runnable.back();
    runnable[p] = lastT;
    runPos[lastT] = p;
    runnable.pop_back();
    runPos[ti] = -1;
  }
  yielded = true;
}

void Sim::wake(int ti) {
  Thread &t = threads[ti];
  if (t.state != State::Blocked)
    return;
  t.state = State::Runnable;
  runPos[ti] = int(runnable.size());
  runnable.push_back(ti);
  if (exploring)
    enabledSince[ti] = curStep + 1;
}

void Sim::fireEvent(int ei) {
  Event &e = events[ei];
  e.fired = true;
  if (e.kind == Event::LoadDone) {
    AsyncOp &o = ops[e.ops[0]];
    MBar &b = mbars[o.barrier];
    o.done = true;
    o.ends.push_back({uint32_t(b.agent), b.completed + 1});
    join(b.pendingVC, e.vc);
    trace(e.thread, e.stmt, llvm::formatv("TMA completes {0} bytes", o.bytes).str());
    completeTx(o.barrier, o.bytes, e.thread, e.stmt);
    return;
  }
  for (int oi : e.ops) {
    AsyncOp &o = ops[oi];
    o.done = true;
    for (int bi : e.barriers)
      o.ends.push_back({uint32_t(mbars[bi].agent), mbars[bi].completed + 1});
  }
  trace(e.thread, e.stmt, "tcgen05.commit arrives");
  for (int bi : e.barriers) {
    if (!mbars[bi].init) {
      fail(e.thread, e.stmt, "tcgen05.commit arrives on an mbarrier that was never "
                             "initialised");
      return;
    }
    arrive(bi, 1, e.vc, e.thread, e.stmt);
  }
}

std::string Sim::deadlockReport() {
  std::string s = "deadlock: no thread can make progress and no asynchronous operation is "
                  "pending\n  blocked (grouped by warp and statement):\n";
  std::map<std::pair<unsigned, int>, std::vector<unsigned>> groups;
  for (unsigned i = 0; i < threads.size(); ++i)
    if (threads[i].state == State::Blocked)
      groups[{threads[i].warp, threads[i].pc}].push_back(i);
  unsigned shown = 0;
  for (auto &[key, ts] : groups) {
    if (++shown > 12) {
      s += "    ...\n";
      break;
    }
    const Thread &t = threads[ts.front()];
    std::string why = t.blockedWhy;
    if (t.blockedBar >= 0) {
      const MBar &b = mbars[t.blockedBar];
      why = llvm::formatv("waits for parity {0} on the mbarrier at shared offset {1} (cta {2}); "
                          "{3} phase(s) completed, {4} of {5} arrivals and {6} transaction "
                          "bytes pending",
                          t.blockedParity, b.off, b.cta, b.completed, b.pending, b.count, b.tx)
                .str();
    }
    s += llvm::formatv("    cta {0} warp {1} ({2} thread(s), first {3}): {4}\n      {5}\n",
                       t.cta, t.tid / 32, ts.size(), t.tid, stmtRef(t.pc), why)
             .str();
  }
  unsigned exited = 0;
  for (const Thread &t : threads)
    exited += t.state == State::Exited;
  s += llvm::formatv("  {0} of {1} threads have exited\n", exited, threads.size()).str();
  for (const MBar &b : mbars)
    if (b.init && (!b.waiters.empty()))
      s += llvm::formatv("  mbarrier at shared offset {0} (cta {1}): {2} phase(s) completed, "
                         "{3} of {4} arrivals pending, {5} transaction bytes pending\n",
                         b.off, b.cta, b.completed, b.pending, b.count, b.tx)
               .str();
  s += witness();
  return s;
}

std::optional<std::string> Sim::run(uint64_t &steps, std::string &shape) {
  if (!setup(shape))
    return failure->message;
  steps = 0;
  while (!failure) {
    bool haveThreads = !runnable.empty();
    bool haveEvents = !pendingEvents.empty();
    if (!haveThreads && !haveEvents) {
      for (unsigned i = 0; i < threads.size(); ++i)
        if (threads[i].state != State::Exited)
          return deadlockReport();
      break;
    }
    if (++steps > opt.maxSteps)
      return llvm::formatv("the schedule did not finish within {0} steps (a livelock, or "
                           "raise the bound)\n{1}",
                           opt.maxSteps, witness())
          .str();
    if (policy == Policy::Explore) {
      if (!exploreStep(steps))
        return failure ? std::optional<std::string>(failure->message) : std::nullopt;
      continue;
    }
    bool takeEvent = false;
    switch (policy) {
    case Policy::RoundRobin:
    case Policy::Explore:
      takeEvent = haveEvents;
      break;
    case Policy::LateAsync:
    case Policy::HighestFirst:
      takeEvent = !haveThreads;
      break;
    case Policy::Random:
      takeEvent = haveEvents && (!haveThreads || (rng() & 1));
      break;
    }
    if (takeEvent) {
      size_t idx = policy == Policy::Random ? rng() % pendingEvents.size() : 0;
      // tcgen05.commit arrivals of one thread complete in order.
      int ei = pendingEvents[idx];
      for (size_t j = 0; j < idx; ++j)
        if (events[pendingEvents[j]].kind == Event::CommitArrive &&
            events[ei].kind == Event::CommitArrive &&
            events[pendingEvents[j]].thread == events[ei].thread) {
          idx = j;
          ei = pendingEvents[j];
          break;
        }
      pendingEvents.erase(pendingEvents.begin() + idx);
      fireEvent(ei);
      continue;
    }
    int ti;
    if (policy == Policy::Random)
      ti = runnable[rng() % runnable.size()];
    else if (policy == Policy::HighestFirst)
      ti = *std::max_element(runnable.begin(), runnable.end());
    else
      ti = runnable[steps % runnable.size()];
    runThread(ti);
  }
  if (failure)
    return failure->message;
  // End of the grid: every mbarrier balanced.
  for (const MBar &b : mbars) {
    if (!b.init)
      continue;
    if (b.tx != 0 || b.pending != int64_t(b.count))
      return llvm::formatv("unbalanced mbarrier at shared offset {0} (cta {1}) when the grid "
                           "ends: phase {2} has {3} of {4} arrivals and {5} transaction "
                           "bytes still pending\n{6}",
                           b.off, b.cta, b.completed, b.pending, b.count, b.tx, witness())
          .str();
  }
  return std::nullopt;
}

// A pending event may fire unless an earlier tcgen05.commit arrival of the same thread is
// still pending (they arrive in order).
bool Sim::eventEligible(size_t idx) const {
  const Event &e = events[pendingEvents[idx]];
  if (e.kind != Event::CommitArrive)
    return true;
  for (size_t j = 0; j < idx; ++j) {
    const Event &f = events[pendingEvents[j]];
    if (f.kind == Event::CommitArrive && f.thread == e.thread)
      return false;
  }
  return true;
}

// One step of an explored run: the replayed choice, the first untried enabled one, or the
// round-robin default; records the step. False when kAnyUntried finds nothing left to try.
bool Sim::exploreStep(uint64_t steps) {
  using namespace explore;
  Run &r = *exploring;
  size_t s = r.steps.size();
  curStep = s;
  Choice c;
  auto enabled = [&](Choice x) {
    if (x >= 0)
      return size_t(x) < threads.size() && threads[x].state == State::Runnable;
    for (size_t i = 0; i < pendingEvents.size(); ++i)
      if (pendingEvents[i] == -1 - x)
        return eventEligible(i);
    return false;
  };
  if (s < r.prefix.size() && r.prefix[s] != kAnyUntried) {
    c = r.prefix[s];
    if (!enabled(c)) {
      failure = Failure{"internal error: a replayed scheduling choice is not enabled (the "
                        "simulation is not deterministic)"};
      return false;
    }
  } else if (s < r.prefix.size()) {
    std::vector<Choice> cands;
    for (size_t i = 0; i < pendingEvents.size(); ++i)
      if (eventEligible(i))
        cands.push_back(-1 - pendingEvents[i]);
    std::vector<int> ts(runnable);
    llvm::sort(ts);
    cands.insert(cands.end(), ts.begin(), ts.end());
    auto it = llvm::find_if(cands, [&](Choice x) { return !llvm::is_contained(r.excluded, x); });
    if (it == cands.end()) {
      r.noneLeft = true;
      return false;
    }
    c = *it;
  } else if (!pendingEvents.empty()) {
    size_t i = 0;
    while (!eventEligible(i))
      ++i;
    c = -1 - pendingEvents[i];
  } else {
    c = runnable[steps % runnable.size()];
  }
  r.touches.clear();
  uint64_t since;
  if (c < 0) {
    int ei = -1 - c;
    since = events[ei].since;
    vcBefore = events[ei].vc; // the event is ordered after its issue
    curActor = -1;
    pendingEvents.erase(llvm::find(pendingEvents, ei));
    fireEvent(ei);
  } else {
    since = enabledSince[c];
    vcBefore = threads[c].vc;
    curActor = c;
    runThread(c);
    if (threads[c].state == State::Runnable)
      enabledSince[c] = s + 1;
  }
  // Dynamic partial-order reduction: the last earlier use of the object by another choice
  // that conflicts with this one, unless it happens before this step (this agent knew of it
  // before the step, or that step woke this agent), gets a backtracking point that runs this
  // choice there first; or every choice enabled there, when this one was not enabled yet.
  for (const Touch &u : r.touches) {
    if (u.mode == Observe)
      continue;
    auto &[any, wr] = r.last[u.key];
    const Last::Use &e = u.mode == Write ? any.other(c) : wr.other(c);
    if (e.step < 0)
      continue;
    bool hb = e.agent >= 0 && vcBefore[e.agent] >= e.clock;
    if (hb || since == uint64_t(e.step) + 1)
      continue;
    r.points.push_back({uint64_t(e.step), since <= uint64_t(e.step) ? c : kAnyUntried});
  }
  for (const Touch &u : r.touches) {
    auto &[any, wr] = r.last[u.key];
    if (u.mode != Join)
      any.add(int64_t(s), c, u);
    if (u.mode == Write)
      wr.add(int64_t(s), c, u);
  }
  r.steps.push_back(c);
  return true;
}

void Sim::runThread(int ti) {
  yielded = false;
  Thread &t = threads[ti];
  // A long straight run (the unrolled epilogue) is not a livelock; a bound keeps a spinning
  // thread from hanging the checker.
  for (unsigned n = 0; n < 1'000'000; ++n) {
    if (t.state != State::Runnable || failure)
      return;
    if (step(ti) || yielded)
      return;
  }
  fail(ti, t.pc, "a thread ran a million statements without synchronising (a spin loop the "
                 "model does not recognise)");
}

void Sim::exitThread(int ti) {
  Thread &t = threads[ti];
  auto inflight = [&](const std::vector<int> &v) {
    for (int oi : v)
      if (!ops[oi].done)
        return oi;
    return -1;
  };
  int oi = inflight(t.cpPending);
  for (auto &g : t.cpGroups)
    if (oi < 0)
      oi = inflight(g);
  if (oi >= 0)
    return fail(ti, t.pc, "the thread exits with cp.async copies in flight (no "
                          "cp.async.wait_group covers " + stmtRef(ops[oi].stmt) + ")");
  oi = inflight(t.bulkPending);
  for (auto &g : t.bulkGroups)
    if (oi < 0)
      oi = inflight(g);
  if (oi >= 0)
    return fail(ti, t.pc, "the thread exits with a bulk copy still reading shared memory (no "
                          "cp.async.bulk.wait_group covers " + stmtRef(ops[oi].stmt) + ")");
  if (t.wgmmaRetired < t.wgmmaCommits || t.wgmmaIssued > t.wgmmaAtCommit)
    return fail(ti, t.pc, "the thread exits with wgmma operations not waited for");
  oi = inflight(t.ldPending);
  if (oi >= 0)
    return fail(ti, t.pc, "the thread exits with a tcgen05.ld not waited for (" +
                              stmtRef(ops[oi].stmt) + ")");
  if (!t.tcPending.empty())
    return fail(ti, t.pc, "the thread exits with tcgen05.mma not covered by a tcgen05.commit "
                          "(" + stmtRef(ops[t.tcPending.front()].stmt) + ")");
  t.state = State::Exited;
  int p = runPos[ti];
  if (p >= 0) {
    int lastT = runnable.back();
    runnable[p] = lastT;
    runPos[lastT] = p;
    runnable.pop_back();
    runPos[ti] = -1;
  }
  yielded = true;
  checkConvergence(t.warp);
  CTA &c = ctas[t.cta];
  if (--c.live == 0) {
    for (unsigned col = 0; col < kTmemCols; ++col)
      if (c.tmemOwner[col])
        return fail(ti, t.pc, llvm::formatv("cta {0} exits with Tensor Memory column {1} "
                                            "still allocated",
                                            t.cta, col)
                                  .str());
    for (int ei : pendingEvents)
      for (int o : events[ei].ops)
        if (events[ei].kind == Event::LoadDone &&
            (threads[ops[o].issuer].cta == t.cta || ops[o].dstCta == int(t.cta)))
          return fail(ti, t.pc, "cta exits with a TMA load still in flight (" +
                                    stmtRef(ops[o].stmt) + ")");
  }
}

// ---------------------------------------------------------------------------------------
// Interpretation

static bool compare(uint8_t cmp, uint64_t a, uint64_t b, unsigned bits, bool sgn, bool flt) {
  if (flt) {
    float fa, fb;
    uint32_t ua = uint32_t(a), ub = uint32_t(b);
    std::memcpy(&fa, &ua, 4);
    std::memcpy(&fb, &ub, 4);
    switch (cmp) {
    case 0: return fa == fb;
    case 1: return fa != fb;
    case 2: return fa < fb;
    case 3: return fa <= fb;
    case 4: return fa > fb;
    default: return fa >= fb;
    }
  }
  if (sgn) {
    int64_t sa = llvm::SignExtend64(a, bits), sb = llvm::SignExtend64(b, bits);
    switch (cmp) {
    case 0: return sa == sb;
    case 1: return sa != sb;
    case 2: return sa < sb;
    case 3: return sa <= sb;
    case 4: return sa > sb;
    default: return sa >= sb;
    }
  }
  uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  a &= mask;
  b &= mask;
  switch (cmp) {
  case 0: return a == b;
  case 1: return a != b;
  case 2: return a < b;
  case 3: return a <= b;
  case 4: return a > b;
  default: return a >= b;
  }
}

bool Sim::execPure(Thread &t, const Statement &s, const Decoded &d) {
  const std::vector<Operand> &o = s.ops;
  if (d.op == Op::Math) {
    if (!o.empty() && o[0].kind == Operand::Vec)
      for (const Operand &e : o[0].elems)
        write(t, e, 0, false);
    else if (!o.empty())
      write(t, o[0], 0, false);
    return true;
  }
  if (d.op == Op::Mov && (o[0].kind == Operand::Vec || o[1].kind == Operand::Vec)) {
    // Packing and unpacking: mov.b64 {lo, hi}, x / mov.b64 x, {lo, hi}.
    if (o[0].kind == Operand::Vec) {
      uint64_t x;
      bool kx = read(t, o[1], x);
      unsigned w = d.bits / unsigned(o[0].elems.size());
      for (size_t i = 0; i < o[0].elems.size(); ++i)
        write(t, o[0].elems[i], w >= 64 ? x : (x >> (w * i)) & ((1ull << w) - 1), kx);
    } else {
      uint64_t x = 0;
      bool kx = true;
      unsigned w = d.bits / unsigned(o[1].elems.size());
      for (size_t i = 0; i < o[1].elems.size(); ++i) {
        uint64_t e;
        kx = read(t, o[1].elems[i], e) && kx;
        x |= (w >= 64 ? e : e & ((1ull << w) - 1)) << (w * i);
      }
      write(t, o[0], x, kx);
    }
    return true;
  }
  if (o[0].kind == Operand::Vec) {
    for (const Operand &e : o[0].elems)
      write(t, e, 0, false);
    return true;
  }
  uint64_t a = 0, b = 0, c = 0;
  bool ka = o.size() > 1 && read(t, o[1], a);
  bool kb = o.size() > 2 && read(t, o[2], b);
  bool kc = o.size() > 3 && read(t, o[3], c);
  unsigned bits = d.bits;
  uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  auto sx = [&](uint64_t v, unsigned w) { return llvm::SignExtend64(v, w); };
  uint64_t r = 0;
  bool known = true;
  switch (d.op) {
  case Op::Mov:
    r = a;
    known = ka;
    break;
  case Op::Add:
    r = a + b;
    known = ka && kb;
    break;
  case Op::Sub:
    r = a - b;
    known = ka && kb;
    break;
  case Op::MulLo:
    r = a * b;
    known = ka && kb;
    break;
  case Op::MulHi:
    // The high half of the 2 x bits product (LLVM divides by constants with mul.hi of 16,
    // 32 and 64 bits).
    if (bits == 16 || bits == 32)
      r = d.isSigned ? uint64_t((sx(a, bits) * sx(b, bits)) >> bits)
                     : ((a & mask) * (b & mask)) >> bits;
    else if (bits == 64)
      r = d.isSigned ? uint64_t((__int128(int64_t(a)) * __int128(int64_t(b))) >> 64)
                     : uint64_t((unsigned __int128)a * (unsigned __int128)b >> 64);
    else
      known = false;
    known = known && ka && kb;
    break;
  case Op::MulWide:
    r = d.isSigned ? uint64_t(sx(a, d.srcBits) * sx(b, d.srcBits))
                   : (a & ((1ull << d.srcBits) - 1)) * (b & ((1ull << d.srcBits) - 1));
    known = ka && kb;
    break;
  case Op::MadLo:
    r = a * b + c;
    known = ka && kb && kc;
    break;
  case Op::Div:
  case Op::Rem: {
    known = ka && kb && (b & mask) != 0;
    if (known) {
      if (d.isSigned) {
        int64_t x = sx(a, bits), y = sx(b, bits);
        r = uint64_t(d.op == Op::Div ? x / y : x % y);
      } else {
        r = d.op == Op::Div ? (a & mask) / (b & mask) : (a & mask) % (b & mask);
      }
    }
    break;
  }
  case Op::Min:
  case Op::Max: {
    bool less = d.isSigned ? sx(a, bits) < sx(b, bits) : (a & mask) < (b & mask);
    r = (d.op == Op::Min) == less ? a : b;
    known = ka && kb;
    break;
  }
  case Op::And:
    r = a & b;
    known = (ka && kb) || (ka && a == 0) || (kb && b == 0);
    break;
  case Op::Or:
    r = a | b;
    known = ka && kb;
    break;
  case Op::Xor:
    r = a ^ b;
    known = ka && kb;
    break;
  case Op::Not:
    r = ~a;
    known = ka;
    break;
  case Op::Neg:
    r = uint64_t(0) - a;
    known = ka;
    break;
  case Op::Shl:
    r = (b & 0xffffffffu) >= bits ? 0 : a << b;
    known = ka && kb;
    break;
  case Op::Shr:
    if (d.isSigned)
      r = uint64_t(sx(a, bits) >> std::min<uint64_t>(b & 0xffffffffu, bits - 1));
    else
      r = (b & 0xffffffffu) >= bits ? 0 : (a & mask) >> b;
    known = ka && kb;
    break;
  case Op::Bfe: {
    unsigned pos = unsigned(b & 0xff), len = unsigned(c & 0xff);
    uint64_t x = a & mask;
    if (len == 0)
      r = 0;
    else {
      uint64_t field = pos >= 64 ? 0 : x >> pos;
      if (len < 64)
        field &= (1ull << len) - 1;
      if (d.isSigned && len < bits) {
        bool sign = pos + len - 1 < bits ? (x >> std::min(pos + len - 1, bits - 1)) & 1
                                         : (x >> (bits - 1)) & 1;
        if (sign)
          field |= ~((1ull << len) - 1);
      }
      r = field;
    }
    known = ka && kb && kc;
    break;
  }
  case Op::Selp:
    known = kc && (c & 1 ? ka : kb);
    r = c & 1 ? a : b;
    break;
  case Op::Setp:
    r = compare(d.cmp, a, b, bits, d.isSigned, d.isFloat);
    known = ka && kb;
    break;
  case Op::Cvt:
    r = d.isSigned ? uint64_t(sx(a & ((d.srcBits >= 64) ? ~0ull : (1ull << d.srcBits) - 1),
                                 d.srcBits))
                   : (a & ((d.srcBits >= 64) ? ~0ull : (1ull << d.srcBits) - 1));
    known = ka;
    break;
  case Op::Cvta:
    if (d.cvtaDir == 0) {
      bool toGeneric = s.opcode.find("shared") != std::string::npos;
      r = toGeneric ? (a | kGenericShared) : a;
    } else {
      bool toCluster = s.opcode.find("shared::cluster") != std::string::npos;
      uint64_t off = a & 0xffffffu;
      r = toCluster ? (kClusterTag | (uint64_t(ctas[t.cta].rank) << 24) | off) : off;
      if (!(a & kGenericShared) && ka) {
        fail(int(&t - threads.data()), t.pc, "cvta.to.shared of an address that is not a "
                                             "generic shared-memory address");
        return false;
      }
    }
    known = ka;
    break;
  case Op::Mapa: {
    // mapa.shared::cluster d, a, rank: a is a shared::cta (or cluster) address.
    r = kClusterTag | ((b & 0x7f) << 24) | (a & 0xffffffu);
    known = ka && kb;
    if (known && (b & 0xffffffffu) >= clusterSize) {
      fail(int(&t - threads.data()), t.pc,
           llvm::formatv("mapa to CTA rank {0} in a cluster of {1}", b, clusterSize).str());
      return false;
    }
    break;
  }
  default:
    return false;
  }
  if (d.op == Op::Setp || bits == 1)
    r &= 1;
  else if (d.op != Op::Cvta && d.op != Op::Mapa && d.op != Op::MulWide)
    r &= mask;
  write(t, o[0], r, known);
  return true;
}

// Executes the statement at t.pc. Returns true when the thread yields to the scheduler.
bool Sim::step(int ti) {
  Thread &t = threads[ti];
  if (t.pc >= int(k.stmts.size())) {
    exitThread(ti);
    return true;
  }
  if (t.convergedAt != t.pc)
    t.convergedAt = -1;
  const Statement &s = k.stmts[t.pc];
  const Decoded &d = dec[t.pc];
  if (d.op == Op::Label) {
    ++t.pc;
    return false;
  }
  if (isPure(d.op) && !d.exec) {
    ++t.pc;
    return false;
  }
  if (s.guard >= 0) {
    Operand g;
    g.kind = Operand::Reg;
    g.reg = s.guard;
    uint64_t gv;
    if (!read(t, g, gv)) {
      if (isPure(d.op)) { // the result becomes unknown
        if (!s.ops.empty() && s.ops[0].kind == Operand::Vec)
          for (const Operand &e : s.ops[0].elems)
            write(t, e, 0, false);
        else if (!s.ops.empty())
          write(t, s.ops[0], 0, false);
        ++t.pc;
        return false;
      }
      fail(ti, t.pc, "the guard of this instruction depends on a value outside the model");
      return true;
    }
    bool on = (gv & 1) != s.guardNegated;
    if (!on) {
      ++t.pc;
      return false;
    }
  }
  if (isPure(d.op)) {
    execPure(t, s, d);
    if (opt.traceThread == int64_t(ti) && !s.ops.empty() && s.ops[0].kind == Operand::Reg) {
      uint64_t v = 0;
      bool kn = read(t, s.ops[0], v);
      llvm::errs() << "thread " << ti << ": " << stmtRef(t.pc) << " = "
                   << (kn ? std::to_string(v) : "?") << "\n";
    }
    ++t.pc;
    return false;
  }
  if (opt.traceThread == int64_t(ti))
    llvm::errs() << "thread " << ti << ": " << stmtRef(t.pc) << "\n";
  reached[t.pc] = 1;
  if (d.aligned && !converge(ti))
    return true;
  const std::vector<Operand> &o = s.ops;
  int stmt = t.pc;
  auto next = [&] { ++t.pc; };
  uint64_t v = 0;
  switch (d.op) {
  case Op::Bra:
    if (o.empty() || o[0].kind != Operand::Label) {
      fail(ti, stmt, "branch target outside the model");
      return true;
    }
    t.pc = o[0].target;
    return false;
  case Op::Ret:
    trace(ti, stmt, "exit");
    exitThread(ti);
    return true;
  case Op::LdParam: {
    const Operand &a = o[1];
    if (a.kind != Operand::Mem || a.sym < 0 || k.symbols[a.sym].kind != Symbol::Param) {
      fail(ti, stmt, "ld.param of something other than a kernel parameter");
      return true;
    }
    bool ok;
    uint64_t pv = paramValue(k.symbols[a.sym].param, a.imm, d.bytes, ok);
    write(t, o[0], pv, ok);
    next();
    return false;
  }
  case Op::LdGlobal:
    if (o[0].kind == Operand::Vec)
      for (const Operand &e : o[0].elems)
        write(t, e, 0, false);
    else
      write(t, o[0], 0, false);
    next();
    return false;
  case Op::StGlobal: {
    uint64_t addr;
    const Operand &a = o[0];
    bool tracked = a.kind == Operand::Mem && a.reg >= 0 && relIndex[a.reg] >= 0;
    if (tracked && address(t, a, addr, "global store address") && scratchAt(addr)) {
      Access acc;
      acc.thread = ti;
      acc.epoch = t.vc[ti];
      acc.stmt = stmt;
      if (!accessGlobal(ti, t.vc, addr, d.bytes, true, acc, false, stmt))
        return true;
    }
    if (failure)
      return true;
    next();
    return false;
  }
  case Op::LdAcquire: {
    uint64_t addr;
    if (!address(t, o[1], addr, "flag address"))
      return true;
    auto it = flags.find(addr);
    touchBy(explore::kFlagKey | (addr & ((1ull << 60) - 1)), explore::Read, t);
    write(t, o[0], it == flags.end() ? 0 : it->second, true);
    t.flagSeen = flagStores;
    auto rel = flagVC.find(addr);
    if (rel != flagVC.end() && s.opcode.find(".acquire") != std::string::npos)
      join(t.vc, rel->second); // acquire: the releasing thread's history
    trace(ti, stmt);
    tick(t);
    next();
    return true;
  }
  case Op::StFlag: {
    uint64_t addr, val;
    if (!address(t, o[0], addr, "flag address") || !readKnown(t, o[1], val, "flag value"))
      return true;
    flags[addr] = val;
    ++flagStores;
    touchBy(explore::kFlagKey | (addr & ((1ull << 60) - 1)), explore::Write, t);
    touchBy(explore::kAnyFlagKey, explore::Write, t);
    if (s.opcode.find(".release") != std::string::npos) {
      VC &rel = flagVC[addr];
      if (rel.empty())
        rel.assign(nAgents, 0);
      join(rel, t.vc);
    }
    trace(ti, stmt);
    tick(t);
    for (int w : sleepers)
      wake(w);
    sleepers.clear();
    next();
    return true;
  }
  case Op::Nanosleep:
    // The loops around nanosleep re-read a flag: sleeping until some flag changes after the
    // thread's last acquire load is equivalent and keeps the schedule finite.
    next();
    if (flagStores != t.flagSeen) {
      touchBy(explore::kAnyFlagKey, explore::Read, t);
      return true;
    }
    sleepers.push_back(ti);
    block(ti, "sleeps until a flag in global memory changes");
    return true;
  case Op::LdShared:
  case Op::StShared: {
    bool st = d.op == Op::StShared;
    uint64_t addr;
    if (!address(t, o[st ? 0 : 1], addr, "shared-memory address"))
      return true;
    unsigned cta;
    uint32_t off;
    if (!sharedAddr(t, addr, cta, off, "shared-memory access"))
      return true;
    Access acc;
    acc.thread = ti;
    acc.epoch = t.vc[ti];
    acc.stmt = stmt;
    if (!accessSmem(ti, t.vc, cta, off, d.bytes, st, acc, false, stmt))
      return true;
    CTA &c = ctas[cta];
    if (st) {
      uint64_t val;
      bool kv = o[1].kind != Operand::Vec && read(t, o[1], val);
      if (kv && (d.bytes == 4 || d.bytes == 8))
        c.words[off] = val;
      else
        for (uint32_t w = off & ~3u; w < off + d.bytes; w += 4)
          c.words.erase(w);
    } else {
      auto it = c.words.find(off);
      if (o[0].kind == Operand::Vec)
        for (const Operand &e : o[0].elems)
          write(t, e, 0, false);
      else
        write(t, o[0], it == c.words.end() ? 0 : it->second, it != c.words.end());
    }
    next();
    return false;
  }
  case Op::LdMatrix:
  case Op::StMatrix: {
    bool st = d.op == Op::StMatrix;
    if (t.lane < 8 * d.matrices) {
      uint64_t addr;
      if (!address(t, o[st ? 0 : 1], addr, "ldmatrix/stmatrix row address"))
        return true;
      unsigned cta;
      uint32_t off;
      if (!sharedAddr(t, addr, cta, off, "ldmatrix/stmatrix"))
        return true;
      Access acc;
      acc.thread = ti;
      acc.epoch = t.vc[ti];
      acc.stmt = stmt;
      if (!accessSmem(ti, t.vc, cta, off, 16, st, acc, false, stmt))
        return true;
    }
    next();
    return false;
  }
  case Op::BarSync:
  case Op::BarArrive: {
    uint64_t id, count = threadsPerCta;
    if (!readKnown(t, o[0], id, "barrier id"))
      return true;
    if (o.size() > 1 && !readKnown(t, o[1], count, "barrier thread count"))
      return true;
    if (id >= 16) {
      fail(ti, stmt, llvm::formatv("named barrier {0} (0-15 exist)", id).str());
      return true;
    }
    if (count % 32 || count == 0 || count > threadsPerCta) {
      fail(ti, stmt, llvm::formatv("barrier thread count {0} is not a positive multiple of "
                                   "32 up to {1}",
                                   count, threadsPerCta)
                         .str());
      return true;
    }
    NamedBar &nb = ctas[t.cta].bars[id];
    if (nb.arrived == 0) {
      nb.expected = unsigned(count);
      nb.firstStmt = stmt;
      if (nb.vc.empty())
        nb.vc.assign(nAgents, 0);
    } else if (nb.expected != count) {
      fail(ti, stmt, llvm::formatv("barrier {0} used with {1} threads here and {2} threads "
                                   "at {3}",
                                   id, count, nb.expected, stmtRef(nb.firstStmt))
                         .str());
      return true;
    }
    trace(ti, stmt);
    // bar.sync arrivals commute (the thread waits for the generation it joined); a bar.arrive
    // may run ahead into the next generation, so its order matters.
    touchBy(explore::kNamedBarKey | (uint64_t(t.cta) << 8) | id,
            d.op == Op::BarSync ? explore::Commute : explore::Write, t);
    join(nb.vc, t.vc);
    tick(t);
    ++nb.arrived;
    next();
    if (nb.arrived == nb.expected) {
      for (int w : nb.waiters) {
        join(threads[w].vc, nb.vc);
        wake(w);
      }
      if (d.op == Op::BarSync)
        join(t.vc, nb.vc);
      nb.waiters.clear();
      nb.arrived = 0;
      std::fill(nb.vc.begin(), nb.vc.end(), 0);
      return true;
    }
    if (d.op == Op::BarSync) {
      nb.waiters.push_back(ti);
      block(ti, llvm::formatv("waits at barrier {0} ({1} of {2} threads arrived)", id,
                              nb.arrived, nb.expected)
                    .str());
    }
    return true;
  }
  case Op::BarWarpSync: {
    // PTX ISA, bar.warp.sync: "bar.warp.sync also guarantee memory ordering among threads
    // participating in barrier", so every lane of the member mask is ordered after what every
    // other participating lane did before it (an all-to-all synchronisation, like bar.sync
    // among the mask's lanes). The .sync/.aligned of ldmatrix, mma.sync, shfl.sync or
    // elect.sync only converges the lanes' execution and orders no memory: a warp is not a
    // scope of the memory model.
    uint64_t mask;
    if (!readKnown(t, o[0], mask, "member mask"))
      return true;
    VC snapshot = t.vc;
    WarpColl *c;
    if (!warpCollective(ti, uint32_t(mask), 0, true, c))
      return true;
    WarpColl &pending = c ? *c : warpColl[t.warp][stmt];
    if (pending.vc.empty())
      pending.vc.assign(nAgents, 0);
    join(pending.vc, snapshot);
    tick(t);
    next();
    if (c) {
      trace(ti, stmt);
      join(t.vc, c->vc);
      for (int w : c->waiters) {
        join(threads[w].vc, c->vc);
        wake(w);
      }
      warpColl[t.warp].erase(stmt);
    }
    return true;
  }
  case Op::Elect:
  case Op::Shfl: {
    uint64_t mask;
    const Operand &mo = o.back();
    if (!readKnown(t, mo, mask, "member mask"))
      return true;
    uint64_t src = 0;
    bool ks = d.op == Op::Shfl ? read(t, o[1], src) : true;
    WarpColl *c;
    if (!warpCollective(ti, uint32_t(mask), src, ks, c))
      return true;
    if (!c) {
      // Blocked; the statement completes when the last lane arrives (below) for every lane.
      return true;
    }
    // The last lane: compute every lane's result.
    WarpColl done = *c;
    warpColl[t.warp].erase(stmt);
    unsigned lowest = llvm::countr_zero(done.mask);
    std::vector<int> lanes = done.waiters;
    lanes.push_back(ti);
    for (int w : lanes) {
      Thread &u = threads[w];
      if (d.op == Op::Elect) {
        write(u, o[0].kind == Operand::RegPair ? Operand{Operand::Reg, o[0].reg} : o[0],
              lowest, true);
        if (o[0].kind == Operand::RegPair)
          write(u, Operand{Operand::Reg, o[0].reg2}, u.lane == lowest, true);
      } else {
        uint64_t bv, cv;
        if (!readKnown(u, o[2], bv, "shuffle lane") || !readKnown(u, o[3], cv, "shuffle clamp"))
          return true;
        unsigned lane = u.lane, segmask = unsigned(cv >> 8) & 31, clamp = unsigned(cv) & 31;
        unsigned maxLane = (lane & segmask) | (clamp & ~segmask), minLane = lane & segmask;
        int j;
        bool inRange;
        switch (d.shflMode) {
        case 0:
          j = int(minLane | (unsigned(bv) & ~segmask));
          inRange = j <= int(maxLane);
          break;
        case 1:
          j = int(lane) - int(bv);
          inRange = j >= int(maxLane);
          break;
        case 2:
          j = int(lane + unsigned(bv));
          inRange = j <= int(maxLane);
          break;
        default:
          j = int(lane ^ unsigned(bv));
          inRange = j <= int(maxLane);
          break;
        }
        if (!inRange)
          j = int(lane);
        if (!(done.mask & (1u << j))) {
          fail(w, stmt, "shfl.sync reads a lane outside its member mask");
          return true;
        }
        Operand dst = o[0].kind == Operand::RegPair ? Operand{Operand::Reg, o[0].reg} : o[0];
        write(u, dst, done.vals[j], done.known[j]);
        if (o[0].kind == Operand::RegPair)
          write(u, Operand{Operand::Reg, o[0].reg2}, inRange, true);
      }
      if (w != ti) {
        ++u.pc;
        wake(w);
      }
    }
    next();
    return true;
  }
  case Op::Vote: {
    // vote.sync.{all,any,uni}.pred d, p, mask / vote.sync.ballot.b32 d, p, mask: every lane
    // of the mask gets the same result over the lanes' predicates (unknown if any is).
    uint64_t mask, pv = 0;
    if (!readKnown(t, o[2], mask, "member mask"))
      return true;
    bool known = read(t, o[1], pv);
    WarpColl *c;
    if (!warpCollective(ti, uint32_t(mask), pv != 0, known, c))
      return true;
    if (!c)
      return true;
    WarpColl done = *c;
    warpColl[t.warp].erase(stmt);
    bool allKnown = true, all = true, any = false, knownTrue = false, knownFalse = false;
    uint64_t ballot = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (done.mask & (1u << l)) {
        allKnown = allKnown && done.known[l];
        all = all && done.vals[l];
        any = any || done.vals[l];
        ballot |= uint64_t(done.vals[l] != 0) << l;
        knownTrue = knownTrue || (done.known[l] && done.vals[l]);
        knownFalse = knownFalse || (done.known[l] && !done.vals[l]);
      }
    uint64_t result = d.voteMode == 0 ? all : d.voteMode == 1 ? any
                    : d.voteMode == 2 ? (all || !any) : ballot;
    // A vote over data the checker does not model (a predicate computed from loaded values)
    // decides a warp-uniform choice between paths: where the known lanes do not settle it
    // (a true lane for any, a false one for all), the outcome is chosen, so that the
    // schedules take either path, the whole warp the same one.
    if (!allKnown && d.voteMode == 1 && knownTrue)
      result = 1, allKnown = true;
    else if (!allKnown && d.voteMode == 0 && knownFalse)
      result = 0, allKnown = true;
    else if (!allKnown && d.voteMode != 3) {
      result = policy == Policy::Random ? (rng() & 1) : ((dataVotes + unsigned(policy)) & 1);
      ++dataVotes;
      allKnown = true;
    }
    std::vector<int> lanes = done.waiters;
    lanes.push_back(ti);
    // After a vote a lane acts on what every voter saw: it has seen the flag stores only up
    // to the least informed voter's last acquire load, so a spin loop deciding by the vote
    // (Nanosleep below) sleeps only when no voter can see a change.
    uint64_t seen = threads[ti].flagSeen;
    for (int w : lanes)
      seen = std::min(seen, threads[w].flagSeen);
    for (int w : lanes) {
      threads[w].flagSeen = seen;
      write(threads[w], o[0], result, allKnown);
      if (w != ti) {
        ++threads[w].pc;
        wake(w);
      }
    }
    next();
    return true;
  }
  case Op::ClusterArrive: {
    ClusterBar &cb = clusterBars[ctas[t.cta].cluster];
    touchBy(explore::kClusterKey | ctas[t.cta].cluster, explore::Commute, t);
    // A relaxed arrive releases nothing but what the thread's fence.mbarrier_init released
    // (its mbarrier.init operations; the model releases all it did up to the fence).
    join(cb.vc, d.relaxed ? t.initFenceVC : t.vc);
    tick(t);
    t.clusterPhase = cb.phase;
    trace(ti, stmt);
    if (++cb.arrived == threadsPerCta * clusterSize) {
      touchBy(explore::kClusterKey | ctas[t.cta].cluster, explore::Write, t);
      ++cb.phase;
      cb.doneVC = cb.vc;
      cb.arrived = 0;
      for (int w : cb.waiters)
        wake(w);
      cb.waiters.clear();
    }
    next();
    return true;
  }
  case Op::ClusterWait: {
    ClusterBar &cb = clusterBars[ctas[t.cta].cluster];
    if (cb.phase > t.clusterPhase) {
      touchBy(explore::kClusterKey | ctas[t.cta].cluster, explore::Observe, t);
      join(t.vc, cb.doneVC);
      trace(ti, stmt);
      next();
      return true;
    }
    cb.waiters.push_back(ti);
    block(ti, "waits at the cluster barrier");
    return true;
  }
  case Op::MbarInit: {
    int bi = mbarAt(t, o[0], false, "mbarrier.init");
    if (bi < 0 || !readKnown(t, o[1], v, "mbarrier.init count"))
      return true;
    if (v == 0 || v >= (1u << 20)) {
      fail(ti, stmt, llvm::formatv("mbarrier.init count {0} is outside [1, 2^20 - 1]", v).str());
      return true;
    }
    MBar &b = mbars[bi];
    if (b.init && (b.pending != int64_t(b.count) || b.tx != 0 || !b.waiters.empty())) {
      fail(ti, stmt, "mbarrier.init of a barrier that is in use");
      return true;
    }
    b.init = true;
    b.count = unsigned(v);
    b.pending = int64_t(v);
    b.tx = 0;
    b.initAccess.thread = ti;
    b.initAccess.epoch = t.vc[ti];
    b.initAccess.stmt = stmt;
    b.initAccess.valid = true;
    touchBy(explore::kMbarKey | unsigned(bi), explore::Write, t);
    touchBy(explore::kMbarPhaseKey | unsigned(bi), explore::Write, t);
    // The barrier's own memory is a write; its later uses are checked against it.
    trace(ti, stmt);
    tick(t);
    next();
    return true; // a step of its own: what follows is ordered after it by clocks
  }
  case Op::MbarArrive:
  case Op::CpAsyncArrive:
  case Op::MbarExpectTx:
  case Op::MbarTryWait: {
    const Operand &bo = d.op == Op::MbarExpectTx || d.op == Op::CpAsyncArrive ? o[0] : o[1];
    int bi = mbarAt(t, bo, d.cluster || s.opcode.find("shared::cluster") != std::string::npos,
                    "mbarrier address");
    if (bi < 0)
      return true;
    MBar &b = mbars[bi];
    if (!b.init) {
      fail(ti, stmt, "mbarrier operation on a barrier that was never initialised");
      return true;
    }
    if (!knows(t.vc, b.initAccess)) {
      fail(ti, stmt, "mbarrier operation not ordered after the barrier's mbarrier.init (" +
                         describe(b.initAccess) + ")");
      return true;
    }
    if (d.op == Op::MbarTryWait) {
      uint64_t parity;
      if (!readKnown(t, o[2], parity, "wait parity"))
        return true;
      if ((b.completed & 1) != (parity & 1)) {
        // Only a passing wait reads the phase; a blocked one is retried when the barrier
        // changes, a step without effect.
        touchBy(explore::kMbarPhaseKey | unsigned(bi), explore::Observe, t);
        // The phase with this parity has completed.
        join(t.vc, b.doneVC);
        write(t, o[0], 1, true);
        trace(ti, stmt, llvm::formatv("passes: parity {0}, {1} phase(s) completed",
                                      parity & 1, b.completed)
                            .str());
        next();
        return true;
      }
      b.waiters.push_back(ti);
      block(ti, "waits on an mbarrier");
      t.blockedBar = bi;
      t.blockedParity = unsigned(parity & 1);
      return true;
    }
    uint64_t tx = 0;
    bool withTx = d.op == Op::MbarExpectTx || d.expectTx;
    if (withTx && !readKnown(t, o[d.op == Op::MbarExpectTx ? 1 : 2], tx, "expect_tx bytes"))
      return true;
    uint64_t count = 1;
    if (d.op == Op::MbarArrive && !withTx && o.size() > 2 &&
        !readKnown(t, o[2], count, "arrival count"))
      return true;
    trace(ti, stmt, withTx ? llvm::formatv("expect_tx {0}", tx).str() : "");
    b.tx += int64_t(tx);
    if (withTx)
      touchBy(explore::kMbarKey | unsigned(bi), explore::Write, t);
    if (d.op == Op::MbarExpectTx) {
      tick(t);
      next();
      return true;
    }
    if (d.op == Op::CpAsyncArrive) {
      // The arrival happens once every cp.async this thread issued before it has landed:
      // the copies end here, before the arrival that orders them for the barrier's waiters.
      tick(t);
      auto land = [&](const std::vector<int> &v) {
        for (int oi : v)
          if (!ops[oi].done) {
            ops[oi].done = true;
            ops[oi].ends.push_back({uint32_t(ti), t.vc[ti]});
          }
      };
      land(t.cpPending);
      for (auto &g : t.cpGroups)
        land(g);
    }
    VC snapshot = t.vc;
    tick(t);
    next();
    arrive(bi, unsigned(count), snapshot, ti, stmt);
    return true;
  }
  case Op::FenceProxyAsync:
    tick(t);
    t.fences.push_back(t.vc[ti]);
    if (s.opcode != "fence.proxy.async.shared::cta")
      t.globalFenceVC = t.vc; // what the thread knew when it fenced global memory
    tick(t);
    next();
    return false;
  case Op::FenceMbarInit:
    tick(t);
    t.initFenceVC = t.vc;
    tick(t);
    next();
    return false;
  case Op::FenceNoop:
  case Op::PrefetchTensormap:
  case Op::WgmmaFence:
  case Op::Setmaxnreg:
    next();
    return false;
  case Op::TmaLoad:
  case Op::BulkLoad: {
    // TMA: [dst], [tmap, {coords}], [mbar] {, ctaMask}; bulk: [dst], [src], size, [mbar].
    uint64_t dstAddr;
    if (!address(t, o[0], dstAddr, "copy destination"))
      return true;
    unsigned bytes = 0;    // the transaction bytes the copy completes
    unsigned smemBytes = 0; // what it writes (more for the padded 6- and 4-bit forms)
    uint64_t ctaMask = 0;   // multicast: the destination CTA ranks
    const Operand *mb;
    if (d.op == Op::TmaLoad) {
      uint64_t tm;
      if (!address(t, o[1], tm, "tensor map"))
        return true;
      if (!(tm & kParamTag) || (tm & 0xffff) != 0) {
        fail(ti, stmt, "the tensor map operand is not a kernel parameter");
        return true;
      }
      unsigned pi = unsigned((tm >> 16) & 0xffff);
      if (pi >= cfg.params.size() || cfg.params[pi].kind != "tensormap") {
        fail(ti, stmt, llvm::formatv("parameter {0} is not a tensor map in the manifest", pi)
                           .str());
        return true;
      }
      bytes = cfg.params[pi].boxBytes;
      smemBytes = cfg.params[pi].smemBytes ? cfg.params[pi].smemBytes : bytes;
      mb = &o[2];
      if (d.multicast) {
        // .multicast::cluster (PTX ISA, cp.async.bulk.tensor): the box lands at the
        // destination's CTA-relative offset in every CTA of the mask, and each of them has
        // complete_tx signalled on its mbarrier at the same offset as the operand's.
        if (o.size() < 4) {
          fail(ti, stmt, "multicast TMA load without a CTA mask operand");
          return true;
        }
        if (!readKnown(t, o[3], ctaMask, "multicast CTA mask"))
          return true;
        ctaMask &= 0xffff;
        if (ctaMask == 0 || (ctaMask >> clusterSize) != 0) {
          fail(ti, stmt, llvm::formatv("multicast CTA mask {0:x} names no CTA or a CTA rank "
                                       "beyond the cluster of {1}",
                                       ctaMask, clusterSize)
                             .str());
          return true;
        }
      }
    } else {
      uint64_t size;
      if (!readKnown(t, o[2], size, "bulk copy size"))
        return true;
      bytes = unsigned(size);
      smemBytes = bytes;
      mb = &o[3];
      uint64_t src;
      if (trackGlobalMem && o[1].kind == Operand::Mem && o[1].reg >= 0 &&
          relIndex[o[1].reg] >= 0 && address(t, o[1], src, "bulk copy source") &&
          scratchAt(src)) {
        Access acc;
        acc.thread = ti;
        acc.epoch = t.vc[ti];
        acc.stmt = stmt;
        acc.generic = false;
        if (!accessGlobal(ti, t.vc, src, bytes, false, acc, true, stmt))
          return true;
      }
      if (failure)
        return true;
    }
    unsigned cta;
    uint32_t off;
    if (!sharedAddr(t, dstAddr, cta, off, "copy destination"))
      return true;
    int bi = mbarAt(t, *mb, true, "complete_tx mbarrier");
    if (bi < 0)
      return true;
    // The destinations: the one CTA of the address, or every CTA of the multicast mask (at the
    // address's and the mbarrier's CTA-relative offsets).
    llvm::SmallVector<std::pair<unsigned, int>, 4> dests; // (CTA, mbarrier)
    if (!d.multicast) {
      dests.push_back({cta, bi});
    } else {
      uint32_t barOff = mbars[bi].off;
      for (unsigned r = 0; r < clusterSize; ++r)
        if (ctaMask >> r & 1) {
          unsigned dc = ctas[t.cta].cluster * clusterSize + r;
          int db = mbarIn(t, dc, barOff);
          if (db < 0)
            return true;
          dests.push_back({dc, db});
        }
    }
    for (auto [dc, db] : dests) {
      if (!mbars[db].init) {
        fail(ti, stmt, llvm::formatv("the copy signals an mbarrier that was never initialised "
                                     "(shared offset {0}, cta {1})",
                                     mbars[db].off, dc)
                           .str());
        return true;
      }
      AsyncOp op{d.op, ti, stmt};
      op.barrier = db;
      op.bytes = bytes;
      op.dstCta = int(dc);
      int oi = addOp(op);
      Access acc = Access::ofOp(oi, ti, stmt, /*generic=*/false);
      if (!accessSmem(ti, t.vc, dc, off, smemBytes, true, acc, true, stmt))
        return true;
      ctas[dc].regions[off] = off + smemBytes;
      Event e{Event::LoadDone, ti, stmt, {oi}, {db}, t.vc};
      e.since = curStep + 1;
      events.push_back(std::move(e));
      pendingEvents.push_back(int(events.size()) - 1);
    }
    trace(ti, stmt,
          d.multicast
              ? llvm::formatv("{0} bytes to {1} CTA(s)", bytes, dests.size()).str()
              : llvm::formatv("{0} bytes", bytes).str());
    tick(t);
    next();
    return true;
  }
  case Op::TmaStore: {
    uint64_t tm, src;
    if (!address(t, o[0], tm, "tensor map") || !address(t, o[1], src, "store source"))
      return true;
    unsigned pi = unsigned((tm >> 16) & 0xffff);
    if (!(tm & kParamTag) || pi >= cfg.params.size() || cfg.params[pi].kind != "tensormap") {
      fail(ti, stmt, "the tensor map operand is not a tensor-map parameter of the manifest");
      return true;
    }
    unsigned cta;
    uint32_t off;
    if (!sharedAddr(t, src, cta, off, "store source"))
      return true;
    AsyncOp op{d.op, ti, stmt};
    int oi = addOp(op);
    Access acc = Access::ofOp(oi, ti, stmt, /*generic=*/false);
    if (!accessSmem(ti, t.vc, cta, off, cfg.params[pi].boxBytes, false, acc, true, stmt))
      return true;
    t.bulkPending.push_back(oi);
    trace(ti, stmt);
    tick(t);
    next();
    return true;
  }
  case Op::BulkCommit:
    t.bulkGroups.push_back(std::move(t.bulkPending));
    t.bulkPending.clear();
    next();
    return false;
  case Op::BulkWait:
  case Op::CpAsyncWait: {
    bool bulk = d.op == Op::BulkWait;
    uint64_t n = 0;
    if (s.opcode != "cp.async.wait_all" && !readKnown(t, o[0], n, "wait_group count"))
      return true;
    auto &groups = bulk ? t.bulkGroups : t.cpGroups;
    if (!bulk && s.opcode == "cp.async.wait_all") {
      groups.push_back(std::move(t.cpPending));
      t.cpPending.clear();
    }
    tick(t);
    while (groups.size() > n) {
      for (int oi : groups.front()) {
        ops[oi].done = true;
        ops[oi].ends.push_back({uint32_t(ti), t.vc[ti]});
      }
      groups.pop_front();
    }
    tick(t);
    trace(ti, stmt);
    next();
    return true;
  }
  case Op::CpAsync: {
    uint64_t dst, size;
    if (!address(t, o[0], dst, "cp.async destination") ||
        !readKnown(t, o[2], size, "cp.async size"))
      return true;
    unsigned cta;
    uint32_t off;
    if (!sharedAddr(t, dst, cta, off, "cp.async destination"))
      return true;
    AsyncOp op{d.op, ti, stmt};
    op.bytes = unsigned(size);
    int oi = addOp(op);
    // cp.async writes through the generic proxy.
    Access acc = Access::ofOp(oi, ti, stmt, /*generic=*/true);
    if (!accessSmem(ti, t.vc, cta, off, unsigned(size), true, acc, false, stmt))
      return true;
    t.cpPending.push_back(oi);
    next();
    return false;
  }
  case Op::CpAsyncCommit:
    t.cpGroups.push_back(std::move(t.cpPending));
    t.cpPending.clear();
    next();
    return false;
  case Op::Wgmma: {
    std::vector<int> &wops = wgOps[t.wg];
    if (t.wgmmaIssued == wops.size()) {
      int oi = addOp(AsyncOp{d.op, ti, stmt});
      wops.push_back(oi);
      if (mmaLog)
        logMma(t, s, /*tcgen05=*/false);
      // Shared-memory operands: descriptors (64-bit registers) in operands 1 (A) and 2 (B).
      for (unsigned i = 1; i <= 2 && i < o.size(); ++i) {
        if (o[i].kind != Operand::Reg || k.registers[o[i].reg].bits != 64)
          continue; // A from registers
        uint64_t desc;
        if (!readKnown(t, o[i], desc, "wgmma descriptor"))
          return true;
        // What it reads: the TMA box that holds its start and, where the descriptor's extent
        // goes further (an operand assembled from several boxes, such as B from the two halves
        // a CTA pair multicasts), the descriptor's extent as well.
        uint32_t addr = uint32_t(desc & 0x3fff) << 4, start, end, fStart, fEnd;
        bool inBox = regionAt(t.cta, addr, start, end);
        bool footprint = wgmmaFootprint(s.opcode, i, desc, fStart, fEnd);
        if (!inBox && !footprint) {
          fail(ti, stmt, llvm::formatv("wgmma reads shared offset {0}, which no TMA load has "
                                       "written",
                                       addr)
                             .str());
          return true;
        }
        if (!inBox)
          start = fStart, end = fEnd;
        else if (footprint)
          start = std::min(start, fStart), end = std::max(end, fEnd);
        Access acc = Access::ofOp(oi, ti, stmt, /*generic=*/false);
        if (!accessSmem(ti, t.vc, t.cta, start, end - start, false, acc, true, stmt))
          return true;
      }
    } else {
      // Another thread of the warpgroup issued it; this thread must know the same writes.
      const AsyncOp &op = ops[wops[t.wgmmaIssued]];
      if (op.stmt != stmt) {
        fail(ti, stmt, "the threads of a warpgroup issue different wgmma instructions (" +
                           stmtRef(op.stmt) + ")");
        return true;
      }
    }
    AsyncOp &issued = ops[wops[t.wgmmaIssued]];
    if (++issued.issued == 128)
      for (int w : wgWaiters[t.wg])
        wake(w);
    if (issued.issued == 128)
      wgWaiters[t.wg].clear();
    ++t.wgmmaIssued;
    next();
    return false;
  }
  case Op::WgmmaCommit: {
    auto &groups = wgGroups[t.wg];
    if (t.wgmmaCommits == groups.size())
      groups.push_back({t.wgmmaAtCommit, t.wgmmaIssued});
    t.wgmmaAtCommit = t.wgmmaIssued;
    ++t.wgmmaCommits;
    next();
    return false;
  }
  case Op::WgmmaWait: {
    uint64_t n;
    if (!readKnown(t, o[0], n, "wait_group count"))
      return true;
    auto &groups = wgGroups[t.wg];
    // A wgmma runs once all four warps of the warpgroup have issued it.
    for (unsigned g = t.wgmmaRetired; g + n < t.wgmmaCommits; ++g)
      for (unsigned i = groups[g].first; i < groups[g].second; ++i)
        if (ops[wgOps[t.wg][i]].issued < 128) {
          wgWaiters[t.wg].push_back(ti);
          block(ti, "waits for the other warps of its warpgroup to issue " +
                        stmtRef(ops[wgOps[t.wg][i]].stmt));
          return true;
        }
    tick(t);
    while (t.wgmmaCommits - t.wgmmaRetired > n) {
      auto [first, last] = groups[t.wgmmaRetired];
      for (unsigned i = first; i < last; ++i) {
        AsyncOp &op = ops[wgOps[t.wg][i]];
        op.done = true;
        op.ends.push_back({uint32_t(ti), t.vc[ti]});
      }
      ++t.wgmmaRetired;
    }
    tick(t);
    next();
    return false;
  }
  case Op::TcAlloc:
  case Op::TcDealloc:
  case Op::TcRelinquish: {
    // Warp-wide: the first lane of the warp to execute the n-th instance acts.
    unsigned n = t.instances[stmt]++;
    uint64_t key = (uint64_t(stmt) << 32) | n;
    auto &inst = warpInstance[t.warp];
    bool first = !inst.count(key);
    inst[key] = 1;
    CTA &c = ctas[t.cta];
    touchBy(explore::kTmemKey, explore::Write, t);
    if (d.op == Op::TcRelinquish) {
      c.relinquished = true;
      next();
      return false;
    }
    if (d.op == Op::TcAlloc) {
      uint64_t dst, ncols;
      if (!address(t, o[0], dst, "tcgen05.alloc destination") ||
          !readKnown(t, o[1], ncols, "tcgen05.alloc columns"))
        return true;
      if (!first) {
        next();
        return false;
      }
      if (c.relinquished) {
        fail(ti, stmt, "tcgen05.alloc after this CTA relinquished its allocation permit");
        return true;
      }
      if (ncols < 32 || ncols > kTmemCols || (ncols & (ncols - 1))) {
        fail(ti, stmt, llvm::formatv("tcgen05.alloc of {0} columns (a power of 2 in [32, "
                                     "512])",
                                     ncols)
                           .str());
        return true;
      }
      int at = -1;
      for (unsigned col = 0; col + ncols <= kTmemCols && at < 0; col += unsigned(ncols)) {
        bool free = true;
        for (unsigned i = col; i < col + ncols; ++i)
          free = free && !c.tmemOwner[i];
        if (free)
          at = int(col);
      }
      if (at < 0) {
        fail(ti, stmt, "tcgen05.alloc: not enough free Tensor Memory columns (it would block "
                       "forever)");
        return true;
      }
      for (unsigned i = unsigned(at); i < at + ncols; ++i)
        c.tmemOwner[i] = int(d.ctaGroup);
      unsigned cta;
      uint32_t off;
      if (!sharedAddr(t, dst, cta, off, "tcgen05.alloc destination"))
        return true;
      Access acc;
      acc.thread = ti;
      acc.epoch = t.vc[ti];
      acc.stmt = stmt;
      if (!accessSmem(ti, t.vc, cta, off, 4, true, acc, false, stmt))
        return true;
      ctas[cta].words[off] = uint64_t(at);
      trace(ti, stmt, llvm::formatv("{0} columns at {1}", ncols, at).str());
      next();
      return false;
    }
    uint64_t taddr, ncols;
    if (!readKnown(t, o[0], taddr, "tcgen05.dealloc address") ||
        !readKnown(t, o[1], ncols, "tcgen05.dealloc columns"))
      return true;
    if (!first) {
      next();
      return false;
    }
    unsigned col = unsigned(taddr & 0xffff);
    for (unsigned i = col; i < col + ncols && i < kTmemCols; ++i) {
      if (c.tmemOwner[i] != int(d.ctaGroup)) {
        fail(ti, stmt, llvm::formatv("tcgen05.dealloc.cta_group::{0} of column {1}, which is "
                                     "{2}",
                                     d.ctaGroup, i,
                                     c.tmemOwner[i] ? "allocated with another cta_group"
                                                    : "not allocated")
                           .str());
        return true;
      }
      Line &l = c.tmem[i];
      if (!checkWrite(ti, t.vc, l, "Tensor Memory column (dealloc)", t.cta, i, stmt, -1))
        return true;
      c.tmemOwner[i] = 0;
      l = Line();
    }
    trace(ti, stmt);
    next();
    return false;
  }
  case Op::TcCp:
    return stepTcCp(ti, t, d, o, stmt);
  case Op::TcMma: {
    uint64_t dt, idesc;
    if (!address(t, o[0], dt, "tcgen05.mma accumulator") ||
        !readKnown(t, o[3], idesc, "tcgen05.mma instruction descriptor"))
      return true;
    unsigned nCols = unsigned((idesc >> 17) & 0x3f) << 3;
    if (nCols == 0) {
      fail(ti, stmt, "tcgen05.mma instruction descriptor with N = 0");
      return true;
    }
    AsyncOp op{d.op, ti, stmt};
    int oi = addOp(op);
    if (mmaLog)
      logMma(t, k.stmts[stmt], /*tcgen05=*/true);
    Access acc = Access::ofOp(oi, ti, stmt, /*generic=*/false);
    unsigned first = d.ctaGroup == 2 ? ctas[t.cta].cluster * clusterSize +
                                           (ctas[t.cta].rank & ~1u)
                                     : t.cta;
    if (d.ctaGroup == 2 && clusterSize < 2) {
      fail(ti, stmt, "tcgen05.mma.cta_group::2 in a kernel without a CTA pair");
      return true;
    }
    for (unsigned c = first; c < first + d.ctaGroup; ++c) {
      for (unsigned i = 1; i <= 2; ++i) {
        if (o[i].kind != Operand::Reg)
          continue; // A in Tensor Memory: [taddr]
        uint64_t desc;
        if (!readKnown(t, o[i], desc, "tcgen05.mma descriptor"))
          return true;
        uint32_t addr = uint32_t(desc & 0x3fff) << 4, start, end;
        if (!regionAt(c, addr, start, end)) {
          fail(ti, stmt, llvm::formatv("tcgen05.mma reads shared offset {0} of cta {1}, which "
                                       "no TMA load has written",
                                       addr, c)
                             .str());
          return true;
        }
        if (!accessSmem(ti, t.vc, c, start, end - start, false, acc, true, stmt))
          return true;
      }
      if (!accessTmem(ti, t.vc, c, unsigned(dt & 0xffff), nCols, true, acc, stmt))
        return true;
    }
    t.tcPending.push_back(oi);
    next();
    return false;
  }
  case Op::TcCommit: {
    int bi = mbarAt(t, o[0], true, "tcgen05.commit mbarrier");
    if (bi < 0)
      return true;
    std::vector<int> targets;
    if (d.multicast) {
      uint64_t mask;
      if (!readKnown(t, o[1], mask, "tcgen05.commit CTA mask"))
        return true;
      const MBar &b = mbars[bi];
      for (unsigned r = 0; r < clusterSize; ++r)
        if (mask & (1u << r)) {
          Operand a;
          uint64_t addr = kClusterTag | (uint64_t(r) << 24) | b.off;
          unsigned cta;
          uint32_t off;
          if (!sharedAddr(t, addr, cta, off, "tcgen05.commit multicast"))
            return true;
          uint64_t key = (uint64_t(cta) << 32) | off;
          auto it = mbarIndex.find(key);
          if (it == mbarIndex.end()) {
            fail(ti, stmt, llvm::formatv("tcgen05.commit multicasts to cta rank {0}, whose "
                                         "mbarrier at offset {1} was never initialised",
                                         r, off)
                               .str());
            return true;
          }
          targets.push_back(it->second);
        }
      if (mask >> clusterSize) {
        fail(ti, stmt, llvm::formatv("tcgen05.commit CTA mask {0} names CTAs outside the "
                                     "cluster of {1}",
                                     mask, clusterSize)
                           .str());
        return true;
      }
    } else {
      targets.push_back(bi);
    }
    // All prior tcgen05 operations of this thread: the arrival says each of them is done.
    t.tcIssued.insert(t.tcIssued.end(), t.tcPending.begin(), t.tcPending.end());
    std::vector<int> covered = t.tcIssued;
    t.tcPending.clear();
    Event e{Event::CommitArrive, ti, stmt, covered, targets, t.vc};
    e.since = curStep + 1;
    events.push_back(std::move(e));
    pendingEvents.push_back(int(events.size()) - 1);
    trace(ti, stmt);
    tick(t);
    next();
    return true;
  }
  case Op::TcLd: {
    uint64_t taddr;
    if (!address(t, o[1], taddr, "tcgen05.ld address"))
      return true;
    unsigned n = t.instances[stmt]++;
    uint64_t key = (uint64_t(stmt) << 32) | n;
    auto &inst = warpInstance[t.warp];
    int oi;
    auto it = inst.find(key);
    if (it == inst.end()) {
      oi = addOp(AsyncOp{d.op, ti, stmt});
      inst[key] = oi;
    } else {
      oi = it->second;
    }
    // Each lane reads what its warp reads; every lane must know the accumulator's writer.
    Access acc = Access::ofOp(oi, ti, stmt, /*generic=*/true);
    unsigned col = unsigned(taddr & 0xffff), lane = unsigned(taddr >> 16);
    unsigned warpQuarter = (t.tid / 32) % 4;
    if (lane != warpQuarter * 32) {
      fail(ti, stmt, llvm::formatv("tcgen05.ld of lanes {0}-{1} by warp {2}, which may access "
                                   "lanes {3}-{4} only",
                                   lane, lane + 31, t.tid / 32, warpQuarter * 32,
                                   warpQuarter * 32 + 31)
                         .str());
      return true;
    }
    if (it == inst.end()) {
      if (!accessTmem(ti, t.vc, t.cta, col, d.bytes, false, acc, stmt))
        return true;
    } else {
      for (unsigned i = col; i < col + d.bytes && i < kTmemCols; ++i)
        if (!checkRead(ti, t.vc, ctas[t.cta].tmem[i], "Tensor Memory column", t.cta, i, false,
                       stmt))
          return true;
    }
    for (const Operand &e : o[0].elems)
      write(t, e, 0, false);
    t.ldPending.push_back(oi);
    next();
    return false;
  }
  case Op::TcWaitLd:
    tick(t);
    for (int oi : t.ldPending) {
      ops[oi].done = true;
      ops[oi].ends.push_back({uint32_t(ti), t.vc[ti]});
    }
    t.ldPending.clear();
    tick(t);
    next();
    return false;
  default:
    fail(ti, stmt, "instruction outside the model: '" + s.opcode + "'");
    return true;
  }
}

// ---------------------------------------------------------------------------------------
// Relevance: the registers whose values the model needs.

// Registers that may hold an address in a scratch buffer: derived (through pure operations)
// from an ld.param of a scratch parameter. Only stores through them are tracked.
std::vector<uint8_t> scratchRegisters(const Kernel &k, const std::vector<Decoded> &dec,
                                      const KernelConfig &cfg) {
  std::vector<uint8_t> taint(k.registers.size(), 0);
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t i = 0; i < k.stmts.size(); ++i) {
      const Statement &s = k.stmts[i];
      if (s.ops.empty() || s.ops[0].kind != Operand::Reg || taint[s.ops[0].reg])
        continue;
      bool t = false;
      if (dec[i].op == Op::LdParam && s.ops.size() > 1 && s.ops[1].sym >= 0) {
        const Symbol &sym = k.symbols[s.ops[1].sym];
        t = sym.kind == Symbol::Param && sym.param < cfg.params.size() &&
            cfg.params[sym.param].kind == "scratch";
      } else if (isPure(dec[i].op)) {
        for (size_t j = 1; j < s.ops.size(); ++j)
          t = t || (s.ops[j].kind == Operand::Reg && taint[s.ops[j].reg]);
      }
      if (t) {
        taint[s.ops[0].reg] = 1;
        changed = true;
      }
    }
  }
  return taint;
}

void relevance(const Kernel &k, std::vector<Decoded> &dec, std::vector<int> &relIndex,
               unsigned &nRel, const std::vector<uint8_t> &scratchRegs, bool traceMma) {
  std::vector<uint8_t> rel(k.registers.size(), 0);
  std::vector<std::vector<int>> defs(k.registers.size());
  auto regsOf = [](const Operand &o, auto &&fn) -> void {
    if (o.kind == Operand::Vec)
      for (const Operand &e : o.elems)
        if (e.kind == Operand::Reg)
          fn(e.reg);
    if (o.kind == Operand::Reg)
      fn(o.reg);
    else if (o.kind == Operand::RegPair) {
      fn(o.reg);
      fn(o.reg2);
    } else if (o.kind == Operand::Mem) {
      if (o.reg >= 0)
        fn(o.reg);
    }
  };
  std::vector<int> work;
  auto mark = [&](int r) {
    if (r >= 0 && !rel[r]) {
      rel[r] = 1;
      work.push_back(r);
    }
  };
  for (size_t i = 0; i < k.stmts.size(); ++i) {
    const Statement &s = k.stmts[i];
    const Decoded &d = dec[i];
    if (d.op == Op::Label)
      continue;
    if (isPure(d.op)) {
      if (!s.ops.empty()) {
        const Operand &dst = s.ops[0];
        if (dst.kind == Operand::Reg || dst.kind == Operand::RegPair)
          regsOf(dst, [&](int r) { defs[r].push_back(int(i)); });
        else if (dst.kind == Operand::Vec)
          for (const Operand &e : dst.elems)
            regsOf(e, [&](int r) { defs[r].push_back(int(i)); });
      }
      continue;
    }
    mark(s.guard);
    // Operands the model reads; data operands (stored values, fragments, accumulators,
    // copied-from global addresses) are left out.
    auto use = [&](size_t idx) {
      if (idx < s.ops.size()) {
        const Operand &o = s.ops[idx];
        regsOf(o, mark);
        if (o.kind == Operand::Mem || o.kind == Operand::Vec)
          for (const Operand &e : o.elems)
            if (o.kind == Operand::Vec)
              regsOf(e, mark);
      }
    };
    switch (d.op) {
    case Op::StGlobal:
      if (!s.ops.empty() && s.ops[0].reg >= 0 && scratchRegs[s.ops[0].reg])
        use(0);
      break;
    case Op::Bra:
    case Op::Ret:
    case Op::LdGlobal:
    case Op::LdParam:
    case Op::FenceProxyAsync:
    case Op::FenceNoop:
    case Op::FenceMbarInit:
    case Op::PrefetchTensormap:
    case Op::WgmmaFence:
    case Op::WgmmaCommit:
    case Op::BulkCommit:
    case Op::CpAsyncCommit:
    case Op::TcWaitLd:
    case Op::TcRelinquish:
    case Op::Setmaxnreg:
    case Op::Nanosleep:
      break;
    case Op::LdShared:
    case Op::LdMatrix:
    case Op::LdAcquire:
      use(1);
      break;
    case Op::StShared:
      use(0);
      if (s.ops.size() > 1 && s.ops[1].kind == Operand::Reg)
        use(1);
      break;
    case Op::StMatrix:
      use(0);
      break;
    case Op::StFlag:
      use(0);
      use(1);
      break;
    case Op::TmaLoad:
      use(0);
      if (s.ops.size() > 1 && s.ops[1].reg >= 0)
        mark(s.ops[1].reg);
      for (size_t j = 2; j < s.ops.size(); ++j)
        use(j);
      break;
    case Op::TmaStore:
      if (s.ops[0].reg >= 0)
        mark(s.ops[0].reg);
      use(1);
      break;
    case Op::BulkLoad:
      use(0);
      if (s.ops.size() > 1 && s.ops[1].reg >= 0 && scratchRegs[s.ops[1].reg])
        use(1);
      use(2);
      use(3);
      break;
    case Op::CpAsync:
      use(0);
      use(2);
      break;
    case Op::Wgmma:
      use(1);
      use(2);
      // Traced: the accumulate predicate and the immediates as well.
      for (size_t j = 3; traceMma && j < s.ops.size(); ++j)
        use(j);
      break;
    case Op::TcMma:
      use(0);
      use(1);
      use(2);
      use(3);
      for (size_t j = 4; traceMma && j < s.ops.size(); ++j)
        use(j);
      break;
    case Op::TcLd:
      use(1);
      break;
    case Op::TcCp:
      use(0);
      use(1);
      break;
    case Op::Shfl:
    case Op::Vote:
      for (size_t j = 1; j < s.ops.size(); ++j)
        use(j);
      break;
    case Op::Elect:
    case Op::MbarTryWait:
      for (size_t j = 1; j < s.ops.size(); ++j)
        use(j);
      break;
    case Op::MbarArrive:
      for (size_t j = 1; j < s.ops.size(); ++j)
        use(j);
      break;
    case Op::CpAsyncArrive:
      use(0);
      break;
    default:
      for (size_t j = 0; j < s.ops.size(); ++j)
        use(j);
      break;
    }
  }
  while (!work.empty()) {
    int r = work.back();
    work.pop_back();
    for (int i : defs[r]) {
      const Statement &s = k.stmts[i];
      mark(s.guard);
      for (size_t j = 1; j < s.ops.size(); ++j)
        regsOf(s.ops[j], mark);
    }
  }
  relIndex.assign(k.registers.size(), -1);
  nRel = 0;
  for (size_t r = 0; r < rel.size(); ++r)
    if (rel[r])
      relIndex[r] = int(nRel++);
  for (size_t i = 0; i < k.stmts.size(); ++i) {
    Decoded &d = dec[i];
    if (!isPure(d.op))
      continue;
    bool needed = false;
    const Statement &s = k.stmts[i];
    if (!s.ops.empty()) {
      const Operand &dst = s.ops[0];
      auto chk = [&](int r) { needed = needed || rel[r]; };
      if (dst.kind == Operand::Vec)
        for (const Operand &e : dst.elems)
          regsOf(e, chk);
      else
        regsOf(dst, chk);
    }
    d.exec = needed;
  }
}

// Stateless exhaustive exploration with dynamic partial-order reduction (Flanagan and
// Godefroid, POPL 2005): a run replays a prefix of scheduling choices and continues
// round-robin; each step records the synchronisation objects it touched. Two steps of
// different threads (or events) conflict when they touch one object and one of them writes
// it; for each step, the last earlier conflicting step of another agent gets a backtracking
// point that runs this agent first (or every enabled agent, when this one was not enabled
// there yet). A step that an earlier step made runnable (woke it) is ordered after it and
// needs no point. Runs go depth first until no point is left (every order of conflicting
// synchronisation that the kernel allows has been run) or the step bound is hit. Shared
// memory accesses need no points: the vector clocks report an unordered pair in either order.
class Explorer {
public:
  using Choice = explore::Choice;

  // Adds a finished run (r.prefix was replayed) and its backtracking points.
  void addRun(const explore::Run &r) {
    size_t base = r.prefix.size();
    if (base) {
      Node &n = path[base - 1];
      n.choice = r.steps[base - 1];
      if (!llvm::is_contained(n.done, n.choice))
        n.done.push_back(n.choice);
    }
    for (size_t i = base; i < r.steps.size(); ++i)
      path.push_back({r.steps[i], {r.steps[i]}, {}, false, false});
    states += r.steps.size() - base;
    for (auto [i, b] : r.points) {
      Node &n = path[i];
      if (b == explore::kAnyUntried)
        n.any = true;
      else if (!llvm::is_contained(n.done, b) && !llvm::is_contained(n.pending, b))
        n.pending.push_back(b);
    }
  }

  // The next run's prefix; false when every backtracking point has been explored.
  bool next(explore::Run &r, bool lastFoundNone) {
    if (lastFoundNone && !path.empty())
      path.back().anyDone = true;
    while (!path.empty()) {
      Node &n = path.back();
      while (!n.pending.empty() && llvm::is_contained(n.done, n.pending.back()))
        n.pending.pop_back();
      r = explore::Run();
      if (!n.pending.empty()) {
        n.choice = n.pending.back();
        n.pending.pop_back();
        n.done.push_back(n.choice);
      } else if (n.any && !n.anyDone) {
        n.choice = explore::kAnyUntried;
        r.excluded = n.done;
      } else {
        path.pop_back();
        continue;
      }
      for (const Node &m : path)
        r.prefix.push_back(m.choice);
      return true;
    }
    return false;
  }

  uint64_t states = 0; ///< scheduling states reached, replays not counted

private:
  struct Node {
    Choice choice;
    std::vector<Choice> done, pending;
    bool any, anyDone;
  };
  std::vector<Node> path;
};

} // namespace

VerifyResult tilegen::verify::verifyProtocol(const Kernel &kernel, const KernelConfig &config,
                                             const VerifyOptions &options) {
  VerifyResult res;
  std::vector<Decoded> dec;
  dec.reserve(kernel.stmts.size());
  for (const Statement &s : kernel.stmts) {
    auto d = decodeStatement(s);
    if (!d) {
      res.report = "error: " + llvm::toString(d.takeError()) + "\n";
      return res;
    }
    dec.push_back(*d);
  }
  std::vector<int> relIndex;
  unsigned nRel = 0;
  // Global memory is tracked in the scratch buffers (the stream-K workspace) only.
  relevance(kernel, dec, relIndex, nRel, scratchRegisters(kernel, dec, config),
            options.traceMma);

  struct Sched {
    Policy policy;
    uint64_t seed;
    double beta;
    std::string name;
  };
  std::vector<Sched> scheds;
  // Both epilogues: beta = 0 (D only) and beta != 0 (C read too), the manifest's value first.
  std::vector<double> betas = {config.beta};
  if (options.betaBoth)
    betas.push_back(config.beta == 0.0 ? 1.0 : 0.0);
  for (double b : betas) {
    std::string suffix = b == config.beta ? "" : llvm::formatv(", beta {0}", b).str();
    scheds.push_back({Policy::RoundRobin, 0, b, "round-robin" + suffix});
    scheds.push_back({Policy::LateAsync, 0, b, "async-last" + suffix});
    scheds.push_back({Policy::HighestFirst, 0, b, "highest-thread-first" + suffix});
    for (unsigned i = 0; i < options.randomSchedules; ++i)
      scheds.push_back({Policy::Random, options.seed + i, b,
                        llvm::formatv("random seed {0}{1}", options.seed + i, suffix).str()});
  }
  std::string shape, shapes;
  std::vector<uint8_t> reached(kernel.stmts.size(), 0);
  std::vector<Problem> problems = problemsFor(config, options);
  for (const Problem &prob : problems) {
    for (const Sched &sc : scheds) {
      Sim sim(kernel, config, dec, relIndex, nRel, options, prob, sc.beta, sc.policy, sc.seed,
              reached);
      std::map<std::pair<unsigned, unsigned>, std::vector<std::string>> mmaLog;
      if (options.traceMma && &sc == &scheds.front())
        sim.mmaLog = &mmaLog;
      uint64_t steps = 0;
      std::optional<std::string> err = sim.run(steps, shape);
      if (&sc == &scheds.front())
        shapes += (shapes.empty() ? "" : "; ") + shape;
      if (sim.mmaLog) {
        res.mmaTrace += llvm::formatv("problem {0}, beta {1}:\n", shape, sc.beta).str();
        for (auto &[key, lines] : mmaLog) {
          res.mmaTrace += llvm::formatv("  cta {0} warpgroup {1}:\n", key.first, key.second);
          for (size_t i = 0; i < lines.size(); ++i)
            res.mmaTrace += llvm::formatv("    {0}: {1}\n", i, lines[i]).str();
        }
      }
      res.steps += steps;
      ++res.schedules;
      if (err) {
        res.report = "error: " + *err;
        if (!shape.empty())
          res.report = llvm::formatv("error: schedule '{0}' ({1}): {2}", sc.name, shape, *err)
                           .str();
        if (res.report.empty() || res.report.back() != '\n')
          res.report += "\n";
        return res;
      }
    }
  }

  // Exhaustive exploration of each problem and beta value in turn, within one step bound.
  std::string exhaustive = "not run (--explore-steps=0)";
  if (options.exploreSteps) {
    uint64_t used = 0, runs = 0, states = 0;
    unsigned completeCases = 0, cases = 0;
    bool boundHit = false;
    for (const Problem &prob : problems) {
      if (!prob.explore)
        continue;
      for (double b : betas) {
        ++cases;
        if (boundHit)
          continue;
        Explorer ex;
        explore::Run run;
        bool foundNone = false;
        for (;;) {
          if (used >= options.exploreSteps) {
            boundHit = true;
            break;
          }
          Sim sim(kernel, config, dec, relIndex, nRel, options, prob, b, Policy::Explore, 0,
                  reached);
          sim.exploring = &run;
          uint64_t steps = 0;
          std::optional<std::string> err = sim.run(steps, shape);
          used += steps;
          ++runs;
          foundNone = run.noneLeft;
          if (err && !foundNone) {
            res.report =
                llvm::formatv("error: schedule 'exhaustive search, run {0}' ({1}, beta {2}): "
                              "{3}",
                              runs, shape, b, *err)
                    .str();
            if (res.report.back() != '\n')
              res.report += "\n";
            res.exploreRuns = runs;
            return res;
          }
          if (!foundNone)
            ex.addRun(run);
          if (!ex.next(run, foundNone)) {
            ++completeCases;
            break;
          }
        }
        states += ex.states;
      }
    }
    res.exploreRuns = runs;
    res.exploreStates = states;
    res.exploreComplete = !boundHit;
    exhaustive =
        boundHit
            ? llvm::formatv("bound of {0} scheduling steps hit after {1} run(s) and {2} states, "
                            "complete for {3} of {4} problem x beta case(s) (the state space is "
                            "too large to finish within the bound; raise --explore-steps)",
                            options.exploreSteps, runs, states, completeCases, cases)
                  .str()
            : llvm::formatv("complete, {0} run(s), {1} states", runs, states).str();
  }

  res.ok = true;
  res.report = llvm::formatv("verified: {0} ({1}), {2}; {3} problem(s) x {4} beta value(s) x "
                             "({5} policies + {6} random) = {7} schedules, {8} scheduling steps; "
                             "exhaustive search: {9}\n",
                             config.kernel, config.target, shapes, problems.size(),
                             betas.size(), 3, options.randomSchedules, res.schedules, res.steps,
                             exhaustive)
                   .str();
  // Synchronisation statements no schedule reached: what this problem did not exercise.
  std::string missed;
  unsigned nMissed = 0;
  for (size_t i = 0; i < kernel.stmts.size(); ++i)
    if (!dec[i].exec || isPure(dec[i].op) || dec[i].op == Op::Label || reached[i] ||
        dec[i].op == Op::Bra || dec[i].op == Op::LdGlobal || dec[i].op == Op::StGlobal ||
        dec[i].op == Op::LdParam || dec[i].op == Op::Ret)
      continue;
    else if (++nMissed <= 12)
      missed += (nMissed > 1 ? ", " : "") + std::to_string(kernel.stmts[i].line);
  if (nMissed)
    res.report += llvm::formatv("  not reached by this problem: {0} synchronisation or "
                                "shared-memory statement(s), lines {1}{2}\n",
                                nMissed, missed, nMissed > 12 ? ", ..." : "")
                      .str();
  return res;
}

// tcgen05.cp.32x128b.warpx4 [taddr], sdesc: an asynchronous copy issued by one thread, like
// tcgen05.mma. It reads the 512 bytes its shared-memory descriptor starts at (written by a TMA
// load ordered before it) through the async proxy, writes 4 Tensor Memory columns of each CTA
// of its group, and is complete at the thread's next tcgen05.commit. tcgen05.cp then
// tcgen05.mma from the same thread is implicitly pipelined (PTX ISA 9.7.16.6), so the reads of
// these columns by the block-scaled MMA that follows are not checked; rewriting them is (a
// later copy must be ordered after the earlier copy's completion, or be its issuer's own).
bool Sim::stepTcCp(int ti, Thread &t, const Decoded &d, const std::vector<Operand> &o,
                   int stmt) {
  uint64_t taddr, desc;
  if (o.size() < 2 || !address(t, o[0], taddr, "tcgen05.cp destination") ||
      !readKnown(t, o[1], desc, "tcgen05.cp source descriptor"))
    return true;
  if (d.ctaGroup == 2 && clusterSize < 2) {
    fail(ti, stmt, "tcgen05.cp.cta_group::2 in a kernel without a CTA pair");
    return true;
  }
  Access acc = Access::ofOp(addOp(AsyncOp{d.op, ti, stmt}), ti, stmt, /*generic=*/false);
  if (mmaLog)
    logMma(t, k.stmts[stmt], /*tcgen05=*/true);
  unsigned first = d.ctaGroup == 2 ? ctas[t.cta].cluster * clusterSize +
                                         (ctas[t.cta].rank & ~1u)
                                   : t.cta;
  uint32_t addr = uint32_t(desc & 0x3fff) << 4, start, end;
  for (unsigned c = first; c < first + d.ctaGroup; ++c) {
    if (!regionAt(c, addr, start, end) || addr + d.bytes > end) {
      fail(ti, stmt, llvm::formatv("tcgen05.cp reads shared offsets [{0}, {1}) of cta {2}, "
                                   "which no TMA load has written",
                                   addr, addr + d.bytes, c)
                         .str());
      return true;
    }
    if (!accessSmem(ti, t.vc, c, addr, d.bytes, false, acc, true, stmt) ||
        !accessTmem(ti, t.vc, c, unsigned(taddr & 0xffff), 4, true, acc, stmt))
      return true;
  }
  t.tcPending.push_back(acc.op);
  trace(ti, stmt);
  ++t.pc;
  return false;
}
