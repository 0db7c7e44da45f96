#!/usr/bin/env python3
"""A candidate-timings CSV as a folder bench/dispatch_model_error.py scores.

    bench/candidates_table.py CSV OUTDIR [--template DESC]

CSV is a dispatch sweep's candidates file (bench/results-*-dispatch-*-candidates.csv: m, n, k,
kernel, status, ms_median, ...). Each kernel name is decoded the way `tilegen tune` names its
variants (NAME_<tileM>x<tileN>x<tileK>_a<accumulators>_<grid>[_pair]; a name without that suffix
is the description as written) and its description written to OUTDIR/kernels/NAME.mlir from
the template (default examples/gemm_bf16.mlir's attributes, as tune writes them: stages auto, a
pair is cluster [2, 1, 1] with B multicast). OUTDIR/dispatch.json lists the rows that ran, with
their median time as measured_ns. Only the description is reconstructed: the kernels were built
at the CSV's commit, so its timings are those of that commit's code.
"""

import argparse
import csv
import json
import os
import re

TEMPLATE = ('"tile.gemm"() <{a_layout = #tile<layout row>, a_type = bf16, acc_type = f32, '
            'accumulators = %(acc)d : i64, alpha = 1.000000e+00 : f64, b_layout = #tile<layout col>, '
            'b_type = bf16, beta = 0.000000e+00 : f64, c_layout = #tile<layout row>, c_type = bf16, '
            'cluster = array<i64: %(cluster)d, 1, 1>, copy = #tile<copy auto>, cta_group = 1 : i64, '
            'grid = #tile<grid %(grid)s>, mma = array<i64>, multicast = #tile<multicast %(mc)s>, '
            'raster = #tile<raster row>, schedule = #tile<schedule auto>, stages = 0 : i64, '
            'swizzle = 16 : i64, sym_name = "%(name)s", target = "sm_90a", '
            'tile = array<i64: %(tm)d, %(tn)d, %(tk)d>, warps = array<i64>}> : () -> ()\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("outdir")
    args = ap.parse_args()
    os.makedirs(os.path.join(args.outdir, "kernels"), exist_ok=True)
    entries, kernels = {}, {}
    with open(args.csv, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ran" or not r["ms_median"]:
                continue
            name = r["kernel"]
            m = re.search(r"_(\d+)x(\d+)x(\d+)_a(\d)_(persistent|stream_k|tiles)(_pair)?$", name)
            if m:
                v = dict(tm=int(m.group(1)), tn=int(m.group(2)), tk=int(m.group(3)),
                         acc=int(m.group(4)), grid=m.group(5), cluster=2 if m.group(6) else 1,
                         mc="b" if m.group(6) else "none", name=name)
            elif name == "gemm_bf16":
                v = dict(tm=128, tn=256, tk=64, acc=1, grid="persistent", cluster=1, mc="none",
                         name=name)
            else:
                continue
            if name not in kernels:
                path = os.path.join("kernels", name + ".mlir")
                with open(os.path.join(args.outdir, path), "w") as out:
                    out.write(TEMPLATE % v)
                kernels[name] = {"name": name, "description": path}
            key = (int(r["m"]), int(r["n"]), int(r["k"]))
            e = entries.setdefault(key, {"m": key[0], "n": key[1], "k": key[2], "candidates": []})
            e["candidates"].append({"kernel": name,
                                    "measured_ns": round(float(r["ms_median"]) * 1e6)})
    table = {"target": "sm_90a", "kernels": list(kernels.values()),
             "entries": list(entries.values()), "source": os.path.basename(args.csv)}
    with open(os.path.join(args.outdir, "dispatch.json"), "w") as out:
        json.dump(table, out, indent=1)
    print("%d entries, %d candidate timings, %d kernels -> %s" % (
        len(entries), sum(len(e["candidates"]) for e in entries.values()), len(kernels),
        args.outdir))


if __name__ == "__main__":
    main()
