//===- OutputErrors.h - Failed writes as ordinary errors ---------*- C++ -*-===//
//
// A write that fails (a full disk, a closed pipe, /dev/full) is reported like any other error:
// the tool's name, what could not be written and why, and a non-zero exit status. Left alone,
// LLVM's raw_fd_ostream aborts in its destructor with "LLVM ERROR: IO failure on output
// stream".
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_SUPPORT_OUTPUTERRORS_H
#define TILEGEN_SUPPORT_OUTPUTERRORS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

namespace tilegen {

/// Flushes `os`; if any write to it failed, reports "cannot write WHAT: REASON" for `tool`,
/// clears the stream's error (so that its destructor does not abort) and returns true.
inline bool streamFailed(llvm::raw_fd_ostream &os, llvm::StringRef tool, llvm::StringRef what) {
  os.flush();
  if (!os.has_error())
    return false;
  std::error_code ec = os.error();
  os.clear_error();
  llvm::WithColor::error(llvm::errs(), tool) << "cannot write " << what << ": " << ec.message()
                                             << "\n";
  return true;
}

/// Keeps a written output file, or reports the failed write and lets the partial file be
/// removed; returns false on failure.
inline bool keepOutput(llvm::ToolOutputFile &out, llvm::StringRef tool) {
  std::string what = out.getFilename() == "-" ? std::string("standard output")
                                               : "'" + out.getFilename().str() + "'";
  if (streamFailed(out.os(), tool, what))
    return false;
  out.keep();
  return true;
}

namespace detail {
inline const char *&stdoutTool() {
  static const char *name = "tilegen";
  return name;
}
inline int &stdoutFailureStatus() {
  static int status = 1;
  return status;
}
} // namespace detail

/// Makes a failed write to llvm::outs() an error at exit: call first thing in main. The check
/// runs before outs() is destroyed (it is registered after outs() exists), on every way out
/// (return from main, exit() from --help or --version); on a failure it prints the error and
/// ends the process with `status`.
inline void checkStdoutAtExit(const char *tool, int status = 1) {
  detail::stdoutTool() = tool;
  detail::stdoutFailureStatus() = status;
  (void)llvm::outs();
  std::atexit([] {
    if (streamFailed(llvm::outs(), detail::stdoutTool(), "standard output"))
      std::_Exit(detail::stdoutFailureStatus());
  });
}

} // namespace tilegen

#endif // TILEGEN_SUPPORT_OUTPUTERRORS_H
