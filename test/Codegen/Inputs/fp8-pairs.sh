#!/usr/bin/env bash
# Writes the FP8 CTA-pair descriptions of ptx-sm_90a-fp8-pair.test into DIR: block-scaled on a
# 128 x 128 tile (three accumulator sets, scales from global memory), on 128 x 192 (two sets,
# scales through the ring) and per-tensor promoted on 128 x 128.
d=$1
f='a = f8E4M3FN row, b = f8E4M3FN col, c = bf16 row'
bs='scale_a = f32 [1, 128], scale_b = f32 [128, 128]'
pair='cluster = [2, 1, 1], multicast = b, grid = persistent, target = "sm_90a"'
echo "tile.gemm @bs128 { $f, $bs, tile = [128, 128, 128], $pair }" > "$d/bs128.mlir"
echo "tile.gemm @bs192 { $f, $bs, tile = [128, 192, 128], $pair }" > "$d/bs192.mlir"
echo "tile.gemm @pt128 { $f, scale_a = f32 tensor, scale_b = f32 tensor, accumulation = promoted, tile = [128, 128, 128], $pair }" > "$d/pt128.mlir"
