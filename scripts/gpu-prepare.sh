#!/usr/bin/env bash
# Runs HERE (the development machine, which has the MLIR build and ptxas): prepares .dev/gpu/, the
# one ignored folder that the GPU machine (CUDA, no LLVM/MLIR) needs besides the tracked files:
#
#   .dev/gpu/cubins/<example>.<target>.cubin + .json   every example, for the targets an H200 runs
#                                                     (CMake target tilegen-gpu-cubins; the rule
#                                                     for which target is in test/Integration/
#                                                     CMakeLists.txt: mma.sync -> sm_90,
#                                                     warp_specialized -> sm_90a, sm_100a: none)
#   .dev/gpu/lit/lit/                                  the lit package (pure Python) from LLVM 22,
#                                                     so the GPU tests run under lit there
#   .dev/gpu/PREPARED                                  what was built, from which commit, when
#
# Then, on the GPU machine, with .dev/gpu carried: scripts/gpu-run.sh (see its header).
# Environment: TILEGEN_BUILD_DIR (default build), TILEGEN_LIT_DIR (a lit package folder to copy
# instead of LLVM's), and those of scripts/lib.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

dest=$TG_ROOT/.dev/gpu

# 1. Build tilegen (configure first if the build folder is new) and the cubins.
if [ ! -f "$TG_BUILD/build.ninja" ]; then
  tg_install_deps
  tg_find_ptxas
  tg_build
fi
tg_say "compiling the examples (ninja -C $TG_BUILD tilegen-gpu-cubins)"
status=0
if ! ninja -C "$TG_BUILD" -k 0 tilegen-gpu-cubins </dev/null; then
  status=1
  tg_warn "the build failed: cubins left from an earlier build are copied, but may not match the sources"
fi

rm -rf "$dest/cubins"
mkdir -p "$dest/cubins"
built=0 missing=()
while read -r stem; do
  [ -n "$stem" ] || continue
  src=$TG_BUILD/test/Integration/cubins/$stem
  if [ -f "$src.cubin" ] && [ -f "$src.json" ]; then
    cp "$src.cubin" "$src.json" "$dest/cubins/"
    built=$((built + 1))
  else
    missing+=("$stem")
  fi
done < "$TG_BUILD/test/Integration/cubins.list"

# 2. lit: LLVM 22's copy (Debian llvm-22-tools), or one named by TILEGEN_LIT_DIR.
lit_src=${TILEGEN_LIT_DIR:-}
if [ -z "$lit_src" ]; then
  for cand in "$TG_LLVM/utils/lit/lit" "$TG_LLVM/build/utils/lit/lit"; do
    if [ -f "$cand/main.py" ]; then lit_src=$cand; break; fi
  done
fi
rm -rf "$dest/lit"
if [ -n "$lit_src" ] && [ -f "$lit_src/main.py" ]; then
  mkdir -p "$dest/lit"
  cp -r "$lit_src" "$dest/lit/lit"
  rm -rf "$dest/lit/lit/ExampleTests.ObjDir"
  find "$dest/lit" -name __pycache__ -type d -prune -exec rm -rf {} +
  tg_say "lit: copied $lit_src -> $dest/lit/lit"
else
  tg_warn "no lit package found (looked in $TG_LLVM/utils/lit): scripts/gpu-run.sh will fall back to its own RUN-line loop"
fi

{
  echo "prepared: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  echo "commit: $(git -C "$TG_ROOT" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$TG_ROOT" diff --quiet HEAD -- lib include dialects tools examples 2>/dev/null || echo ' (+ uncommitted changes in lib/include/dialects/tools/examples)')"
  echo "tilegen: $("$TG_BUILD/bin/tilegen" --version 2>&1 | tr '\n' ' ' || true)"
  [ $status -eq 0 ] || echo "WARNING: the build failed; the cubins may be from an earlier build"
  echo "cubins:"
  (cd "$dest/cubins" && ls -1 *.cubin 2>/dev/null | sed 's/^/  /')
} > "$dest/PREPARED"

tg_say "$built cubin(s) in $dest/cubins:"
ls -1 "$dest/cubins"/*.cubin 2>/dev/null | sed 's|.*/|    |'
if [ ${#missing[@]} -gt 0 ]; then
  tg_warn "not built (see the tilegen errors above): ${missing[*]}"
  status=1
fi
echo
echo "On the GPU machine carry .dev/gpu and run, from the repository root:"
echo "  scripts/gpu-run.sh                      # build, tests, sanitize, bench, summary (~9 min)"
echo "  scripts/gpu-run.sh build tests sanitize # or split the phases over calls"
echo "  scripts/gpu-run.sh build bench"
exit $status
