//===- JsonDepth.h - llvm::json::parse within a nesting bound -----*- C++ -*-===//
//
// llvm::json::parse recurses once per nested array or object, so a file of many thousand '['
// overflows the stack. The tools that read JSON with it (tune's measurements and kernel
// manifests, tilegen-verify's manifest) check the nesting first; tilegen-run's own reader has the
// same bound.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_SUPPORT_JSONDEPTH_H
#define TILEGEN_SUPPORT_JSONDEPTH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cstddef>

namespace tilegen {

/// Arrays and objects nest at most this deep in the JSON the tools read.
constexpr unsigned kMaxJsonDepth = 64;

/// `text` parsed by llvm::json::parse, or an error when its arrays and objects nest deeper than
/// `maxDepth` (brackets inside strings do not count).
inline llvm::Expected<llvm::json::Value> parseJsonBounded(llvm::StringRef text,
                                                          unsigned maxDepth = kMaxJsonDepth) {
  unsigned depth = 0;
  bool inString = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return llvm::createStringError(
            llvm::formatv("arrays and objects nest more than {0} deep (byte {1})", maxDepth, i)
                .str());
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return llvm::json::parse(text);
}

} // namespace tilegen

#endif // TILEGEN_SUPPORT_JSONDEPTH_H
