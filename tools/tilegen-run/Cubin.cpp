//===- Cubin.cpp - What a file given as the cubin is ----------------------===//
//
// ELF64 layout (System V gABI): the 64-byte file header holds e_phoff (byte
// 32), e_shoff (40), e_ehsize (52), e_phentsize (54), e_phnum (56),
// e_shentsize (58), e_shnum (60), e_shstrndx (62); a section header is 64
// bytes (sh_name 0, sh_type 4, sh_offset 24, sh_size 32), a program header 56
// (p_offset 8, p_filesz 32). All little-endian in a cubin.
//
//===----------------------------------------------------------------------===//

#include "Cubin.h"

#include <cstdio>
#include <cstring>

using namespace tilegen::run;

namespace {

uint64_t readLE(const std::string &Image, uint64_t Offset, unsigned Bytes) {
  uint64_t V = 0;
  for (unsigned I = 0; I < Bytes; ++I)
    V |= uint64_t(static_cast<unsigned char>(Image[Offset + I])) << (8 * I);
  return V;
}

std::string hexBytes(const std::string &Image, size_t Count) {
  std::string S;
  for (size_t I = 0; I < Count && I < Image.size(); ++I) {
    char Buf[4];
    std::snprintf(Buf, sizeof(Buf), "%02x", static_cast<unsigned char>(Image[I]));
    S += (I ? " " : "") + std::string(Buf);
  }
  return S;
}

/// Whether the first bytes look like text: printable ASCII, whitespace, UTF-8.
bool looksLikeText(const std::string &Image) {
  size_t N = Image.size() < 4096 ? Image.size() : 4096;
  for (size_t I = 0; I < N; ++I) {
    unsigned char C = static_cast<unsigned char>(Image[I]);
    if (C < 0x20 && C != '\n' && C != '\r' && C != '\t' && C != '\f')
      return false;
    if (C == 0x7F)
      return false;
  }
  return true;
}

bool looksLikePtx(const std::string &Image) {
  std::string Head = Image.substr(0, 65536);
  return Head.find(".version") != std::string::npos &&
         Head.find(".target") != std::string::npos;
}

const char *machineName(unsigned M) {
  switch (M) {
  case 3:
    return "x86 (32-bit)";
  case 20:
    return "PowerPC";
  case 21:
    return "PowerPC 64";
  case 40:
    return "ARM (32-bit)";
  case 62:
    return "x86-64";
  case 183:
    return "AArch64";
  case 224:
    return "AMD GPU";
  case 243:
    return "RISC-V";
  case 247:
    return "BPF";
  default:
    return nullptr;
  }
}

} // namespace

Error tilegen::run::checkCubinImage(const std::string &Image, const std::string &Path,
                                    const std::string &Target) {
  const std::string What = "cubin " + Path;
  const uint64_t Size = Image.size();
  auto Bad = [&](const std::string &Why) { return usageError(What + " " + Why); };
  if (Size == 0)
    return Bad("is empty (0 bytes): not a cubin");

  const bool Elf = Size >= 4 && Image.compare(0, 4, "\x7f" "ELF") == 0;
  if (!Elf) {
    // A fat binary (fatbinary.h): magic 0xBA55ED50, little-endian.
    if (Size >= 4 && readLE(Image, 0, 4) == 0xBA55ED50u)
      return Bad("is a CUDA fat binary, not a cubin: tilegen-run loads one cubin "
                 "(cuobjdump -xelf all extracts the cubins of a fat binary)");
    if (looksLikeText(Image) && looksLikePtx(Image)) {
      std::string Arch = Target.empty() ? "sm_XX" : Target;
      return Bad("is PTX text, not a cubin: assemble it with ptxas (ptxas -arch=" + Arch +
                 " " + Path + " -o KERNEL.cubin), or have tilegen write the cubin "
                 "(--emit=cubin, the default)");
    }
    if (looksLikeText(Image))
      return Bad("is a text file, not a cubin (a cubin is an ELF file for CUDA, "
                 "written by tilegen --emit=cubin or ptxas)");
    return Bad("is not an ELF file (it starts with bytes " + hexBytes(Image, 8) +
               "), so not a cubin");
  }
  if (Size < 64)
    return Bad("is truncated: " + std::to_string(Size) +
               " bytes, less than the 64-byte ELF header");
  const unsigned Class = static_cast<unsigned char>(Image[4]);
  const unsigned Data = static_cast<unsigned char>(Image[5]);
  if (Class != 2)
    return Bad(std::string("is a ") + (Class == 1 ? "32-bit" : "malformed") +
               " ELF file (EI_CLASS " + std::to_string(Class) +
               "); cubins are 64-bit (ELFCLASS64)");
  if (Data != 1)
    return Bad(std::string("is a ") + (Data == 2 ? "big-endian" : "malformed") +
               " ELF file (EI_DATA " + std::to_string(Data) +
               "); cubins are little-endian (ELFDATA2LSB)");
  const unsigned Machine = static_cast<unsigned>(readLE(Image, 18, 2));
  if (Machine != EmCuda) {
    const char *Name = machineName(Machine);
    return Bad("is an ELF file for " +
               (Name ? std::string(Name) + " (e_machine " + std::to_string(Machine) + ")"
                     : "e_machine " + std::to_string(Machine)) +
               ", not a cubin (e_machine " + std::to_string(EmCuda) + ", EM_CUDA)");
  }

  const uint64_t PhOff = readLE(Image, 32, 8), ShOff = readLE(Image, 40, 8);
  const unsigned PhEntSize = static_cast<unsigned>(readLE(Image, 54, 2));
  const unsigned PhNum = static_cast<unsigned>(readLE(Image, 56, 2));
  const unsigned ShEntSize = static_cast<unsigned>(readLE(Image, 58, 2));
  uint64_t ShNum = readLE(Image, 60, 2);
  uint64_t ShStrNdx = readLE(Image, 62, 2);
  auto Corrupt = [&](const std::string &Why) {
    return Bad("is truncated or corrupt: " + Why + " (the file has " + std::to_string(Size) +
               " bytes)");
  };
  // Where [Offset, Offset + Count * EntSize) ends, or false if it overflows.
  auto End = [](uint64_t Offset, uint64_t Count, uint64_t EntSize, uint64_t &Out) {
    uint64_t Bytes;
    return !__builtin_mul_overflow(Count, EntSize, &Bytes) &&
           !__builtin_add_overflow(Offset, Bytes, &Out);
  };

  if (ShOff == 0)
    return Bad("is an ELF file for CUDA without a section header table: not a "
               "loadable cubin");
  if (ShEntSize != 64)
    return Corrupt("section headers of " + std::to_string(ShEntSize) +
                   " bytes (e_shentsize), expected 64");
  uint64_t E;
  auto TableOutside = [&](uint64_t Count) {
    return Corrupt("its section header table (" + std::to_string(Count) +
                   " entries of 64 bytes at offset " + std::to_string(ShOff) +
                   ") ends past the end of the file");
  };
  // More than 0xff00 sections: e_shnum is 0 and section 0's sh_size holds the
  // count (likewise e_shstrndx 0xffff and sh_link).
  if (ShNum == 0 || ShStrNdx == 0xffff) {
    if (!End(ShOff, 1, 64, E) || E > Size)
      return TableOutside(ShNum ? ShNum : 1);
    if (ShNum == 0)
      ShNum = readLE(Image, ShOff + 32, 8);
    if (ShStrNdx == 0xffff)
      ShStrNdx = readLE(Image, ShOff + 40, 4);
  }
  if (ShNum == 0)
    return Bad("is an ELF file for CUDA without sections: not a loadable cubin");
  if (!End(ShOff, ShNum, 64, E) || E > Size)
    return TableOutside(ShNum);
  if (ShStrNdx >= ShNum)
    return Corrupt("the section name table is section " + std::to_string(ShStrNdx) +
                   " (e_shstrndx), but there are " + std::to_string(ShNum) + " sections");

  // The section names, when their table is intact (for messages only).
  const uint64_t StrHdr = ShOff + ShStrNdx * 64;
  const uint64_t StrOff = readLE(Image, StrHdr + 24, 8), StrSize = readLE(Image, StrHdr + 32, 8);
  uint64_t StrEnd;
  const bool NamesOk = ShStrNdx != 0 && End(StrOff, StrSize, 1, StrEnd) && StrEnd <= Size;
  auto SectionName = [&](uint64_t NameOff) -> std::string {
    if (!NamesOk || NameOff >= StrSize)
      return "";
    const char *Begin = Image.data() + StrOff + NameOff;
    size_t Len = strnlen(Begin, StrSize - NameOff);
    if (Len > 64)
      Len = 64;
    return std::string(Begin, Len);
  };

  constexpr unsigned ShtNull = 0, ShtNobits = 8;
  for (uint64_t I = 1; I < ShNum; ++I) {
    const uint64_t H = ShOff + I * 64;
    const unsigned Type = static_cast<unsigned>(readLE(Image, H + 4, 4));
    if (Type == ShtNull || Type == ShtNobits)
      continue;
    const uint64_t Off = readLE(Image, H + 24, 8), Bytes = readLE(Image, H + 32, 8);
    if (!End(Off, Bytes, 1, E) || E > Size) {
      std::string Name = SectionName(readLE(Image, H, 4));
      return Corrupt("section " + std::to_string(I) + (Name.empty() ? "" : " (" + Name + ")") +
                     " at offset " + std::to_string(Off) + " with " + std::to_string(Bytes) +
                     " bytes ends past the end of the file");
    }
  }

  if (PhNum > 0) {
    if (PhEntSize != 56)
      return Corrupt("program headers of " + std::to_string(PhEntSize) +
                     " bytes (e_phentsize), expected 56");
    if (!End(PhOff, PhNum, 56, E) || E > Size)
      return Corrupt("its program header table (" + std::to_string(PhNum) +
                     " entries of 56 bytes at offset " + std::to_string(PhOff) +
                     ") ends past the end of the file");
    for (unsigned I = 0; I < PhNum; ++I) {
      const uint64_t H = PhOff + uint64_t(I) * 56;
      const uint64_t Off = readLE(Image, H + 8, 8), Bytes = readLE(Image, H + 32, 8);
      if (!End(Off, Bytes, 1, E) || E > Size)
        return Corrupt("segment " + std::to_string(I) + " at offset " + std::to_string(Off) +
                       " with " + std::to_string(Bytes) +
                       " bytes ends past the end of the file");
    }
  }
  return Error::success();
}
