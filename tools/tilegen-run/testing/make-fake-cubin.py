#!/usr/bin/env python3
"""Wraps a fake-cubin text (FakeCuda.cpp) in the smallest ELF file tilegen-run takes as a cubin.

tilegen-run hands the driver only 64-bit little-endian ELF files for EM_CUDA whose tables and
sections lie inside the file (Cubin.cpp), so the fake driver's "cubins" are such files: the
64-byte ELF header, the text (NUL-terminated) at byte 64 as section .tilegen.fake, the section
name table, and three section headers (null, .shstrtab, .tilegen.fake).

  make-fake-cubin.py TEXT OUT.cubin     (TEXT "-" reads stdin)
  make-fake-cubin.py --machine 62 ...   (another e_machine, for negative tests)
"""

import argparse
import struct
import sys

EM_CUDA = 190


def fake_cubin(text: bytes, machine: int = EM_CUDA) -> bytes:
    payload = text + b"\0"
    shstrtab = b"\0.shstrtab\0.tilegen.fake\0"
    payload_off = 64
    shstrtab_off = payload_off + len(payload)
    shoff = (shstrtab_off + len(shstrtab) + 7) // 8 * 8
    ident = b"\x7fELF" + bytes([2, 1, 1, 0x41, 8]) + b"\0" * 7  # ELF64, LSB, CUDA ABI
    header = ident + struct.pack(
        "<HHIQQQIHHHHHH",
        2,  # e_type: ET_EXEC
        machine,
        1,  # e_version
        0,  # e_entry
        0,  # e_phoff: no program headers
        shoff,
        0,  # e_flags
        64,  # e_ehsize
        56,  # e_phentsize
        0,  # e_phnum
        64,  # e_shentsize
        3,  # e_shnum
        1,  # e_shstrndx
    )
    assert len(header) == 64

    def section(name, kind, offset, size):
        return struct.pack("<IIQQQQIIQQ", name, kind, 0, 0, offset, size, 0, 0, 1, 0)

    sections = (
        section(0, 0, 0, 0)
        + section(1, 3, shstrtab_off, len(shstrtab))  # SHT_STRTAB
        + section(11, 1, payload_off, len(payload))  # SHT_PROGBITS
    )
    body = header + payload + shstrtab
    return body + b"\0" * (shoff - len(body)) + sections


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("text", help="the fake-cubin text, or - for stdin")
    parser.add_argument("out", help="the .cubin to write")
    parser.add_argument("--machine", type=int, default=EM_CUDA, help="ELF e_machine")
    args = parser.parse_args()
    text = sys.stdin.buffer.read() if args.text == "-" else open(args.text, "rb").read()
    if text.startswith(b"\x7fELF"):
        text = text[64:].split(b"\0", 1)[0]  # re-wrap an existing fake cubin
    with open(args.out, "wb") as f:
        f.write(fake_cubin(text, args.machine))
    return 0


if __name__ == "__main__":
    sys.exit(main())
