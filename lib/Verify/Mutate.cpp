//===- Mutate.cpp - plant one synchronisation bug in a kernel's PTX ----------------------===//

#include "tilegen/Verify/Mutate.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilegen::verify;
using llvm::StringRef;

std::optional<MutationKind> tilegen::verify::parseMutationKind(StringRef name) {
  for (MutationKind k : allMutationKinds())
    if (mutationName(k) == name)
      return k;
  return std::nullopt;
}

StringRef tilegen::verify::mutationName(MutationKind kind) {
  switch (kind) {
  case MutationKind::DropFence: return "drop-fence";
  case MutationKind::DropArrive: return "drop-arrive";
  case MutationKind::FlipParity: return "flip-parity";
  case MutationKind::ExpectTx: return "expect-tx";
  case MutationKind::ShrinkInit: return "shrink-init";
  case MutationKind::SwapWaitRelease: return "swap-wait-release";
  case MutationKind::DropWaitGroup: return "drop-wait-group";
  case MutationKind::DropWarpSync: return "drop-warp-sync";
  }
  return "";
}

std::vector<MutationKind> tilegen::verify::allMutationKinds() {
  return {MutationKind::DropFence,      MutationKind::DropArrive,
          MutationKind::FlipParity,     MutationKind::ExpectTx,
          MutationKind::ShrinkInit,     MutationKind::SwapWaitRelease,
          MutationKind::DropWaitGroup,  MutationKind::DropWarpSync};
}

static bool isWaitGroup(StringRef op) {
  return op == "wgmma.wait_group.sync.aligned" || op == "cp.async.wait_group" ||
         op.starts_with("cp.async.bulk.wait_group");
}

static bool isRelease(StringRef op) {
  return op.starts_with("mbarrier.arrive") || op.starts_with("cp.async.mbarrier.arrive") ||
         op.starts_with("tcgen05.commit") || op.starts_with("bar.sync") ||
         op.starts_with("bar.arrive") || op.starts_with("barrier.sync") ||
         op.starts_with("barrier.arrive") || op.starts_with("barrier.cluster.arrive");
}

std::vector<MutationSite> tilegen::verify::mutationSites(const Kernel &kernel,
                                                         MutationKind kind) {
  std::vector<MutationSite> sites;
  for (unsigned i = 0; i < kernel.stmts.size(); ++i) {
    const Statement &s = kernel.stmts[i];
    if (s.isLabel)
      continue;
    StringRef op(s.opcode);
    bool hit = false;
    switch (kind) {
    case MutationKind::DropFence:
      hit = op.starts_with("fence.proxy.async");
      break;
    case MutationKind::DropArrive:
      hit = op.starts_with("mbarrier.arrive") || op.starts_with("cp.async.mbarrier.arrive") ||
            op.starts_with("tcgen05.commit") || op.starts_with("bar.arrive") ||
            op.starts_with("barrier.arrive") || op.starts_with("barrier.cluster.arrive") ||
            op == "bar.sync" || op.starts_with("barrier.sync");
      break;
    case MutationKind::FlipParity:
      hit = op.starts_with("mbarrier.try_wait.parity") ||
            op.starts_with("mbarrier.test_wait.parity");
      break;
    case MutationKind::ExpectTx:
      hit = op.starts_with("mbarrier.arrive.expect_tx") || op.starts_with("mbarrier.expect_tx");
      break;
    case MutationKind::ShrinkInit:
      hit = op.starts_with("mbarrier.init");
      break;
    case MutationKind::DropWaitGroup:
      hit = isWaitGroup(op);
      break;
    case MutationKind::DropWarpSync:
      hit = op == "bar.warp.sync";
      break;
    case MutationKind::SwapWaitRelease:
      if (isWaitGroup(op) || op == "tcgen05.wait::ld.sync.aligned") {
        for (unsigned j = i + 1; j < kernel.stmts.size() && j < i + 64; ++j) {
          const Statement &r = kernel.stmts[j];
          if (r.isLabel)
            continue;
          if (r.opcode == "ret" || r.opcode == "exit" || isWaitGroup(r.opcode))
            break;
          if (isRelease(r.opcode)) {
            sites.push_back({i, j});
            break;
          }
        }
      }
      continue;
    }
    if (hit)
      sites.push_back({i, 0});
  }
  return sites;
}

// Splits "op a, b, {c, d}, [e]" into the opcode part and the top-level operands.
static void splitStatement(StringRef text, std::string &head,
                           llvm::SmallVectorImpl<std::string> &operands) {
  StringRef t = text.trim();
  size_t opEnd = 0;
  if (t.starts_with("@")) {
    opEnd = t.find_first_of(" \t");
    opEnd = t.find_first_not_of(" \t", opEnd);
  }
  opEnd = t.find_first_of(" \t", opEnd);
  if (opEnd == StringRef::npos) {
    head = t.str();
    return;
  }
  head = t.take_front(opEnd).str();
  StringRef rest = t.drop_front(opEnd);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (c == '[' || c == '{' || c == '(')
      ++depth;
    else if (c == ']' || c == '}' || c == ')')
      --depth;
    else if (c == ',' && depth == 0) {
      operands.push_back(rest.slice(start, i).trim().str());
      start = i + 1;
    }
  }
  if (!rest.drop_front(start).trim().empty())
    operands.push_back(rest.drop_front(start).trim().str());
}

static std::string join(const std::string &head, llvm::ArrayRef<std::string> ops) {
  std::string s = head + " ";
  for (size_t i = 0; i < ops.size(); ++i)
    s += (i ? ", " : "") + ops[i];
  return s;
}

// Replaces operand `idx` by f(operand): an immediate is edited in place, a register through a
// scoped temporary computed by `op` with `imm` ("xor.b32", 1 flips; "add.u32", 16 adds).
static std::string editOperand(StringRef stmtText, unsigned idx, const char *op, int64_t imm,
                               std::string &what) {
  std::string head;
  llvm::SmallVector<std::string> ops;
  splitStatement(stmtText, head, ops);
  if (idx >= ops.size())
    return stmtText.str() + ";";
  std::string old = ops[idx];
  int64_t v;
  StringRef o(old);
  if (!o.getAsInteger(0, v)) {
    int64_t nv = StringRef(op).starts_with("xor") ? (v ^ imm)
                 : StringRef(op).starts_with("sub") ? v - imm
                                                    : v + imm;
    ops[idx] = std::to_string(nv);
    what += " (" + old + " -> " + ops[idx] + ")";
    return join(head, ops) + ";";
  }
  ops[idx] = "%tg_mutated";
  what += " (" + old + " -> " + op + " " + old + ", " + std::to_string(imm) + ")";
  return "{ .reg .b32 %tg_mutated; " + std::string(op) + " %tg_mutated, " + old + ", " +
         std::to_string(imm) + "; " + join(head, ops) + "; }";
}

std::string tilegen::verify::applyMutation(StringRef text, const Kernel &kernel,
                                           MutationKind kind, const MutationSite &site,
                                           std::string &what) {
  const Statement &s = kernel.stmts[site.stmt];
  StringRef stmtText = text.slice(s.begin, s.end);
  std::string replacement;
  what = (mutationName(kind) + ": line " + llvm::Twine(s.line) + ": " + s.text).str();
  switch (kind) {
  case MutationKind::DropFence:
  case MutationKind::DropArrive:
  case MutationKind::DropWaitGroup:
  case MutationKind::DropWarpSync:
    replacement = "/* mutated: dropped */";
    break;
  case MutationKind::FlipParity:
    replacement = editOperand(stmtText, 2, "xor.b32", 1, what);
    break;
  case MutationKind::ExpectTx: {
    unsigned idx = StringRef(s.opcode).starts_with("mbarrier.arrive") ? 2 : 1;
    replacement = editOperand(stmtText, idx, "add.u32", 16, what);
    break;
  }
  case MutationKind::ShrinkInit:
    replacement = editOperand(stmtText, 1, "sub.u32", 1, what);
    break;
  case MutationKind::SwapWaitRelease: {
    const Statement &r = kernel.stmts[site.other];
    what += llvm::formatv(" moved after line {0}: {1}", r.line, r.text).str();
    std::string out = text.take_front(s.begin).str() + "/* mutated: moved */" +
                      text.slice(s.end + 1, r.end + 1).str() + " " + stmtText.trim().str() +
                      ";" + text.drop_front(r.end + 1).str();
    return out;
  }
  }
  return text.take_front(s.begin).str() + replacement + text.drop_front(s.end + 1).str();
}
