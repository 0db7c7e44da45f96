#!/usr/bin/env python3
"""A stand-in for tilegen-run in tune's measuring step (no GPU needed): it reads the table given
with --dispatch and writes --json rows as a checked candidate sweep would: the first candidate
of each shape computed wrong results, the others ran with times that make the last one fastest.
It exits as tilegen-run does when a candidate's check failed (1), or with FAKE_RUNNER_EXIT
when set."""
import json
import os
import sys

args = sys.argv[1:]
table = json.load(open(args[args.index("--dispatch") + 1]))
out = args[args.index("--json") + 1]
rows = []
for e in table["entries"]:
    cands = e["candidates"]
    for i, c in enumerate(cands):
        row = {"kernel": c["kernel"], "m": e["m"], "n": e["n"], "k": e["k"]}
        if i == 0:
            row.update(status="fail", ms_median=0.001)
        else:
            row.update(status="pass", ms_median=1.0 / i)
        rows.append(row)
json.dump({"format": "tilegen-run-results", "version": 1, "rows": rows}, open(out, "w"))
sys.exit(int(os.environ.get("FAKE_RUNNER_EXIT", "1")))
