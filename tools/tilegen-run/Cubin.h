//===- Cubin.h - What a file given as the cubin is --------------*- C++ -*-===//
//
// The driver is handed only a well-formed cubin: a 64-bit little-endian ELF
// file for EM_CUDA whose section and program header tables, and every section
// and segment they describe, lie inside the file. Anything else (PTX text, a
// fat binary, a host ELF file, a truncated cubin) is named for what it is,
// before cuModuleLoadData could misread it. Needs no GPU and no driver.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_CUBIN_H
#define TILEGEN_RUN_CUBIN_H

#include "Error.h"

#include <cstdint>
#include <string>

namespace tilegen {
namespace run {

/// The largest cubin tilegen-run reads.
constexpr uint64_t MaxCubinBytes = uint64_t(1) << 30;

/// ELF e_machine of CUDA cubins.
constexpr unsigned EmCuda = 190;

/// Checks that Image (the bytes of the file Path) is a cubin as above; a usage
/// error saying what it is otherwise. Target (the manifest's, e.g. "sm_90a";
/// may be empty) goes into the advice for PTX.
Error checkCubinImage(const std::string &Image, const std::string &Path,
                      const std::string &Target);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_CUBIN_H
