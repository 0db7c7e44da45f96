#!/usr/bin/env bash
# Which kernel the vendor's GEMM runs for each shape, as tilegen-run --bench calls it (cuBLAS for
# bf16/f16, cuBLASLt for FP8): its name (nvjet kernels name their tile, K-slice x stages and
# cluster, e.g. nvjet_sm90_tst_144x128_64x6_1x2_h_bz_TNN), grid, block, cluster and dynamic
# shared memory, from Nsight Compute (one profiled launch per shape, launch metrics only).
# Runs on the GPU machine.
#
#   bench/vendor_kernels.sh MANIFEST SHAPES [OUT.csv]
#
# MANIFEST: a tilegen kernel's manifest (its types decide the vendor call); SHAPES: "M N K" lines
# (# comments). Writes OUT.csv (default vendor-kernels.csv): m,n,k,kernel,grid,block,cluster,
# dynamic_smem; a shape ncu could not profile gets its message in the kernel column.
# Environment: NCU (default ncu), TILEGEN_RUN (default build-runner/bin/tilegen-run).
set -uo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
manifest=$1 shapes=$2 out=${3:-vendor-kernels.csv}
ncu=${NCU:-ncu}
run=${TILEGEN_RUN:-build-runner/bin/tilegen-run}
command -v "$ncu" > /dev/null || { echo "vendor_kernels.sh: no '$ncu' (set NCU)" >&2; exit 2; }
[ -x "$run" ] || { echo "vendor_kernels.sh: no tilegen-run at '$run' (set TILEGEN_RUN)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "m,n,k,kernel,grid,block,cluster,dynamic_smem" > "$out"
grep -v '^[[:space:]]*#' "$shapes" | tr 'x,' '  ' | while read -r m n k _; do
  [ -n "${k:-}" ] || continue
  # The vendor's kernels (cuBLAS's nvjet and xmma GEMMs, CUTLASS-based ones, a split-K
  # reduction), in launch order; tilegen's kernels (named after their descriptions) and the L2
  # flush do not match.
  # An ncu without the cluster metrics answers with an error and no rows: once more without them.
  for metrics in launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__cluster_dim_z,launch__shared_mem_per_block_dynamic \
                 launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic; do
    "$ncu" --csv --page raw --launch-count 3 \
      --kernel-name regex:'nvjet|xmma|cutlass|splitK|splitk|reduce|gemv' --metrics "$metrics" \
      "$run" "$manifest" --m "$m" --n "$n" --k "$k" --bench --iters 1 --warmup 0 --no-fork \
      > "$tmp/ncu.csv" 2> "$tmp/ncu.err"
    grep -q '^"' "$tmp/ncu.csv" && break
  done
  python3 - "$tmp/ncu.csv" "$m" "$n" "$k" "$tmp/ncu.err" >> "$out" <<'PY'
import csv, sys
path, m, n, k, err = sys.argv[1:6]
rows = []
with open(path, newline="") as f:
    lines = [l for l in f if l.startswith('"')]
reader = csv.DictReader(lines)
for r in reader:
    name = r.get("Kernel Name") or r.get("Function Name") or ""
    if not name or name.startswith("("):  # the units row
        continue
    def g(key):
        return (r.get(key) or "").replace(",", "")
    rows.append([m, n, k, name.replace(",", ";"), g("launch__grid_size"), g("launch__block_size"),
                 "x".join(g("launch__cluster_dim_" + d) or "1" for d in "xyz"),
                 g("launch__shared_mem_per_block_dynamic")])
if not rows:
    msg = " ".join(open(err).read().split())[:200].replace(",", ";")
    rows.append([m, n, k, "none profiled: " + msg, "", "", "", ""])
w = csv.writer(sys.stdout, lineterminator="\n")
for row in rows:
    w.writerow(row)
PY
done
echo "vendor_kernels.sh: wrote $out" >&2
