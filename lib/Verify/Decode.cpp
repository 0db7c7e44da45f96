//===- Decode.cpp - PTX opcodes to protocol-model operations ----------------------------===//
//
// The opcode table of the checker. Facts from the PTX ISA (9.7): integer instructions
// (9.7.1, 9.7.8-9.7.9 for cvt and bfe), data movement (9.7.9: ld/st/ldmatrix/stmatrix/cvta/
// mapa), cp.async and cp.async.mbarrier.arrive (9.7.9.25), bulk and tensor copies
// (9.7.9.25.4-5), mbarrier (9.7.13.15), bar/barrier (9.7.13.1-3), wgmma (9.7.15), tcgen05
// (9.7.16), elect.sync, shfl.sync and vote.sync (9.7.13.4, 9.7.9.6, 9.7.13.6).
//
//===--------------------------------------------------------------------------------------===//

#include "Decode.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace tilegen::verify;
using llvm::StringRef;

static llvm::Error outside(const Statement &s, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "line " + llvm::Twine(s.line) +
                                     ": instruction outside the model: '" + s.opcode + "'" +
                                     (why.isTriviallyEmpty() ? "" : " (" + why + ")"));
}

static bool typeOf(StringRef t, unsigned &bits, bool &sgn, bool &flt) {
  flt = false;
  sgn = false;
  if (t == "pred") {
    bits = 1;
    return true;
  }
  if (t.size() < 2)
    return false;
  char c = t[0];
  unsigned n = 0;
  if (t.drop_front().getAsInteger(10, n))
    return false;
  if (c == 'u' || c == 'b')
    sgn = false;
  else if (c == 's')
    sgn = true;
  else if (c == 'f')
    flt = true;
  else
    return false;
  bits = n;
  return n == 8 || n == 16 || n == 32 || n == 64;
}

static bool has(const llvm::SmallVectorImpl<StringRef> &parts, StringRef p) {
  for (StringRef x : parts)
    if (x == p)
      return true;
  return false;
}

static bool hasPrefix(const llvm::SmallVectorImpl<StringRef> &parts, StringRef p) {
  for (StringRef x : parts)
    if (x.starts_with(p))
      return true;
  return false;
}

static bool isMathType(StringRef t) {
  return t.starts_with("f") || t.starts_with("bf") || t.starts_with("e4m3") ||
         t.starts_with("e5m2") || t.starts_with("tf32");
}

static llvm::Expected<Decoded> decodeOp(const Statement &s);

llvm::Expected<Decoded> tilegen::verify::decodeStatement(const Statement &s) {
  auto d = decodeOp(s);
  if (d && !s.isLabel && !isPure(d->op)) {
    StringRef opc(s.opcode);
    d->aligned = opc.contains(".aligned") || opc == "bar.sync" || opc == "bar.arrive";
  }
  return d;
}

static llvm::Expected<Decoded> decodeOp(const Statement &s) {
  Decoded d;
  if (s.isLabel)
    return d;
  StringRef opc(s.opcode);
  llvm::SmallVector<StringRef> parts;
  opc.split(parts, '.');
  StringRef base = parts[0];
  StringRef last = parts.back();
  unsigned bits = 32;
  bool sgn = false, flt = false;
  bool typed = typeOf(last, bits, sgn, flt);
  d.bits = bits;
  d.isSigned = sgn;

  // Pure integer and logic instructions.
  static const llvm::StringMap<Op> alu = {
      {"mov", Op::Mov}, {"add", Op::Add},   {"sub", Op::Sub}, {"min", Op::Min},
      {"max", Op::Max}, {"and", Op::And},   {"or", Op::Or},   {"xor", Op::Xor},
      {"not", Op::Not}, {"shl", Op::Shl},   {"shr", Op::Shr}, {"bfe", Op::Bfe},
      {"neg", Op::Neg}, {"selp", Op::Selp}, {"div", Op::Div}, {"rem", Op::Rem}};
  auto it = alu.find(base);
  // Packed floating-point types (bf16x2, f16x2): arithmetic whose value the model ignores.
  bool packedFloat = !typed && isMathType(last) && last.ends_with("x2");
  if (it != alu.end()) {
    if (packedFloat) {
      d.op = Op::Math;
      return d;
    }
    if (!typed)
      return outside(s, "type");
    if (flt || has(parts, "rn") || has(parts, "rz") || has(parts, "approx") ||
        has(parts, "full"))
      d.op = Op::Math;
    else
      d.op = it->second;
    return d;
  }
  if (base == "mul" || base == "mad") {
    if (packedFloat) {
      d.op = Op::Math;
      return d;
    }
    if (!typed)
      return outside(s, "type");
    if (flt || has(parts, "rn") || has(parts, "rz")) {
      d.op = Op::Math;
      return d;
    }
    if (has(parts, "wide")) {
      if (base == "mad")
        return outside(s, "mad.wide");
      d.op = Op::MulWide;
      d.srcBits = bits;
      d.bits = bits * 2;
      return d;
    }
    if (has(parts, "hi")) {
      if (base == "mad")
        return outside(s, "mad.hi");
      d.op = Op::MulHi;
      return d;
    }
    if (has(parts, "lo")) {
      d.op = base == "mul" ? Op::MulLo : Op::MadLo;
      return d;
    }
    return outside(s, "");
  }
  // createpolicy: the 64-bit L2 policy a load's .L2::cache_hint takes (an opaque value).
  if (base == "fma" || base == "mma" || base == "prmt" || base == "ex2" || base == "rcp" ||
      base == "sqrt" || base == "abs" || base == "createpolicy" ||
      (base == "cvt" && isMathType(parts[parts.size() - 2]))) {
    d.op = Op::Math;
    return d;
  }
  if (base == "cvt") {
    // cvt.dst.src, integer to integer
    unsigned sb;
    bool ss, sf;
    unsigned db;
    bool ds, df;
    if (parts.size() < 3 || !typeOf(parts[parts.size() - 2], db, ds, df) ||
        !typeOf(last, sb, ss, sf))
      return outside(s, "cvt types");
    if (df || sf || isMathType(last)) {
      d.op = Op::Math;
      return d;
    }
    d.op = Op::Cvt;
    d.bits = db;
    d.srcBits = sb;
    d.isSigned = ss;
    return d;
  }
  if (base == "setp") {
    if (parts.size() != 3 || !typed)
      return outside(s, "setp form");
    int cmp = llvm::StringSwitch<int>(parts[1])
                  .Case("eq", 0).Case("ne", 1).Cases({"lt", "lo"}, 2).Cases({"le", "ls"}, 3)
                  .Cases({"gt", "hi"}, 4).Cases({"ge", "hs"}, 5).Default(-1);
    if (cmp < 0)
      return outside(s, "comparison");
    d.op = Op::Setp;
    d.cmp = uint8_t(cmp);
    d.isFloat = flt;
    if (flt && bits != 32)
      return outside(s, "float comparison width");
    return d;
  }
  if (base == "cvta") {
    d.op = Op::Cvta;
    d.cvtaDir = has(parts, "to") ? 1 : 0;
    if (!has(parts, "shared") && !has(parts, "param") && !has(parts, "shared::cluster") &&
        !has(parts, "shared::cta"))
      return outside(s, "cvta state space");
    if (has(parts, "param") && d.cvtaDir == 1)
      return outside(s, "cvta.to.param");
    return d;
  }
  if (base == "mapa") {
    d.op = Op::Mapa;
    return d;
  }
  if (base == "bra") {
    d.op = Op::Bra;
    return d;
  }
  if (base == "ret" || base == "exit") {
    d.op = Op::Ret;
    return d;
  }
  if (base == "ld" || base == "st") {
    bool st = base == "st";
    unsigned vec = 1;
    if (has(parts, "v2"))
      vec = 2;
    else if (has(parts, "v4"))
      vec = 4;
    if (!typed)
      return outside(s, "type");
    d.bytes = vec * (bits / 8);
    if (has(parts, "param")) {
      if (st)
        return outside(s, "st.param");
      d.op = Op::LdParam;
      return d;
    }
    if (has(parts, "shared") || has(parts, "shared::cta")) {
      d.op = st ? Op::StShared : Op::LdShared;
      return d;
    }
    if (has(parts, "global")) {
      if (has(parts, "acquire") || has(parts, "volatile") || has(parts, "relaxed")) {
        d.op = st ? Op::StFlag : Op::LdAcquire;
        return d;
      }
      if (st && has(parts, "release")) {
        d.op = Op::StFlag;
        return d;
      }
      d.op = st ? Op::StGlobal : Op::LdGlobal;
      return d;
    }
    return outside(s, "state space");
  }
  if (base == "ldmatrix" || base == "stmatrix") {
    d.op = base == "ldmatrix" ? Op::LdMatrix : Op::StMatrix;
    d.matrices = has(parts, "x4") ? 4 : has(parts, "x2") ? 2 : 1;
    // m8n8 (b16), or ldmatrix's m8n16 with .b8x16.b6x16_p32 / .b4x16_p64 (9.7.14.5.15): 8 rows
    // of 16 bytes in shared memory per matrix (16 packed 6- or 4-bit elements and their
    // padding), one address per row, as for m8n8.
    bool unpacking = base == "ldmatrix" && has(parts, "m8n16") && !has(parts, "trans") &&
                     (has(parts, "b6x16_p32") || has(parts, "b4x16_p64"));
    if (!has(parts, "m8n8") && !unpacking)
      return outside(s, "shape");
    d.bytes = 16;
    return d;
  }
  // prefetch.tensormap brings a TMA descriptor into the TMA unit's cache: no effect on the
  // protocol (a copy that finds the descriptor uncached fetches it itself).
  if (base == "prefetch" || base == "prefetchu") {
    if (!has(parts, "tensormap"))
      return outside(s, "prefetch variant");
    d.op = Op::PrefetchTensormap;
    return d;
  }
  if (base == "nanosleep") {
    d.op = Op::Nanosleep;
    return d;
  }
  if (base == "bar" || base == "barrier") {
    if (has(parts, "cluster")) {
      if (has(parts, "arrive")) {
        d.op = Op::ClusterArrive;
        d.relaxed = has(parts, "relaxed");
      } else if (has(parts, "wait")) {
        d.op = Op::ClusterWait;
      } else {
        return outside(s, "");
      }
      return d;
    }
    if (has(parts, "warp")) {
      d.op = Op::BarWarpSync;
      return d;
    }
    if (has(parts, "sync") && !has(parts, "red")) {
      d.op = Op::BarSync;
      return d;
    }
    if (has(parts, "arrive")) {
      d.op = Op::BarArrive;
      return d;
    }
    return outside(s, "barrier variant");
  }
  if (base == "mbarrier") {
    d.cluster = has(parts, "shared::cluster");
    if (has(parts, "init")) {
      d.op = Op::MbarInit;
      return d;
    }
    if (has(parts, "arrive") && has(parts, "expect_tx")) {
      d.op = Op::MbarArrive;
      d.expectTx = true;
      return d;
    }
    if (has(parts, "arrive")) {
      if (has(parts, "noComplete") || has(parts, "arrive_drop"))
        return outside(s, "");
      d.op = Op::MbarArrive;
      return d;
    }
    if (has(parts, "expect_tx")) {
      d.op = Op::MbarExpectTx;
      return d;
    }
    if ((has(parts, "try_wait") || has(parts, "test_wait")) && has(parts, "parity")) {
      d.op = Op::MbarTryWait;
      return d;
    }
    return outside(s, "mbarrier variant");
  }
  if (base == "fence") {
    if (opc.starts_with("fence.proxy.async")) {
      d.op = Op::FenceProxyAsync;
      return d;
    }
    if (opc == "fence.mbarrier_init.release.cluster") {
      d.op = Op::FenceMbarInit;
      return d;
    }
    return outside(s, "fence variant");
  }
  if (base == "cp") {
    if (opc.starts_with("cp.async.bulk.tensor")) {
      d.ctaGroup = has(parts, "cta_group::2") ? 2 : 1;
      d.multicast = has(parts, "multicast::cluster");
      if (has(parts, "global") && parts.size() > 5 && parts[5] == "global" &&
          has(parts, "bulk_group")) {
        d.op = Op::TmaStore;
        return d;
      }
      if (hasPrefix(parts, "mbarrier::complete_tx")) {
        if (!has(parts, "tile"))
          return outside(s, "only .tile tensor copies are modelled");
        d.op = Op::TmaLoad;
        return d;
      }
      return outside(s, "tensor copy variant");
    }
    if (opc == "cp.async.bulk.commit_group") {
      d.op = Op::BulkCommit;
      return d;
    }
    if (opc.starts_with("cp.async.bulk.wait_group")) {
      d.op = Op::BulkWait;
      return d;
    }
    if (opc.starts_with("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes") ||
        opc.starts_with("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes")) {
      d.op = Op::BulkLoad;
      return d;
    }
    if (opc == "cp.async.commit_group") {
      d.op = Op::CpAsyncCommit;
      return d;
    }
    if (opc == "cp.async.wait_group" || opc == "cp.async.wait_all") {
      d.op = Op::CpAsyncWait;
      return d;
    }
    // cp.async.mbarrier.arrive.noinc: an arrival (one of the expected count) when the
    // thread's earlier cp.async copies have landed. Without .noinc the pending count is
    // raised first, which the checker does not model.
    if (opc == "cp.async.mbarrier.arrive.noinc.shared.b64" ||
        opc == "cp.async.mbarrier.arrive.noinc.shared::cta.b64") {
      d.op = Op::CpAsyncArrive;
      return d;
    }
    if (opc.starts_with("cp.async.ca.shared.global") ||
        opc.starts_with("cp.async.cg.shared.global")) {
      d.op = Op::CpAsync;
      return d;
    }
    return outside(s, "copy variant");
  }
  if (base == "wgmma") {
    if (opc == "wgmma.fence.sync.aligned") {
      d.op = Op::WgmmaFence;
      return d;
    }
    if (opc == "wgmma.commit_group.sync.aligned") {
      d.op = Op::WgmmaCommit;
      return d;
    }
    if (opc == "wgmma.wait_group.sync.aligned") {
      d.op = Op::WgmmaWait;
      return d;
    }
    if (opc.starts_with("wgmma.mma_async.sync.aligned")) {
      d.op = Op::Wgmma;
      return d;
    }
    return outside(s, "wgmma variant");
  }
  if (base == "tcgen05") {
    d.ctaGroup = has(parts, "cta_group::2") ? 2 : 1;
    d.multicast = has(parts, "multicast::cluster");
    StringRef what = parts.size() > 1 ? parts[1] : "";
    if (what == "alloc")
      d.op = Op::TcAlloc;
    else if (what == "dealloc")
      d.op = Op::TcDealloc;
    else if (what == "relinquish_alloc_permit")
      d.op = Op::TcRelinquish;
    else if (what == "mma") {
      // .block_scale adds two Tensor Memory operands (the scale columns) after the instruction
      // descriptor; the operands the checker reads keep their positions.
      if (has(parts, "ws") || has(parts, "sp"))
        return outside(s, "tcgen05.mma variant");
      d.op = Op::TcMma;
    } else if (what == "cp") {
      // Only the shape the block-scaled kernels use: 32 rows x 128 bits from shared memory to
      // 4 columns (.warpx4: duplicated to the four 32-lane quarters).
      if (!has(parts, "32x128b") || !has(parts, "warpx4"))
        return outside(s, "tcgen05.cp shape (only .32x128b.warpx4 is modelled)");
      d.op = Op::TcCp;
      d.bytes = 512;
    } else if (what == "commit") {
      if (!has(parts, "mbarrier::arrive::one"))
        return outside(s, "commit variant");
      d.op = Op::TcCommit;
    } else if (what == "ld") {
      if (!has(parts, "32x32b"))
        return outside(s, "only the 32x32b shape is modelled");
      d.op = Op::TcLd;
      for (StringRef p : parts)
        if (p.starts_with("x") && p.size() > 1 && llvm::isDigit(p[1]))
          p.drop_front().getAsInteger(10, d.bytes); // columns
      if (!d.bytes)
        return outside(s, "tcgen05.ld without .xN");
    } else if (what == "wait::ld")
      d.op = Op::TcWaitLd;
    else if (what == "fence::before_thread_sync" || what == "fence::after_thread_sync")
      d.op = Op::FenceNoop;
    else
      return outside(s, "tcgen05 variant");
    return d;
  }
  if (base == "elect") {
    d.op = Op::Elect;
    return d;
  }
  if (base == "shfl") {
    d.op = Op::Shfl;
    d.shflMode = has(parts, "idx") ? 0 : has(parts, "up") ? 1 : has(parts, "down") ? 2 : 3;
    if (!has(parts, "sync"))
      return outside(s, "shfl without .sync");
    return d;
  }
  if (base == "vote") {
    d.op = Op::Vote;
    d.voteMode = has(parts, "all") ? 0 : has(parts, "any") ? 1 : has(parts, "uni") ? 2 : 3;
    if (!has(parts, "sync"))
      return outside(s, "vote without .sync");
    if (d.voteMode == 3 && !has(parts, "ballot"))
      return outside(s, "vote variant");
    return d;
  }
  if (base == "setmaxnreg") {
    d.op = Op::Setmaxnreg;
    return d;
  }
  return outside(s, "");
}
