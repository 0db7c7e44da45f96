#!/usr/bin/env python3
"""Which SASS instructions wait for a global load, and how soon after it.

Reads `nvdisasm -c -hex` output (sm_70 and later: each instruction is two 64-bit words, the
second holding the scheduling controls) and lists every instruction whose wait mask names a
scoreboard that a global load (LDG) set last, in program order, with the number of
instructions between the two. A register copy (MOV, IMAD.MOV) that waits for a load issued a
few instructions before it is a software pipeline that does not pipeline: the copy holds the
warp until the load has returned.

Control bits of the second word (bits 41.. of it, i.e. 105.. of the instruction): stall cycles
[0, 4), yield [4], write scoreboard [5, 8), read scoreboard [8, 11), wait mask [11, 17), operand
reuse [17, 21); scoreboard 7 means none.

The scan is linear: it follows the listing, not the branches, so a wait at a loop head is
matched with the last load above it in the listing, not with the one the back edge brings.

Usage: sass-waits.py LISTING [--copies] [--within N] [--from ADDR] [--to ADDR] [--count]
"""
import argparse
import re
import sys

INST = re.compile(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* 0x([0-9a-f]{16}) \*/')
WORD = re.compile(r'\s*/\* 0x([0-9a-f]{16}) \*/')
COPY = re.compile(r'^(@!?U?P\w+\s+)?(MOV|IMAD\.MOV(\.U32)?)\b')


def parse(lines):
    insts = []
    for i, line in enumerate(lines):
        m = INST.match(line)
        if not m:
            continue
        second = WORD.match(lines[i + 1]) if i + 1 < len(lines) else None
        if not second:
            sys.exit(f'sass-waits: line {i + 1}: an instruction without its second word '
                     '(is this `nvdisasm -c -hex` output?)')
        insts.append((int(m.group(1), 16), m.group(2), int(second.group(1), 16)))
    return insts


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('listing')
    p.add_argument('--copies', action='store_true',
                   help='only register copies (MOV, IMAD.MOV) that wait for a load')
    p.add_argument('--within', type=int, default=0,
                   help='only waits for a load issued fewer than N instructions before')
    p.add_argument('--from', dest='lo', type=lambda s: int(s, 16), default=0,
                   help='first address (hex)')
    p.add_argument('--to', dest='hi', type=lambda s: int(s, 16), default=1 << 48,
                   help='one past the last address (hex)')
    p.add_argument('--count', action='store_true', help='print only the number of waits')
    args = p.parse_args()
    with open(args.listing) as f:
        insts = parse(f.read().splitlines())
    if not insts:
        sys.exit('sass-waits: no instructions found (expected `nvdisasm -c -hex` output)')
    last = {}  # scoreboard -> index of its last writer
    found = 0
    for idx, (addr, text, word) in enumerate(insts):
        ctrl = word >> 41
        write, wait = (ctrl >> 5) & 7, (ctrl >> 11) & 63
        if args.lo <= addr < args.hi and (not args.copies or COPY.match(text)):
            for sb in range(6):
                if not (wait >> sb) & 1 or sb not in last:
                    continue
                w = last[sb]
                if not re.search(r'\bLDG\b|\bLDG\.', insts[w][1]):
                    continue
                if args.within and idx - w >= args.within:
                    continue
                found += 1
                if not args.count:
                    print(f'{addr:05x}  {text}  waits on SB{sb}: {insts[w][0]:05x}  '
                          f'{insts[w][1]}  ({idx - w} instructions before)')
        if write != 7:
            last[write] = idx
    if args.count:
        print(found)


if __name__ == '__main__':
    main()
