#!/usr/bin/env bash
# Runs THERE (the GPU machine, which has nvcc but no network): builds the CUTLASS peer of the
# mma.sync kernels, bench/peers/cutlass_sm80_bf16_gemm.cu, with nvcc for sm_90 from the CUTLASS
# headers carried in .dev/gpu/cutlass, into build-runner/cutlass_sm80_bf16_gemm; with arguments,
# runs it on them:
#
#   bench/peers/build_cutlass_peer.sh [--iters N] [--warmup N] [--check] [MxNxK ...]
#   e.g. bench/peers/build_cutlass_peer.sh --check 4096x4096x4096 8192x8192x8192 4096x14336x4096
#
# The headers (include/ and tools/util/include/ of NVIDIA/cutlass, about 29 MB) are put there on
# the development machine, since .dev/gpu is git-ignored and carried to the GPU machine:
#   git --git-dir=<a clone's git directory> archive HEAD include tools/util/include \
#     | tar -x -C .dev/gpu/cutlass
# Environment: TILEGEN_CUTLASS_DIR (default .dev/gpu/cutlass), NVCC (default: nvcc on PATH, else
# /usr/local/cuda/bin/nvcc). Exit code: the peer's (0 success, 1 check failed, 2 usage, 3 CUDA
# error), or 4 when the build fails.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cutlass=${TILEGEN_CUTLASS_DIR:-$root/.dev/gpu/cutlass}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
out=$root/build-runner/cutlass_sm80_bf16_gemm
src=$root/bench/peers/cutlass_sm80_bf16_gemm.cu

if [ ! -f "$cutlass/include/cutlass/gemm/device/gemm.h" ]; then
  echo "build_cutlass_peer: no CUTLASS headers in $cutlass (see this script's header)" >&2
  exit 4
fi
if [ ! -x "$nvcc" ]; then
  echo "build_cutlass_peer: no nvcc (looked for $nvcc)" >&2
  exit 4
fi
mkdir -p "$(dirname "$out")"
if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
  echo "build_cutlass_peer: $nvcc -arch=sm_90 $src -> $out"
  if ! "$nvcc" -std=c++17 -O3 -DNDEBUG --expt-relaxed-constexpr -arch=sm_90 \
      -I"$cutlass/include" -I"$cutlass/tools/util/include" "$src" -o "$out"; then
    echo "build_cutlass_peer: the build failed" >&2
    exit 4
  fi
fi
if [ $# -gt 0 ]; then
  exec "$out" "$@"
fi
