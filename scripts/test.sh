#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole lit test suite. Exits with lit's status and
# ends with one line "N passed, N failed" (passed: Passed + Expectedly Failed; failed: Failed +
# Unexpectedly Passed + Timed Out; unsupported tests are not counted).
#
#   scripts/test.sh              the normal build (build/)
#   scripts/test.sh --sanitize   clang-22 with AddressSanitizer and UndefinedBehaviorSanitizer
#                                (build-sanitize/, which also holds the fuzzers of scripts/fuzz.sh);
#                                any sanitizer report aborts the tool and fails its test
#
# Environment: TILEGEN_TEST_TIMEOUT (seconds per test, default 300), LIT_OPTS (more lit options),
# and those of scripts/lib.sh.
set -uo pipefail
TG_SANITIZE=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) TG_SANITIZE=1 ;;
    *) echo "usage: scripts/test.sh [--sanitize]" >&2; echo "0 passed, 1 failed"; exit 2 ;;
  esac
done
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

summary() { echo "$1 passed, $2 failed"; }

# A failure before lit runs (install, build) counts as one failed test, so the closing line never
# claims success.
if ! (tg_setup); then
  summary 0 1
  exit 1
fi

lit_args=(-sv)
# lit runs under the interpreter named in its first line (Debian: /usr/bin/python3), which is the
# one that needs psutil.
lit_python=$(sed -n '1s/^#! *//p' "$TG_LLVM/bin/lit" | awk '{print $1}')
if "${lit_python:-python3}" -c 'import psutil' 2>/dev/null; then
  lit_args+=(--timeout="${TILEGEN_TEST_TIMEOUT:-300}")
else
  tg_warn "python3-psutil is missing: lit runs without a per-test timeout"
fi

log=$(mktemp)
tg_say "running lit on $TG_BUILD/test"
"$TG_LLVM/bin/lit" "${lit_args[@]}" ${LIT_OPTS:-} "$TG_BUILD/test" </dev/null 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit's summary lines look like "  Passed           : 37 (100.00%)".
count() {
  awk -v name="$1" '
    { line = $0; sub(/^[ \t]+/, "", line) }
    index(line, name) == 1 {
      rest = substr(line, length(name) + 1)
      if (rest ~ /^[ \t]*:/) { sub(/^[ \t]*:[ \t]*/, "", rest); split(rest, f, /[ \t]/); n += f[1] }
    }
    END { print n + 0 }' "$log"
}
passed=$(( $(count "Passed") + $(count "Passed With Retry") + $(count "Expectedly Failed") ))
failed=$(( $(count "Failed") + $(count "Unexpectedly Passed") + $(count "Timed Out") ))
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 # lit failed without a failing test (a configuration error): say so
fi
summary "$passed" "$failed"
exit "$status"
