#!/usr/bin/env python3
"""Turns tilegen-run results into the markdown tables of bench/RESULTS.md (python3 stdlib only).

  bench/summarize.py [RESULTS ...] [--tests tests.log] [--sanitize sanitize.log]
                     [--summary-only] [--write-csv FILE] [--write-json FILE]

RESULTS are files written by `tilegen-run --csv` or `--json` (the columns of
tools/tilegen-run/Report.cpp), or folders holding them (every *.csv; *.json for the GPU header,
and for rows where no CSV is given). The kernel of a row is its cubin's file name without
.cubin (e.g. gemm_bf16_sm90a_ws.sm_90a), so one example built for two targets stays two kernels.

Prints: the GPU header, one summary row per kernel (GPU tests, sweep shapes checked, sanitizers,
TFLOP/s and the cuBLAS ratio at 4096^3 and 8192^3, and the geometric mean of the ratio over the
the BF16 sweep: square 2048..16384 and the four LLM shapes), then one table per kernel with every
shape. --tests reads lit's output (scripts/gpu-run.sh tests.log; test files are named
<example>.<target>-<what>.test), --sanitize the RESULT lines of
scripts/gpu-run.sh sanitize.log. --write-csv / --write-json write the merged rows.
"""
import argparse
import csv
import glob
import json
import math
import os
import re
import sys

# The BF16 sweep the sm_90a kernel is judged on (geomean >= 0.95x cuBLAS; >= 1.00x at 4096^3 and
# 8192^3).
BF16_SWEEP = [(n, n, n) for n in (2048, 4096, 8192, 16384)] + [
    (4096, 14336, 4096), (8192, 4096, 14336), (16384, 8192, 1024), (128, 8192, 8192)]
SANITIZERS = ["memcheck", "racecheck", "synccheck"]


def num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def fmt(v, spec, dash="-"):
    x = num(v)
    return dash if x is None else format(x, spec)


def kernel_key(row):
    cubin = row.get("cubin") or ""
    if cubin:
        base = os.path.basename(cubin)
        return base[:-6] if base.endswith(".cubin") else base
    return "%s.%s" % (row.get("kernel", "?"), row.get("target", "?"))


def shape(row):
    try:
        return int(row["m"]), int(row["n"]), int(row["k"])
    except (KeyError, TypeError, ValueError):
        return None


def load(paths):
    """Returns (header, rows, device) from CSV/JSON files and folders."""
    csvs, jsons = [], []
    for p in paths:
        if os.path.isdir(p):
            csvs += sorted(f for f in glob.glob(os.path.join(p, "*.csv"))
                           if os.path.basename(f) != "all.csv")
            jsons += sorted(glob.glob(os.path.join(p, "*.json")))
        elif p.endswith(".json"):
            jsons.append(p)
        else:
            csvs.append(p)
    header, rows, device = None, [], {}
    for p in csvs:
        with open(p, newline="") as f:
            r = csv.DictReader(f)
            if r.fieldnames is None:
                continue
            header = header or list(r.fieldnames)
            rows += list(r)
    for p in jsons:
        try:
            with open(p) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            sys.stderr.write("summarize.py: skipping %s: %s\n" % (p, e))
            continue
        if not isinstance(doc, dict) or doc.get("format") != "tilegen-run-results":
            continue
        for k, v in (doc.get("device") or {}).items():
            device.setdefault(k, v)
        if not csvs:
            for jr in doc.get("rows", []):
                header = header or list(jr.keys())
                rows.append({k: "" if v is None else str(v) for k, v in jr.items()})
    return header or [], rows, device


def load_tests(path):
    """lit result lines -> {cubin stem: {"PASS": n, ...}}; test files are <example>.<target>-<what>.test."""
    res = {}
    if not path or not os.path.exists(path):
        return res
    pat = re.compile(r"^(PASS|FAIL|UNSUPPORTED|XFAIL|XPASS|TIMEOUT|UNRESOLVED): .*?([^/ ]+)\.test\b")
    with open(path, errors="replace") as f:
        for line in f:
            m = pat.match(line.strip())
            if m:
                stem = m.group(2).rsplit("-", 1)[0]
                d = res.setdefault(stem, {})
                d[m.group(1)] = d.get(m.group(1), 0) + 1
    return res


def load_sanitize(path):
    """RESULT lines of scripts/gpu-run.sh -> {(cubin stem, tool): {status, errors, ...}}."""
    res = {}
    if not path or not os.path.exists(path):
        return res
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("RESULT "):
                d = dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
                res[(d.get("cubin", "?"), d.get("tool", "?"))] = d
    return res


def tests_cell(counts):
    if not counts:
        return "-"
    p = counts.get("PASS", 0) + counts.get("XFAIL", 0)
    f = sum(counts.get(k, 0) for k in ("FAIL", "XPASS", "TIMEOUT", "UNRESOLVED"))
    u = counts.get("UNSUPPORTED", 0)
    return "%d pass, %d fail" % (p, f) + (", %d unsupported" % u if u else "")


def sanitize_cell(d):
    if not d:
        return "-"
    s = d.get("status", "?")
    if s == "clean":
        w = d.get("warnings", "0")
        return "clean" if w in ("0", "-", "") else "clean, %s warnings" % w
    if s == "errors":
        return "**%s errors**" % d.get("errors", "?")
    return "**%s**" % s if s not in ("skipped",) else s


def vendor(r, key):
    """The cuBLAS field, or for fp8 kernels its cuBLASLt twin (cublas_tflops -> cublaslt_tflops)."""
    v = r.get(key)
    if num(v) is None:
        v = r.get(key.replace("cublas", "cublaslt"))
    return v


def perf_cell(rows, mnk):
    for r in rows:
        if shape(r) == mnk and num(r.get("tflops")) is not None:
            ratio = fmt(vendor(r, "ratio_vs_cublas"), ".3f")
            return "%s (%sx)" % (fmt(r["tflops"], ".1f"), ratio)
    return "-"


def geomean(rows, shapes):
    ratios = [num(vendor(r, "ratio_vs_cublas")) for r in rows if shape(r) in shapes]
    ratios = [x for x in ratios if x and x > 0]
    if not ratios:
        return None, 0
    return math.exp(sum(math.log(x) for x in ratios) / len(ratios)), len(ratios)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", nargs="*", help="tilegen-run CSV/JSON files or folders")
    ap.add_argument("--tests", help="lit output of the GPU tests (tests.log)")
    ap.add_argument("--sanitize", help="scripts/gpu-run.sh sanitize.log")
    ap.add_argument("--summary-only", action="store_true", help="no per-kernel tables")
    ap.add_argument("--write-csv", help="write the merged rows as CSV")
    ap.add_argument("--write-json", help="write the merged rows and GPU header as JSON")
    a = ap.parse_args()

    header, rows, device = load(a.results)
    tests = load_tests(a.tests)
    sani = load_sanitize(a.sanitize)

    if a.write_csv and header:
        with open(a.write_csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=header, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    if a.write_json:
        with open(a.write_json, "w") as f:
            json.dump({"format": "tilegen-run-results", "version": 1, "device": device,
                       "rows": rows}, f, indent=1)

    kernels = []
    for r in rows:
        if kernel_key(r) not in kernels:
            kernels.append(kernel_key(r))
    for (stem, _tool) in sani:
        if stem not in kernels:
            kernels.append(stem)
    for stem in tests:
        if stem not in kernels:
            kernels.append(stem)
    by_kernel = {k: [r for r in rows if kernel_key(r) == k] for k in kernels}

    out = []
    if device:
        out.append("GPU: {gpu} ({arch}, {sms} SMs, SM clock {clock_mhz} MHz, memory clock "
                   "{mem_clock_mhz} MHz), driver {driver}, cuBLAS {cublas}".format(
                       **{k: device.get(k, "?") for k in ("gpu", "arch", "sms", "clock_mhz",
                                                         "mem_clock_mhz", "driver", "cublas")})
                   + (", cuBLASLt %s" % device["cublaslt"] if device.get("cublaslt") else ""))
        out.append("")
    if not kernels:
        out.append("(no results)")
        print("\n".join(out))
        return 0

    out.append("| kernel | GPU tests | sweep shapes checked | memcheck | racecheck | synccheck "
               "| 4096^3 TFLOP/s (x cuBLAS) | 8192^3 TFLOP/s (x cuBLAS) | geomean x cuBLAS, BF16 sweep |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for k in kernels:
        rs = by_kernel[k]
        st = {}
        for r in rs:
            st[r.get("status", "?")] = st.get(r.get("status", "?"), 0) + 1
        if rs:
            bad = sum(v for s, v in st.items() if s not in ("pass", "skipped", "ran"))
            sweep = "%d pass, %d fail" % (st.get("pass", 0), bad)
            if st.get("skipped"):
                sweep += ", %d skipped" % st["skipped"]
            if st.get("ran"):
                sweep += ", %d unchecked" % st["ran"]
        else:
            sweep = "-"
        g, n = geomean(rs, BF16_SWEEP)
        gcell = "-" if g is None else "%.3f (%d/%d shapes)" % (g, n, len(BF16_SWEEP))
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            k, tests_cell(tests.get(k)), sweep,
            *[sanitize_cell(sani.get((k, t))) for t in SANITIZERS],
            perf_cell(rs, (4096, 4096, 4096)), perf_cell(rs, (8192, 8192, 8192)), gcell))
    out.append("")
    out.append("The BF16 sweep: square 2048..16384 and 4096x14336x4096, 8192x4096x14336, "
               "16384x8192x1024, 128x8192x8192 (the sm_90a kernel's bar: >= 1.00x cuBLAS at "
               "4096^3 and 8192^3, geomean >= 0.95x).")

    if not a.summary_only:
        for k in kernels:
            rs = by_kernel[k]
            if not rs:
                continue
            out.append("")
            out.append("### %s" % k)
            out.append("")
            out.append("| M x N x K | status | rel err | worst tile | bad | ms (median) | p10..p90 "
                       "| TFLOP/s | cuBLAS TFLOP/s | ratio |")
            out.append("|---|---|---|---|---|---|---|---|---|---|")
            for r in rs:
                spread = "-"
                if num(r.get("ms_p10")) is not None:
                    spread = "%s..%s" % (fmt(r["ms_p10"], ".3f"), fmt(r.get("ms_p90"), ".3f"))
                out.append("| %sx%sx%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    r.get("m"), r.get("n"), r.get("k"), r.get("status") or "-",
                    fmt(r.get("rel_err"), ".2e"), fmt(r.get("worst_tile_rel_err"), ".2e"),
                    r.get("bad_elements") or "-", fmt(r.get("ms_median"), ".3f"), spread,
                    fmt(r.get("tflops"), ".1f"), fmt(vendor(r, "cublas_tflops"), ".1f"),
                    fmt(vendor(r, "ratio_vs_cublas"), ".3f")))
            msgs = [(r, r.get("message")) for r in rs if r.get("message")
                    and r.get("status") != "skipped"]
            for r, m in msgs:
                out.append("")
                out.append("- %sx%sx%s: %s" % (r.get("m"), r.get("n"), r.get("k"), m))
        if rows:
            out.append("")
            out.append("Each row of the CSV has a `command` column that reproduces it.")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
