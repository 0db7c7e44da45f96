//===- InputFiles.h - Reading an input file whole, within a bound ---*- C++ -*-===//
//
// The tools read their inputs (PTX, manifests, shape lists, measurements) whole: only a regular
// file, and only up to a size, so that a FIFO does not block, a device such as /dev/zero does
// not read without end, and a huge file is an error rather than an exhausted memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_SUPPORT_INPUTFILES_H
#define TILEGEN_SUPPORT_INPUTFILES_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ErrorOr.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <string>
#include <system_error>
#include <unistd.h>

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

/// The largest description or plan the tools read (a description is a few lines; a plan of many
/// kernels some kilobytes).
constexpr uint64_t kMaxDescriptionBytes = 64u << 20;

/// A description to compile, named as MLIR's openInputFile names it: "-" is standard input, else
/// a path. Like readInputFile, but a pipe (standard input, a FIFO, a process substitution) is
/// read too, up to `limit` bytes; a device such as /dev/zero and a directory are refused. The
/// buffer is named after the path, for diagnostics.
inline std::unique_ptr<llvm::MemoryBuffer> readDescription(llvm::StringRef path, uint64_t limit,
                                                           std::string &why) {
  llvm::sys::fs::file_t fd;
  bool isStdin = path == "-";
  if (isStdin) {
    fd = llvm::sys::fs::getStdinHandle();
  } else {
    llvm::sys::fs::file_status st;
    if (std::error_code ec = llvm::sys::fs::status(path, st)) {
      why = "cannot open input file '" + path.str() + "': " + ec.message();
      return nullptr;
    }
    if (st.type() == llvm::sys::fs::file_type::regular_file) {
      auto buffer = readInputFile(path, limit, why);
      if (!buffer) {
        why = "cannot open input file '" + path.str() + "': " + why;
        return nullptr;
      }
      return std::move(*buffer);
    }
    if (st.type() != llvm::sys::fs::file_type::fifo_file) {
      why = "cannot open input file '" + path.str() +
            "': not a regular file or a pipe (a description is a text file)";
      return nullptr;
    }
    // A FIFO is read as `cat` reads it: the open waits for a writer, the reads until it
    // closes.
    auto opened = llvm::sys::fs::openNativeFileForRead(path);
    if (!opened) {
      why = "cannot open input file '" + path.str() + "': " + llvm::toString(opened.takeError());
      return nullptr;
    }
    fd = *opened;
  }
  std::string name = isStdin ? "<stdin>" : path.str();
  llvm::SmallString<4096> text;
  char chunk[65536];
  while (true) {
    auto got = llvm::sys::fs::readNativeFile(fd, chunk);
    if (!got) {
      why = "cannot read '" + name + "': " + llvm::toString(got.takeError());
      break;
    }
    if (*got == 0) {
      if (!isStdin)
        llvm::sys::fs::closeFile(fd);
      return llvm::MemoryBuffer::getMemBufferCopy(text, name);
    }
    if (text.size() + *got > limit) {
      why = llvm::formatv("cannot read '{0}': more than the {1} MiB a description may have",
                          name, limit >> 20)
                .str();
      break;
    }
    text.append(chunk, chunk + *got);
  }
  if (!isStdin)
    llvm::sys::fs::closeFile(fd);
  return nullptr;
}

/// True when `output` is a FIFO that no process has open for reading: writing it would wait
/// forever.
inline bool isFifoWithoutReader(const llvm::Twine &output) {
  llvm::sys::fs::file_status st;
  if (llvm::sys::fs::status(output, st) || st.type() != llvm::sys::fs::file_type::fifo_file)
    return false;
  std::string path = output.str();
  int fd;
  do
    fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return errno == ENXIO;
  ::close(fd);
  return false;
}

/// True when `output` names an existing file that is `input` (through any path or link): writing
/// `output` would overwrite the input.
inline bool isSameFile(const llvm::Twine &output, const llvm::Twine &input) {
  bool same = false;
  return !llvm::sys::fs::equivalent(output, input, same) && same;
}

} // namespace tilegen

#endif // TILEGEN_SUPPORT_INPUTFILES_H
