#!/usr/bin/env bash
# Runs HERE, without a GPU: rehearses scripts/gpu-run.sh against tilegen-run's fake CUDA driver
# (tools/tilegen-run/testing/FakeCuda.cpp: host memory, a host "kernel" computing the right
# answer), so that the script's logic (phases, limits, the lit suite, the RUN-line loop, the
# bench merge and the summary) is exercised before a GPU call is spent on it. It proves nothing
# about the kernels: each real manifest in .dev/gpu/cubins becomes a fake cubin with the same
# name, types, layouts, tile and constraints (tiles grid rule, pointer parameters).
#
#   scripts/gpu-dryrun.sh [PHASE ...]    (the phases of gpu-run.sh; default tests sanitize bench)
#
# Leaves the 4096^3 tests out (the host "kernel" is slow) and sweeps a few small shapes.
# Output in .dev/gpu/dryrun/out. Environment: TILEGEN_BUILD_DIR (default build), and
# TILEGEN_GPU_NO_LIT=1 to rehearse the loop that runs when lit is missing.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TILEGEN_BUILD_DIR:-$root/build}
fake=$build/lib/libtilegen-fake-cuda.so
runner=$build/bin/tilegen-run
[ -f "$fake" ] || { echo "gpu-dryrun.sh: error: $fake not built (ninja -C $build tilegen-fake-cuda)" >&2; exit 2; }
[ -x "$runner" ] || { echo "gpu-dryrun.sh: error: $runner not built (ninja -C $build tilegen-run)" >&2; exit 2; }
[ -d "$root/.dev/gpu/cubins" ] || { echo "gpu-dryrun.sh: error: no .dev/gpu/cubins: run scripts/gpu-prepare.sh first" >&2; exit 2; }

dry=$root/.dev/gpu/dryrun
rm -rf "$dry"
mkdir -p "$dry/cubins" "$dry/out"
python3 - "$root/.dev/gpu/cubins" "$dry/cubins" "$root/tools/tilegen-run/testing/make-fake-cubin.py" <<'PY'
import glob, importlib.util, json, os, sys
src, dst, maker = sys.argv[1:4]
# The runner takes only ELF files for CUDA as cubins: the fake text goes inside one.
spec = importlib.util.spec_from_file_location("make_fake_cubin", maker)
make_fake_cubin = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_fake_cubin)
for path in sorted(glob.glob(os.path.join(src, "*.json"))):
    m = json.load(open(path))
    stem = os.path.basename(path)[:-5]
    ops = m["operands"]
    m["cubin"] = stem + ".cubin"
    m["cluster"] = [1, 1, 1]
    m["grid"] = {"rule": "tiles", "tile_m": m["grid"]["tile_m"], "tile_n": m["grid"]["tile_n"],
                 "ctas_per_sm": 1}
    m["params"] = ([{"name": t, "kind": "ptr", "tensor": t} for t in "ABCD"] +
                   [{"name": d, "kind": "i32", "value": d} for d in "MNK"] +
                   [{"name": s, "kind": "f32", "value": s} for s in ("alpha", "beta")])
    json.dump(m, open(os.path.join(dst, stem + ".json"), "w"), indent=1)
    text = ("TILEGEN-FAKE-CUBIN\narch=90\nkernel=%s\nbehavior=correct\ntile=%dx%d\n"
            "a=%s/%s b=%s/%s c=%s/%s\nparams=A,B,C,D,M,N,K,alpha,beta\n" % (
                m["kernel"], m["grid"]["tile_m"], m["grid"]["tile_n"],
                ops["a"]["type"], ops["a"]["layout"], ops["b"]["type"], ops["b"]["layout"],
                ops["c"]["type"], ops["c"]["layout"]))
    with open(os.path.join(dst, stem + ".cubin"), "wb") as f:
        f.write(make_fake_cubin.fake_cubin(text.encode()))
    print("fake cubin:", stem)
PY
printf '%s\n' "64 64 64" "127 136 136" "300 264 520" "128 128 1001" > "$dry/sweep.txt"

[ $# -gt 0 ] || set -- tests sanitize bench
env OUT="$dry/out" TILEGEN_GPU_FAKE=1 TILEGEN_RUN_LIBCUDA="$fake" TILEGEN_RUN_LIBCUBLAS="$fake" \
  TILEGEN_GPU_CUBINS="$dry/cubins" TILEGEN_GPU_RUNNER="$runner" TILEGEN_GPU_SANITIZER=none \
  TILEGEN_GPU_LIT_FILTER_OUT='-4096\.test' TILEGEN_GPU_ITERS=3 TILEGEN_GPU_WARMUP=1 \
  "$root/scripts/gpu-run.sh" "$@" --sweep "$dry/sweep.txt"
