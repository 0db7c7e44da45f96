#!/usr/bin/env bash
# Runs HERE (the development machine: the MLIR build and ptxas). Prepares the cross-check of the
# protocol checker against the GPU (docs/verify.md, "Cross-check on the GPU"): for each sm_90a
# example given (default: gemm_bf16), every planted bug of every mutation kind
# (tilegen-verify --mutate=KIND:SITE) is
#   - checked here by the protocol checker (its verdict: caught, with the first line, or missed);
#   - assembled from the mutated PTX with ptxas -arch=sm_90a into a cubin, with a copy of the
#     kernel's manifest that names it,
# into .dev/gpu/crosscheck/ (mutants.tsv lists them), next to the unmutated kernel (the baseline).
# Then, on the GPU machine, with .dev/gpu carried: scripts/verify-crosscheck.sh.
#
#   scripts/verify-crosscheck-prepare.sh [EXAMPLE ...]
#
# Environment: TILEGEN_BUILD_DIR (default build; tilegen and tilegen-verify must be built there),
# TILEGEN_PTXAS, and those of scripts/lib.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tg_find_ptxas
[ -n "$TG_PTXAS" ] || tg_die "ptxas is needed to assemble the mutated kernels"
tilegen=$TG_BUILD/bin/tilegen
verify=$TG_BUILD/bin/tilegen-verify
[ -x "$tilegen" ] && [ -x "$verify" ] || tg_die "build tilegen and tilegen-verify first (ninja -C $TG_BUILD)"

examples=("$@")
[ ${#examples[@]} -gt 0 ] || examples=(gemm_bf16)
target=sm_90a
dest=$TG_ROOT/.dev/gpu/crosscheck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$dest"
mkdir -p "$dest"
tsv=$dest/mutants.tsv
printf 'name\texample\tkind\tsite\tline\tchecker\tdetail\n' > "$tsv"

# A manifest for cubin NAME: the kernel's, with its "cubin" field naming NAME.cubin.
manifest_for() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
src, name = sys.argv[1:3]
with open(src) as f:
    m = json.load(f)
m["cubin"] = name + ".cubin"
with open(src.rsplit("/", 1)[0] + "/" + name + ".json", "w") as f:
    json.dump(m, f, indent=2, sort_keys=True)
EOF
}

count=0
for ex in "${examples[@]}"; do
  desc=$TG_ROOT/examples/$ex.mlir
  [ -f "$desc" ] || tg_die "no example $desc"
  kdir=$work/$ex
  mkdir -p "$kdir"
  "$tilegen" "$desc" --target=$target --keep "$kdir" -o "$kdir/k.cubin" >/dev/null
  ptx=$kdir/$ex.ptx
  base=$ex.$target.base
  cp "$kdir/k.cubin" "$dest/$base.cubin"
  manifest_for "$kdir/k.json" "$base" && mv "$kdir/$base.json" "$dest/"
  if "$verify" "$ptx" --manifest "$kdir/k.json" > "$kdir/base.out" 2>&1; then
    verdict=verified
  else
    verdict="FAILS"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$base" "$ex" none - - "$verdict" \
    "$(head -1 "$kdir/base.out" | cut -c1-300 | tr '\t' ' ')" >> "$tsv"
  # Every site of every kind.
  "$verify" "$ptx" --manifest "$kdir/k.json" --list-mutations > "$kdir/sites.txt"
  kind=""
  while IFS= read -r line; do
    if [[ $line =~ ^([a-z-]+):\ ([0-9]+)\ site ]]; then
      kind=${BASH_REMATCH[1]}
      continue
    fi
    [[ $line =~ ^\ +([0-9]+):\ line\ ([0-9]+):\ (.*)$ ]] || continue
    site=${BASH_REMATCH[1]} lineno=${BASH_REMATCH[2]} text=${BASH_REMATCH[3]}
    name=$ex.$target.$kind.$site
    "$verify" "$ptx" --manifest "$kdir/k.json" --mutate="$kind:$site" --print-mutated \
      > "$kdir/$name.ptx"
    if ! "$TG_PTXAS" -arch=$target -O3 "$kdir/$name.ptx" -o "$dest/$name.cubin" \
        2> "$kdir/$name.ptxas.log"; then
      tg_warn "ptxas rejected $name: $(head -2 "$kdir/$name.ptxas.log" | tr '\n' ' ')"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$ex" "$kind" "$site" "$lineno" \
        "not assembled" "$(head -1 "$kdir/$name.ptxas.log" | tr '\t' ' ')" >> "$tsv"
      continue
    fi
    manifest_for "$kdir/k.json" "$name" && mv "$kdir/$name.json" "$dest/"
    if "$verify" "$ptx" --manifest "$kdir/k.json" --mutate="$kind:$site" > "$kdir/$name.out" 2>&1; then
      verdict=missed detail="the mutated kernel verifies"
    else
      verdict=caught
      detail=$(grep -m1 '^.*: error: ' "$kdir/$name.out" | sed 's/^[^:]*: error: //' | cut -c1-300 | tr '\t' ' ')
    fi
    printf '%s\t%s\t%s\t%s\t%s: %s\t%s\t%s\n' "$name" "$ex" "$kind" "$site" "$lineno" \
      "$(echo "$text" | tr '\t' ' ')" "$verdict" "$detail" >> "$tsv"
    count=$((count + 1))
    tg_say "$name: checker $verdict"
  done < "$kdir/sites.txt"
done
{
  echo "prepared: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  echo "commit: $(git -C "$TG_ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "examples: ${examples[*]} ($target), $count mutant(s)"
} > "$dest/PREPARED"
tg_say "$count mutant(s) and the baseline(s) in $dest (mutants.tsv); on the GPU machine: scripts/verify-crosscheck.sh"
