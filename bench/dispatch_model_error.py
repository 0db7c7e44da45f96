#!/usr/bin/env python3
"""The error of `tilegen explain --m --n --k` on the candidate timings of a tuned dispatch table.

    bench/dispatch_model_error.py DIR [--tilegen build/bin/tilegen] [--threshold 0.15]

DIR is a `tilegen tune` output folder whose dispatch.json carries measured times (tune
--measurements): for every candidate with a "measured_ns", the prediction of explain on the
candidate's description (DIR/kernels/NAME.mlir) is compared with the measurement. Prints the
share within the threshold, the median error, the error per kernel class (tile, accumulators,
grid, CTA pair) and the misses with the term explain names as dominant.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--tilegen", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "bin", "tilegen"))
    ap.add_argument("--threshold", type=float, default=0.15)
    ap.add_argument("--misses", type=int, default=20, help="misses to list (largest first)")
    args = ap.parse_args()
    table = json.load(open(os.path.join(args.dir, "dispatch.json")))
    descs = {k["name"]: os.path.join(args.dir, k["description"]) for k in table["kernels"]}
    rows = []
    for e in table["entries"]:
        for c in e["candidates"]:
            if "measured_ns" not in c:
                continue
            cmd = [args.tilegen, "explain", descs[c["kernel"]], "--target=" + table["target"],
                   "--m", str(e["m"]), "--n", str(e["n"]), "--k", str(e["k"]), "--json"]
            out = subprocess.run(cmd, capture_output=True, text=True)
            if out.returncode != 0:
                print("explain failed: %s: %s" % (" ".join(cmd), out.stderr.strip()), file=sys.stderr)
                continue
            j = json.loads(out.stdout)
            pred = j["problem"]["time"]["seconds"] * 1e9
            meas = c["measured_ns"]
            rows.append((e["m"], e["n"], e["k"], c["kernel"], pred, meas, j["problem"]["time"].get("dominant", "?")))
    if not rows:
        sys.exit("no measured candidates in %s" % args.dir)
    err = lambda r: abs(r[4] - r[5]) / r[5]
    within = sum(err(r) <= args.threshold for r in rows)
    print("%d of %d predictions within %.0f%% (%.1f%%); median error %.1f%%; median measured/predicted %.3f"
          % (within, len(rows), 100 * args.threshold, 100.0 * within / len(rows),
             100 * statistics.median(err(r) for r in rows), statistics.median(r[5] / r[4] for r in rows)))
    classes = defaultdict(list)
    for r in rows:
        m = re.search(r"_(\d+)x(\d+)x\d+_a(\d)_(persistent|stream_k|tiles)(_pair)?$", r[3])
        key = ("%sx%s a%s %s%s" % (m.group(1), m.group(2), m.group(3), m.group(4), m.group(5) or "")
               if m else "as written")
        classes[key].append(r)
    print("\nper kernel class: count, within, median measured/predicted")
    for k in sorted(classes):
        v = classes[k]
        print("  %-32s %4d %4d %.3f" % (k, len(v), sum(err(r) <= args.threshold for r in v),
                                        statistics.median(r[5] / r[4] for r in v)))
    misses = sorted((r for r in rows if err(r) > args.threshold), key=err, reverse=True)
    print("\nlargest misses (shape, kernel, predicted us, measured us, error, dominant term):")
    for r in misses[: args.misses]:
        print("  %dx%dx%d %s %.1f %.1f %+.0f%% %s" % (r[0], r[1], r[2], r[3], r[4] / 1e3, r[5] / 1e3,
                                                      100 * (r[4] - r[5]) / r[5], r[6]))


if __name__ == "__main__":
    main()
