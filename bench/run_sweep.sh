#!/usr/bin/env bash
# Compiles the example kernels (optional) and runs tilegen-run's check + benchmark sweep on each.
#
#   bench/run_sweep.sh [--compile] [--target sm_90] [--sweep square,llm,odd]
#                      [--out out] [--cubins DIR] [--results DIR] [--build build] [--runner PATH]
#                      [--iters 50] [--warmup 10] [--timeout 300] [FILE ...]
#
# --compile   build OUT/NAME.cubin + OUT/NAME.json from examples/*.mlir (or the .mlir FILEs given)
#             with BUILD/bin/tilegen. Needs the MLIR build: do it on the development machine
#             and carry the cubins to the GPU machine, which has CUDA but no MLIR
#             (scripts/gpu-prepare.sh does this for every example and its H200 target).
# Without --compile, the .cubin FILEs given are run, else every cubin in --cubins (default OUT)
# that has a manifest beside it, in name order.
#
# Each kernel runs `tilegen-run CUBIN --sweep LIST --check --bench`, which checks every shape
# against a reference and times it against cuBLAS (cuBLASLt for fp8 kernels), one child process
# per shape. Results go to --results (default OUT/results): NAME.csv and NAME.json per kernel (written when its sweep
# ends), NAME.log (the full output), all.csv (every row) and summary.md (bench/summarize.py's
# tables for bench/RESULTS.md). The exit code is the worst of the runs (0 pass, 1 check failed,
# 2 usage, 3 CUDA error, 4 hang).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
compile=0
target=sm_90
sweep=square,llm,odd
out="$root/out"
cubin_dir=""
results=""
build="$root/build"
runner=""
iters=50
warmup=10
timeout=300
examples=()

usage() { sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --compile) compile=1 ;;
    --target) target="$2"; shift ;;
    --sweep) sweep="$2"; shift ;;
    --out) out="$2"; shift ;;
    --cubins) cubin_dir="$2"; shift ;;
    --results) results="$2"; shift ;;
    --build) build="$2"; shift ;;
    --runner) runner="$2"; shift ;;
    --iters) iters="$2"; shift ;;
    --warmup) warmup="$2"; shift ;;
    --timeout) timeout="$2"; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "run_sweep.sh: error: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) examples+=("$1") ;;
  esac
  shift
done

cubin_dir=${cubin_dir:-$out}
results=${results:-$out/results}
mkdir -p "$results"

if [[ $compile -eq 1 ]]; then
  tilegen="$build/bin/tilegen"
  if [[ ! -x "$tilegen" ]]; then
    echo "run_sweep.sh: error: $tilegen not found: build tilegen first (or run without --compile)" >&2
    exit 2
  fi
  if [[ ${#examples[@]} -eq 0 ]]; then
    examples=("$root"/examples/*.mlir)
  fi
  mkdir -p "$out"
  cubin_dir=$out
  for ex in "${examples[@]}"; do
    [[ -f "$ex" ]] || { echo "run_sweep.sh: error: no such example: $ex" >&2; exit 2; }
    name="$(basename "$ex" .mlir)"
    echo "== compiling $ex for $target -> $out/$name.cubin"
    "$tilegen" "$ex" --target="$target" --emit=cubin -o "$out/$name.cubin"
  done
fi

if [[ -z "$runner" ]]; then
  for cand in "$root/build-runner/bin/tilegen-run" "$build/bin/tilegen-run"; do
    if [[ -x "$cand" ]]; then runner="$cand"; break; fi
  done
fi
if [[ -z "$runner" || ! -x "$runner" ]]; then
  echo "run_sweep.sh: error: tilegen-run not found; build it with:" >&2
  echo "  cmake -G Ninja -S $root -B $root/build-runner -DTILEGEN_RUNNER_ONLY=ON && ninja -C $root/build-runner" >&2
  exit 2
fi

shopt -s nullglob
cubins=()
if [[ $compile -eq 0 && ${#examples[@]} -gt 0 ]]; then
  cubins=("${examples[@]}")
else
  cubins=("$cubin_dir"/*.cubin)
fi
if [[ ${#cubins[@]} -eq 0 ]]; then
  echo "run_sweep.sh: error: no cubins in $cubin_dir (compile with --compile or scripts/gpu-prepare.sh on a machine with the MLIR build)" >&2
  exit 2
fi

worst=0
for cubin in "${cubins[@]}"; do
  name="$(basename "$cubin" .cubin)"
  if [[ ! -f "${cubin%.cubin}.json" ]]; then
    echo "== skipping $cubin: no manifest ${cubin%.cubin}.json beside it"
    worst=2
    continue
  fi
  echo "== $name: $runner $cubin --sweep $sweep --check --bench"
  set +e
  "$runner" "$cubin" --sweep "$sweep" --check --bench --iters "$iters" --warmup "$warmup" \
    --timeout "$timeout" --csv "$results/$name.csv" --json "$results/$name.json" \
    2>&1 | tee "$results/$name.log"
  rc=${PIPESTATUS[0]}
  set -e
  echo "== $name: exit $rc"
  if [[ $rc -gt $worst ]]; then worst=$rc; fi
done

# Merge the per-kernel results into all.csv and summary.md.
python3 "$root/bench/summarize.py" "$results" --write-csv "$results/all.csv" > "$results/summary.md"
echo "== wrote $results/all.csv and $results/summary.md"
exit $worst
