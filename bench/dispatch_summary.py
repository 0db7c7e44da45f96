#!/usr/bin/env python3
"""Summarise tilegen-run CSVs of a dispatch table (or of any kernel) against the vendor's GEMM.

    bench/dispatch_summary.py CSV... [--split-m 256] [--floor 0.90] [--lowest 8] [--md FILE]

Reads the rows of `tilegen-run ... --bench --csv` (several files are concatenated), and prints:
how many rows ran and how each ended (pass, fail, error, hang, skipped, ran unchecked); the
geometric mean of the ratio to the vendor (ratio_vs_cublaslt where the row has it, else
ratio_vs_cublas) over all timed rows, over the rows with M >= --split-m and over the rows below
it, each with its count; the rows with M >= --split-m below --floor; the --lowest rows; and the
rows of 4096^3 and 8192^3. Only rows that passed their check (or ran unchecked) are timed
results; the others are listed by status. A shape timed more than once (--candidates, or a
sweep that repeats a line) counts once, with its fastest row (the count of such shapes is
printed). --md also writes the summary as Markdown.

Exit code: 0 when every row passed or ran (unchecked), 1 when any failed, errored or hung, 2 on
bad input.
"""

import argparse
import csv
import math
import sys


def ratio(row):
    for key in ("ratio_vs_cublaslt", "ratio_vs_cublas"):
        v = row.get(key) or ""
        if v:
            try:
                r = float(v)
            except ValueError:
                return None
            return r if r > 0 and math.isfinite(r) else None
    return None


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--split-m", type=int, default=256, help="M at which the large-M group starts (default 256)")
    ap.add_argument("--floor", type=float, default=0.90, help="ratio below which a large-M row is listed (default 0.90)")
    ap.add_argument("--lowest", type=int, default=8, help="how many of the lowest ratios to list (default 8)")
    ap.add_argument("--md", help="also write the summary as Markdown to this file")
    args = ap.parse_args()

    rows = []
    for path in args.csv:
        try:
            with open(path, newline="") as f:
                reader = csv.DictReader(f)
                missing = {"m", "n", "k", "status"} - set(reader.fieldnames or [])
                if missing:
                    print(f"dispatch_summary.py: error: {path}: not a tilegen-run CSV (no column {', '.join(sorted(missing))})", file=sys.stderr)
                    return 2
                rows += list(reader)
        except OSError as e:
            print(f"dispatch_summary.py: error: {path}: {e.strerror}", file=sys.stderr)
            return 2
    if not rows:
        print("dispatch_summary.py: error: no rows in " + ", ".join(args.csv), file=sys.stderr)
        return 2

    statuses = {}
    for r in rows:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    bad = sum(n for s, n in statuses.items() if s in ("fail", "error", "hang"))

    # One row per shape: the fastest timed one.
    best = {}
    repeated = set()
    for r in rows:
        q = ratio(r)
        if q is None or r["status"] not in ("pass", "ran"):
            continue
        try:
            key = (int(r["m"]), int(r["n"]), int(r["k"]))
        except ValueError:
            continue
        if key in best:
            repeated.add(key)
            if q <= best[key][0]:
                continue
        best[key] = (q, r)

    lines = []
    say = lines.append
    say(f"{len(rows)} row{'s' if len(rows) != 1 else ''}: " +
        ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())))
    if repeated:
        say(f"{len(repeated)} shape{'s' if len(repeated) != 1 else ''} timed more than once: "
            "each counts once, with its fastest row")
    big = {k: v for k, v in best.items() if k[0] >= args.split_m}
    small = {k: v for k, v in best.items() if k[0] < args.split_m}

    def group(name, g):
        if not g:
            say(f"{name}: no timed rows that passed")
            return
        qs = [q for q, _ in g.values()]
        say(f"{name}: {len(qs)} shape{'s' if len(qs) != 1 else ''}, geomean {geomean(qs):.3f}x, lowest {min(qs):.3f}x, highest {max(qs):.3f}x")

    vendor = "cuBLASLt" if any(r.get("ratio_vs_cublaslt") for r in rows) else "cuBLAS"
    say(f"ratio = our TFLOP/s / {vendor}'s in the same process")
    group("all", best)
    group(f"M >= {args.split_m}", big)
    group(f"M < {args.split_m}", small)
    under = sorted((q, k) for k, (q, _) in big.items() if q < args.floor)
    if big:
        say(f"M >= {args.split_m} below {args.floor:.2f}x: " +
            (", ".join(f"{k[0]}x{k[1]}x{k[2]} {q:.3f}" for q, k in under) if under else "none"))

    def describe(k, q, r):
        return f"  {k[0]}x{k[1]}x{k[2]}  {q:.3f}x  {r.get('tflops', '')} TFLOP/s  {r.get('kernel', '')}  {r['status']}"

    if args.lowest > 0 and best:
        say(f"lowest {min(args.lowest, len(best))}:")
        for k, (q, r) in sorted(best.items(), key=lambda kv: kv[1][0])[:args.lowest]:
            say(describe(k, q, r))
    for k in ((4096, 4096, 4096), (8192, 8192, 8192)):
        if k in best:
            say("square:" + describe(k, *best[k])[1:])
    failed = [r for r in rows if r["status"] in ("fail", "error", "hang")]
    for r in failed:
        say(f"{r['status']}: {r['m']}x{r['n']}x{r['k']} {r.get('kernel', '')} {r.get('message', '')}".rstrip())

    print("\n".join(lines))
    if args.md:
        with open(args.md, "w") as f:
            f.write("\n".join(("- " + l if not l.startswith("  ") else "  - " + l.strip()) for l in lines) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
