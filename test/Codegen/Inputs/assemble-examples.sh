#!/usr/bin/env bash
# Compiles every example in EXAMPLES to a cubin (ptxas included) for each mma.sync target and
# prints one line per (example, target). Examples named *sm100a* are tcgen05 kernels: compiled for
# sm_100a and sm_103a; examples named *sm90a* for sm_90a; examples named *sm120a* for sm_120a only;
# examples named *sm120* (warp-specialised mma.sync) for sm_90, sm_90a, sm_120 and sm_120a; other examples named *fp8* for every target
# with an FP8 instruction. Other warp-specialised examples are sm_90a-only: they are compiled for
# sm_90a. "not supported yet" from a lowering counts as skipped. A ring that does not fit a target's shared memory is skipped, not failed.
# Exits 1 if anything else fails. Usage: assemble-examples.sh TILEGEN EXAMPLES OUTDIR
set -u
tilegen=$1 examples=$2 out=$3
status=0
for ex in "$examples"/*.mlir; do
  name=$(basename "$ex" .mlir)
  if [[ $name == *sm100a* ]]; then
    targets="sm_100a sm_103a"
  elif [[ $name == *sm90a* ]]; then
    # Named for sm_90a (e.g. block-scaled FP8, which only the wgmma lowering applies).
    targets="sm_90a"
  elif [[ $name == *sm120a* ]]; then
    # sm_120a-only instructions (the block-scaled mma.sync kinds).
    targets="sm_120a"
  elif [[ $name == *sm120* ]]; then
    # The consumer-Blackwell design (TMA-fed warp-specialised mma.sync): sm_120 and sm_120a,
    # and sm_90 / sm_90a, where the H200 runs it.
    targets="sm_90 sm_90a sm_120 sm_120a"
  elif [[ $name == *fp8* ]]; then
    # FP8: every target with an FP8 instruction (mma.sync from sm_89, wgmma, tcgen05).
    targets="sm_89 sm_90 sm_90a sm_100a sm_103a sm_120a"
  elif grep -q 'schedule *= *warp_specialized' "$ex"; then
    targets="sm_90a"
  else
    targets="sm_80 sm_90 sm_120a"
  fi
  for t in $targets; do
    if log=$("$tilegen" "$ex" --target="$t" -o "$out/$t/$name.cubin" 2>&1); then
      echo "$name $t: ok"
    elif grep -q "does not fit in shared memory" <<<"$log"; then
      echo "$name $t: skipped (does not fit in shared memory)"
    elif grep -q "not supported yet" <<<"$log"; then
      echo "$name $t: skipped (not supported yet)"
    else
      echo "$name $t: FAILED"
      echo "$log" | head -20
      status=1
    fi
  done
done
exit $status
