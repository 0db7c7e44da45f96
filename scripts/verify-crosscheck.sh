#!/usr/bin/env bash
# Runs THERE (the GPU machine, an H200), from the repository root, after
# scripts/verify-crosscheck-prepare.sh here and with .dev/gpu carried. Runs every planted bug of
# .dev/gpu/crosscheck/mutants.tsv on the GPU and writes the table docs/verify.md asks for:
# mutation, the protocol checker's verdict (from here), the GPU's verdict.
#
#   scripts/verify-crosscheck.sh [--timeout SEC] [--sanitize N]
#
# GPU verdicts, from tilegen-run --check --timeout SEC (exit codes of tilegen-run --help):
#   pass (0), wrong (1: the result differs from the reference), fault (3: a CUDA error or kernel
#   fault), hang (4: killed after SEC seconds). With --sanitize N (default 0), the first N mutants
#   that pass get compute-sanitizer's racecheck and synccheck as well (small problem, --no-fork):
#   "sanitizer error" when either reports one.
# The problem: M = 4096, N = 2048, K = 1032 (about two tiles per CTA of the persistent grid on an
# H200, an odd number of K-slices so that the rings wrap at odd positions), cuBLAS reference.
# Files, in $OUT (default .dev/gpu/out): crosscheck.md (the table), crosscheck.log, build.log.
# Time: the runner is built first when build-runner/bin/tilegen-run is missing (scripts/gpu-run.sh
# build, up to 150 s); no mutant is started TILEGEN_XCHECK_DEADLINE seconds after the first
# (default 180; a pass takes about 2 s, a hang the timeout plus about 1 s), and the table says
# which were not run. Exit code: 0 when every mutant that hangs, faults or computes
# a wrong result on the GPU is one the checker catches, else 1.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
start=$SECONDS
OUT=${OUT:-$root/.dev/gpu/out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
dir=$root/.dev/gpu/crosscheck
runner=${TILEGEN_GPU_RUNNER:-$root/build-runner/bin/tilegen-run}
deadline=${TILEGEN_XCHECK_DEADLINE:-180}
timeout_s=5
sanitize=0
while [ $# -gt 0 ]; do
  case "$1" in
    --timeout) timeout_s=$2; shift ;;
    --sanitize) sanitize=$2; shift ;;
    *) echo "usage: $0 [--timeout SEC] [--sanitize N]" >&2; exit 2 ;;
  esac
  shift
done
log=$OUT/crosscheck.log
: > "$log"
say() { printf '[crosscheck %3ds] %s\n' "$((SECONDS - start))" "$*" | tee -a "$log"; }

[ -f "$dir/mutants.tsv" ] || { say "error: no $dir/mutants.tsv: run scripts/verify-crosscheck-prepare.sh on the development machine and carry .dev/gpu"; exit 2; }
if [ ! -x "$runner" ]; then
  say "building the runner (scripts/gpu-run.sh build)"
  OUT=$OUT TILEGEN_GPU_DEADLINE=200 "$root/scripts/gpu-run.sh" build >> "$log" 2>&1
fi
[ -x "$runner" ] || { say "error: no runner at $runner (see $OUT/build.log)"; exit 2; }
sanitizer=${TILEGEN_GPU_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}

shape=(--m 4096 --n 2048 --k 1032)
small=(--m 520 --n 264 --k 200)
table=$OUT/crosscheck.md
rows=$(mktemp)
sanitized=0 disagree=0 ran=0 skipped=0
runs_start=$SECONDS
while IFS=$'\t' read -r name example kind site line checker detail; do
  [ "$name" = name ] && continue
  if [ "$checker" = "not assembled" ]; then
    printf '| %s | %s | %s | not assembled | - |\n' "$kind" "$site" "$line" >> "$rows"
    continue
  fi
  if [ $((SECONDS - runs_start)) -ge "$deadline" ]; then
    printf '| %s | %s | %s | %s | not run (deadline) |\n' "$kind" "$site" "$line" "$checker" >> "$rows"
    skipped=$((skipped + 1))
    continue
  fi
  out=$(timeout -k 5 $((timeout_s + 30)) "$runner" "$dir/$name.cubin" "${shape[@]}" --check \
        --timeout "$timeout_s" 2>&1)
  rc=$?
  case $rc in
    0) gpu=pass ;;
    1) gpu=wrong ;;
    3) gpu=fault ;;
    4) if grep -q 'hang:' <<< "$out"; then gpu=hang; else gpu="timeout (not on the GPU)"; fi ;;
    124|137) gpu="hang (runner killed)" ;;
    *) gpu="runner error (exit $rc)" ;;
  esac
  echo "== $name (exit $rc)" >> "$log"
  tail -5 <<< "$out" >> "$log"
  if [ "$gpu" = pass ] && [ "$kind" != none ] && [ "$sanitized" -lt "$sanitize" ] && [ -x "$sanitizer" ]; then
    sanitized=$((sanitized + 1))
    for tool in racecheck synccheck; do
      s=$(timeout -k 5 60 "$sanitizer" --tool "$tool" --error-exitcode 9 "$runner" "$dir/$name.cubin" \
          "${small[@]}" --check --no-fork 2>&1)
      src=$?
      echo "-- $tool (exit $src)" >> "$log"
      tail -5 <<< "$s" >> "$log"
      if [ $src -eq 9 ]; then gpu="sanitizer error ($tool)"; break; fi
      if [ $src -eq 124 ] || [ $src -eq 137 ]; then gpu="pass ($tool: not finished in 60 s)"; fi
    done
  fi
  ran=$((ran + 1))
  flagged=no
  [ "$checker" = caught ] && flagged=yes
  case $gpu in
    hang*|wrong|fault|"sanitizer error"*)
      if [ "$kind" != none ] && [ $flagged = no ]; then disagree=$((disagree + 1)); gpu="$gpu (NOT FLAGGED)"; fi ;;
  esac
  printf '| %s | %s | %s | %s | %s |\n' "$kind" "$site" "$line" "$checker" "$gpu" >> "$rows"
  say "$name: checker $checker, GPU $gpu"
done < "$dir/mutants.tsv"

{
  echo "# Protocol checker vs the GPU: planted bugs"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -n), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  sed 's/^/    /' "$dir/PREPARED"
  echo
  echo "Problem ${shape[*]}, tilegen-run --check --timeout $timeout_s; sanitizers on the first $sanitize passing mutant(s) (${small[*]})."
  echo
  echo "| mutation | site | PTX line | checker | GPU |"
  echo "|---|---|---|---|---|"
  cat "$rows"
  echo
  echo "$ran run, $skipped not run (deadline ${deadline} s); mutants that fail on the GPU but that the checker does not flag: $disagree"
} > "$table"
rm -f "$rows"
cat "$table"
[ "$disagree" -eq 0 ]
