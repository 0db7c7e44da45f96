//===- tilegen/launch.hpp - C++ wrapper of libtilegen-launch ----*- C++ -*-===//
//
// Header-only, over the C API of tilegen/launch.h: a Kernel owns its handle
// (moved, never copied), and every call returns a Status or a Result<T>
// instead of throwing. C++17.
//
//   auto K = tilegen::Kernel::load("gemm_bf16.cubin");
//   if (!K) { std::cerr << K.status().message() << "\n"; return 1; }
//   tilegen_gemm_args Args = K->defaultArgs();
//   ...
//   if (tilegen::Status S = K->launch(Args, Stream); !S)
//     std::cerr << S.message() << "\n";
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_LAUNCH_HPP
#define TILEGEN_LAUNCH_HPP

#include "tilegen/launch.h"

#include <optional>
#include <string>
#include <utility>

namespace tilegen {

/// A status code and, on failure, its message.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(tilegen_status Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}

  bool ok() const { return Code == TILEGEN_OK; }
  explicit operator bool() const { return ok(); }
  tilegen_status code() const { return Code; }
  /// "TILEGEN_ERROR_PROBLEM".
  const char *name() const { return tilegen_status_name(Code); }
  const std::string &message() const { return Message; }

private:
  tilegen_status Code = TILEGEN_OK;
  std::string Message;
};

/// A value or the Status that says why there is none.
template <typename T> class [[nodiscard]] Result {
public:
  Result(T Value) : Value(std::move(Value)) {}
  Result(Status Failure) : Failure(std::move(Failure)) {}

  bool ok() const { return Value.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status &status() const { return Failure; }
  T &value() { return *Value; }
  const T &value() const { return *Value; }
  T *operator->() { return &*Value; }
  const T *operator->() const { return &*Value; }
  T &operator*() { return *Value; }
  const T &operator*() const { return *Value; }

private:
  std::optional<T> Value;
  Status Failure;
};

/// A kernel loaded into the CUDA context current at load time.
class Kernel {
public:
  /// From the .cubin (manifest beside it) or the .json.
  static Result<Kernel> load(const std::string &Path) {
    tilegen_kernel *K = nullptr;
    tilegen_status S = tilegen_kernel_load(Path.c_str(), &K);
    if (S != TILEGEN_OK)
      return Status(S, tilegen_last_error());
    return Kernel(K);
  }
  /// From the manifest's text and the cubin's bytes (both copied).
  static Result<Kernel> loadData(const std::string &ManifestText, const void *Cubin,
                                 size_t CubinSize) {
    tilegen_kernel *K = nullptr;
    tilegen_status S = tilegen_kernel_load_data(ManifestText.data(), ManifestText.size(),
                                                Cubin, CubinSize, &K);
    if (S != TILEGEN_OK)
      return Status(S, tilegen_last_error());
    return Kernel(K);
  }

  Kernel(Kernel &&Other) noexcept : Handle(std::exchange(Other.Handle, nullptr)) {}
  Kernel &operator=(Kernel &&Other) noexcept {
    if (this != &Other) {
      tilegen_kernel_destroy(Handle);
      Handle = std::exchange(Other.Handle, nullptr);
    }
    return *this;
  }
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;
  ~Kernel() { tilegen_kernel_destroy(Handle); }

  tilegen_kernel *handle() const { return Handle; }

  /// What the manifest says (a moved-from Kernel has no handle: an error).
  Result<tilegen_kernel_info> info() const {
    tilegen_kernel_info I{};
    tilegen_status S = tilegen_kernel_get_info(Handle, &I);
    if (S != TILEGEN_OK)
      return Status(S, tilegen_last_error());
    return I;
  }
  /// Zeroed arguments with the manifest's alpha and beta.
  Result<tilegen_gemm_args> defaultArgs() const {
    tilegen_gemm_args A{};
    tilegen_status S = tilegen_gemm_args_init(Handle, &A);
    if (S != TILEGEN_OK)
      return Status(S, tilegen_last_error());
    return A;
  }
  Result<tilegen_launch_config> launchConfig(const tilegen_problem &P) const {
    tilegen_launch_config C{};
    tilegen_status S = tilegen_kernel_launch_config(Handle, &P, &C);
    if (S != TILEGEN_OK)
      return Status(S, tilegen_last_error());
    return C;
  }
  Status check(const tilegen_gemm_args &Args) const {
    return wrap(tilegen_kernel_check(Handle, &Args));
  }
  /// Launches on Stream (a CUstream; nullptr is the legacy default stream).
  Status launch(const tilegen_gemm_args &Args, struct CUstream_st *Stream = nullptr) const {
    return wrap(tilegen_kernel_launch(Handle, &Args, Stream));
  }

private:
  explicit Kernel(tilegen_kernel *Handle) : Handle(Handle) {}
  Status wrap(tilegen_status S) const {
    return S == TILEGEN_OK ? Status() : Status(S, tilegen_last_error());
  }
  tilegen_kernel *Handle = nullptr;
};

} // namespace tilegen

#endif // TILEGEN_LAUNCH_HPP
