#!/usr/bin/env bash
# The ablation of bench/RESULTS.md: each description in bench/ablation/ is one variant of the
# warp-specialised wgmma kernel on sm_90a (abl_*: stages, accumulators, cluster, persistent grid)
# or of the mma.sync kernels on sm_90 (mms_*: multistage cp.async against the TMA-fed
# warp-specialised schedule, cooperative and ping-pong, in one table).
#
#   bench/ablation.sh prepare   # here (MLIR build): compile them into .dev/gpu/ablation/
#   bench/ablation.sh run       # on the H200, .dev/gpu carried: check + time at 4096^3 and
#                               # 8192^3 against cuBLAS, table to $OUT/ablation.md
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$root/.dev/gpu/ablation
case "${1:-}" in
prepare)
  mkdir -p "$dir"
  for f in "$root"/bench/ablation/*.mlir; do
    n=$(basename "$f" .mlir)
    "$root/build/bin/tilegen" "$f" -o "$dir/$n.cubin" | sed 's/^tilegen: //' || exit 1
  done
  ;;
run)
  out=${OUT:-$dir/out}
  mkdir -p "$out"
  runner=${TILEGEN_RUN:-$root/build-runner/bin/tilegen-run}
  if [ ! -x "$runner" ]; then
    cmake -G Ninja -S "$root" -B "$root/build-runner" -DTILEGEN_RUNNER_ONLY=ON >/dev/null &&
      ninja -C "$root/build-runner" >/dev/null || exit 1
  fi
  {
    echo "| variant | what changed | 4096^3 TFLOP/s | x cuBLAS | 8192^3 TFLOP/s | x cuBLAS |"
    echo "|---|---|---|---|---|---|"
    for c in "$dir"/*.cubin; do
      n=$(basename "$c" .cubin)
      what=$(head -1 "$root/bench/ablation/$n.mlir" | sed 's|^// ||')
      row="| $n | $what |"
      for s in 4096 8192; do
        line=$("$runner" "$c" --m $s --n $s --k $s --check --bench --timeout 60 2>&1 |
               grep -E "^${s}x${s}x${s} ")
        set -- $line
        # shape status rel_err worst bad ms p10..p90 TFLOP/s cuBLAS ratio
        if [ "${2:-}" = pass ]; then row="$row ${8} | ${10} |"; else row="$row ${2:-error} | - |"; fi
      done
      echo "$row"
    done
  } | tee "$out/ablation.md"
  ;;
*)
  echo "usage: bench/ablation.sh prepare|run" >&2
  exit 2
  ;;
esac
