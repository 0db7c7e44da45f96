#!/usr/bin/env python3
"""Compiles every example for every listed target it compiles to and runs the protocol checker
on the kernel (tilegen-verify: docs/verify.md). Prints one line per kernel with the checker's
time and whether its exhaustive search finished within the bound, and exits 1 when a kernel
does not verify or compiles to PTX but not to a cubin.

usage: verify_examples.py TILEGEN TILEGEN_VERIFY EXAMPLES_DIR WORK_DIR [--match=RE] [--skip=RE]
                          TARGET...
--match / --skip keep (drop) the examples whose name the regular expression finds, so that one
target's examples can be split over several tests, each under the per-test time limit.
"""
import glob
import os
import re
import subprocess
import sys
import time


def main():
    tilegen, verify, examples, work = sys.argv[1:5]
    targets = [a for a in sys.argv[5:] if not a.startswith("--")]
    match = skip = None
    for a in sys.argv[5:]:
        if a.startswith("--match="):
            match = re.compile(a[len("--match="):])
        elif a.startswith("--skip="):
            skip = re.compile(a[len("--skip="):])
        elif a.startswith("--"):
            sys.exit("verify_examples.py: unknown option " + a)
    failures = 0
    checked = 0
    complete = 0
    slowest = (0.0, "")
    for desc in sorted(glob.glob(os.path.join(examples, "*.mlir"))):
        name = os.path.splitext(os.path.basename(desc))[0]
        if (match and not match.search(name)) or (skip and skip.search(name)):
            continue
        for target in targets:
            out = os.path.join(work, target, name)
            os.makedirs(out, exist_ok=True)
            # A description a target rejects (legality) is not compiled for it.
            ptx = subprocess.run([tilegen, desc, "--target=" + target, "--emit=ptx",
                                  "-o", os.path.join(out, "k.ptx")],
                                 capture_output=True, text=True)
            if ptx.returncode != 0:
                print("%s %s: not compiled for this target" % (name, target))
                continue
            cubin = subprocess.run([tilegen, desc, "--target=" + target,
                                    "-o", os.path.join(out, "k.cubin")],
                                   capture_output=True, text=True)
            if cubin.returncode != 0:
                print("%s %s: FAILED to build the cubin and manifest:\n%s"
                      % (name, target, cubin.stderr))
                failures += 1
                continue
            start = time.monotonic()
            run = subprocess.run([verify, os.path.join(out, "k.ptx"),
                                  "--manifest", os.path.join(out, "k.json")],
                                 capture_output=True, text=True)
            seconds = time.monotonic() - start
            checked += 1
            slowest = max(slowest, (seconds, name + " " + target))
            if run.returncode != 0:
                failures += 1
                print("%s %s: FAILED (%.2f s)\n%s%s" % (name, target, seconds, run.stdout,
                                                         run.stderr))
            else:
                # Whether the exhaustive search finished within its bound (docs/verify.md).
                done = "exhaustive search: complete" in run.stdout
                complete += done
                print("%s %s: verified (%.2f s, exhaustive search %s)"
                      % (name, target, seconds, "complete" if done else "bounded"))
    print("%d kernel(s) checked, %d failure(s), exhaustive search complete for %d; slowest "
          "%.2f s (%s)" % (checked, failures, complete, slowest[0], slowest[1]))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
