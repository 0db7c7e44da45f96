//===- Json.cpp - A small strict JSON reader ------------------------------===//

#include "Json.h"

#include <algorithm>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

using namespace tilegen::run::json;

Value Value::makeBool(bool B) {
  Value V;
  V.K = Kind::Bool;
  V.B = B;
  return V;
}

Value Value::makeNumber(double D, bool IsInteger, int64_t I, std::string Text) {
  Value V;
  V.K = Kind::Number;
  V.D = D;
  V.IsInteger = IsInteger;
  V.I = I;
  V.S = std::move(Text);
  return V;
}

Value Value::makeString(std::string S) {
  Value V;
  V.K = Kind::String;
  V.S = std::move(S);
  return V;
}

Value Value::makeArray(std::vector<Value> Elements) {
  Value V;
  V.K = Kind::Array;
  V.Elements = std::move(Elements);
  return V;
}

Value Value::makeObject(std::vector<std::pair<std::string, Value>> Members) {
  Value V;
  V.K = Kind::Object;
  V.Members = std::move(Members);
  return V;
}

const Value *Value::get(const std::string &Key) const {
  for (const auto &M : Members)
    if (M.first == Key)
      return &M.second;
  return nullptr;
}

const char *Value::kindName(Kind K) {
  switch (K) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "a boolean";
  case Kind::Number:
    return "a number";
  case Kind::String:
    return "a string";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "?";
}

namespace {

class Parser {
public:
  explicit Parser(const std::string &Text) : Text(Text) {}

  bool parseDocument(Value &Result, std::string &Err) {
    if (Text.compare(0, 3, "\xEF\xBB\xBF") == 0) {
      setError("byte-order mark at the start (JSON text has none)");
      return fail(Err);
    }
    skipSpace();
    if (!parseValue(Result, 0))
      return fail(Err);
    skipSpace();
    if (Pos != Text.size()) {
      setError("unexpected text after the JSON value");
      return fail(Err);
    }
    return true;
  }

private:
  const std::string &Text;
  size_t Pos = 0;
  size_t ErrPos = 0;
  std::string ErrMsg;

  bool fail(std::string &Err) {
    unsigned Line = 1, Col = 1;
    for (size_t I = 0; I < ErrPos && I < Text.size(); ++I) {
      if (Text[I] == '\n') {
        ++Line;
        Col = 1;
      } else {
        ++Col;
      }
    }
    Err = std::to_string(Line) + ":" + std::to_string(Col) + ": " + ErrMsg;
    return false;
  }

  bool setError(std::string Msg) {
    if (ErrMsg.empty()) {
      ErrMsg = std::move(Msg);
      ErrPos = Pos;
    }
    return false;
  }

  bool atEnd() const { return Pos >= Text.size(); }
  char peek() const { return atEnd() ? '\0' : Text[Pos]; }

  void skipSpace() {
    while (!atEnd() && (Text[Pos] == ' ' || Text[Pos] == '\t' ||
                        Text[Pos] == '\n' || Text[Pos] == '\r'))
      ++Pos;
  }

  static std::string byteText(unsigned char C) {
    char Buf[8];
    std::snprintf(Buf, sizeof(Buf), "0x%02x", C);
    return Buf;
  }

  /// Whether the text at Pos (after an optional '-') spells an infinity or a
  /// NaN, which JSON cannot express.
  bool atNonFinite() const {
    size_t P = Pos;
    if (P < Text.size() && Text[P] == '-')
      ++P;
    for (const char *W : {"inf", "Inf", "INF", "nan", "NaN", "NAN"})
      if (Text.compare(P, 3, W) == 0)
        return true;
    return false;
  }

  /// The word at Pos ('-' and letters, at most 16), for messages.
  std::string wordHere() const {
    size_t E = Pos;
    while (E < Text.size() && E - Pos < 16 &&
           (Text[E] == '-' || (Text[E] >= 'a' && Text[E] <= 'z') ||
            (Text[E] >= 'A' && Text[E] <= 'Z')))
      ++E;
    return Text.substr(Pos, E - Pos);
  }

  bool nonFiniteError() {
    return setError("expected a value, found '" + wordHere() +
                    "' (JSON has no infinity or NaN)");
  }

  std::string describeHere() const {
    if (atEnd())
      return "end of input";
    unsigned char C = static_cast<unsigned char>(Text[Pos]);
    if (C == '/')
      return "'/' (comments are not JSON)";
    if (C < 0x20 || C == 0x7F)
      return "a control character (byte " + byteText(C) + ")";
    if (C >= 0x80)
      return "byte " + byteText(C);
    return std::string("'") + static_cast<char>(C) + "'";
  }

  bool parseValue(Value &Result, int Depth) {
    char C = peek();
    if (C == '{')
      return parseObject(Result, Depth);
    if (C == '[')
      return parseArray(Result, Depth);
    if (C == '"') {
      std::string S;
      if (!parseString(S))
        return false;
      Result = Value::makeString(std::move(S));
      return true;
    }
    if (C == '-' || (C >= '0' && C <= '9'))
      return parseNumber(Result);
    if (Text.compare(Pos, 4, "true") == 0) {
      Pos += 4;
      Result = Value::makeBool(true);
      return true;
    }
    if (Text.compare(Pos, 5, "false") == 0) {
      Pos += 5;
      Result = Value::makeBool(false);
      return true;
    }
    if (Text.compare(Pos, 4, "null") == 0) {
      Pos += 4;
      Result = Value();
      return true;
    }
    if (atNonFinite())
      return nonFiniteError();
    return setError("expected a value, found " + describeHere());
  }

  /// Depth: how many arrays and objects enclose this one.
  bool enter(int Depth) {
    if (Depth >= MaxDepth)
      return setError("arrays and objects nested more than " +
                      std::to_string(MaxDepth) + " deep");
    return true;
  }

  bool parseObject(Value &Result, int Depth) {
    if (!enter(Depth))
      return false;
    ++Pos; // '{'
    std::vector<std::pair<std::string, Value>> Members;
    std::unordered_set<std::string> Keys;
    skipSpace();
    if (peek() == '}') {
      ++Pos;
      Result = Value::makeObject(std::move(Members));
      return true;
    }
    while (true) {
      skipSpace();
      if (peek() != '"')
        return setError("expected a string key, found " + describeHere());
      size_t KeyPos = Pos;
      std::string Key;
      if (!parseString(Key))
        return false;
      if (!Keys.insert(Key).second) {
        Pos = KeyPos;
        return setError("duplicate key " + quoteForMessage(Key));
      }
      skipSpace();
      if (peek() != ':')
        return setError("expected ':' after key " + quoteForMessage(Key) +
                        ", found " + describeHere());
      ++Pos;
      skipSpace();
      Value V;
      if (!parseValue(V, Depth + 1))
        return false;
      Members.emplace_back(std::move(Key), std::move(V));
      skipSpace();
      if (peek() == ',') {
        ++Pos;
        continue;
      }
      if (peek() == '}') {
        ++Pos;
        Result = Value::makeObject(std::move(Members));
        return true;
      }
      return setError("expected ',' or '}' in object, found " +
                      describeHere());
    }
  }

  bool parseArray(Value &Result, int Depth) {
    if (!enter(Depth))
      return false;
    ++Pos; // '['
    std::vector<Value> Elements;
    skipSpace();
    if (peek() == ']') {
      ++Pos;
      Result = Value::makeArray(std::move(Elements));
      return true;
    }
    while (true) {
      skipSpace();
      Value V;
      if (!parseValue(V, Depth + 1))
        return false;
      Elements.push_back(std::move(V));
      skipSpace();
      if (peek() == ',') {
        ++Pos;
        continue;
      }
      if (peek() == ']') {
        ++Pos;
        Result = Value::makeArray(std::move(Elements));
        return true;
      }
      return setError("expected ',' or ']' in array, found " + describeHere());
    }
  }

  static void appendUtf8(std::string &Out, uint32_t CP) {
    if (CP < 0x80) {
      Out += static_cast<char>(CP);
    } else if (CP < 0x800) {
      Out += static_cast<char>(0xC0 | (CP >> 6));
      Out += static_cast<char>(0x80 | (CP & 0x3F));
    } else if (CP < 0x10000) {
      Out += static_cast<char>(0xE0 | (CP >> 12));
      Out += static_cast<char>(0x80 | ((CP >> 6) & 0x3F));
      Out += static_cast<char>(0x80 | (CP & 0x3F));
    } else {
      Out += static_cast<char>(0xF0 | (CP >> 18));
      Out += static_cast<char>(0x80 | ((CP >> 12) & 0x3F));
      Out += static_cast<char>(0x80 | ((CP >> 6) & 0x3F));
      Out += static_cast<char>(0x80 | (CP & 0x3F));
    }
  }

  bool parseHex4(uint32_t &CP) {
    CP = 0;
    for (int I = 0; I < 4; ++I) {
      char C = peek();
      uint32_t Digit;
      if (C >= '0' && C <= '9')
        Digit = C - '0';
      else if (C >= 'a' && C <= 'f')
        Digit = C - 'a' + 10;
      else if (C >= 'A' && C <= 'F')
        Digit = C - 'A' + 10;
      else
        return setError("expected 4 hex digits after \\u");
      CP = CP * 16 + Digit;
      ++Pos;
    }
    return true;
  }

  bool parseString(std::string &Out) {
    ++Pos; // '"'
    while (true) {
      if (atEnd())
        return setError("unterminated string");
      char C = Text[Pos];
      if (C == '"') {
        ++Pos;
        return true;
      }
      if (static_cast<unsigned char>(C) < 0x20)
        return setError("control character in string (escape it)");
      if (static_cast<unsigned char>(C) >= 0x80) {
        size_t Len = utf8Length(Pos);
        if (!Len)
          return setError("invalid UTF-8 in string (byte " +
                          byteText(static_cast<unsigned char>(C)) + ")");
        Out.append(Text, Pos, Len);
        Pos += Len;
        continue;
      }
      if (C != '\\') {
        Out += C;
        ++Pos;
        continue;
      }
      ++Pos;
      char E = peek();
      ++Pos;
      switch (E) {
      case '"':
        Out += '"';
        break;
      case '\\':
        Out += '\\';
        break;
      case '/':
        Out += '/';
        break;
      case 'b':
        Out += '\b';
        break;
      case 'f':
        Out += '\f';
        break;
      case 'n':
        Out += '\n';
        break;
      case 'r':
        Out += '\r';
        break;
      case 't':
        Out += '\t';
        break;
      case 'u': {
        uint32_t CP;
        if (!parseHex4(CP))
          return false;
        if (CP >= 0xDC00 && CP < 0xE000)
          return setError("unpaired surrogate in \\u escape");
        if (CP >= 0xD800 && CP < 0xDC00) {
          uint32_t Low;
          if (Text.compare(Pos, 2, "\\u") != 0)
            return setError("unpaired surrogate in \\u escape");
          Pos += 2;
          if (!parseHex4(Low))
            return false;
          if (Low < 0xDC00 || Low >= 0xE000)
            return setError("unpaired surrogate in \\u escape");
          CP = 0x10000 + ((CP - 0xD800) << 10) + (Low - 0xDC00);
        }
        appendUtf8(Out, CP);
        break;
      }
      default:
        --Pos;
        return setError("invalid escape in string");
      }
    }
  }

  /// The length of the well-formed UTF-8 sequence at P (RFC 3629: no
  /// overlong forms, no surrogates, at most U+10FFFF), or 0.
  size_t utf8Length(size_t P) const {
    auto Byte = [&](size_t I) -> unsigned {
      return I < Text.size() ? static_cast<unsigned char>(Text[I]) : 0u;
    };
    unsigned B0 = Byte(P);
    size_t Len;
    unsigned Lo = 0x80, Hi = 0xBF; // the range of the second byte
    if (B0 >= 0xC2 && B0 <= 0xDF) {
      Len = 2;
    } else if (B0 >= 0xE0 && B0 <= 0xEF) {
      Len = 3;
      if (B0 == 0xE0)
        Lo = 0xA0;
      else if (B0 == 0xED)
        Hi = 0x9F;
    } else if (B0 >= 0xF0 && B0 <= 0xF4) {
      Len = 4;
      if (B0 == 0xF0)
        Lo = 0x90;
      else if (B0 == 0xF4)
        Hi = 0x8F;
    } else {
      return 0;
    }
    if (Byte(P + 1) < Lo || Byte(P + 1) > Hi)
      return 0;
    for (size_t I = 2; I < Len; ++I)
      if (Byte(P + I) < 0x80 || Byte(P + I) > 0xBF)
        return 0;
    return Len;
  }

  bool parseNumber(Value &Result) {
    size_t Start = Pos;
    bool IsInteger = true;
    if (atNonFinite())
      return nonFiniteError();
    if (peek() == '-')
      ++Pos;
    if (peek() == '0') {
      ++Pos;
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9')
        ++Pos;
    } else {
      return setError("expected a digit in number");
    }
    if (peek() == '.') {
      IsInteger = false;
      ++Pos;
      if (!(peek() >= '0' && peek() <= '9'))
        return setError("expected a digit after '.' in number");
      while (peek() >= '0' && peek() <= '9')
        ++Pos;
    }
    if (peek() == 'e' || peek() == 'E') {
      IsInteger = false;
      ++Pos;
      if (peek() == '+' || peek() == '-')
        ++Pos;
      if (!(peek() >= '0' && peek() <= '9'))
        return setError("expected a digit in exponent");
      while (peek() >= '0' && peek() <= '9')
        ++Pos;
    }
    std::string Lexeme = Text.substr(Start, Pos - Start);
    // strtod gives +-HUGE_VAL (inf) for 1e309 and 0 for 1e-400; either way the
    // text is kept for messages.
    double D = std::strtod(Lexeme.c_str(), nullptr);
    int64_t I = 0;
    if (IsInteger) {
      errno = 0;
      long long LL = std::strtoll(Lexeme.c_str(), nullptr, 10);
      if (errno == ERANGE)
        IsInteger = false;
      else
        I = LL;
    }
    if (Lexeme.size() > 40)
      Lexeme = Lexeme.substr(0, 32) + "... (" + std::to_string(Lexeme.size()) +
               " characters)";
    Result = Value::makeNumber(D, IsInteger, I, std::move(Lexeme));
    return true;
  }
};

} // namespace

bool tilegen::run::json::holdsControlCharacter(const std::string &S) {
  return std::any_of(S.begin(), S.end(), [](char C) {
    return static_cast<unsigned char>(C) < 0x20 || C == 0x7F;
  });
}

std::string tilegen::run::json::quoteForMessage(const std::string &S,
                                               size_t Max) {
  std::string Out = "\"";
  size_t I = 0;
  for (; I < S.size() && I < Max; ++I) {
    unsigned char C = static_cast<unsigned char>(S[I]);
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += static_cast<char>(C);
    } else if (C < 0x20 || C == 0x7F) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
      Out += Buf;
    } else {
      Out += static_cast<char>(C);
    }
  }
  // Cut at a character boundary, not inside a UTF-8 sequence.
  if (I < S.size()) {
    while (!Out.empty() && (static_cast<unsigned char>(Out.back()) & 0xC0) == 0x80)
      Out.pop_back();
    if (!Out.empty() && static_cast<unsigned char>(Out.back()) >= 0xC0)
      Out.pop_back();
    return Out + "...\" (" + std::to_string(S.size()) + " bytes)";
  }
  return Out + "\"";
}

bool tilegen::run::json::parse(const std::string &Text, Value &Result,
                               std::string &Err) {
  Parser P(Text);
  return P.parseDocument(Result, Err);
}
