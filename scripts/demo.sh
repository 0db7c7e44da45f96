#!/usr/bin/env bash
# The newcomer's tour: installs what is missing, builds, compiles the default example for every
# target, and shows what to look at: which tensor-core instruction set each target gets, the PTX's
# key instructions, ptxas's register / spill report, the files written (out/<target>/), and, where
# a GPU is present, runs the Hopper kernel.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tg_setup

TILEGEN=$TG_BUILD/bin/tilegen
EXAMPLE=$TG_ROOT/examples/gemm_bf16.mlir
NAME=gemm_bf16
OUT=$TG_ROOT/out
cd "$TG_ROOT"

echo
tg_say "the description ($EXAMPLE)"
grep -v '^//' "$EXAMPLE"

echo
tg_say "what it becomes on sm_90a (tilegen --emit=pipeline): the TMA ring, the roles, the loops"
"$TILEGEN" "$EXAMPLE" --target=sm_90a --emit=pipeline | grep -E '^    tile\.' | sed 's/^    /  /'

# One description, three instruction sets: schedule = auto picks the target's own.
count() { grep -c "$1" "$2"; }
echo
tg_say "compiling for every target: out/<target>/$NAME.{ptx,cubin,json}"
printf '  %-8s %-8s %-44s %s\n' target stages "key PTX instructions" "ptxas: registers, spills / dynamic shared memory"
for t in sm_80 sm_86 sm_89 sm_90 sm_90a sm_100a sm_103a sm_120 sm_120a; do
  mkdir -p "$OUT/$t"
  ptx=$OUT/$t/$NAME.ptx
  if ! "$TILEGEN" "$EXAMPLE" --target="$t" --emit=ptx -o "$ptx" 2>"$OUT/$t/error.txt"; then
    printf '  %-8s %s\n' "$t" "$(grep -m1 'error:' "$OUT/$t/error.txt" | sed 's/^.*error: //')"
    continue
  fi
  rm -f "$OUT/$t/error.txt"
  stages=$("$TILEGEN" "$EXAMPLE" --target="$t" --emit=tile | sed -n 's/.*stages = \([0-9]*\).*/\1/p')
  if grep -q 'tcgen05.mma' "$ptx"; then
    what="tcgen05.mma $(count 'tcgen05.mma' "$ptx"), tcgen05.ld $(count 'tcgen05.ld' "$ptx"), TMA $(count 'cp.async.bulk.tensor' "$ptx")"
  elif grep -q 'wgmma.mma_async' "$ptx"; then
    what="wgmma $(count 'wgmma.mma_async' "$ptx"), TMA $(count 'cp.async.bulk.tensor' "$ptx"), mbarrier $(count 'mbarrier' "$ptx")"
  elif grep -q 'cp.async.bulk.tensor' "$ptx"; then
    what="mma.sync $(count 'mma.sync.aligned' "$ptx"), ldmatrix $(count 'ldmatrix.sync' "$ptx"), TMA $(count 'cp.async.bulk.tensor' "$ptx")"
  else
    what="mma.sync $(count 'mma.sync.aligned' "$ptx"), ldmatrix $(count 'ldmatrix.sync' "$ptx"), cp.async $(count 'cp.async.cg.shared.global' "$ptx")"
  fi
  if [ -z "$TG_PTXAS" ]; then
    report="no ptxas: PTX only"
  elif info=$("$TILEGEN" "$EXAMPLE" --target="$t" -o "$OUT/$t/$NAME.cubin" 2>&1); then
    smem=$(sed -n 's/.*"dynamic_smem": \([0-9]*\).*/\1/p' "$OUT/$t/$NAME.json")
    report="$(sed -n 's/.*ptxas: \(.*\))$/\1/p' <<<"$info" | sed 's/ bytes stack frame, /B stack, /; s/ bytes spill stores, /B spill st, /; s/ bytes spill loads/B spill ld/') / $smem B"
  else
    report="ptxas failed: $(grep -m1 'error' <<<"$info")"
  fi
  printf '  %-8s %-8s %-44s %s\n' "$t" "$stages" "$what" "$report"
done
echo "  (PTX instruction counts: loop bodies hold one K-slice, fully unrolled. sm_100a/sm_103a code is"
echo "   only assembled and inspected here: no Blackwell GPU has run it.)"

echo
tg_say "the FP8 example (examples/gemm_fp8.mlir, e4m3 x e4m3 with per-tensor scales): its MMA per target"
for t in sm_89 sm_90 sm_90a sm_100a sm_120a; do
  ptx=$OUT/$t/gemm_fp8.ptx
  if "$TILEGEN" "$TG_ROOT/examples/gemm_fp8.mlir" --target="$t" --emit=ptx -o "$ptx" 2>/dev/null; then
    printf '  %-8s %s\n' "$t" "$(grep -m1 -oE '(wgmma\.mma_async|mma\.sync|tcgen05\.mma)[.a-z0-9:_]*' "$ptx")"
  else
    printf '  %-8s %s\n' "$t" "$("$TILEGEN" "$TG_ROOT/examples/gemm_fp8.mlir" --target="$t" --emit=ptx -o /dev/null 2>&1 | grep -m1 'error:' | sed 's/^.*error: //')"
  fi
done

echo
tg_say "why 4 stages on sm_90a (tilegen explain): the pipeline model"
"$TILEGEN" explain "$EXAMPLE" --target=sm_90a | sed -n '/^stages:/,/^run:/p' | sed 's/^/  /'

echo
tg_say "files"
if [ -n "$TG_PTXAS" ]; then
  echo "  out/<target>/$NAME.ptx    the PTX (read it: README.md, 'How to read the PTX')"
  echo "  out/<target>/$NAME.cubin  what the CUDA driver loads"
  echo "  out/<target>/$NAME.json   the manifest: kernel name, parameters in order, block, shared memory"
else
  echo "  out/<target>/$NAME.ptx    the PTX (no cubins: ptxas is missing)"
fi

run_bin=$TG_BUILD/bin/tilegen-run
cubin=$OUT/sm_90a/$NAME.cubin
echo
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q 'H100\|H200' &&
   [ -x "$run_bin" ] && [ -f "$cubin" ]; then
  tg_say "Hopper GPU found: checking and timing the sm_90a kernel against cuBLAS"
  "$run_bin" "$cubin" --m 4096 --n 4096 --k 4096 --check --bench
else
  tg_say "no Hopper GPU here (or no tilegen-run): not running kernels; on an H100/H200 this step runs"
  echo "  build/bin/tilegen-run out/sm_90a/$NAME.cubin --m 4096 --n 4096 --k 4096 --check --bench"
fi
