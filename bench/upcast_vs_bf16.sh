#!/usr/bin/env bash
# Times the sm_90a upcast kernels (MXFP4 and NVFP4 weights x bf16 activations, MXFP8 x MXFP8)
# against the bf16 kernel, on the GPU machine, in one call: for each round, each upcast kernel
# over the shapes with weight-like block scales (--block-exp -8,-4: every E8M0 code below 127)
# and with the runner's default ones (-4,4: MXFP4 codes up to about 131, which take the
# two-multiply path; MXFP8's stay below its limit), then the bf16 kernel (timed against cuBLAS,
# alternating, in its own process). tilegen-run's timing: CUDA events, warm-up, median, L2
# flushed before every run.
#
#   bench/upcast_vs_bf16.sh [--cubins DIR] [--runner PATH] [--out DIR] [--shapes FILE]
#                           [--rounds N] [--iters N] [--warmup N]
#
# --cubins  where scripts/gpu-prepare.sh put the examples' cubins (default .dev/gpu/cubins):
#           gemm_mxfp4_bf16_upcast_sm90a.sm_90a, gemm_nvfp4_bf16_upcast_sm90a.sm_90a,
#           gemm_mxfp8_upcast_sm90a.sm_90a and gemm_bf16.sm_90a (.cubin + .json)
# --runner  tilegen-run (default build-runner/bin/tilegen-run, as scripts/gpu-run.sh build makes)
# --out     CSVs (KERNEL_EXP_rROUND.csv) and table.md (default .dev/gpu/upcast)
# --shapes  default bench/sweeps/upcast.txt; --rounds default 2; --iters 20; --warmup 5
# Prints table.md: per shape and round, TFLOP/s of each run and the upcast kernels' ratio to the
# bf16 kernel of the same round. Exit code: 0, or the worst tilegen-run exit code.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cubins=$root/.dev/gpu/cubins
runner=$root/build-runner/bin/tilegen-run
out=$root/.dev/gpu/upcast
shapes=$root/bench/sweeps/upcast.txt
rounds=2 iters=20 warmup=5
while [[ $# -gt 0 ]]; do
  case "$1" in
    --cubins) cubins=$2; shift ;;
    --runner) runner=$2; shift ;;
    --out) out=$2; shift ;;
    --shapes) shapes=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --iters) iters=$2; shift ;;
    --warmup) warmup=$2; shift ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "upcast_vs_bf16.sh: error: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done
for x in "$rounds" "$iters" "$warmup"; do
  [[ "$x" =~ ^[0-9]+$ ]] || { echo "upcast_vs_bf16.sh: error: '$x' is not a count" >&2; exit 2; }
done
[ -x "$runner" ] || { echo "upcast_vs_bf16.sh: error: no tilegen-run at $runner (scripts/gpu-run.sh build)" >&2; exit 2; }
[ -f "$shapes" ] || { echo "upcast_vs_bf16.sh: error: no shapes file $shapes" >&2; exit 2; }
mx=$cubins/gemm_mxfp4_bf16_upcast_sm90a.sm_90a.json
nv=$cubins/gemm_nvfp4_bf16_upcast_sm90a.sm_90a.json
m8=$cubins/gemm_mxfp8_upcast_sm90a.sm_90a.json
bf=$cubins/gemm_bf16.sm_90a.json
for f in "$mx" "$nv" "$m8" "$bf"; do
  [ -f "$f" ] || { echo "upcast_vs_bf16.sh: error: missing $f (scripts/gpu-prepare.sh)" >&2; exit 2; }
done
mkdir -p "$out"
worst=0
run() { # NAME MANIFEST EXP ROUND
  local csv=$out/$1_$3_r$4.csv
  local exp=()
  [ "$1" = bf16 ] || exp=(--block-exp "$3")
  "$runner" "$2" --sweep "$shapes" --bench --iters "$iters" --warmup "$warmup" \
    "${exp[@]}" --csv "$csv" > "${csv%.csv}.log" 2>&1
  local rc=$?
  [ $rc -gt $worst ] && worst=$rc
  echo "upcast_vs_bf16.sh: $1${exp[*]:+ ${exp[*]}} round $4: exit $rc"
}
for ((r = 1; r <= rounds; ++r)); do
  for e in -8,-4 -4,4; do
    run mxfp4 "$mx" "$e" "$r"
    run nvfp4 "$nv" "$e" "$r"
    run mxfp8 "$m8" "$e" "$r"
  done
  run bf16 "$bf" none "$r"
done
python3 - "$out" "$rounds" > "$out/table.md" <<'PY'
import csv, os, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def load(name):
    try:
        return {(r['m'], r['n'], r['k']): r for r in csv.DictReader(open(os.path.join(out, name)))}
    except OSError:
        return {}
cols = [('mxfp4', '-8,-4'), ('mxfp4', '-4,4'), ('nvfp4', '-8,-4'), ('nvfp4', '-4,4'),
        ('mxfp8', '-8,-4'), ('mxfp8', '-4,4')]
print('| shape | round | ' + ' | '.join(f'{k} {e}' for k, e in cols) +
      ' | bf16 kernel | cuBLAS bf16 | ' + ' | '.join(f'{k} {e} x bf16' for k, e in cols) + ' |')
print('|' + '---|' * (4 + 2 * len(cols)))
for r in range(1, rounds + 1):
    bf = load(f'bf16_none_r{r}.csv')
    runs = [load(f'{k}_{e}_r{r}.csv') for k, e in cols]
    for shape, b in bf.items():
        def tf(row):
            return float(row['tflops']) if row and row.get('tflops') else None
        vals = [tf(x.get(shape)) for x in runs]
        bt = tf(b)
        cb = float(b['cublas_tflops']) if b.get('cublas_tflops') else None
        fmt = lambda v: '-' if v is None else f'{v:.1f}'
        ratio = lambda v: '-' if v is None or not bt else f'{v / bt:.3f}'
        print(f'| {"x".join(shape)} | {r} | ' + ' | '.join(map(fmt, vals)) +
              f' | {fmt(bt)} | {fmt(cb)} | ' + ' | '.join(map(ratio, vals)) + ' |')
PY
cat "$out/table.md"
exit $worst
