"""Checks the model's closed forms on many random costs and shapes, through explain --json.

1. In a long tile the recurrences settle to M_{g+S} - M_g = max(S t_mma, S t_issue,
   t_load + t_mma): last_window_period equals period.
2. With A = 2, a ring deep enough to feed the tensor core (S t_mma >= t_load + t_mma,
   t_issue <= t_mma) and t_epi <= K t_mma: run = t_load + T K t_mma + t_epi.

Usage: check_closed_forms.py TILEGEN. Prints one line per family of checks and exits non-zero
on the first mismatch, printing the case.
"""
import json
import random
import subprocess
import sys

tilegen = sys.argv[1]
rng = random.Random(20261129)


def explain(*args):
    out = subprocess.run([tilegen, "explain", "--json", *args], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def costs(load, mma, epi, issue):
    return "--costs=load=%g,mma=%g,epilogue=%g,issue=%g" % (load, mma, epi, issue)


bindings = set()
for case in range(100):
    s = rng.randint(1, 8)
    load, mma, issue = rng.randint(0, 60), rng.randint(1, 20), rng.randint(0, 25)
    epi = rng.randint(0, 40)
    r = explain(costs(load, mma, epi, issue), "--tiles=1", "--k-slices=300",
                "--stages=%d" % s, "--accumulators=1")
    want = max(s * mma, s * issue, load + mma)
    if r["period"] != want or r["last_window_period"] != want:
        print("period mismatch", s, load, mma, epi, issue, r["period"],
              r["last_window_period"], want)
        sys.exit(1)
    bindings.add(r["binding"])
print("period: 100 cases settle to max(S t_mma, S t_issue, t_load + t_mma); bindings seen:",
      ", ".join(sorted(bindings)))

for case in range(100):
    mma = rng.randint(1, 20)
    issue = rng.randint(0, mma)
    load = rng.randint(0, 60)
    s = -(-(load + mma) // mma) + rng.randint(0, 3)  # at least the stages that feed
    k = rng.randint(1, 12)
    t = rng.randint(1, 6)
    epi = rng.randint(0, k * mma)
    r = explain(costs(load, mma, epi, issue), "--tiles=%d" % t, "--k-slices=%d" % k,
                "--stages=%d" % s, "--accumulators=2")
    want = load + t * k * mma + epi
    if r["run_units"] != want:
        print("run mismatch", dict(s=s, load=load, mma=mma, epi=epi, issue=issue, t=t, k=k),
              r["run_units"], want)
        sys.exit(1)
print("run: 100 cases with A = 2 and t_epi <= K t_mma give t_load + T K t_mma + t_epi")
