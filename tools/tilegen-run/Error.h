//===- Error.h - tilegen-run error values and exit codes --------*- C++ -*-===//
//
// A small error value carrying a process exit code and a message. tilegen-run is
// built without LLVM (so that it builds on the GPU machine), so this stands in
// for llvm::Error: functions return an Error, callers propagate it with
// TG_TRY, and main() prints the message and exits with the code.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_ERROR_H
#define TILEGEN_RUN_ERROR_H

#include <string>
#include <utility>

namespace tilegen {
namespace run {

/// Process exit codes, the contract with scripts (documented in --help).
enum ExitCode : int {
  ExitPass = 0,        ///< ran; checked results (if asked) are within tolerance
  ExitCheckFailed = 1, ///< --check found wrong results
  ExitUsage = 2,       ///< bad command line, manifest or problem size
  ExitCuda = 3,        ///< CUDA driver / GPU / cuBLAS error, or the kernel faulted
  ExitHang = 4,        ///< the kernel did not finish within --timeout
};

class [[nodiscard]] Error {
public:
  static Error success() { return Error(); }
  Error(int Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}

  bool failed() const { return Code != ExitPass; }
  explicit operator bool() const { return failed(); }
  int code() const { return Code; }
  const std::string &message() const { return Message; }

private:
  Error() = default;
  int Code = ExitPass;
  std::string Message;
};

inline Error usageError(std::string Message) {
  return Error(ExitUsage, std::move(Message));
}
inline Error cudaError(std::string Message) {
  return Error(ExitCuda, std::move(Message));
}

} // namespace run
} // namespace tilegen

/// Propagates a failed Error to the caller.
#define TG_TRY(Expr)                                                           \
  do {                                                                         \
    ::tilegen::run::Error TgTryErr_ = (Expr);                                  \
    if (TgTryErr_.failed())                                                    \
      return TgTryErr_;                                                        \
  } while (false)

#endif // TILEGEN_RUN_ERROR_H
