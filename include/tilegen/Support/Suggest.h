//===- Suggest.h - "did you mean" for diagnostics ---------------*- C++ -*-===//

#ifndef TILEGEN_SUPPORT_SUGGEST_H
#define TILEGEN_SUPPORT_SUGGEST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilegen {

/// "; did you mean 'X'?" for the candidate closest to `word` (ignoring case, at most a third of
/// the word's letters and never more than 3 edits away), or "" if none is that close.
inline std::string didYouMean(llvm::StringRef word, llvm::ArrayRef<llvm::StringRef> candidates) {
  std::string lower = word.lower();
  unsigned limit = std::min<unsigned>(3, std::max<size_t>(1, word.size() / 3));
  llvm::StringRef best;
  unsigned bestDistance = limit + 1;
  for (llvm::StringRef c : candidates) {
    unsigned d = llvm::StringRef(lower).edit_distance(c.lower(), true, limit);
    if (d < bestDistance)
      best = c, bestDistance = d;
  }
  if (best.empty() || best == word)
    return "";
  return "; did you mean '" + best.str() + "'?";
}

} // namespace tilegen

#endif // TILEGEN_SUPPORT_SUGGEST_H
