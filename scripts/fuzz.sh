#!/usr/bin/env bash
# Builds the sanitizer build (as scripts/test.sh --sanitize does, in build-sanitize/) and runs the
# two libFuzzer targets of fuzz/ for SECONDS in all (default 60): tilegen-fuzz (descriptions
# through the whole compiler, ptxas included) for four fifths of it, tilegen-run-manifest-fuzz
# (tilegen-run's manifest reader) for the rest. Prints, per fuzzer, the executions, libFuzzer's
# coverage (cov: edges, ft: features), the corpus size and every finding (crash, sanitizer
# report, timeout, out-of-memory, leak, ptxas rejection: fuzz/TilegenFuzz.cpp), replayed once so
# that its report shows. Ends with one line "N passed, N failed" (a fuzzer without findings is one
# pass; each finding is one failure) and exits non-zero on any finding.
#
#   scripts/fuzz.sh [SECONDS]
#
# Kept in the build folder, outside the source tree:
#   fuzz/corpus/<fuzzer>/    the corpus, grown across runs
#   fuzz/seeds/<fuzzer>/     seeds from the repository (fuzz/seeds.py): examples/*.mlir and the
#                            test/ descriptions tagged with targets and stages; the manifests
#                            tilegen writes for the examples
#   fuzz/findings/<fuzzer>/  this run's findings (the previous run's move to <fuzzer>.previous)
#   fuzz/ptxas-seen.txt      hashes of the PTX ptxas accepted (tilegen-fuzz runs ptxas on new PTX)
#
# Environment: TILEGEN_FUZZ_SEED (libFuzzer -seed, default 1), TILEGEN_FUZZ_RSS_MB (default 4096),
# TILEGEN_FUZZ_RESEED=1 (rebuild the seed folders), TILEGEN_FUZZ_ARGS (more libFuzzer options),
# and those of scripts/lib.sh. One fuzzing process at a time (-fork=1): the machines have 2 cores.
set -uo pipefail
TG_SANITIZE=1
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${1:-60}
case "$seconds" in
  ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; echo "0 passed, 1 failed"; exit 2 ;;
esac

summary() { echo "$1 passed, $2 failed"; }

if ! (tg_install_deps && tg_find_ptxas && tg_build); then
  summary 0 1
  exit 1
fi

work=$TG_BUILD/fuzz
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
if [ ! -d "$work/seeds/manifest" ] || [ -z "$(ls -A "$work/seeds/manifest" 2>/dev/null)" ]; then
  tg_say "writing manifest seeds (tilegen --emit=cubin for every example and target)"
  python3 "$TG_ROOT/fuzz/seeds.py" manifests "$TG_ROOT" "$TG_BUILD/bin/tilegen" "$work/seeds/manifest" ||
    { summary 0 1; exit 1; }
fi

passed=0
failed=0

# Runs one fuzzer: NAME BINARY SECONDS DICT.
fuzz_one() {
  local name=$1 bin=$2 secs=$3 dict=$4
  local corpus=$work/corpus/$name findings=$work/findings/$name log=$work/$name.log
  mkdir -p "$corpus"
  if [ -d "$findings" ] && [ -n "$(ls -A "$findings")" ]; then
    rm -rf "$findings.previous"
    mv "$findings" "$findings.previous"
  fi
  mkdir -p "$findings"
  tg_say "fuzzing with $name for $secs s (seed ${TILEGEN_FUZZ_SEED:-1}; corpus $corpus)"
  # -fork=1 runs the fuzzing in a child process and, with the -ignore_* options, goes on after a
  # finding, so one run collects them all; each is saved under $findings.
  (cd "$work" && "$bin" "$corpus" "$work/seeds/$name" \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -seed="${TILEGEN_FUZZ_SEED:-1}" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb="${TILEGEN_FUZZ_RSS_MB:-4096}" -max_len=16384 -dict="$dict" \
    -artifact_prefix="$findings/" -print_final_stats=1 ${TILEGEN_FUZZ_ARGS:-} \
    </dev/null >"$log" 2>&1)
  local status=$?
  # Fork mode's progress lines: "#N: cov: C ft: F corp: K exec/s: E oom/timeout/crash: o/t/c time: Ts ..."
  local last
  last=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -1)
  if [ -n "$last" ]; then
    echo "$name: $(echo "$last" | sed -E 's/^#([0-9]+): cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).* time: ([0-9]+)s.*/\1 executions, cov \2, ft \3, corpus \4, \5 s/')"
  else
    echo "$name: no progress line (log: $log)"; tail -20 "$log"
  fi
  local files=()
  mapfile -t files < <(find "$findings" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort)
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

total=$seconds
manifest_secs=$((total / 5))
[ "$manifest_secs" -lt 1 ] && manifest_secs=1
compiler_secs=$((total - manifest_secs))
[ "$compiler_secs" -lt 1 ] && compiler_secs=1
fuzz_one tilegen "$TG_BUILD/bin/tilegen-fuzz" "$compiler_secs" "$TG_ROOT/fuzz/tilegen.dict"
fuzz_one manifest "$TG_BUILD/bin/tilegen-run-manifest-fuzz" "$manifest_secs" "$TG_ROOT/fuzz/manifest.dict"

summary "$passed" "$failed"
[ "$failed" -eq 0 ]
