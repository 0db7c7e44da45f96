//===- FileIO.h - Reading inputs and writing results safely -----*- C++ -*-===//
//
// Inputs (manifest, cubin, sweep files) are read with a size limit, and a
// directory, FIFO or device where a file is expected is refused with a message
// instead of hanging or reading without end. Results are written to a
// temporary file beside the destination and renamed into place, so the
// destination is either absent (or its old version) or complete, even if the
// runner is killed while writing.
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
/// "sweep file"). Refuses directories, files over MaxBytes and, with
/// RegularOnly, anything but a regular file (FIFOs, devices, sockets). On a
/// failure to open, *OpenErrno (when given) is the errno (ENOENT, ...);
/// otherwise it is 0. Errors are usage errors.
Error readInputFile(const std::string &Path, const std::string &What,
                    uint64_t MaxBytes, bool RegularOnly, std::string &Out,
                    int *OpenErrno = nullptr);

/// Checks early, before any work, that results can be written to Path: not
/// empty, and its directory exists and is a directory. Option names the
/// command-line option in messages ("--json").
Error checkOutputPath(const std::string &Path, const std::string &Option);

/// Writes Content to Path atomically: to a new temporary file in Path's
/// directory, flushed to disk, then renamed over Path. On any failure the
/// temporary file is removed and Path is left as it was. What names the file
/// in messages ("--json file").
Error writeFileAtomically(const std::string &Path, const std::string &What,
                          const std::string &Content);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_FILEIO_H
