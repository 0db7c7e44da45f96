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

/// What a failure is about: the launch library (include/tilegen/launch.h) turns
/// it into a status code; tilegen-run uses only the exit code.
enum class ErrorKind {
  Unspecified,
  Io,        ///< a file cannot be read
  Manifest,  ///< the manifest is not valid, or disagrees with the kernel
  Cubin,     ///< not a cubin, or the kernel is not in it
  Target,    ///< the cubin cannot run on this GPU
  Problem,   ///< the sizes break the kernel's constraints or limits
  Argument,  ///< a null, misaligned or missing pointer, a bad leading dimension
  NoDriver,  ///< no CUDA driver or GPU
  NoContext, ///< no current CUDA context
  Cuda,      ///< a CUDA driver call failed
  Value,     ///< an argument's value (alpha, beta) the kernel cannot take
};

class [[nodiscard]] Error {
public:
  static Error success() { return Error(); }
  Error(int Code, std::string Message, ErrorKind Kind = ErrorKind::Unspecified)
      : Code(Code), Kind(Kind), Message(std::move(Message)) {}

  bool failed() const { return Code != ExitPass; }
  explicit operator bool() const { return failed(); }
  int code() const { return Code; }
  const std::string &message() const { return Message; }
  ErrorKind kind() const { return Kind; }
  /// This error with kind K, unless it already has one.
  Error withKind(ErrorKind K) && {
    if (Kind == ErrorKind::Unspecified)
      Kind = K;
    return std::move(*this);
  }

private:
  Error() = default;
  int Code = ExitPass;
  ErrorKind Kind = ErrorKind::Unspecified;
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
