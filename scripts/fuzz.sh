#!/usr/bin/env bash
# Builds the sanitizer build (as scripts/test.sh --sanitize does, in build-sanitize/) and runs the
# libFuzzer targets of fuzz/ for SECONDS in all (default 60), with a fixed seed: tilegen-fuzz
# (descriptions through the whole compiler, ptxas included) for four fifths of it,
# tilegen-run-manifest-fuzz (tilegen-run's manifest reader and size checks) and
# tilegen-run-cubin-fuzz (its check of the cubin file) for a tenth each. Prints, per fuzzer, the
# executions, libFuzzer's coverage (cov: edges, ft: features), the corpus size and every finding
# (crash, sanitizer report, timeout, out-of-memory, leak, ptxas rejection: fuzz/TilegenFuzz.cpp),
# replayed once so that its report shows, and (fork mode) the failed jobs that saved no input.
# Ends with one line "N passed, N failed" (a fuzzer without findings is one pass; each finding,
# saved or not, is one failure) and exits non-zero on any finding.
#
#   scripts/fuzz.sh [--keep-going] [SECONDS]
#
# A fuzzer stops at its first finding; --keep-going runs it in libFuzzer's fork mode instead,
# which goes on after findings and collects them all (for long runs: its jobs start slowly).
# Before fuzzing, libFuzzer runs every corpus and seed input once (about two minutes for
# tilegen-fuzz's seeds on two cores, less once ptxas has seen their PTX).
#
# Kept in the build folder, outside the source tree:
#   fuzzing/corpus/<fuzzer>/    the corpus, grown across runs
#   fuzzing/seeds/<fuzzer>/     seeds from the repository (fuzz/seeds.py): examples/*.mlir and
#                               the test/ descriptions tagged with targets and stages; the
#                               manifests and cubins tilegen writes for the examples
#   fuzzing/findings/<fuzzer>/  this run's findings (the previous run's move to
#                               <fuzzer>.previous), and <fuzzer>.log, libFuzzer's output
#   fuzzing/ptxas-seen.txt      hashes of the PTX ptxas accepted (tilegen-fuzz runs ptxas on new
#                               PTX only)
#
# Environment: TILEGEN_FUZZ_SEED (libFuzzer -seed, default 1), TILEGEN_FUZZ_RSS_MB (default 4096),
# TILEGEN_FUZZ_RESEED=1 (rebuild the seed folders), TILEGEN_FUZZ_ARGS (more libFuzzer options),
# and those of scripts/lib.sh. One fuzzing process at a time: the machines have 2 cores.
set -uo pipefail
TG_SANITIZE=1
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

keep_going=0
seconds=60
for arg in "$@"; do
  case "$arg" in
    --keep-going) keep_going=1 ;;
    *[!0-9]*|'') echo "usage: scripts/fuzz.sh [--keep-going] [SECONDS]" >&2; echo "0 passed, 1 failed"; exit 2 ;;
    *) seconds=$arg ;;
  esac
done

summary() { echo "$1 passed, $2 failed"; }

if ! (tg_install_deps && tg_find_ptxas && tg_build); then
  summary 0 1
  exit 1
fi

work=$TG_BUILD/fuzzing
mkdir -p "$work"

# The fuzzers carry their sanitizer options (fuzz/SanitizerDefaults.cpp); reports get a dedup
# token (libFuzzer's fork mode reads it) and symbolized stacks.
symbolizer=$TG_LLVM/bin/llvm-symbolizer
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH=$symbolizer UBSAN_SYMBOLIZER_PATH=$symbolizer
export ASAN_OPTIONS="dedup_token_length=3${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="dedup_token_length=3${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export TILEGEN_FUZZ_PTXAS_CACHE=$work/ptxas-seen.txt

# Seeds.
if [ "${TILEGEN_FUZZ_RESEED:-0}" = 1 ]; then
  rm -rf "$work/seeds"
fi
rm -rf "$work/seeds/tilegen" # cheap, and follows the repository
python3 "$TG_ROOT/fuzz/seeds.py" descriptions "$TG_ROOT" "$work/seeds/tilegen" || { summary 0 1; exit 1; }
if [ ! -d "$work/seeds/cubin" ] || [ -z "$(ls -A "$work/seeds/cubin" 2>/dev/null)" ]; then
  tg_say "writing manifest and cubin seeds (tilegen --emit=cubin for every example and target)"
  rm -rf "$work/seeds/manifest" "$work/seeds/cubin"
  python3 "$TG_ROOT/fuzz/seeds.py" runner "$TG_ROOT" "$TG_BUILD/bin/tilegen" \
    "$work/seeds/manifest" "$work/seeds/cubin" || { summary 0 1; exit 1; }
fi

passed=0
failed=0

# Runs one fuzzer: NAME BINARY SECONDS DICT.
fuzz_one() {
  local name=$1 bin=$2 secs=$3 dict=$4
  local corpus=$work/corpus/$name findings=$work/findings/$name log=$work/findings/$name.log
  mkdir -p "$corpus"
  if [ -d "$findings" ] && [ -n "$(ls -A "$findings")" ]; then
    rm -rf "$findings.previous"
    mv "$findings" "$findings.previous"
  fi
  mkdir -p "$findings"
  tg_say "fuzzing with $name for $secs s (seed ${TILEGEN_FUZZ_SEED:-1}; corpus $corpus)"
  local mode=()
  # Fork mode runs the fuzzing in child processes and, with the -ignore_* options, goes on after
  # a finding; each is saved under $findings.
  [ "$keep_going" = 1 ] && mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  local start=$SECONDS
  (cd "$work" && "$bin" "$corpus" "$work/seeds/$name" "${mode[@]}" \
    -seed="${TILEGEN_FUZZ_SEED:-1}" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb="${TILEGEN_FUZZ_RSS_MB:-4096}" -max_len=16384 ${dict:+-dict="$dict"} \
    -artifact_prefix="$findings/" -print_final_stats=1 ${TILEGEN_FUZZ_ARGS:-} \
    </dev/null >"$log" 2>&1)
  local status=$?
  # The last progress line: "#N  NEW  cov: C ft: F corp: K/..." (fork mode: "#N: cov: C ...").
  local last
  last=$(grep -aE '^#[0-9]+:?[[:space:]].*cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1)
  if [ -n "$last" ]; then
    echo "$name: $(echo "$last" | sed -E 's/^#([0-9]+).*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*/\1 executions, cov \2, ft \3, corpus \4/'), $((SECONDS - start)) s"
  else
    echo "$name: no progress line (log: $log)"; tail -20 "$log"
  fi
  local files=()
  mapfile -t files < <(find "$findings" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort)
  # Fork mode counts the jobs that ended in a crash, timeout or out-of-memory ("oom/timeout/
  # crash: O/T/C"); a job that dies without libFuzzer's handler running (killed by a signal it
  # does not catch, or an exit of its own) saves no input, and is a finding all the same.
  local counted unsaved
  counted=$(grep -aoE 'oom/timeout/crash: [0-9]+/[0-9]+/[0-9]+' "$log" | tail -1 |
    awk -F'[ /]' '{print $4 + $5 + $6}')
  unsaved=$(( ${counted:-0} - ${#files[@]} ))
  if [ "$unsaved" -gt 0 ]; then
    echo "$name: libFuzzer counted ${counted} failed job(s) but only ${#files[@]} saved an input; $unsaved left none (their lines with ERROR, if any, are in $log)"
    grep -aE 'ERROR:|runtime error:' "$log" | head -10 | sed 's/^/    /'
    failed=$((failed + unsaved))
    [ ${#files[@]} -eq 0 ] && return
  fi
  if [ ${#files[@]} -eq 0 ] && [ $status -ne 0 ]; then
    echo "$name: libFuzzer exited with status $status and saved nothing (log: $log)"
    tail -20 "$log"
    failed=$((failed + 1))
    return
  fi
  if [ ${#files[@]} -eq 0 ]; then
    echo "$name: no findings"
    passed=$((passed + 1))
    return
  fi
  echo "$name: ${#files[@]} finding(s) in $findings"
  local f i=0
  for f in "${files[@]}"; do
    failed=$((failed + 1))
    i=$((i + 1))
    [ $i -gt 20 ] && continue
    echo "--- $f"
    # Replayed once, for the report (a timeout is not replayed: it would take its 10 s again).
    case "$(basename "$f")" in
      timeout-*) echo "    (timeout: replay with $bin $f)"; continue ;;
    esac
    timeout 120 "$bin" "$f" -rss_limit_mb="${TILEGEN_FUZZ_RSS_MB:-4096}" 2>&1 |
      grep -E 'FINDING|ERROR: |runtime error|SUMMARY|^    #[0-9] ' | head -12 | sed 's/^/    /'
  done
  [ ${#files[@]} -gt 20 ] && echo "($((${#files[@]} - 20)) more not replayed)"
}

# Four fifths of the time to the compiler, a tenth to each of tilegen-run's readers (they run
# thousands of inputs a second).
runner_secs=$((seconds / 10))
[ "$runner_secs" -lt 1 ] && runner_secs=1
compiler_secs=$((seconds - 2 * runner_secs))
[ "$compiler_secs" -lt 1 ] && compiler_secs=1
fuzz_one tilegen "$TG_BUILD/bin/tilegen-fuzz" "$compiler_secs" "$TG_ROOT/fuzz/tilegen.dict"
fuzz_one manifest "$TG_BUILD/bin/tilegen-run-manifest-fuzz" "$runner_secs" "$TG_ROOT/fuzz/manifest.dict"
fuzz_one cubin "$TG_BUILD/bin/tilegen-run-cubin-fuzz" "$runner_secs" ""

summary "$passed" "$failed"
[ "$failed" -eq 0 ]
