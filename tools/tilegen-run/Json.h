//===- Json.h - A small strict JSON reader ----------------------*- C++ -*-===//
//
// Enough JSON (RFC 8259, strict: no comments, no trailing commas, no
// duplicate keys, UTF-8 strings) to read the kernel manifest, with line:column
// positions in syntax errors. Objects keep their members in file order. It
// never recurses deeper than MaxDepth nested arrays and objects, so any input
// text is safe to parse.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_JSON_H
#define TILEGEN_RUN_JSON_H

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tilegen {
namespace run {
namespace json {

class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Value() = default;
  static Value makeBool(bool B);
  /// Text: the number as written (for messages).
  static Value makeNumber(double D, bool IsInteger, int64_t I, std::string Text);
  static Value makeString(std::string S);
  static Value makeArray(std::vector<Value> Elements);
  static Value makeObject(std::vector<std::pair<std::string, Value>> Members);

  Kind kind() const { return K; }
  bool isNull() const { return K == Kind::Null; }
  bool isBool() const { return K == Kind::Bool; }
  bool isNumber() const { return K == Kind::Number; }
  /// A number written without fraction or exponent that fits in int64.
  bool isInteger() const { return K == Kind::Number && IsInteger; }
  bool isString() const { return K == Kind::String; }
  bool isArray() const { return K == Kind::Array; }
  bool isObject() const { return K == Kind::Object; }

  bool getBool() const { return B; }
  /// The value as a double: +-inf when out of its range (1e309).
  double getNumber() const { return D; }
  /// A number as it was written, e.g. "1e309" or "9223372036854775808".
  const std::string &numberText() const { return S; }
  int64_t getInteger() const { return I; }
  const std::string &getString() const { return S; }
  const std::vector<Value> &getArray() const { return Elements; }
  const std::vector<std::pair<std::string, Value>> &getObject() const {
    return Members;
  }
  /// The member named Key of an object, or nullptr.
  const Value *get(const std::string &Key) const;

  /// "null", "a boolean", "a number", "a string", "an array", "an object".
  static const char *kindName(Kind K);
  const char *kindName() const { return kindName(K); }

private:
  Kind K = Kind::Null;
  bool B = false;
  bool IsInteger = false;
  double D = 0;
  int64_t I = 0;
  std::string S; ///< a string's value, or a number's text
  std::vector<Value> Elements;
  std::vector<std::pair<std::string, Value>> Members;
};

/// Arrays and objects nest at most this deep.
constexpr int MaxDepth = 64;

/// Whether S holds a control character (below 0x20, or DEL), which C APIs and terminals
/// would cut or garble in a name or a message.
bool holdsControlCharacter(const std::string &S);

/// S in double quotes for an error message, with quotes, backslashes and
/// control characters escaped, cut after Max bytes: "abc..." (5000 bytes)".
std::string quoteForMessage(const std::string &S, size_t Max = 80);

/// Parses Text as one JSON value. On failure returns false and sets Err to
/// "LINE:COL: what was expected".
bool parse(const std::string &Text, Value &Result, std::string &Err);

} // namespace json
} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_JSON_H
