//===- PTX.h - the PTX subset tilegen emits, parsed for the protocol checker -------------===//
//
// A kernel as a flat list of statements: instructions (guard, opcode, operands) and labels,
// with registers resolved to one index per declared register (scoped `{ ... }` blocks, as in
// LLVM's inline asm, get their own registers and labels) and branch targets resolved to
// statement indices. Only what the checker needs is kept; every statement remembers its line
// and its byte range in the text, so that a mutation can edit it and a witness can cite it.
//
//===--------------------------------------------------------------------------------------===//

#ifndef TILEGEN_VERIFY_PTX_H
#define TILEGEN_VERIFY_PTX_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilegen::verify {

/// One operand. `Mem` is `[base + offset]` (base a register or a symbol, or neither for an
/// absolute address) with `elems` holding the coordinates of a tensor operand
/// (`[tmap, {x, y}]`); `Vec` is `{a, b, ...}`; `RegPair` is `%r|%p` (elect.sync).
struct Operand {
  enum Kind { Reg, Imm, Sym, Mem, Vec, RegPair, Label, Special } kind = Imm;
  int reg = -1;   ///< Reg, RegPair (first), Mem base
  int reg2 = -1;  ///< RegPair second
  int sym = -1;   ///< Sym, Mem base symbol (index into Kernel::symbols)
  int64_t imm = 0; ///< Imm value, Mem/Sym offset
  int target = -1; ///< Label: statement index
  std::vector<Operand> elems;
  std::string special; ///< Special: the register's name without '%', e.g. "tid.x"
};

/// A symbol an operand may name: the dynamic shared memory array or a kernel parameter.
struct Symbol {
  enum Kind { SharedArray, Param } kind;
  std::string name;
  unsigned param = 0; ///< Param: index
};

struct Param {
  std::string name;
  unsigned bytes = 0;
};

struct Statement {
  bool isLabel = false;
  unsigned line = 0;             ///< 1-based line in the text
  size_t begin = 0, end = 0;     ///< byte range of the statement (without its ';')
  int guard = -1;                ///< guard predicate register, -1 when none
  bool guardNegated = false;
  std::string opcode;            ///< dotted opcode, e.g. "mbarrier.try_wait.parity.shared.b64"
  std::vector<Operand> ops;
  std::string text;              ///< the statement as written (for witnesses)
};

struct Register {
  std::string name;
  unsigned bits = 32; ///< 1 for predicates
};

struct Kernel {
  std::string name;
  std::string target; ///< `.target` directive
  std::vector<Param> params;
  std::vector<Symbol> symbols;
  std::vector<Register> registers;
  std::vector<Statement> stmts;
};

/// Parses the one `.entry` of a PTX module. Errors name the line and what was not understood.
llvm::Expected<Kernel> parsePTX(llvm::StringRef text);

} // namespace tilegen::verify

#endif // TILEGEN_VERIFY_PTX_H
