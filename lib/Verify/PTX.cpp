//===- PTX.cpp - parse the PTX subset tilegen emits ---------------------------------------===//
//
// Two passes over the entry's body: the first splits it into statements and scopes (a `{` at
// the start of a statement opens a scope, as LLVM's inline asm blocks do; `{` inside an
// instruction is a vector operand), collecting `.reg` declarations and labels per scope; the
// second resolves names innermost scope first: registers, then labels (branch targets), then
// symbols (the shared array, the parameters). Comments are blanked first, keeping offsets and
// line numbers.
//
//===--------------------------------------------------------------------------------------===//

#include "tilegen/Verify/PTX.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace tilegen::verify;
using llvm::StringRef;

namespace {

llvm::Error err(unsigned line, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "line " + llvm::Twine(line) + ": " + msg);
}

struct Scope {
  int parent = -1;
  llvm::StringMap<int> regs;                        ///< single registers
  llvm::StringMap<std::pair<int, int>> regRanges;   ///< %r<N>: first index, count
  llvm::StringMap<int> labels;                      ///< label -> statement index
};

struct RawStmt {
  int scope;
  size_t begin, end;
  bool label;
};

class Parser {
public:
  explicit Parser(StringRef text) : text(text), clean(text.str()) {}
  llvm::Expected<Kernel> run();

private:
  unsigned lineAt(size_t pos) const {
    auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), pos);
    return unsigned(it - lineStarts.begin());
  }
  void blankComments();
  llvm::Error parseHeader(size_t &pos);
  llvm::Error splitBody(size_t pos);
  llvm::Error declareRegs(int scope, StringRef decl, unsigned line);
  llvm::Error resolve(Statement &s, StringRef body, int scope);
  llvm::Expected<Operand> operand(StringRef tok, int scope, unsigned line, bool branch);
  int lookupReg(StringRef name, int scope) const;
  int lookupLabel(StringRef name, int scope) const;

  StringRef text;
  std::string clean;
  std::vector<size_t> lineStarts;
  std::vector<Scope> scopes;
  std::vector<RawStmt> raw; ///< instructions and labels in order
  Kernel k;
};

void Parser::blankComments() {
  for (size_t i = 0; i < clean.size(); ++i) {
    if (clean[i] == '"') { // strings (only in directives we skip); keep as is
      for (++i; i < clean.size() && clean[i] != '"'; ++i) {
      }
      continue;
    }
    if (clean[i] == '/' && i + 1 < clean.size() && clean[i + 1] == '/') {
      for (; i < clean.size() && clean[i] != '\n'; ++i)
        clean[i] = ' ';
    } else if (clean[i] == '/' && i + 1 < clean.size() && clean[i + 1] == '*') {
      size_t j = i;
      for (; j < clean.size() && !(clean[j] == '*' && j + 1 < clean.size() &&
                                   clean[j + 1] == '/');
           ++j)
        if (clean[j] != '\n')
          clean[j] = ' ';
      for (size_t e = std::min(clean.size(), j + 2); j < e; ++j)
        clean[j] = ' ';
      i = j - 1;
    }
  }
  lineStarts.push_back(0);
  for (size_t i = 0; i < clean.size(); ++i)
    if (clean[i] == '\n')
      lineStarts.push_back(i + 1);
}

static bool isIdentChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

llvm::Error Parser::parseHeader(size_t &pos) {
  StringRef s(clean);
  // Module directives before the entry: .version, .target, .address_size, .extern .shared.
  size_t entry = s.find(".entry");
  if (entry == StringRef::npos)
    return err(1, "no .entry in the PTX");
  StringRef pre = s.take_front(entry);
  size_t t = pre.find(".target");
  if (t != StringRef::npos)
    k.target = pre.drop_front(t + 7).ltrim().take_while(
        [](char c) { return !llvm::isSpace(c) && c != ','; }).str();
  // Module-level variables: only the dynamic shared array is modelled.
  for (size_t p = 0; (p = pre.find(".shared", p)) != StringRef::npos; p += 7) {
    size_t semi = pre.find(';', p);
    StringRef decl = pre.slice(p, semi);
    if (!pre.slice(pre.rfind('\n', p) + 1, p).contains(".extern") || !decl.contains("[]"))
      return err(lineAt(p), "static .shared variable outside the model: '" + decl.trim() +
                                "' (only the dynamic shared array is modelled)");
    StringRef name = decl.rsplit(' ').second;
    name = name.take_until([](char c) { return c == '['; });
    k.symbols.push_back({Symbol::SharedArray, name.str(), 0});
  }
  for (StringRef kw : {".global", ".const"})
    if (pre.contains(StringRef(std::string("\n") + kw.str())) ||
        pre.contains(StringRef(std::string(".visible ") + kw.str())))
      return err(lineAt(pre.find(kw)), "module-level " + kw + " variable outside the model");
  size_t open = s.find('(', entry);
  if (open == StringRef::npos)
    return err(lineAt(entry), "expected '(' after .entry");
  k.name = s.slice(entry + 6, open).trim().str();
  size_t close = s.find(')', open);
  StringRef plist = s.slice(open + 1, close);
  llvm::SmallVector<StringRef> params;
  plist.split(params, ',', -1, false);
  for (StringRef p : params) {
    p = p.trim();
    if (p.empty())
      continue;
    llvm::SmallVector<StringRef> toks;
    p.split(toks, ' ', -1, false);
    for (StringRef &tk : toks)
      tk = tk.trim();
    StringRef last = toks.back();
    Param prm;
    prm.name = last.take_until([](char c) { return c == '['; }).str();
    if (last.contains('[')) {
      unsigned n = 0;
      if (last.drop_until([](char c) { return c == '['; }).drop_front().take_until(
              [](char c) { return c == ']'; }).getAsInteger(10, n))
        return err(lineAt(open), "parameter size not understood: '" + p + "'");
      prm.bytes = n;
    } else {
      prm.bytes = 0;
      for (StringRef tk : toks) {
        if (tk == ".u64" || tk == ".b64" || tk == ".s64" || tk == ".f64")
          prm.bytes = 8;
        else if (tk == ".u32" || tk == ".b32" || tk == ".s32" || tk == ".f32")
          prm.bytes = 4;
      }
      if (!prm.bytes)
        return err(lineAt(open), "parameter type not understood: '" + p + "'");
    }
    k.symbols.push_back({Symbol::Param, prm.name, unsigned(k.params.size())});
    k.params.push_back(prm);
  }
  size_t body = s.find('{', close);
  if (body == StringRef::npos)
    return err(lineAt(close), "expected the body of the entry");
  pos = body;
  return llvm::Error::success();
}

llvm::Error Parser::declareRegs(int scope, StringRef decl, unsigned line) {
  // .reg .TYPE a, b<N>, ...
  StringRef rest = decl.drop_front(4).ltrim();
  StringRef type = rest.take_while([](char c) { return !llvm::isSpace(c); });
  rest = rest.drop_front(type.size()).trim();
  unsigned bits;
  if (type == ".pred")
    bits = 1;
  else if (type.ends_with("8"))
    bits = 8;
  else if (type.ends_with("16"))
    bits = 16;
  else if (type.ends_with("32"))
    bits = 32;
  else if (type.ends_with("64"))
    bits = 64;
  else
    return err(line, "register type outside the model: '" + type + "'");
  llvm::SmallVector<StringRef> names;
  rest.split(names, ',', -1, false);
  for (StringRef n : names) {
    n = n.trim();
    if (n.contains('<')) {
      StringRef base = n.take_until([](char c) { return c == '<'; });
      unsigned count = 0;
      if (n.drop_front(base.size() + 1).take_until([](char c) { return c == '>'; })
              .getAsInteger(10, count))
        return err(line, "register declaration not understood: '" + n + "'");
      scopes[scope].regRanges[base] = {int(k.registers.size()), int(count)};
      for (unsigned i = 0; i < count; ++i)
        k.registers.push_back({(base + llvm::Twine(i)).str(), bits});
    } else {
      scopes[scope].regs[n] = int(k.registers.size());
      k.registers.push_back({n.str(), bits});
    }
  }
  return llvm::Error::success();
}

llvm::Error Parser::splitBody(size_t pos) {
  StringRef s(clean);
  int scope = -1;
  size_t i = pos;
  auto skipWs = [&] {
    while (i < s.size() && llvm::isSpace(s[i]))
      ++i;
  };
  while (true) {
    skipWs();
    if (i >= s.size())
      return err(lineAt(i), "unexpected end of the PTX inside the kernel body");
    char c = s[i];
    if (c == '{') {
      scopes.push_back({});
      scopes.back().parent = scope;
      scope = int(scopes.size()) - 1;
      ++i;
      continue;
    }
    if (c == '}') {
      ++i;
      scope = scopes[scope].parent;
      if (scope < 0)
        return llvm::Error::success();
      continue;
    }
    if (c == ';') { // empty statement
      ++i;
      continue;
    }
    size_t start = i;
    if (c == '.') {
      size_t semi = s.find(';', i);
      size_t nl = s.find('\n', i);
      StringRef d = s.slice(i, std::min(semi, nl));
      if (d.starts_with(".reg ")) {
        if (auto e = declareRegs(scope, s.slice(i, semi), lineAt(i)))
          return e;
        i = semi + 1;
        continue;
      }
      if (d.starts_with(".pragma") || d.starts_with(".loc") || d.starts_with(".file")) {
        i = d.starts_with(".pragma") ? semi + 1 : nl;
        continue;
      }
      return err(lineAt(i), "directive outside the model: '" + d.trim() + "'");
    }
    // A label: identifier followed by ':'.
    size_t j = i;
    while (j < s.size() && isIdentChar(s[j]))
      ++j;
    size_t after = j;
    while (after < s.size() && (s[after] == ' ' || s[after] == '\t'))
      ++after;
    if (j > i && after < s.size() && s[after] == ':' &&
        (after + 1 >= s.size() || s[after + 1] != ':') && s[i] != '%' && s[i] != '@') {
      StringRef name = s.slice(i, j);
      scopes[scope].labels[name] = int(raw.size());
      raw.push_back({scope, i, j, true});
      i = after + 1;
      continue;
    }
    // An instruction: up to ';' at bracket depth 0.
    int depth = 0;
    for (j = i; j < s.size(); ++j) {
      char d = s[j];
      if (d == '[' || d == '{' || d == '(')
        ++depth;
      else if (d == ']' || d == '}' || d == ')')
        --depth;
      else if (d == ';' && depth == 0)
        break;
    }
    if (j >= s.size())
      return err(lineAt(start), "instruction without ';'");
    raw.push_back({scope, start, j, false});
    i = j + 1;
  }
}

int Parser::lookupReg(StringRef name, int scope) const {
  for (int sc = scope; sc >= 0; sc = scopes[sc].parent) {
    auto it = scopes[sc].regs.find(name);
    if (it != scopes[sc].regs.end())
      return it->second;
    size_t digits = name.size();
    while (digits > 0 && llvm::isDigit(name[digits - 1]))
      --digits;
    if (digits == name.size() || digits == 0)
      continue;
    auto rt = scopes[sc].regRanges.find(name.take_front(digits));
    if (rt == scopes[sc].regRanges.end())
      continue;
    unsigned n = 0;
    if (name.drop_front(digits).getAsInteger(10, n) || int(n) >= rt->second.second)
      continue;
    return rt->second.first + int(n);
  }
  return -1;
}

int Parser::lookupLabel(StringRef name, int scope) const {
  for (int sc = scope; sc >= 0; sc = scopes[sc].parent) {
    auto it = scopes[sc].labels.find(name);
    if (it != scopes[sc].labels.end())
      return it->second;
  }
  return -1;
}

static bool parseInt(StringRef t, int64_t &v) {
  t = t.trim();
  bool neg = t.consume_front("-");
  t.consume_back("U");
  uint64_t u = 0;
  if (t.starts_with("0f") || t.starts_with("0F")) { // f32 bits
    if (t.drop_front(2).getAsInteger(16, u))
      return false;
  } else if (t.starts_with("0d") || t.starts_with("0D")) {
    if (t.drop_front(2).getAsInteger(16, u))
      return false;
  } else if (t.starts_with("0x") || t.starts_with("0X")) {
    if (t.drop_front(2).getAsInteger(16, u))
      return false;
  } else {
    if (t.empty() || !llvm::isDigit(t[0]) || t.getAsInteger(10, u))
      return false;
  }
  v = neg ? -int64_t(u) : int64_t(u);
  return true;
}

static llvm::SmallVector<StringRef> splitTop(StringRef s) {
  llvm::SmallVector<StringRef> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '[' || c == '{' || c == '(')
      ++depth;
    else if (c == ']' || c == '}' || c == ')')
      --depth;
    else if (c == ',' && depth == 0) {
      out.push_back(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (!s.slice(start, s.size()).trim().empty())
    out.push_back(s.slice(start, s.size()).trim());
  return out;
}

llvm::Expected<Operand> Parser::operand(StringRef tok, int scope, unsigned line, bool branch) {
  Operand o;
  tok = tok.trim();
  if (tok.empty())
    return err(line, "empty operand");
  if (tok.front() == '{') {
    o.kind = Operand::Vec;
    for (StringRef e : splitTop(tok.drop_front().drop_back())) {
      auto sub = operand(e, scope, line, false);
      if (!sub)
        return sub.takeError();
      o.elems.push_back(*sub);
    }
    return o;
  }
  if (tok.front() == '[') {
    o.kind = Operand::Mem;
    StringRef in = tok.drop_front().drop_back().trim();
    llvm::SmallVector<StringRef> parts = splitTop(in);
    if (parts.empty())
      return err(line, "empty address");
    for (size_t p = 1; p < parts.size(); ++p) {
      auto sub = operand(parts[p], scope, line, false);
      if (!sub)
        return sub.takeError();
      if (sub->kind == Operand::Vec)
        o.elems = sub->elems;
      else
        o.elems.push_back(*sub);
    }
    StringRef base = parts[0];
    size_t plus = base.find('+');
    StringRef off;
    if (plus != StringRef::npos) {
      off = base.drop_front(plus + 1).trim();
      base = base.take_front(plus).trim();
    }
    if (!off.empty() && !parseInt(off, o.imm))
      return err(line, "address offset not understood: '" + tok + "'");
    int64_t absolute;
    if (parseInt(base, absolute)) {
      o.imm += absolute;
      return o;
    }
    int r = lookupReg(base, scope);
    if (r >= 0) {
      o.reg = r;
      return o;
    }
    for (size_t si = 0; si < k.symbols.size(); ++si)
      if (k.symbols[si].name == base) {
        o.sym = int(si);
        return o;
      }
    return err(line, "unknown name in address: '" + base + "'");
  }
  if (tok.contains('|')) {
    o.kind = Operand::RegPair;
    auto [a, b] = tok.split('|');
    o.reg = lookupReg(a.trim(), scope);
    o.reg2 = lookupReg(b.trim(), scope);
    if (o.reg < 0 || o.reg2 < 0)
      return err(line, "unknown register in '" + tok + "'");
    return o;
  }
  if (parseInt(tok, o.imm)) {
    o.kind = Operand::Imm;
    return o;
  }
  if (tok == "_") { // the sink of a result nobody reads
    o.kind = Operand::Imm;
    return o;
  }
  // A decimal floating-point immediate (createpolicy.fractional's fraction): a value the
  // checker never evaluates.
  if (double fraction; !tok.empty() && (isdigit(tok.front()) || tok.front() == '.') &&
                       !tok.getAsDouble(fraction)) {
    o.kind = Operand::Imm;
    return o;
  }
  int r = lookupReg(tok, scope);
  if (r < 0 && tok.starts_with("%")) {
    static const char *specials[] = {
        "tid.",         "ntid.",          "ctaid.",         "nctaid.",       "laneid",
        "warpid",       "cluster_ctarank", "cluster_nctarank", "cluster_ctaid.",
        "cluster_nctaid.", "clusterid.",  "nclusterid.",    "is_explicit_cluster"};
    for (const char *sp : specials)
      if (tok.drop_front().starts_with(sp)) {
        o.kind = Operand::Special;
        o.special = tok.drop_front().str();
        return o;
      }
  }
  if (r >= 0) {
    o.kind = Operand::Reg;
    o.reg = r;
    return o;
  }
  if (branch) {
    int l = lookupLabel(tok, scope);
    if (l >= 0) {
      o.kind = Operand::Label;
      o.target = l;
      return o;
    }
  }
  StringRef base = tok, off;
  if (tok.contains('+'))
    std::tie(base, off) = tok.split('+');
  for (size_t si = 0; si < k.symbols.size(); ++si)
    if (k.symbols[si].name == base.trim()) {
      o.kind = Operand::Sym;
      o.sym = int(si);
      if (!off.empty() && !parseInt(off, o.imm))
        return err(line, "symbol offset not understood: '" + tok + "'");
      return o;
    }
  return err(line, "unknown name '" + tok + "'");
}

llvm::Error Parser::resolve(Statement &s, StringRef body, int scope) {
  body = body.trim();
  if (body.starts_with("@")) {
    StringRef g = body.take_while([](char c) { return !llvm::isSpace(c); });
    body = body.drop_front(g.size()).ltrim();
    g = g.drop_front();
    s.guardNegated = g.consume_front("!");
    s.guard = lookupReg(g, scope);
    if (s.guard < 0)
      return err(s.line, "unknown guard predicate '" + g + "'");
  }
  StringRef opc = body.take_while([](char c) { return !llvm::isSpace(c); });
  s.opcode = opc.str();
  bool branch = opc.starts_with("bra") || opc.starts_with("brx") || opc.starts_with("call");
  for (StringRef t : splitTop(body.drop_front(opc.size()))) {
    auto o = operand(t, scope, s.line, branch);
    if (!o)
      return o.takeError();
    s.ops.push_back(*o);
  }
  return llvm::Error::success();
}

llvm::Expected<Kernel> Parser::run() {
  blankComments();
  size_t pos = 0;
  if (auto e = parseHeader(pos))
    return std::move(e);
  if (auto e = splitBody(pos))
    return std::move(e);
  StringRef s(clean);
  for (const RawStmt &r : raw) {
    Statement st;
    st.line = lineAt(r.begin);
    st.begin = r.begin;
    st.end = r.end;
    st.text = text.slice(r.begin, r.end).trim().str();
    // Collapse runs of whitespace for witnesses.
    std::string compact;
    for (char c : st.text) {
      if (llvm::isSpace(c)) {
        if (!compact.empty() && compact.back() != ' ')
          compact += ' ';
      } else {
        compact += c;
      }
    }
    st.text = compact;
    if (r.label) {
      st.isLabel = true;
      k.stmts.push_back(std::move(st));
      continue;
    }
    if (auto e = resolve(st, s.slice(r.begin, r.end), r.scope))
      return std::move(e);
    k.stmts.push_back(std::move(st));
  }
  return std::move(k);
}

} // namespace

llvm::Expected<Kernel> tilegen::verify::parsePTX(StringRef text) {
  Parser p(text);
  return p.run();
}
