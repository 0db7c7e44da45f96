#!/usr/bin/env python3
"""How well a dispatch table's rule picks for sizes it was not tuned at: leave one entry out.

    bench/dispatch_rule_loo.py DIR/dispatch.json [--sm-count 132] [--launch-ns 5240]

The table must carry measured candidate times (`tilegen tune ... --measurements`). For each
entry in turn, the entry is taken out of the table (out of every per-entry list the reader
keeps) and its size picked by the table's rules (python/tilegen/_dispatch.py, the same rules as
tilegen-run): the scaled rule (the table's sm_count, or --sm-count for a table written before
tune recorded it) and the nearest-entry rule. Where the left-out entry's measured candidates
include both picks (only they were timed at that size; tune's estimates for the untimed ones
are not times), the pick's time is compared with the fastest measured candidate's there;
prints the geomean of fastest / picked for each rule over those sizes and the sizes where the
rules differ.
"""

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python"))
import tilegen  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table")
    ap.add_argument("--sm-count", type=int, default=None)
    ap.add_argument("--launch-ns", type=float, default=None)
    args = ap.parse_args()
    d = tilegen.load_dispatch(args.table)
    if args.sm_count is not None:
        d.sm_count = args.sm_count
    if args.launch_ns is not None:
        d.launch_ns = args.launch_ns
    if not d.sm_count:
        sys.exit("%s has no sm_count: give --sm-count" % args.table)
    with open(args.table) as f:
        raw = json.load(f)["entries"]
    # The reader keeps one list per entry for each of these (sizes and order, times, the
    # candidates' order, failed runs): leaving an entry out drops it from all of them.
    lists = {name: list(getattr(d, name)) for name in ("entries", "times", "cand_order",
                                                       "failures")}
    assert all(len(v) == len(raw) for v in lists.values())
    rows = []
    for i, ((size, _), e) in enumerate(zip(lists["entries"], raw)):
        measured = {c["kernel"]: float(c["measured_ns"]) for c in e.get("candidates", [])
                    if "measured_ns" in c and "measurement" not in c}
        if not measured:
            continue
        for name, v in lists.items():
            setattr(d, name, v[:i] + v[i + 1:])
        picks = []
        for sm in (d.sm_count, None):
            saved = d.sm_count
            d.sm_count = sm
            d._memo = {}
            try:
                kern, padded = d.pick_padded(*size)
                picks.append(None if padded else kern.name)
            finally:
                d.sm_count = saved
        rows.append((size, picks[0], picks[1], measured))
    for name, v in lists.items():
        setattr(d, name, v)
    both = [r for r in rows if r[1] in r[3] and r[2] in r[3]]
    if not both:
        sys.exit("no left-out size has both picks among its timed candidates")
    def geo(col):
        return math.exp(sum(math.log(min(r[3].values()) / r[3][r[col]]) for r in both) /
                        len(both))
    print("%d entries with times, %d where both picks were timed" % (len(rows), len(both)))
    print("fastest / picked, geomean: scaled rule %.3f, nearest-entry rule %.3f" %
          (geo(1), geo(2)))
    print("sizes where the rules differ (times in us: scaled pick, nearest pick, fastest):")
    for size, s, n, m in both:
        if s != n:
            print("  %dx%dx%d  %s %.1f  %s %.1f  %.1f" % (size + (s, m[s] / 1e3, n, m[n] / 1e3,
                                                          min(m.values()) / 1e3)))


if __name__ == "__main__":
    main()
