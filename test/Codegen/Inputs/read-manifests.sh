#!/usr/bin/env bash
# Reads every manifest under DIR with tilegen-run (no driver: it stops after the manifest) and
# prints one line per manifest: "ok" when the reader takes it, "not supported yet" when the runner
# states it cannot launch the kernel yet, "REJECTED" with the reason otherwise (exit 1): tilegen
# must never write a manifest its own runner calls wrong.
# Usage: read-manifests.sh TILEGEN_RUN DIR
set -u
run=$1 dir=$2
status=0
for m in $(find "$dir" -name '*.json' | sort); do
  name=${m#"$dir"/}
  log=$(TILEGEN_RUN_LIBCUDA="$dir/no-such-libcuda.so" "$run" "$m" --m 256 --n 256 --k 256 2>&1)
  if ! grep -q "error: manifest" <<<"$log"; then
    echo "$name: ok"
  elif grep -q "not supported yet" <<<"$log"; then
    echo "$name: not supported yet"
  else
    echo "$name: REJECTED"
    grep "error: manifest" <<<"$log" | head -3
    status=1
  fi
done
exit $status
