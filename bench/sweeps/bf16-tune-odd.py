#!/usr/bin/env python3
"""Writes bench/sweeps/bf16-tune-odd.txt (run from the repository root): ten squares and 22
problems of any M, N, K for tuning, each size drawn log-uniform and rounded to a multiple of 8,
none a shape of bf16.txt, bf16-tune-extra.txt or bf16-heldout.txt."""
import math
import random

HEADER = """\
# Shapes added to bf16.txt and bf16-tune-extra.txt for tuning a table whose rule carries to
# square and odd sizes (bf16.txt has ten): ten squares and 22 problems of any M, N, K, each
# size drawn log-uniform (squares 640 to 8192, the others 512 to 8192, 2MNK at most 2e12) and
# rounded to a multiple of 8, most of them off the 64-element lines, none a shape of the other
# sweeps. Written by bench/sweeps/bf16-tune-odd.py.
# Not a reporting sweep: bf16.txt and bf16-heldout.txt are."""


def shapes(path):
    with open(path) as f:
        return {tuple(map(int, line.split()[:3])) for line in f
                if line.strip() and not line.startswith("#")}


def main():
    rng = random.Random(20261207)
    taken = set()
    for name in ("bf16.txt", "bf16-tune-extra.txt", "bf16-heldout.txt"):
        taken |= shapes("bench/sweeps/" + name)

    def dim(lo, hi):
        return max(8, int(round(math.exp(rng.uniform(math.log(lo), math.log(hi))) / 8)) * 8)

    out = []
    while len(out) < 10:  # squares, at most three on the 64-element lines
        s = dim(640, 8192)
        if s % 64 == 0 and len([x for x in out if x[0] % 64 == 0]) >= 3:
            continue
        if (s, s, s) not in taken and (s, s, s) not in out:
            out.append((s, s, s))
    while len(out) < 32:
        t = (dim(512, 8192), dim(512, 8192), dim(512, 8192))
        if t not in taken and t not in out and 2.0 * t[0] * t[1] * t[2] <= 2e12:
            out.append(t)
    with open("bench/sweeps/bf16-tune-odd.txt", "w") as f:
        f.write(HEADER + "\n" + "".join("%d %d %d\n" % t for t in out))


if __name__ == "__main__":
    main()
