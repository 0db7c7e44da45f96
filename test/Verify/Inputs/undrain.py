#!/usr/bin/env python3
"""Writes a sm_90a CTA-pair kernel's PTX without the producer's drain and closing arrive.

The last N mbarrier.try_wait.parity statements before the last barrier.cluster.arrive (the
producer's drain, one per ring slot) become a predicate that is always true, and that arrive
is dropped, so the CTA may leave while the peer's copies and releases still target it.
Usage: undrain.py IN.ptx OUT.ptx N
"""
import sys

src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(src).read().split("\n")
arrives = [i for i, l in enumerate(lines) if "barrier.cluster.arrive" in l]
if not arrives:
    sys.exit("undrain.py: no barrier.cluster.arrive in " + src)
last = arrives[-1]
waits = [i for i in range(last) if "mbarrier.try_wait.parity" in lines[i]][-n:]
if len(waits) != n:
    sys.exit("undrain.py: fewer than %d waits before the closing arrive" % n)
for i in waits:
    lines[i] = "\tsetp.eq.u32 P1, 0, 0;"
lines[last] = "\t// closing arrive dropped"
open(dst, "w").write("\n".join(lines))
print("undrained %d waits, dropped line %d" % (n, last + 1))
