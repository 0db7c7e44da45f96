#!/usr/bin/env bash
# Compiles the example kernels (optional) and runs tilegen-run's check + benchmark sweep on each.
#
#   bench/run_sweep.sh [--compile] [--target sm_90] [--sweep square,llm,odd]
#                      [--out out] [--build build] [--runner PATH]
#                      [--iters 50] [--warmup 10] [--timeout 300] [EXAMPLE.mlir ...]
#
# --compile   build out/NAME.cubin + out/NAME.json from examples/*.mlir (or the files given)
#             with BUILD/bin/tilegen. Needs the MLIR build: do it on the development machine
#             and carry out/ to the GPU machine, which has CUDA but no MLIR.
# Without --compile, every out/*.cubin that has a manifest beside it is run.
#
# Each kernel runs `tilegen-run CUBIN --sweep LIST --check --bench`, which checks every shape
# against a reference and times it against cuBLAS, one child process per shape. Results go to
# OUT/results/: NAME.csv and NAME.json per kernel, NAME.log (the full output), all.csv (every
# row) and summary.md (a markdown table for bench/RESULTS.md). The exit code is the worst of the
# runs (0 pass, 1 check failed, 2 usage, 3 CUDA error, 4 hang).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
compile=0
target=sm_90
sweep=square,llm,odd
out="$root/out"
build="$root/build"
runner=""
iters=50
warmup=10
timeout=300
examples=()

usage() { sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --compile) compile=1 ;;
    --target) target="$2"; shift ;;
    --sweep) sweep="$2"; shift ;;
    --out) out="$2"; shift ;;
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

mkdir -p "$out/results"

if [[ $compile -eq 1 ]]; then
  tilegen="$build/bin/tilegen"
  if [[ ! -x "$tilegen" ]]; then
    echo "run_sweep.sh: error: $tilegen not found: build tilegen first (or run without --compile)" >&2
    exit 2
  fi
  if [[ ${#examples[@]} -eq 0 ]]; then
    examples=("$root"/examples/*.mlir)
  fi
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
cubins=("$out"/*.cubin)
if [[ ${#cubins[@]} -eq 0 ]]; then
  echo "run_sweep.sh: error: no cubins in $out (compile with --compile on a machine with the MLIR build)" >&2
  exit 2
fi

worst=0
for cubin in "${cubins[@]}"; do
  name="$(basename "$cubin" .cubin)"
  if [[ ! -f "$out/$name.json" ]]; then
    echo "== skipping $cubin: no manifest $out/$name.json beside it"
    continue
  fi
  echo "== $name: $runner $cubin --sweep $sweep --check --bench"
  set +e
  "$runner" "$cubin" --sweep "$sweep" --check --bench --iters "$iters" --warmup "$warmup" \
    --timeout "$timeout" --csv "$out/results/$name.csv" --json "$out/results/$name.json" \
    2>&1 | tee "$out/results/$name.log"
  rc=${PIPESTATUS[0]}
  set -e
  echo "== $name: exit $rc"
  if [[ $rc -gt $worst ]]; then worst=$rc; fi
done

# Merge the per-kernel results into all.csv and summary.md.
python3 - "$out/results" <<'PY'
import csv, glob, json, os, sys
d = sys.argv[1]
rows, header, devices = [], None, {}
for path in sorted(glob.glob(os.path.join(d, "*.csv"))):
    if os.path.basename(path) == "all.csv":
        continue
    with open(path, newline="") as f:
        r = csv.reader(f)
        h = next(r, None)
        if h is None:
            continue
        header = header or h
        rows += [dict(zip(h, row)) for row in r]
    j = path[:-4] + ".json"
    if os.path.exists(j):
        devices.update(json.load(open(j)).get("device", {}))
if header is None:
    sys.exit(0)
with open(os.path.join(d, "all.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=header)
    w.writeheader()
    w.writerows(rows)
def num(v, fmt):
    try:
        return fmt.format(float(v))
    except ValueError:
        return "-"
with open(os.path.join(d, "summary.md"), "w") as f:
    if devices:
        f.write("GPU: {gpu} ({arch}, {sms} SMs, SM clock {clock_mhz} MHz, memory clock {mem_clock_mhz} MHz), "
                "driver {driver}, cuBLAS {cublas}\n\n".format(**{k: devices.get(k, "?") for k in
                ["gpu", "arch", "sms", "clock_mhz", "mem_clock_mhz", "driver", "cublas"]}))
    f.write("| kernel | M x N x K | status | rel err | worst tile | bad | ms (median) | TFLOP/s | cuBLAS TFLOP/s | ratio |\n")
    f.write("|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        f.write("| {} | {}x{}x{} | {} | {} | {} | {} | {} | {} | {} | {} |\n".format(
            r["kernel"], r["m"], r["n"], r["k"], r["status"], num(r["rel_err"], "{:.2e}"),
            num(r["worst_tile_rel_err"], "{:.2e}"), r["bad_elements"] or "-", num(r["ms_median"], "{:.3f}"),
            num(r["tflops"], "{:.1f}"), num(r["cublas_tflops"], "{:.1f}"), num(r["ratio_vs_cublas"], "{:.3f}")))
    f.write("\nReproduce any row with its `command` column in all.csv.\n")
print("== wrote {} and {}".format(os.path.join(d, "all.csv"), os.path.join(d, "summary.md")))
PY
exit $worst
