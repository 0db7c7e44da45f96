//===- DescriptionMutator.cpp - tilegen-fuzz's structure-aware mutator ----===//
//
// libFuzzer's byte-level mutations rarely keep a description parseable, so most of the time
// this mutator edits the text the way a person would get it wrong:
//   - the options line (FuzzInput.h): another target or stage;
//   - a field's value (the fields of GemmOp::parse, lib/Dialect/Tile/TileOps.cpp): sizes near
//     powers of two and their products, 0, negatives, 2^31 +- 1, 2^32, 2^63 - 1, 2^64; other
//     types, layouts and enum words; alpha/beta as 1e309, nan, inf, hex bit patterns, the f32
//     bound, signs, integers; scales; sometimes the value of another field (a wrong type);
//   - any integer in the text (reaches tile.pipeline plans and #tile.scale blocks);
//   - a field deleted, duplicated, or added (known or unknown key);
//   - the kernel name: '-', '.', '_' alone, empty, unicode, quotes, very long;
//   - deep nesting of brackets in a value;
//   - more descriptions in the file (copies, renamed or not).
// A third of the time, or when an edit does not apply or does not fit, it falls back to
// libFuzzer's own mutation. LLVMFuzzerCustomCrossOver moves one field between two inputs.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

using Rng = std::minstd_rand;

size_t below(Rng &rng, size_t n) { return n ? rng() % n : 0; }

template <typename T, size_t N> const T &pick(Rng &rng, const T (&items)[N]) {
  return items[below(rng, N)];
}

const char *const kTargets[] = {"sm_80",  "sm_90",   "sm_90a", "sm_100a", "sm_120a",
                                "sm_80",  "sm_90",   "sm_90a", "sm_100a", "sm_120a",
                                "sm_86",  "sm_89",   "sm_103a", "sm_120", "none"};
const char *const kStages[] = {"tile", "pipeline", "pipeline", "nvvm", "nvvm", "llvm", "ptx", "ptx"};

const char *const kTypes[] = {"bf16",      "f16",        "f8E4M3FN",  "f8E5M2",   "f32",
                              "bf16",      "f16",        "f8E4M3FN",  "f8E5M2",   "f64",
                              "i8",        "i32",        "i1",        "tf32",     "f8E4M3FNUZ",
                              "f8E5M2FNUZ", "f8E4M3",    "f4E2M1FN",  "f6E2M3FN", "index",
                              "none",      "complex<f32>", "vector<4xf16>", "tensor<2xbf16>",
                              "!llvm.ptr", "si8",        "ui16",      "f80",
                              "f4E2M1FN",  "f6E3M2FN",   "f8E8M0FNU", "f4E2M1FN"};
const char *const kLayouts[] = {"row", "col", "row", "col", "ROW", "diag", "rowcol", "_"};
const char *const kAccTypes[] = {"f32", "f16", "bf16", "f64", "i32", "f8E4M3FN"};

// Enum fields with their words and a few near misses.
struct EnumField {
  const char *key;
  std::vector<const char *> words;
};
const EnumField kEnums[] = {
    {"schedule", {"auto", "multistage", "warp_specialized", "pingpong", "Multistage"}},
    {"copy", {"auto", "cp_async", "tma", "cp.async", "TMA"}},
    {"multicast", {"none", "a", "b", "ab", "ba", "c"}},
    {"cache_a", {"normal", "evict_first", "evict_last", "evict_normal", "first"}},
    {"cache_b", {"normal", "evict_first", "evict_last", "evict_normal", "first"}},
    {"grid", {"tiles", "persistent", "stream_k", "streamk", "split_k"}},
    {"raster", {"row", "col", "row", "col", "diag"}},
    {"accumulation", {"promoted", "fast", "slow"}},
};
const char *const kIntFields[] = {"stages", "accumulators", "cta_group", "swizzle", "promotion"};
const char *const kListFields[] = {"tile", "warps", "mma", "cluster"};
const char *const kAllFields[] = {
    "a",        "b",         "c",         "accumulator", "scale_a",  "scale_b",
    "accumulation", "promotion", "tile",   "stages",      "accumulators", "schedule",
    "copy",     "warps",     "mma",       "cluster",     "multicast", "cta_group",
    "grid",     "raster",    "swizzle",   "alpha",       "beta",      "alignment",
    "target",   "upcast",    "cache_a",   "cache_b"};
const char *const kUnknownFields[] = {"foo", "tiles", "Tile", "a_type", "sym_name", "stage",
                                      "alpha2", "_", "x"};
const char *const kFloats[] = {
    "1.0",  "0.0", "-0.0", "1e309", "-1e309", "1e-320", "nan", "inf", "-inf", "NaN",
    "0x7FF8000000000000", "0x7FF0000000000000", "0xFFF0000000000000", "0xFFFFFFFFFFFFFFFF",
    "0x0000000000000001", "3.4028235e38", "3.5e38", "1.7976931348623157e308", "65504.0",
    "65520.0", "2.5e-45", "1", "-1", "1e100", "true", "\"1.0\"", "0.5", "-2.0",
    "3.40282347e38", "-3.40282347e38", "3.4028236e38", "340282350000000000000000000000000000000",
    "+1.0", "+0x3FF0000000000000", "- -1.0", "+-2", "1e-3", "2 x", "1.17549435e-38"};
const char *const kTargetStrings[] = {
    "\"sm_80\"", "\"sm_90\"", "\"sm_90a\"", "\"sm_100a\"", "\"sm_120a\"", "\"sm_103a\"",
    "\"\"",      "\"sm_9999\"", "\"sm_90a \"", "\"SM_90A\"", "\"sm_\"", "\"sm_90b\"",
    "\"\\C5\\9Bm_90\"", "\"sm_90a\\00\"", "sm_90a", "90"};
const char *const kNames[] = {
    "@-",    "@.",     "@_",      "@\"\"",    "@\"-\"",    "@\".\"",      "@\"h\\C3\\A9llo\"",
    "@\"\\00\"", "@\"a b\"", "@\"a/b\"", "@\"../x\"",  "@\"$\"",      "@a$b",
    "@a.b",  "@_1",    "@\"0abc\"", "@\"\\E5\\90\\8D\\E5\\89\\8D\"", "@\"\\F0\\9F\\99\\82\"",
    "@\"\\22q\"", "@\"back\\\\slash\"", "@\"nl\\0A\"", "@gemm", "@a-b", "@\"-a\"", "@\"%r1\"",
    "@\"main\"", "@\"__nv_x\"", "@\"a.b.c\"", "@\"$$\"", "@WARP_SZ", "@__cudaX",
    "@__cuda", "@__tilegen_smem", "@__local_depot0", "@reg", "@ret", "@entry", "@_Z1k"};

/// Integers around powers of two, their products with small odd factors, and the edges of
/// the integer types.
std::string interestingInt(Rng &rng) {
  static const char *const edges[] = {
      "0",          "-1",          "1",          "2147483647",           "2147483648",
      "2147483649", "-2147483648", "-2147483649", "4294967295",          "4294967296",
      "4294967297", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
      "18446744073709551615", "18446744073709551616", "99999999999999999999999", "0x10",
      "007",        "1.5",         "-0",          "1e3"};
  switch (below(rng, 4)) {
  case 0:
    return pick(rng, edges);
  case 1: { // near a power of two
    int k = static_cast<int>(below(rng, 64));
    int64_t v = int64_t(1) << std::min(k, 62);
    int64_t d = static_cast<int64_t>(below(rng, 3)) - 1;
    if (below(rng, 8) == 0)
      v = -v;
    return std::to_string(v + d);
  }
  case 2: { // a small tile-like size
    static const int64_t sizes[] = {1, 2, 4, 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144,
                                    160, 192, 224, 256, 320, 384, 512, 1024, 2048};
    return std::to_string(pick(rng, sizes));
  }
  default: { // a product: odd factor times a power of two
    static const int64_t odd[] = {3, 5, 7, 9, 15, 17, 255, 257};
    int k = static_cast<int>(below(rng, 40));
    return std::to_string(pick(rng, odd) * (int64_t(1) << k));
  }
  }
}

std::string intList(Rng &rng, size_t usual) {
  size_t n = below(rng, 6) == 0 ? below(rng, 6) : usual;
  std::string s = "[";
  for (size_t i = 0; i < n; ++i)
    s += (i ? ", " : "") + interestingInt(rng);
  return s + "]";
}

std::string typeWord(Rng &rng) { return pick(rng, kTypes); }

std::string scaleValue(Rng &rng) {
  // The block-scaled forms (OCP MX, NVFP4 with its per-tensor factor) and near misses.
  static const char *const blockScaled[] = {
      "f8E8M0FNU [1, 32]", "f8E4M3FN [1, 16]",         "f8E4M3FN [1, 16] * f32 tensor",
      "f8E8M0FNU [1, 16]", "f8E4M3FN [1, 32] * f32 tensor", "f8E8M0FNU [1, 32] * f32 tensor",
      "f8E8M0FNU tensor",  "f8E4M3FN [1, 16] * bf16 tensor", "f8E4M3FN [1, 16] *"};
  if (below(rng, 3) == 0)
    return pick(rng, blockScaled);
  const char *type = below(rng, 4) ? "f32" : pick(rng, kTypes);
  switch (below(rng, 4)) {
  case 0:
    return std::string(type) + " tensor";
  case 1:
    return std::string(type) + " [1, 128]";
  case 2:
    return std::string(type) + " [128, 128]";
  default:
    return std::string(type) + " " + intList(rng, 2);
  }
}

/// A value for field `key` (any field when `key` is unknown).
std::string valueFor(const std::string &key, Rng &rng) {
  if (key == "a" || key == "b" || key == "c")
    return typeWord(rng) + " " + pick(rng, kLayouts);
  if (key == "accumulator")
    return below(rng, 2) ? pick(rng, kAccTypes) : typeWord(rng);
  for (const char *f : kListFields)
    if (key == f)
      return intList(rng, key == "warps" ? 2 : 3);
  for (const char *f : kIntFields)
    if (key == f)
      return key == "stages" && below(rng, 4) == 0 ? "auto" : interestingInt(rng);
  for (const EnumField &e : kEnums)
    if (key == e.key)
      return e.words[below(rng, e.words.size())];
  if (key == "scale_a" || key == "scale_b")
    return scaleValue(rng);
  if (key == "upcast")
    return below(rng, 2) ? "bf16" : typeWord(rng);
  // One value or [a, b]: the powers of two up to 16 mostly, the rest near misses.
  if (key == "alignment") {
    static const char *const aligns[] = {"1", "2", "4", "8", "16", "1", "2", "4", "0", "3",
                                         "32", "-1"};
    switch (below(rng, 3)) {
    case 0:
      return pick(rng, aligns);
    case 1:
      return std::string("[") + pick(rng, aligns) + ", " + pick(rng, aligns) + "]";
    default:
      return intList(rng, 2);
    }
  }
  if (key == "alpha" || key == "beta")
    return pick(rng, kFloats);
  if (key == "target")
    return pick(rng, kTargetStrings);
  return valueFor(pick(rng, kAllFields), rng);
}

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// A `key = value` inside a description: positions of the key and of the value's end.
struct Field {
  size_t keyBegin, valueBegin, valueEnd;
  std::string key;
};

/// The end of the value starting at `i`: the next ',' or '}' outside brackets and strings.
size_t valueEnd(const std::string &s, size_t i) {
  int depth = 0;
  bool inString = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '[' || c == '(' || c == '<' || c == '{')
      ++depth;
    else if (c == ']' || c == ')' || c == '>' || (c == '}' && depth > 0))
      --depth;
    else if ((c == ',' || c == '}') && depth <= 0)
      return i;
    else if (c == '\n' && depth <= 0 && i + 1 < s.size() && s[i + 1] == '}')
      return i;
  }
  return s.size();
}

/// Every `identifier =` (not `==`) in the text, with its value's extent.
std::vector<Field> findFields(const std::string &s) {
  std::vector<Field> out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '=' || (i + 1 < s.size() && s[i + 1] == '=') || (i && s[i - 1] == '='))
      continue;
    size_t j = i;
    while (j > 0 && s[j - 1] == ' ')
      --j;
    size_t end = j;
    while (j > 0 && isIdentChar(s[j - 1]))
      --j;
    if (j == end)
      continue;
    // Not the options line.
    size_t lineStart = s.rfind('\n', j);
    lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
    if (s.compare(lineStart, 2, "//") == 0)
      continue;
    size_t v = i + 1;
    while (v < s.size() && s[v] == ' ')
      ++v;
    out.push_back({j, v, valueEnd(s, v), s.substr(j, end - j)});
  }
  return out;
}

/// The options line, created when absent.
void setOption(std::string &s, const std::string &key, const std::string &value) {
  if (s.compare(0, 2, "//") != 0)
    s.insert(0, "// target=sm_90a emit=ptx\n");
  size_t eol = s.find('\n');
  if (eol == std::string::npos)
    eol = s.size();
  std::string line = s.substr(0, eol);
  size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) {
    line += " " + key + "=" + value;
  } else {
    size_t vb = at + key.size() + 2, ve = line.find(' ', vb);
    line.replace(vb, (ve == std::string::npos ? line.size() : ve) - vb, value);
  }
  s.replace(0, eol, line);
}

bool mutateOptions(std::string &s, Rng &rng) {
  switch (below(rng, 5)) {
  case 0:
  case 1:
    setOption(s, "target", pick(rng, kTargets));
    return true;
  case 2:
  case 3:
    setOption(s, "emit", pick(rng, kStages));
    return true;
  default: {
    static const char *const keys[] = {"stages", "accumulators", "tiles", "k-slices",
                                       "timeline-tiles", "width"};
    static const char *const costs[] = {"load", "mma", "epilogue", "issue", "clock-ghz"};
    switch (below(rng, 3)) {
    case 0:
      setOption(s, pick(rng, keys), interestingInt(rng));
      break;
    case 1:
      setOption(s, pick(rng, costs), below(rng, 2) ? pick(rng, kFloats) : interestingInt(rng));
      break;
    default: // a problem size: explain needs all three
      setOption(s, "m", interestingInt(rng));
      setOption(s, "n", interestingInt(rng));
      setOption(s, "k", interestingInt(rng));
    }
    return true;
  }
  }
}

bool replaceFieldValue(std::string &s, Rng &rng) {
  std::vector<Field> fields = findFields(s);
  if (fields.empty())
    return false;
  const Field &f = fields[below(rng, fields.size())];
  std::string value = below(rng, 7) == 0 ? valueFor("", rng) : valueFor(f.key, rng);
  s.replace(f.valueBegin, f.valueEnd - f.valueBegin, value);
  return true;
}

bool replaceInteger(std::string &s, Rng &rng) {
  std::vector<std::pair<size_t, size_t>> numbers;
  for (size_t i = 0; i < s.size();) {
    if (std::isdigit(static_cast<unsigned char>(s[i])) && (i == 0 || !isIdentChar(s[i - 1]))) {
      size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
        ++j;
      if (j == s.size() || !isIdentChar(s[j]))
        numbers.push_back({i, j - i});
      i = j;
    } else {
      ++i;
    }
  }
  // Leave the options line's numbers to mutateOptions.
  size_t firstLine = s.compare(0, 2, "//") == 0 ? s.find('\n') : 0;
  numbers.erase(std::remove_if(numbers.begin(), numbers.end(),
                               [&](auto &n) { return n.first < firstLine; }),
                numbers.end());
  if (numbers.empty())
    return false;
  auto [at, len] = numbers[below(rng, numbers.size())];
  s.replace(at, len, interestingInt(rng));
  return true;
}

bool deleteField(std::string &s, Rng &rng) {
  std::vector<Field> fields = findFields(s);
  if (fields.empty())
    return false;
  const Field &f = fields[below(rng, fields.size())];
  size_t end = f.valueEnd;
  if (end < s.size() && s[end] == ',')
    ++end;
  s.erase(f.keyBegin, end - f.keyBegin);
  return true;
}

bool addField(std::string &s, Rng &rng) {
  std::vector<Field> fields = findFields(s);
  if (fields.empty())
    return false;
  const Field &at = fields[below(rng, fields.size())];
  std::string text;
  switch (below(rng, 3)) {
  case 0: // a duplicate of an existing field
    text = s.substr(at.keyBegin, at.valueEnd - at.keyBegin);
    break;
  case 1: // a known field, maybe missing so far
    text = std::string(pick(rng, kAllFields));
    text += " = " + valueFor(text, rng);
    break;
  default: // an unknown field
    text = std::string(pick(rng, kUnknownFields)) + " = " + valueFor("", rng);
  }
  s.insert(at.keyBegin, text + ", ");
  return true;
}

bool renameKernel(std::string &s, Rng &rng) {
  std::vector<std::pair<size_t, size_t>> names;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] != '@')
      continue;
    size_t j = i + 1;
    if (s[j] == '"') {
      ++j;
      while (j < s.size() && s[j] != '"')
        j += s[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, s.size());
    } else {
      while (j < s.size() && (isIdentChar(s[j]) || s[j] == '$' || s[j] == '.' || s[j] == '-'))
        ++j;
    }
    names.push_back({i, j - i});
  }
  if (names.empty())
    return false;
  auto [at, len] = names[below(rng, names.size())];
  std::string name = pick(rng, kNames);
  if (below(rng, 10) == 0) {
    static const size_t lengths[] = {300, 1023, 1024, 1025, 5000};
    name = "@" + std::string(pick(rng, lengths), 'k');
  }
  s.replace(at, len, name);
  return true;
}

bool nestBrackets(std::string &s, Rng &rng, size_t maxSize) {
  std::vector<Field> fields = findFields(s);
  if (fields.empty())
    return false;
  const Field &f = fields[below(rng, fields.size())];
  static const size_t depths[] = {3, 10, 50, 62, 63, 64, 65, 200, 1000};
  size_t depth = pick(rng, depths);
  size_t room = maxSize > s.size() ? (maxSize - s.size()) / 2 : 0;
  depth = std::min(depth, room);
  if (depth == 0)
    return false;
  static const char *const pairs[] = {"[]", "<>", "()", "{}"};
  const char *p = pick(rng, pairs);
  std::string inner = s.substr(f.valueBegin, f.valueEnd - f.valueBegin);
  if (below(rng, 2))
    inner = interestingInt(rng);
  s.replace(f.valueBegin, f.valueEnd - f.valueBegin,
            std::string(depth, p[0]) + inner + std::string(depth, p[1]));
  return true;
}

/// Copies the first description (or plan) `n` more times, renamed or not.
bool duplicateDescription(std::string &s, Rng &rng, size_t maxSize) {
  size_t begin = s.find("tile.gemm");
  if (begin == std::string::npos)
    begin = s.find("tile.pipeline");
  if (begin == std::string::npos)
    return false;
  size_t brace = s.find('{', begin);
  if (brace == std::string::npos)
    return false;
  int depth = 0;
  size_t end = brace;
  for (; end < s.size(); ++end) {
    if (s[end] == '{')
      ++depth;
    else if (s[end] == '}' && --depth == 0)
      break;
  }
  if (end == s.size())
    return false;
  std::string op = s.substr(begin, end + 1 - begin);
  size_t copies = 1 + below(rng, below(rng, 4) == 0 ? 16 : 3);
  bool rename = below(rng, 4) != 0;
  std::string extra;
  for (size_t i = 0; i < copies; ++i) {
    std::string copy = op;
    size_t at = copy.find('@');
    if (rename && at != std::string::npos) {
      size_t j = at + 1;
      while (j < copy.size() && (isIdentChar(copy[j]) || copy[j] == '$' || copy[j] == '.'))
        ++j;
      copy.insert(j, "_" + std::to_string(i));
    }
    extra += "\n" + copy;
    if (s.size() + extra.size() > maxSize)
      break;
  }
  s.insert(end + 1, extra);
  return true;
}

bool mutateText(std::string &s, Rng &rng, size_t maxSize) {
  switch (below(rng, 20)) {
  case 0:
  case 1:
  case 2:
    return mutateOptions(s, rng);
  case 3:
  case 4:
  case 5:
  case 6:
  case 7:
  case 8:
    return replaceFieldValue(s, rng);
  case 9:
  case 10:
  case 11:
    return replaceInteger(s, rng);
  case 12:
  case 13:
    return deleteField(s, rng);
  case 14:
  case 15:
    return addField(s, rng);
  case 16:
  case 17:
    return renameKernel(s, rng);
  case 18:
    return nestBrackets(s, rng, maxSize);
  default:
    return duplicateDescription(s, rng, maxSize);
  }
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,
                                          unsigned seed) {
  Rng rng(seed);
  if (below(rng, 3) == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string s(reinterpret_cast<const char *>(data), size);
  // One to three edits.
  bool changed = false;
  for (size_t n = 1 + below(rng, 3), i = 0; i < n; ++i)
    changed |= mutateText(s, rng, maxSize);
  if (!changed || s.size() > maxSize || s.empty())
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, s.data(), s.size());
  return s.size();
}

/// One field of the second input replaces or joins the first's.
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                            const uint8_t *data2, size_t size2, uint8_t *out,
                                            size_t maxOutSize, unsigned seed) {
  Rng rng(seed);
  std::string a(reinterpret_cast<const char *>(data1), size1);
  std::string b(reinterpret_cast<const char *>(data2), size2);
  std::vector<Field> fa = findFields(a), fb = findFields(b);
  if (fa.empty() || fb.empty())
    return 0;
  const Field &from = fb[below(rng, fb.size())];
  std::string text = b.substr(from.keyBegin, from.valueEnd - from.keyBegin);
  // The same key in `a` if there is one, else any field.
  const Field *to = nullptr;
  for (const Field &f : fa)
    if (f.key == from.key)
      to = &f;
  if (!to)
    to = &fa[below(rng, fa.size())];
  if (to->key == from.key)
    a.replace(to->keyBegin, to->valueEnd - to->keyBegin, text);
  else
    a.insert(to->keyBegin, text + ", ");
  if (a.size() > maxOutSize)
    return 0;
  std::memcpy(out, a.data(), a.size());
  return a.size();
}
