#!/usr/bin/env python3
"""A stand-in for tilegen-run in tune's measuring step (no GPU needed): it reads the table given
with --dispatch and writes --json rows as a checked candidate sweep would. FAKE_RUNNER_MODE:
  (unset)   the first candidate of each shape computed wrong results, the others ran with times
            that make the last one fastest; exit 1, as tilegen-run after a failed check
  stopped   the first run found no usable GPU ("error"), every later one "not-run"; exit 3
  allfail   every candidate computed wrong results; exit 1
  nofile    writes nothing and exits 0
  crash     ends by SIGSEGV
FAKE_RUNNER_EXIT overrides the exit code."""
import json
import os
import sys

args = sys.argv[1:]
table = json.load(open(args[args.index("--dispatch") + 1]))
out = args[args.index("--json") + 1]
mode = os.environ.get("FAKE_RUNNER_MODE", "")
if mode == "nofile":
    sys.exit(0)
if mode == "crash":
    import signal
    os.kill(os.getpid(), signal.SIGSEGV)
rows = []
for e in table["entries"]:
    for i, c in enumerate(e["candidates"]):
        row = {"kernel": c["kernel"], "m": e["m"], "n": e["n"], "k": e["k"]}
        if mode == "stopped":
            if rows:
                row.update(status="not-run", message="not run: an earlier shape found the GPU "
                           "or driver unusable")
            else:
                row.update(status="error", message="no CUDA driver/GPU: cannot load libcuda")
        elif mode == "allfail" or i == 0:
            row.update(status="fail", ms_median=0.001)
        else:
            row.update(status="pass", ms_median=1.0 / i)
        rows.append(row)
json.dump({"format": "tilegen-run-results", "version": 1, "rows": rows}, open(out, "w"))
sys.exit(int(os.environ.get("FAKE_RUNNER_EXIT", "3" if mode == "stopped" else "1")))
