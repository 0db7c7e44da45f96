//===- InputFiles.h - Reading an input file whole, within a bound ---*- C++ -*-===//
//
// The tools read their inputs (PTX, manifests, shape lists, measurements) whole: only a regular
// file, and only up to a size, so that a FIFO does not block, a device such as /dev/zero does
// not read without end, and a huge file is an error rather than an exhausted memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_SUPPORT_INPUTFILES_H
#define TILEGEN_SUPPORT_INPUTFILES_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorOr.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <system_error>

namespace tilegen {

/// The file at `path`, read whole when it is a regular file of at most `limit` bytes; else an
/// error, with `why` saying why ("not a regular file", "larger than N MiB", the system's
/// reason).
inline llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(const llvm::Twine &path, uint64_t limit, std::string &why) {
  llvm::sys::fs::file_status st;
  if (std::error_code ec = llvm::sys::fs::status(path, st)) {
    why = ec.message();
    return ec;
  }
  if (st.type() != llvm::sys::fs::file_type::regular_file) {
    why = "not a regular file";
    return std::make_error_code(std::errc::invalid_argument);
  }
  if (st.getSize() > limit) {
    why = llvm::formatv("{0} bytes, larger than the {1} MiB read", st.getSize(), limit >> 20)
              .str();
    return std::make_error_code(std::errc::file_too_large);
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    why = buffer.getError().message();
  return buffer;
}

} // namespace tilegen

#endif // TILEGEN_SUPPORT_INPUTFILES_H
