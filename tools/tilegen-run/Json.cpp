//===- Json.cpp - A small strict JSON reader ------------------------------===//

#include "Json.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace tilegen::run::json;

Value Value::makeBool(bool B) {
  Value V;
  V.K = Kind::Bool;
  V.B = B;
  return V;
}

Value Value::makeNumber(double D, bool IsInteger, int64_t I) {
  Value V;
  V.K = Kind::Number;
  V.D = D;
  V.IsInteger = IsInteger;
  V.I = I;
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
  static constexpr int MaxDepth = 64;
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

  std::string describeHere() const {
    if (atEnd())
      return "end of input";
    char C = Text[Pos];
    if (C == '/')
      return "'/' (comments are not JSON)";
    if (static_cast<unsigned char>(C) < 0x20)
      return "a control character";
    return std::string("'") + C + "'";
  }

  bool parseValue(Value &Result, int Depth) {
    if (Depth > MaxDepth)
      return setError("nesting deeper than 64 levels");
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
    return setError("expected a value, found " + describeHere());
  }

  bool parseObject(Value &Result, int Depth) {
    ++Pos; // '{'
    std::vector<std::pair<std::string, Value>> Members;
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
      for (const auto &M : Members) {
        if (M.first == Key) {
          Pos = KeyPos;
          return setError("duplicate key \"" + Key + "\"");
        }
      }
      skipSpace();
      if (peek() != ':')
        return setError("expected ':' after key \"" + Key + "\", found " +
                        describeHere());
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

  bool parseNumber(Value &Result) {
    size_t Start = Pos;
    bool IsInteger = true;
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
    Result = Value::makeNumber(D, IsInteger, I);
    return true;
  }
};

} // namespace

bool tilegen::run::json::parse(const std::string &Text, Value &Result,
                               std::string &Err) {
  Parser P(Text);
  return P.parseDocument(Result, Err);
}
