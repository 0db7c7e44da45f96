#!/usr/bin/env python3
"""A tilegen-run --csv file as a tilegen-run --json results file, the form `tilegen tune
--measurements` reads (for CSVs kept in bench/).

    bench/csv_to_measurements.py RESULTS.csv OUT.json [MORE.csv ...]

Rows of later CSVs are appended after the earlier ones'; numbers become numbers, empty cells
null."""
import csv
import json
import sys

NUMERIC = {"m", "n", "k", "ms_median", "cublas_ms_median", "cublaslt_ms_median", "tflops"}


def rows_of(path):
    out = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            row = {}
            for key, v in r.items():
                if key in NUMERIC:
                    row[key] = None if v in ("", None) else float(v)
                    if key in ("m", "n", "k") and row[key] is not None:
                        row[key] = int(row[key])
                else:
                    row[key] = v
            out.append(row)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = []
    for path in [sys.argv[1]] + sys.argv[3:]:
        rows += rows_of(path)
    with open(sys.argv[2], "w") as f:
        json.dump({"format": "tilegen-run-results", "version": 1, "rows": rows}, f)
    print("%d rows" % len(rows))


if __name__ == "__main__":
    main()
