//===- DecimalOption.h - Integer and enum command-line options, said plainly --*- C++ -*-===//
//
// LLVM's integer options read "010" as octal 8 and accept "0x40" and "0b1000000"; tilegen's own
// integer options (--m, --n, --k) are decimal. `cl::opt<int, false, DecimalParser<int>>` reads
// decimal digits only (with a leading '-' for signed types) and says so when given anything
// else.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_SUPPORT_DECIMALOPTION_H
#define TILEGEN_SUPPORT_DECIMALOPTION_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <limits>
#include <string>
#include <type_traits>

namespace tilegen {

template <typename T> class DecimalParser : public llvm::cl::basic_parser<T> {
public:
  explicit DecimalParser(llvm::cl::Option &o) : llvm::cl::basic_parser<T>(o) {}

  /// Returns true (after reporting) on error, as cl::parser does.
  bool parse(llvm::cl::Option &o, llvm::StringRef, llvm::StringRef arg, T &value) {
    llvm::StringRef digits = arg;
    if (std::is_signed_v<T>)
      digits.consume_front("-");
    if (digits.empty() || !llvm::all_of(digits, llvm::isDigit) ||
        arg.getAsInteger(10, value))
      return o.error("'" + arg + "' is not a decimal integer from " +
                     std::to_string(std::numeric_limits<T>::min()) + " to " +
                     std::to_string(std::numeric_limits<T>::max()));
    return false;
  }

  llvm::StringRef getValueName() const override { return std::is_signed_v<T> ? "int" : "uint"; }

  /// The line --print-options shows for the option.
  void printOptionDiff(const llvm::cl::Option &o, T v, const llvm::cl::OptionValue<T> &d,
                       size_t globalWidth) const {
    this->printOptionName(o, globalWidth);
    std::string text = std::to_string(v);
    llvm::outs() << "= " << text;
    llvm::outs().indent(text.size() < 8 ? 8 - text.size() : 0) << " (default: ";
    if (d.hasValue())
      llvm::outs() << std::to_string(d.getValue());
    else
      llvm::outs() << "*no default*";
    llvm::outs() << ")\n";
  }
};

/// A parser for an option with cl::values that lists the values when given another (LLVM says
/// "Cannot find option named 'x'!").
template <typename T> class ValuesParser : public llvm::cl::parser<T> {
public:
  explicit ValuesParser(llvm::cl::Option &o) : llvm::cl::parser<T>(o) {}

  bool parse(llvm::cl::Option &o, llvm::StringRef argName, llvm::StringRef arg, T &value) {
    // As cl::parser<T>::parse finds the value, without its message.
    llvm::StringRef given = this->Owner.hasArgStr() ? arg : argName;
    for (const auto &v : this->Values)
      if (v.Name == given) {
        value = v.V.getValue();
        return false;
      }
    std::string names;
    for (const auto &v : this->Values)
      names += (names.empty() ? "" : ", ") + v.Name.str();
    return o.error("'" + given + "' is not one of " + names);
  }
};

} // namespace tilegen

// cl::opt prints its value (--print-options) through llvm::cl::printOptionDiff, whose general
// form wants the parser to be a cl::parser<T>; these send it to DecimalParser's own.
#define TILEGEN_DECIMAL_OPTION_DIFF(T)                                                         \
  template <>                                                                                  \
  inline void llvm::cl::printOptionDiff<tilegen::DecimalParser<T>, T>(                         \
      const Option &o, const basic_parser<T> &p, const T &v, const OptionValue<T> &d,          \
      size_t globalWidth) {                                                                    \
    static_cast<const tilegen::DecimalParser<T> &>(p).printOptionDiff(o, v, d, globalWidth);   \
  }
TILEGEN_DECIMAL_OPTION_DIFF(int)
TILEGEN_DECIMAL_OPTION_DIFF(unsigned)
TILEGEN_DECIMAL_OPTION_DIFF(long)
TILEGEN_DECIMAL_OPTION_DIFF(unsigned long)
#undef TILEGEN_DECIMAL_OPTION_DIFF

#endif // TILEGEN_SUPPORT_DECIMALOPTION_H
