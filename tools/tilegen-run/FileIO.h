//===- FileIO.h - Reading inputs and writing results safely -----*- C++ -*-===//
//
// Inputs (manifest, cubin, sweep files) are read with a size limit, and a
// directory, device or socket where a file is expected is refused with a
// message instead of hanging or reading without end. Results go to a regular
// file through a temporary file beside it, renamed into place, so the file is
// either absent (or its old version) or complete, even if the runner is killed
// while writing; a symbolic link is followed (its target is replaced, the link
// kept), and a FIFO or character device is written directly.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_FILEIO_H
#define TILEGEN_RUN_FILEIO_H

#include "Error.h"

#include <cstdint>
#include <string>

namespace tilegen {
namespace run {

/// "4.0 MiB", "512 bytes".
std::string byteSizeText(uint64_t Bytes);

/// Reads Path into Out. What names the file in messages ("manifest", "cubin",
/// "sweep file"). Refuses directories, devices, sockets, files over MaxBytes
/// and, with RegularOnly, pipes and FIFOs too. A pipe or FIFO (without
/// RegularOnly) is read to its end without waiting for a writer to open it: a
/// FIFO no process writes reads as empty. On a failure to open, *OpenErrno
/// (when given) is the errno (ENOENT, ...); otherwise it is 0. Errors are usage
/// errors.
Error readInputFile(const std::string &Path, const std::string &What,
                    uint64_t MaxBytes, bool RegularOnly, std::string &Out,
                    int *OpenErrno = nullptr);

/// Checks early, before any work, that results can be written to Path: a
/// name that is not empty and not a directory; a regular file (or none) where
/// a temporary file can be created beside it (tried: a read-only file system,
/// a directory without write permission or /proc fail here); or a FIFO or
/// character device open for writing. A symbolic link is checked at its
/// target; a dangling one, a socket or a block device is refused. Option
/// names the command-line option in messages ("--json").
Error checkOutputPath(const std::string &Path, const std::string &Option);

/// Refuses an output Path (of Option) that is the same file (device and inode)
/// as the input Input (What names it: "cubin", "manifest", ...), so a result
/// never overwrites what the run reads. Nothing is refused when either file
/// does not exist.
Error checkNotSameFile(const std::string &Path, const std::string &Option,
                       const std::string &Input, const std::string &What);

/// Writes Content to Path, as checkOutputPath describes: a regular file (or
/// none) atomically, to a new temporary file in the directory of Path (of the
/// target of a symbolic link), flushed to disk, then renamed over it, and on
/// any failure the temporary file is removed and the file is left as it was;
/// a FIFO or character device by writing to it. What names the file in
/// messages ("--json file").
Error writeOutputFile(const std::string &Path, const std::string &What,
                      const std::string &Content);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_FILEIO_H
