#!/usr/bin/env python3
"""Offline error of `tilegen explain`'s time prediction against recorded H200 measurements.

For every timed row of the benchmark CSVs (bench/results-*.csv: kernel, target, m, n, k,
ms_median, ...) it runs

    tilegen explain <description> --target=<target> --m M --n N --k K --json

on the description the row's cubin was compiled from (examples/<kernel>.mlir, or
bench/ablation/<kernel>.mlir for the ablation kernels), and reports predicted against measured
time, the relative error (predicted - measured) / measured, the share of rows within the
threshold (15%), and for the rows outside it the model's terms and which one dominates the
prediction. No GPU is used: this compares the model with measurements already recorded.

Rows without a time (skipped shapes) are left out. The row the launch overhead was calibrated
from (lib/Analysis/ProblemModel.cpp) is listed but not counted.

    bench/model_error.py [--tilegen build/bin/tilegen] [--threshold 0.15] [--clock-ghz F] [CSV ...]

--clock-ghz passes a clock to explain instead of the target's rated tensor clock (to see how
the error moves with the clock; the prediction itself has no knob fitted to these rows).
"""

import argparse
import csv
import glob
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The one measurement the launch overhead is calibrated from (ProblemModel.cpp, kLaunchSeconds).
CALIBRATION = ("results-2026-11-29-final-sweep.csv", "gemm_bf16", "sm_90a", 1, 8, 8)


def description_for(kernel):
    for folder in ("examples", os.path.join("bench", "ablation")):
        path = os.path.join(ROOT, folder, kernel + ".mlir")
        if os.path.exists(path):
            return path
    return None


def explain(tilegen, desc, target, m, n, k, clock, cache):
    key = (desc, target, m, n, k)
    if key not in cache:
        cmd = [tilegen, "explain", desc, "--target=" + target, "--m", str(m), "--n", str(n),
               "--k", str(k), "--json"]
        if clock:
            cmd.append("--clock-ghz=%g" % clock)
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            cache[key] = (None, out.stderr.strip())
        else:
            cache[key] = (json.loads(out.stdout), None)
    return cache[key]


def terms_text(p):
    t = p["time"]
    parts = [("launch", t["launch_seconds"]), ("mma", t["ideal_seconds"]),
             ("waves", t["wave_loss_seconds"]), ("pipeline", t["pipeline_loss_seconds"]),
             ("dram>cta", t["memory_excess_seconds"])]
    return ", ".join("%s %.1f" % (name, v * 1e6) for name, v in parts) + " us"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="*", help="CSV files (default: bench/results-*.csv)")
    ap.add_argument("--tilegen", default=os.path.join(ROOT, "build", "bin", "tilegen"))
    ap.add_argument("--threshold", type=float, default=0.15)
    ap.add_argument("--clock-ghz", type=float, default=None)
    args = ap.parse_args()
    files = args.csv or sorted(glob.glob(os.path.join(ROOT, "bench", "results-*.csv")))
    cache = {}
    rows = []
    for path in files:
        name = os.path.basename(path)
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                # Rows of one kernel run with its description in the tree; the tuned kernels'
                # timings are bench/dispatch_model_error.py's.
                if not r.get("ms_median") or not r.get("target"):
                    continue
                desc = description_for(r["kernel"])
                m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
                row = {"file": name, "kernel": r["kernel"], "target": r["target"], "m": m,
                       "n": n, "k": k, "status": r["status"],
                       "measured_ms": float(r["ms_median"]), "beta": float(r["beta"] or 0)}
                if desc is None:
                    row["error"] = "no description found"
                    rows.append(row)
                    continue
                pred, err = explain(args.tilegen, desc, r["target"], m, n, k, args.clock_ghz,
                                    cache)
                if pred is None:
                    row["error"] = err
                    rows.append(row)
                    continue
                p = pred["problem"]
                if p["beta"] != row["beta"]:
                    row["error"] = "beta %g measured, %g in the description" % (row["beta"],
                                                                               p["beta"])
                    rows.append(row)
                    continue
                row["pred"] = p
                row["predicted_ms"] = p["time"]["seconds"] * 1e3
                row["rel"] = (row["predicted_ms"] - row["measured_ms"]) / row["measured_ms"]
                row["calibration"] = (name, r["kernel"], r["target"], m, n, k) == CALIBRATION
                rows.append(row)

    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print("model error of `tilegen explain --m --n --k` against recorded measurements")
    print("tilegen %s (commit %s); threshold %.0f%%; clock %s" % (
        args.tilegen, commit, 100 * args.threshold,
        "%g GHz" % args.clock_ghz if args.clock_ghz else "the target's rated tensor clock"))
    print()
    hdr = "%-40s %-7s %-20s %-6s %10s %10s %8s  %-8s %-8s" % (
        "file", "target", "M x N x K", "status", "meas ms", "pred ms", "error", "binds",
        "largest")
    print(hdr)
    print("-" * len(hdr))
    for row in rows:
        shape = "%dx%dx%d" % (row["m"], row["n"], row["k"])
        label = row["file"].replace("results-", "").replace(".csv", "") + ":" + row["kernel"]
        if "error" in row:
            print("%-40s %-7s %-20s %-6s %10.4f %10s  (%s)" % (label[:40], row["target"], shape,
                  row["status"], row["measured_ms"], "-", row["error"]))
            continue
        t = row["pred"]["time"]
        mark = " (calibration)" if row["calibration"] else (
            "" if abs(row["rel"]) <= args.threshold else "  MISS")
        print("%-40s %-7s %-20s %-6s %10.4f %10.4f %+7.1f%%  %-8s %-8s%s" % (
            label[:40], row["target"], shape, row["status"], row["measured_ms"],
            row["predicted_ms"], 100 * row["rel"], t["binding"], t["dominant"], mark))

    scored = [r for r in rows if "rel" in r and not r["calibration"]]
    failed = [r for r in rows if "error" in r]
    print()
    if not scored:
        print("no rows scored")
        return 1
    within = [r for r in scored if abs(r["rel"]) <= args.threshold]
    abs_err = [abs(r["rel"]) for r in scored]
    print("rows scored: %d (left out: %d calibration, %d without a prediction)" % (
        len(scored), sum(1 for r in rows if r.get("calibration")), len(failed)))
    print("within %.0f%%: %d of %d = %.1f%%" % (100 * args.threshold, len(within), len(scored),
                                               100.0 * len(within) / len(scored)))
    print("median |error| %.1f%%, mean error %+.1f%% (negative: the model predicts faster "
          "than measured)" % (100 * statistics.median(abs_err),
                              100 * statistics.mean(r["rel"] for r in scored)))
    by_kernel = {}
    for r in scored:
        by_kernel.setdefault((r["kernel"], r["target"]), []).append(r)
    print()
    print("per kernel: rows, within, median error")
    for (kernel, target), rs in sorted(by_kernel.items()):
        w = sum(1 for r in rs if abs(r["rel"]) <= args.threshold)
        print("  %-32s %-7s %3d %3d %+7.1f%%" % (kernel, target, len(rs), w,
                                                 100 * statistics.median(r["rel"] for r in rs)))
    by_file = {}
    for r in scored:
        by_file.setdefault(r["file"], []).append(r)
    print()
    print("per CSV: rows, within, median error")
    for name, rs in sorted(by_file.items()):
        w = sum(1 for r in rs if abs(r["rel"]) <= args.threshold)
        print("  %-45s %3d %3d %+7.1f%%" % (name, len(rs), w,
                                           100 * statistics.median(r["rel"] for r in rs)))
    misses = sorted((r for r in scored if abs(r["rel"]) > args.threshold),
                    key=lambda r: -abs(r["rel"]))
    print()
    print("misses (|error| > %.0f%%), worst first, with the prediction's terms:" % (
        100 * args.threshold))
    for r in misses:
        p = r["pred"]
        print("  %s %s %dx%dx%d: %+.1f%% (pred %.4f ms, meas %.4f ms); binds %s, largest %s;"
              " %s; busiest CTA %d tile(s), %d waves, last %.0f%% full" % (
                  r["kernel"], r["target"], r["m"], r["n"], r["k"], 100 * r["rel"],
                  r["predicted_ms"], r["measured_ms"], p["time"]["binding"],
                  p["time"]["dominant"], terms_text(p), p["busiest_tiles"], p["waves"],
                  100 * p["last_wave_fill"]))
    for r in failed:
        print("  no prediction: %s %s %dx%dx%d: %s" % (r["kernel"], r["target"], r["m"], r["n"],
                                                      r["k"], r["error"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
