#!/usr/bin/env python3
"""expect-exit.py CODE COMMAND...: runs COMMAND and succeeds only if it exits with exactly CODE.

lit's `not` accepts any non-zero status; the GPU tests need to tell tilegen-run's exit codes apart
(2 usage/size, 1 check failed, 3 CUDA error, 4 hang)."""
import subprocess
import sys

if len(sys.argv) < 3:
    sys.exit("usage: expect-exit.py CODE COMMAND...")
want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("expect-exit.py: expected exit code %d, got %d from: %s\n"
                     % (want, got, " ".join(sys.argv[2:])))
    sys.exit(1)
