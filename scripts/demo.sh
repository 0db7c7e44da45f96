#!/usr/bin/env bash
# The newcomer's tour: installs what is missing, builds, compiles the default example for every
# target, and shows what to look at: the PTX's key instructions, ptxas's register / spill report,
# the files written (out/<target>/), and, where a GPU is present, runs the sm_90 kernel.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tg_setup

TILEGEN=$TG_BUILD/bin/tilegen
EXAMPLE=$TG_ROOT/examples/gemm_bf16_multistage.mlir
NAME=gemm_bf16_multistage
OUT=$TG_ROOT/out
cd "$TG_ROOT"

echo
tg_say "the description ($EXAMPLE)"
grep -v '^//' "$EXAMPLE"

echo
tg_say "the pipeline tilegen makes of it for sm_90 (tilegen --emit=pipeline)"
"$TILEGEN" "$EXAMPLE" --target=sm_90 --emit=pipeline | grep -E '^    tile\.' | sed 's/^    /  /'

# mma.sync (warp-level MMA fed by ldmatrix, cp.async ring) lowers for every target today.
echo
tg_say "compiling for every target (mma.sync path): out/<target>/$NAME.{ptx,cubin,json}"
printf '  %-8s %8s %9s %9s  %s\n' target mma.sync ldmatrix cp.async "ptxas (per thread) / shared memory"
for t in sm_80 sm_86 sm_89 sm_90 sm_90a sm_100a sm_103a sm_120 sm_120a; do
  mkdir -p "$OUT/$t"
  if ! "$TILEGEN" "$EXAMPLE" --target="$t" --emit=ptx -o "$OUT/$t/$NAME.ptx" 2>"$OUT/$t/error.txt"; then
    printf '  %-8s %s\n' "$t" "$(grep -m1 'error:' "$OUT/$t/error.txt")"
    continue
  fi
  rm -f "$OUT/$t/error.txt"
  mma=$(grep -c 'mma.sync.aligned' "$OUT/$t/$NAME.ptx")
  ldm=$(grep -c 'ldmatrix.sync' "$OUT/$t/$NAME.ptx")
  cpa=$(grep -c 'cp.async.cg.shared.global' "$OUT/$t/$NAME.ptx")
  if [ -z "$TG_PTXAS" ]; then
    report="no ptxas: PTX only"
  elif info=$("$TILEGEN" "$EXAMPLE" --target="$t" -o "$OUT/$t/$NAME.cubin" -v 2>&1); then
    regs=$(sed -n 's/.*ptxas info *: \(Used [0-9]* registers\).*/\1/p' <<<"$info" | head -1)
    spill=$(sed -n 's/^ *\([0-9]* bytes stack frame, .*\)$/\1/p' <<<"$info" | head -1)
    smem=$(sed -n 's/.*"dynamic_smem": \([0-9]*\).*/\1/p' "$OUT/$t/$NAME.json")
    report="$regs, $spill / ${smem} B dynamic"
  else
    report="ptxas failed: $(grep -m1 'error' <<<"$info")"
  fi
  printf '  %-8s %8s %9s %9s  %s\n' "$t" "$mma" "$ldm" "$cpa" "$report"
done
echo "  (counts are PTX instructions: the loop body holds one K-slice fully unrolled; the prologue adds its copies.
   sm_90a and sm_100a run this mma.sync kernel too; their native schedules follow.)"

# The native Hopper / Blackwell schedules: warp-specialised wgmma with a TMA ring (sm_90a) and
# tcgen05 with Tensor Memory (sm_100a). The tcgen05 lowering is not written yet; tilegen says so.
echo
ws=$TG_ROOT/examples/gemm_bf16_sm90a_ws.mlir
wsname=$(basename "$ws" .mlir)
tg_say "warp-specialised schedule ($ws): wgmma on sm_90a, tcgen05 on sm_100a"
for t in sm_90a sm_100a; do
  mkdir -p "$OUT/$t"
  if ! msg=$("$TILEGEN" "$ws" --target="$t" --emit=ptx -o "$OUT/$t/$wsname.ptx" 2>&1); then
    printf '  %-8s %s\n' "$t" "$(grep -m1 'error:' <<<"$msg" | sed 's/^.*error: //')"
    continue
  fi
  counts="wgmma.mma_async $(grep -c 'wgmma.mma_async' "$OUT/$t/$wsname.ptx"), cp.async.bulk.tensor $(grep -c 'cp.async.bulk.tensor' "$OUT/$t/$wsname.ptx"), mbarrier $(grep -c 'mbarrier' "$OUT/$t/$wsname.ptx")"
  if [ -n "$TG_PTXAS" ] && info=$("$TILEGEN" "$ws" --target="$t" -o "$OUT/$t/$wsname.cubin" 2>&1); then
    printf '  %-8s %s; %s\n' "$t" "$counts" "$(sed -n 's/.*(\(.*\))$/\1/p' <<<"$info")"
  else
    printf '  %-8s %s\n' "$t" "$counts"
  fi
done

echo
tg_say "files"
if [ -n "$TG_PTXAS" ]; then
  echo "  out/<target>/$NAME.ptx    the PTX (read it: docs in README.md, 'How to read the PTX')"
  echo "  out/<target>/$NAME.cubin  what the CUDA driver loads"
  echo "  out/<target>/$NAME.json   the manifest: kernel name, parameters in order, block, shared memory"
else
  echo "  out/<target>/$NAME.ptx    the PTX (no cubins: ptxas is missing)"
fi

run_bin=$TG_BUILD/bin/tilegen-run
cubin=$OUT/sm_90/$NAME.cubin
echo
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && [ -x "$run_bin" ] && [ -f "$cubin" ]; then
  tg_say "GPU found: running the sm_90 kernel (tilegen-run --check --bench)"
  "$run_bin" "$cubin" --m 4096 --n 4096 --k 4096 --check --bench
else
  tg_say "no GPU here (or no tilegen-run): not running kernels; on a GPU machine this step runs"
  echo "  build/bin/tilegen-run out/sm_90/$NAME.cubin --m 4096 --n 4096 --k 4096 --check --bench"
fi
