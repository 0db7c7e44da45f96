#!/usr/bin/env bash
# Runs THERE (the GPU machine: CUDA, cuBLAS, compute-sanitizer, python3; no LLVM/MLIR), from the
# repository root, after scripts/gpu-prepare.sh here and with .dev/gpu carried:
#
#   scripts/gpu-run.sh [PHASE ...] [--only REGEX] [--sweep LIST]
#
# PHASEs, in this order whatever order they are given in (default: all of them):
#   build     cmake -DTILEGEN_RUNNER_ONLY=ON + ninja: build-runner/bin/tilegen-run, build-runner/lib/
#             libtilegen-launch.so (the Python tests load it) and, where the
#             CUDA toolkit has libcuda, tilegen-launch-example (the launch library's example; done anyway
#             when another phase needs the runner and it is missing)
#   tests     the GPU lit tests, test/Integration (REQUIRES: cuda-gpu, judged by tilegen-run's exit
#             code), under the carried lit with lit.gpu.cfg.py; without lit, a plain RUN-line loop
#   sanitize  compute-sanitizer memcheck, racecheck and synccheck on one small run of each cubin
#             (tilegen-run --no-fork --check, 200x264x1056)
#   bench     bench/run_sweep.sh: --sweep square,llm,odd --check --bench for each cubin, sm_90a first
#   summary   the table: per kernel, tests and sweep shapes passed/failed, sanitizers, TFLOP/s and
#             the cuBLAS ratio at 4096^3 and 8192^3, geomean ratio over the BF16 sweep
#             (always run last, on whatever $OUT holds)
# --only REGEX  only the cubins whose file name matches (tests: only <example>.<target>-*.test)
# --sweep LIST  the bench sweep (default square,llm,odd; a file of "M N K" lines works too)
#
# Everything goes to $OUT (default .dev/gpu/out), at most 8 files, none in sub-folders:
#   summary.md  build.log  tests.log  sanitize.log  bench.log  bench.csv  bench.json
# Time: the whole run stops before TILEGEN_GPU_DEADLINE seconds (default 540, under the device's
# 10 minutes); each phase has its own limit as well (TILEGEN_GPU_LIMIT_{BUILD,TESTS,SANITIZE,BENCH},
# default 150, 200, 200, 480 s; a sanitizer run: TILEGEN_GPU_SANITIZE_RUN_LIMIT, 90 s) and gets
# what is left of the deadline when that is less. A phase cut short says so in summary.md.
# Environment for dry runs (scripts/gpu-dryrun.sh): TILEGEN_GPU_CUBINS (default .dev/gpu/cubins),
# TILEGEN_GPU_RUNNER (a tilegen-run to use instead of building one), TILEGEN_GPU_LIT_FILTER_OUT
# (a regex of tests to leave out), TILEGEN_GPU_ITERS / TILEGEN_GPU_WARMUP (bench, default 50 / 10),
# TILEGEN_GPU_NO_LIT=1 (use the RUN-line loop), TILEGEN_GPU_SANITIZER (a compute-sanitizer, or none).
# Exit code: 0 when every phase run passed, else 1.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
start=$SECONDS
deadline=${TILEGEN_GPU_DEADLINE:-540}
OUT=${OUT:-$root/.dev/gpu/out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cubins_dir=${TILEGEN_GPU_CUBINS:-$root/.dev/gpu/cubins}
work=$root/build-runner/gpu-work
runner=${TILEGEN_GPU_RUNNER:-$root/build-runner/bin/tilegen-run}
only=""
sweep=square,llm,odd
# K a multiple of 32 (FP8 TMA strides, the FP4 upcast's packed rows) and long enough that every
# kernel's ring wraps (9 K-slices of 128, 17 of 64): a slot's reuse is where racecheck sees a
# release that does not order every reader's loads before the next writer's stores.
sanitize_shape=(--m 200 --n 264 --k 1056)

say() { printf '[gpu-run %3ds] %s\n' "$((SECONDS - start))" "$*"; }

want_build=0 want_tests=0 want_sanitize=0 want_bench=0
any=0
while [ $# -gt 0 ]; do
  case "$1" in
    build|tests|sanitize|bench) eval "want_$1=1"; any=1 ;;
    summary) any=1 ;;
    all) want_build=1 want_tests=1 want_sanitize=1 want_bench=1; any=1 ;;
    --only) only=$2; shift ;;
    --sweep) sweep=$2; shift ;;
    -h|--help) sed -n '2,32p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-run.sh: error: unknown phase or option '$1' (phases: build tests sanitize bench summary)" >&2; exit 2 ;;
  esac
  shift
done
[ $any -eq 1 ] || { want_build=1 want_tests=1 want_sanitize=1 want_bench=1; }

# Phase outcomes, for summary.md: "phase|status|seconds".
phases_file=$work/phases
mkdir -p "$work"
: > "$phases_file"
overall=0
record() { echo "$1|$2|$3" >> "$phases_file"; case "$2" in ok|skipped) ;; *) overall=1 ;; esac; }

# Seconds a phase may take: its own limit, or what is left before the deadline (keeping 20 s for
# the kill grace and the summary), whichever is less.
limit_for() {
  local own=$1 left=$((deadline - (SECONDS - start) - 20))
  [ $left -lt $own ] && own=$left
  [ $own -lt 1 ] && own=0
  echo "$own"
}

# The cubins to use: sm_90a first (the main kernel), then by name.
shopt -s nullglob
cubins=()
for c in "$cubins_dir"/*.sm_90a.cubin "$cubins_dir"/*.cubin; do
  case " ${cubins[*]-} " in *" $c "*) continue ;; esac
  [ -f "${c%.cubin}.json" ] || continue
  if [ -n "$only" ] && ! [[ $(basename "$c") =~ $only ]]; then continue; fi
  cubins+=("$c")
done
shopt -u nullglob

# ---------------------------------------------------------------------------------------------
phase_build() {
  local t0=$SECONDS lim cuda_root="" log=$OUT/build.log
  lim=$(limit_for "${TILEGEN_GPU_LIMIT_BUILD:-150}")
  if [ -n "${TILEGEN_GPU_RUNNER:-}" ]; then
    say "build: using TILEGEN_GPU_RUNNER=$runner"
    echo "using TILEGEN_GPU_RUNNER=$runner" > "$log"
    record build ok 0
    return
  fi
  if [ ! -f /usr/local/cuda/include/cuda.h ] && command -v nvcc >/dev/null 2>&1; then
    cuda_root=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
  fi
  say "build: tilegen-run (runner only) in build-runner, limit ${lim}s"
  {
    echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n)"
    nvidia-smi -L 2>&1 || true
    command -v nvcc >/dev/null && nvcc --version | tail -2
    timeout -k 10 "$lim" cmake -G Ninja -S "$root" -B "$root/build-runner" -DTILEGEN_RUNNER_ONLY=ON \
      -DCMAKE_BUILD_TYPE=Release -DTILEGEN_RUN_FAKE_CUDA=OFF \
      ${cuda_root:+-DTILEGEN_CUDA_ROOT="$cuda_root"} </dev/null &&
      timeout -k 10 "$lim" ninja -C "$root/build-runner" tilegen-run tilegen-launch </dev/null &&
      { ! ninja -C "$root/build-runner" -t targets all 2>/dev/null | grep -q '^tilegen-launch-example:' ||
        timeout -k 10 "$lim" ninja -C "$root/build-runner" tilegen-launch-example </dev/null; }
  } > "$log" 2>&1
  local rc=$?
  if [ $rc -eq 0 ] && [ -x "$runner" ]; then
    record build ok $((SECONDS - t0))
  else
    [ $rc -eq 124 ] && record build "timed out (${lim}s)" $((SECONDS - t0)) || record build "failed (exit $rc)" $((SECONDS - t0))
    say "build failed: the end of $log:"
    tail -20 "$log"
  fi
}

# ---------------------------------------------------------------------------------------------
# The lit command: the carried copy, else an installed one, else none.
lit_cmd=()
find_lit() {
  if [ "${TILEGEN_GPU_NO_LIT:-0}" = 1 ]; then
    return
  elif [ -f "$root/.dev/gpu/lit/lit/main.py" ]; then
    lit_cmd=(python3 -c 'import sys; sys.path.insert(0, sys.argv.pop(1)); from lit.main import main; main()' "$root/.dev/gpu/lit")
  elif python3 -c 'import lit.main' 2>/dev/null; then
    lit_cmd=(python3 -c 'from lit.main import main; main()')
  elif command -v lit >/dev/null 2>&1; then
    lit_cmd=(lit)
  fi
}

# Without lit: runs each test's RUN lines with bash (DEFINE: and the substitutions of
# lit.local.cfg / lit.gpu.cfg.py), printing lit-style PASS/FAIL lines.
# Usage: python3 $work/run-tests.py SRC RUNNER CUBINS EXEC_ROOT FILTER_OUT ONLY
write_test_loop() {
  cat > "$work/run-tests.py" <<'PY'
import glob, os, re, subprocess, sys
src, runner, cubins, exec_root, filter_out, only = sys.argv[1:7]
os.makedirs(exec_root, exist_ok=True)
expect = '"%s" "%s"' % (sys.executable, os.path.join(src, "Inputs", "expect-exit.py"))
tests = sorted(glob.glob(os.path.join(src, "*.test")))
if filter_out:
    tests = [t for t in tests if not re.search(filter_out, os.path.basename(t))]
if only:
    tests = [t for t in tests if re.search(only, os.path.basename(t))]
counts = {"PASS": 0, "FAIL": 0}
for i, t in enumerate(tests, 1):
    name = os.path.basename(t)
    defs, runs = {}, []
    for line in open(t):
        m = re.match(r"^\s*(?://\s*)?DEFINE:\s*(%\{\w+\})\s*=\s*(.*)$", line)
        if m:
            defs[m.group(1)] = m.group(2).strip()
            continue
        m = re.match(r"^\s*(?://\s*)?RUN:\s*(.*)$", line)
        if m:
            runs.append(m.group(1).strip())
    ok, log = True, []
    for cmd in runs:
        for k, v in defs.items():
            cmd = cmd.replace(k, v)
        for k, v in (("%tilegen-run", runner), ("%cubins", cubins), ("%expect-exit", expect),
                     ("%t", os.path.join(exec_root, name + ".tmp")), ("%S", src)):
            cmd = cmd.replace(k, v)
        p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True)
        log.append("$ %s\n%s%s(exit %d)\n" % (cmd, p.stdout, p.stderr, p.returncode))
        if p.returncode != 0:
            ok = False
            break
    res = "PASS" if ok else "FAIL"
    counts[res] += 1
    print("%s: tilegen-gpu :: %s (%d of %d)" % (res, name, i, len(tests)), flush=True)
    if not ok:
        print("".join(log))
print("\nTotal Discovered Tests: %d\n  Passed: %d\n  Failed: %d" % (len(tests), counts["PASS"], counts["FAIL"]))
sys.exit(1 if counts["FAIL"] else 0)
PY
}

phase_tests() {
  local t0=$SECONDS lim log=$OUT/tests.log rc
  lim=$(limit_for "${TILEGEN_GPU_LIMIT_TESTS:-200}")
  [ "$lim" -gt 0 ] || { record tests "not run (no time left)" 0; return; }
  mkdir -p "$work/test-gpu"
  cat > "$work/test-gpu/lit.site.cfg.py" <<EOF
# Written by scripts/gpu-run.sh: the standalone GPU suite (test/Integration/lit.gpu.cfg.py).
config.tilegen_run = "$runner"
config.tilegen_gpu_cubins = "$cubins_dir"
config.tilegen_obj_root = "$work"
lit_config.load_config(config, "$root/test/Integration/lit.gpu.cfg.py")
EOF
  # --only: the tests of the matching cubins (test files are <example>.<target>-<what>.test).
  local only_tests=""
  if [ -n "$only" ]; then
    local c stem
    for c in "${cubins[@]}"; do stem=$(basename "$c" .cubin); only_tests+="${only_tests:+|}(^| )${stem//./\\.}-"; done
    [ -n "$only_tests" ] || only_tests='^$'
  fi
  find_lit
  local how="lit (${lit_cmd[*]: -1})"
  [ ${#lit_cmd[@]} -gt 0 ] || how="a RUN-line loop (no lit found)"
  say "tests: test/Integration with $how, limit ${lim}s"
  {
    echo "== cubins: $cubins_dir"
    cat "$root/.dev/gpu/PREPARED" 2>/dev/null
    if [ ${#lit_cmd[@]} -gt 0 ]; then
      local args=(-v -j "${TILEGEN_GPU_LIT_JOBS:-8}")
      python3 -c 'import psutil' 2>/dev/null && args+=(--timeout=180)
      [ -n "${TILEGEN_GPU_LIT_FILTER_OUT:-}" ] && args+=(--filter-out="$TILEGEN_GPU_LIT_FILTER_OUT")
      [ -n "$only_tests" ] && args+=(--filter="$only_tests")
      timeout -k 10 "$lim" "${lit_cmd[@]}" "${args[@]}" "$work/test-gpu"
    else
      write_test_loop
      timeout -k 10 "$lim" python3 "$work/run-tests.py" "$root/test/Integration" "$runner" "$cubins_dir" \
        "$work/test-gpu" "${TILEGEN_GPU_LIT_FILTER_OUT:-}" "$only_tests"
    fi
  } > "$log" 2>&1 </dev/null
  rc=$?
  grep -E '^(PASS|FAIL|UNSUPPORTED|TIMEOUT|XPASS|UNRESOLVED):' "$log" | sed 's/^/    /'
  grep -E '^ *(Passed|Failed|Unsupported|Timed Out)' "$log" | sed 's/^ */    /'
  if [ $rc -eq 0 ] && ! grep -q '^PASS:' "$log"; then
    record tests "no test passed (was the GPU detected? see the UNSUPPORTED lines in tests.log)" $((SECONDS - t0))
    return
  fi
  case $rc in
    0) record tests ok $((SECONDS - t0)) ;;
    124) record tests "timed out (${lim}s)" $((SECONDS - t0)) ;;
    *) record tests "failed (exit $rc)" $((SECONDS - t0)) ;;
  esac
}

# ---------------------------------------------------------------------------------------------
phase_sanitize() {
  local t0=$SECONDS lim log=$OUT/sanitize.log cs c stem tool
  lim=$(limit_for "${TILEGEN_GPU_LIMIT_SANITIZE:-200}")
  cs=${TILEGEN_GPU_SANITIZER:-$(command -v compute-sanitizer || true)}
  [ -z "$cs" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && cs=/usr/local/cuda/bin/compute-sanitizer
  [ "$cs" = none ] && cs=""
  : > "$log"
  if [ -z "$cs" ]; then
    say "sanitize: no compute-sanitizer here: skipped"
    for c in "${cubins[@]}"; do
      for tool in memcheck racecheck synccheck; do
        echo "RESULT cubin=$(basename "$c" .cubin) tool=$tool status=skipped errors=- seconds=0 rc=-" >> "$log"
      done
    done
    record sanitize skipped 0
    return
  fi
  say "sanitize: memcheck, racecheck, synccheck on ${sanitize_shape[*]} per cubin, limit ${lim}s"
  local worst=ok
  for tool in memcheck synccheck racecheck; do
    for c in "${cubins[@]}"; do
      stem=$(basename "$c" .cubin)
      local left=$((lim - (SECONDS - t0))) run_lim=${TILEGEN_GPU_SANITIZE_RUN_LIMIT:-90}
      [ $left -lt $run_lim ] && run_lim=$left
      if [ $run_lim -lt 5 ]; then
        echo "RESULT cubin=$stem tool=$tool status=not-run errors=- seconds=0 rc=- (phase limit ${lim}s reached)" >> "$log"
        worst="timed out (${lim}s)"
        continue
      fi
      local s0=$SECONDS out rc errors warnings status
      out=$work/sanitize-$stem-$tool.txt
      {
        echo "=================================================================="
        echo "== $tool: $stem (limit ${run_lim}s)"
        echo "\$ TILEGEN_RUN_LIBCUBLAS=none TILEGEN_RUN_LIBCUBLASLT=none $cs --tool $tool --error-exitcode 86 $runner $c ${sanitize_shape[*]} --check --no-fork"
      } >> "$log"
      # Only our kernel runs under the sanitizer: the vendor's GEMMs that --check would time
      # beside it (cuBLAS, cuBLASLt's block-scaled FP8) are left out, so that what is reported
      # is ours (racecheck reports a hazard inside cuBLASLt's nvjet_sm90_qqtst_* FP8 kernel).
      TILEGEN_RUN_LIBCUBLAS=none TILEGEN_RUN_LIBCUBLASLT=none timeout -k 5 "$run_lim" "$cs" --tool "$tool" --error-exitcode 86 \
        --print-limit 20 "$runner" "$c" "${sanitize_shape[@]}" --check --no-fork > "$out" 2>&1 </dev/null
      rc=$?
      cat "$out" >> "$log"
      errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9][0-9]*\) error.*/\1/p; s/.*RACECHECK SUMMARY: [0-9]* hazards\{0,1\} displayed (\([0-9][0-9]*\) error.*/\1/p' "$out" | tail -1)
      warnings=$(sed -n 's/.*RACECHECK SUMMARY: .*, \([0-9][0-9]*\) warning.*/\1/p' "$out" | tail -1)
      if [ $rc -eq 124 ]; then status=timeout
      elif [ $rc -eq 86 ]; then status=errors
      elif [ $rc -eq 0 ] && [ "${errors:-0}" = 0 ]; then status=clean
      elif [ $rc -eq 0 ]; then status=errors
      elif [ $rc -eq 1 ]; then status=check-failed
      else status=failed
      fi
      echo "RESULT cubin=$stem tool=$tool status=$status errors=${errors:--} warnings=${warnings:-0} seconds=$((SECONDS - s0)) rc=$rc" | tee -a "$log" | sed 's/^/    /'
      [ $status = clean ] || worst="not clean"
    done
  done
  record sanitize "$worst" $((SECONDS - t0))
}

# ---------------------------------------------------------------------------------------------
phase_bench() {
  local t0=$SECONDS lim rc
  lim=$(limit_for "${TILEGEN_GPU_LIMIT_BENCH:-480}")
  [ "$lim" -gt 0 ] || { record bench "not run (no time left)" 0; return; }
  rm -rf "$work/bench"
  mkdir -p "$work/bench"
  say "bench: bench/run_sweep.sh --sweep $sweep --check --bench on ${#cubins[@]} cubin(s), limit ${lim}s"
  timeout -k 10 "$lim" "$root/bench/run_sweep.sh" --runner "$runner" --results "$work/bench" \
    --sweep "$sweep" --iters "${TILEGEN_GPU_ITERS:-50}" --warmup "${TILEGEN_GPU_WARMUP:-10}" \
    --timeout 120 "${cubins[@]}" > "$OUT/bench.log" 2>&1 </dev/null
  rc=$?
  grep -E '^== .*: exit' "$OUT/bench.log" | sed 's/^/    /'
  # Merge whatever finished (each kernel's CSV is written when its sweep ends).
  python3 "$root/bench/summarize.py" "$work/bench" --summary-only \
    --write-csv "$OUT/bench.csv" --write-json "$OUT/bench.json" > /dev/null
  case $rc in
    0) record bench ok $((SECONDS - t0)) ;;
    124) record bench "timed out (${lim}s): kernels after the last 'exit' line in bench.log have no rows" $((SECONDS - t0)) ;;
    *) record bench "not all pass (exit $rc: 1 check failed, 2 usage, 3 CUDA error, 4 hang)" $((SECONDS - t0)) ;;
  esac
}

# ---------------------------------------------------------------------------------------------
phase_summary() {
  local s=$OUT/summary.md
  {
    echo "# tilegen GPU run"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -n), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
    sed -n 's/^commit: /cubins from commit /p' "$root/.dev/gpu/PREPARED" 2>/dev/null
    echo
    echo "| phase | status | seconds |"
    echo "|---|---|---|"
    sed 's/^\([^|]*\)|\([^|]*\)|\(.*\)$/| \1 | \2 | \3 |/' "$phases_file"
    echo
    local inputs=()
    [ -f "$OUT/bench.csv" ] && inputs+=("$OUT/bench.csv")
    [ -f "$OUT/bench.json" ] && inputs+=("$OUT/bench.json")
    python3 "$root/bench/summarize.py" "${inputs[@]}" --tests "$OUT/tests.log" \
      --sanitize "$OUT/sanitize.log" --summary-only
  } > "$s" 2>&1
  echo
  cat "$s"
}

if [ ${#cubins[@]} -eq 0 ] && [ $((want_tests + want_sanitize + want_bench)) -gt 0 ]; then
  say "error: no cubins with manifests in $cubins_dir${only:+ matching '$only'}: run scripts/gpu-prepare.sh on the development machine and carry .dev/gpu"
  record cubins "missing" 0
  want_tests=0 want_sanitize=0 want_bench=0
fi
say "cubins: $(for c in "${cubins[@]}"; do basename "$c"; done | tr '\n' ' ')"
if [ $want_build -eq 1 ] || { [ $((want_tests + want_sanitize + want_bench)) -gt 0 ] && [ ! -x "$runner" ]; }; then
  phase_build
fi
if [ ! -x "$runner" ] && [ $((want_tests + want_sanitize + want_bench)) -gt 0 ]; then
  say "error: no runner at $runner: the other phases cannot run"
  want_tests=0 want_sanitize=0 want_bench=0
  overall=1
fi
[ $want_tests -eq 1 ] && phase_tests
[ $want_sanitize -eq 1 ] && phase_sanitize
[ $want_bench -eq 1 ] && phase_bench
phase_summary
say "done; files in $OUT: $(cd "$OUT" && ls | tr '\n' ' ')"
exit $overall
