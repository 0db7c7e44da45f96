#!/usr/bin/env bash
# Times a dispatch table (tilegen tune's dispatch.json) over a sweep on the GPU machine: the
# sweep's shapes in chunks, each chunk one `tilegen-run --dispatch TABLE --sweep CHUNK --check
# --bench` (every shape checked, then timed against the vendor's GEMM in the same process,
# alternating; L2 flushed before every run; each shape in its own child process), the chunks'
# CSVs merged, then bench/dispatch_summary.py over them.
#
#   bench/dispatch_sweep.sh TABLE [--shapes FILE] [--out DIR] [--runner PATH] [--chunk N]
#                           [--iters N] [--warmup N] [--candidates] [--deadline SECONDS]
#
# --shapes    M N K a line, # comments (default bench/sweeps/bf16.txt)
# --out       chunkNNNN.csv/.log, all.csv, summary.md (default .dev/gpu/dispatch-sweep)
# --runner    tilegen-run (default build-runner/bin/tilegen-run, as scripts/gpu-run.sh build makes)
# --chunk     shapes per tilegen-run call (default 20); --iters 30; --warmup 10
# --candidates  every candidate of each shape's entry instead of the kernel the table picks
# --deadline  start no chunk after this many seconds (default none): for calls with a time limit
# A chunk whose CSV is complete from an earlier run (its .done marker) is not run again, so an
# interrupted sweep resumes with --out the same. Exit code: dispatch_summary.py's (0, or 1 when a
# shape failed, errored or hung), 1 as well when a chunk's tilegen-run stopped without a complete
# CSV (its error is shown), 2 on bad arguments, 3 when chunks were left out by --deadline.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shapes=$root/bench/sweeps/bf16.txt
out=$root/.dev/gpu/dispatch-sweep
runner=$root/build-runner/bin/tilegen-run
chunk=20 iters=30 warmup=10 deadline= candidates=()
table=
die() { echo "dispatch_sweep.sh: error: $*" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --shapes) shapes=${2:-}; shift ;;
    --out) out=${2:-}; shift ;;
    --runner) runner=${2:-}; shift ;;
    --chunk) chunk=${2:-}; shift ;;
    --iters) iters=${2:-}; shift ;;
    --warmup) warmup=${2:-}; shift ;;
    --deadline) deadline=${2:-}; shift ;;
    --candidates) candidates=(--candidates) ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option '$1'" ;;
    *) [ -z "$table" ] || die "one table only (got '$table' and '$1')"; table=$1 ;;
  esac
  shift
done
[ -n "$table" ] || die "no dispatch table given (bench/dispatch_sweep.sh TABLE ...)"
[ -f "$table" ] || die "no dispatch table at $table"
[ -f "$shapes" ] || die "no shapes file $shapes"
for x in "$chunk" "$iters" "$warmup" ${deadline:+"$deadline"}; do
  [[ "$x" =~ ^[0-9]+$ ]] || die "'$x' is not a count"
done
[ "$chunk" -ge 1 ] || die "--chunk must be at least 1"
[ -x "$runner" ] || die "no tilegen-run at $runner (scripts/gpu-run.sh build)"

# A table without candidate times or sm_count (one assembled by hand) serves a problem between
# its entries by the nearest-entry rule only (docs/dispatch.md): say so, since that changes what
# a sweep off the table's entries measures.
python3 - "$table" <<'PY' || true
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    timed = any(any(k in c for k in ("measured_ns", "estimated_ns", "predicted_ns"))
                for e in d.get("entries", []) for c in e.get("candidates", []))
    if not timed or "sm_count" not in d:
        print(f"dispatch_sweep.sh: note: {sys.argv[1]} has "
              f"{'no candidate times' if not timed else 'no sm_count'}: a problem between its "
              "entries takes the nearest entry's kernel, not the scaled rule's (docs/dispatch.md)")
except (OSError, ValueError, AttributeError, TypeError):
    pass  # tilegen-run reports a table it cannot read
PY
mkdir -p "$out" || die "cannot create $out"
# The sweep's shapes, comments and blank lines dropped (tilegen-run reports a malformed line
# with its chunk's line number; the shapes file itself is checked here first).
grep -v '^[[:space:]]*\(#\|$\)' "$shapes" | sed 's/#.*//' > "$out/shapes.txt"
[ -s "$out/shapes.txt" ] || die "no shapes in $shapes"
total=$(wc -l < "$out/shapes.txt")
rm -f "$out"/chunk[0-9][0-9][0-9][0-9]
split -l "$chunk" -a 4 -d "$out/shapes.txt" "$out/chunk"
left=0 incomplete=0
for c in "$out"/chunk[0-9][0-9][0-9][0-9]; do
  if [ -f "$c.done" ] && [ -f "$c.csv" ] && cmp -s "$c" "$c.done"; then
    echo "dispatch_sweep.sh: $(basename "$c"): done in an earlier run"
    continue
  fi
  if [ -n "$deadline" ] && [ "$SECONDS" -ge "$deadline" ]; then
    left=$((left + 1))
    continue
  fi
  rm -f "$c.done"
  "$runner" --dispatch "$table" --sweep "$c" "${candidates[@]}" --check --bench --iters "$iters" \
    --warmup "$warmup" --csv "$c.csv" > "$c.log" 2>&1
  rc=$?
  n=$(wc -l < "$c")
  echo "dispatch_sweep.sh: $(basename "$c"): $n shape$([ "$n" -eq 1 ] || echo s), tilegen-run exit $rc, at ${SECONDS} s"
  # Exit 0 or 1 (a shape failed its check: the CSV says which) leave a complete CSV.
  if [ "$rc" -le 1 ] && [ -f "$c.csv" ]; then
    cp "$c" "$c.done"
  else
    incomplete=$((incomplete + 1))
    grep -m 1 'error' "$c.log" | sed 's/^/dispatch_sweep.sh:   /' >&2
  fi
done
csvs=("$out"/chunk[0-9][0-9][0-9][0-9].csv)
if [ ! -f "${csvs[0]}" ]; then
  [ "$left" -eq 0 ] || { echo "dispatch_sweep.sh: no chunk run before --deadline $deadline s" >&2; exit 3; }
  die "no chunk produced a CSV (see $out/chunk*.log)"
fi
head -n 1 "${csvs[0]}" > "$out/all.csv"
for f in "${csvs[@]}"; do tail -n +2 "$f" >> "$out/all.csv"; done
echo "dispatch_sweep.sh: $total shapes from $shapes, table $table"
python3 "$root/bench/dispatch_summary.py" "$out/all.csv" --md "$out/summary.md"
rc=$?
if [ "$incomplete" -gt 0 ]; then
  echo "dispatch_sweep.sh: $incomplete chunk$([ "$incomplete" -eq 1 ] || echo s) stopped without a complete CSV (see $out/chunk*.log)" >&2
  [ "$rc" -ne 0 ] || rc=1
fi
if [ "$left" -gt 0 ]; then
  echo "dispatch_sweep.sh: $left chunk$([ "$left" -eq 1 ] || echo s) not run (--deadline $deadline s); run again with --out $out to resume" >&2
  [ "$rc" -ne 0 ] || rc=3
fi
exit $rc
