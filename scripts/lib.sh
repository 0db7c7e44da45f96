# Shared by scripts/test.sh, scripts/demo.sh and scripts/fuzz.sh: install what is missing, find
# ptxas, configure and build. Source it; it defines functions and sets TG_ROOT, TG_BUILD, TG_LLVM,
# TG_PTXAS. Set TG_SANITIZE=1 before sourcing it for the sanitizer build (clang-22, ASan + UBSan,
# the libFuzzer targets; default folder build-sanitize).
# Environment: TILEGEN_BUILD_DIR (default build, or build-sanitize), TILEGEN_PTXAS (a ptxas to
# use), TILEGEN_NO_INSTALL=1 (never call apt-get), TILEGEN_JOBS (ninja -j).

TG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TG_SANITIZE=${TG_SANITIZE:-0}
if [ "$TG_SANITIZE" = 1 ]; then
  TG_BUILD=${TILEGEN_BUILD_DIR:-$TG_ROOT/build-sanitize}
else
  TG_BUILD=${TILEGEN_BUILD_DIR:-$TG_ROOT/build}
fi
TG_LLVM=/usr/lib/llvm-22
TG_PTXAS=

tg_say() { printf '==> %s\n' "$*"; }
tg_warn() { printf 'warning: %s\n' "$*" >&2; }
tg_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Runs a command as root: directly when root, through sudo when available, else fails.
tg_as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    tg_die "need root to run '$*' (not root, and no sudo): install the packages listed above yourself"
  fi
}

tg_pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# Installs the Debian packages the build and the tests need, only those missing.
tg_install_deps() {
  local need=() pkg
  local pkgs=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools ninja-build cmake python3-psutil python3-pip)
  # The sanitizer build: clang and its sanitizer and libFuzzer runtimes.
  [ "$TG_SANITIZE" = 1 ] && pkgs+=(clang-22 libclang-rt-22-dev)
  for pkg in "${pkgs[@]}"; do
    tg_pkg_installed "$pkg" || need+=("$pkg")
  done
  command -v c++ >/dev/null 2>&1 || need+=(g++)
  if [ ${#need[@]} -eq 0 ]; then
    tg_say "packages: all present (${pkgs[*]})"
    return 0
  fi
  if [ "${TILEGEN_NO_INSTALL:-0}" = 1 ]; then
    tg_die "missing packages: ${need[*]} (TILEGEN_NO_INSTALL=1, so not installing them)"
  fi
  command -v apt-get >/dev/null 2>&1 || tg_die "missing packages: ${need[*]}; no apt-get here: install them yourself"
  tg_say "installing: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  tg_as_root apt-get update -q </dev/null || tg_die "apt-get update failed"
  if ! tg_as_root apt-get install -y -q --no-install-recommends "${need[@]}" </dev/null; then
    tg_die "apt-get could not install: ${need[*]}. LLVM/MLIR 22 come from the LLVM apt repository on Debian 12 (https://apt.llvm.org, 'llvm-toolchain-bookworm-22'); add it and run again"
  fi
}

# Finds ptxas like tilegen does ($TILEGEN_PTXAS, PATH, /usr/local/cuda/bin) and reports it. Never
# fails: without ptxas the build and PTX output still work, and the tests that need it are
# reported UNSUPPORTED.
tg_find_ptxas() {
  local p=${TILEGEN_PTXAS:-}
  [ -z "$p" ] && p=$(command -v ptxas 2>/dev/null || true)
  [ -z "$p" ] && [ -x /usr/local/cuda/bin/ptxas ] && p=/usr/local/cuda/bin/ptxas
  if [ -z "$p" ] || [ ! -x "$p" ]; then
    tg_warn "ptxas not found (looked at \$TILEGEN_PTXAS, PATH, /usr/local/cuda/bin)."
    tg_warn "  Install the CUDA toolkit 12.8 or newer (https://developer.nvidia.com/cuda-downloads) or set TILEGEN_PTXAS."
    tg_warn "  Without it tilegen still writes PTX (--emit=ptx); cubins cannot be built and the tests that need ptxas are UNSUPPORTED."
    return 0
  fi
  local v
  v=$("$p" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -1)
  TG_PTXAS=$p
  tg_say "ptxas: $p (CUDA ${v:-unknown version})"
  case "$v" in
    ''|1[2-9].*|[2-9][0-9].*) ;;
    *) tg_warn "ptxas is CUDA $v; sm_90 needs 12.0 and sm_100a/sm_120a need 12.8 or newer" ;;
  esac
  case "$v" in
    12.[0-7]) tg_warn "ptxas is CUDA $v; sm_100a and sm_120a need 12.8 or newer" ;;
  esac
}

# Finds nvdisasm for the SASS census tests of the sm_100a kernels (no GPU needed): PATH, the CUDA
# toolkit, or the PyPI wheel nvidia-cuda-nvdisasm installed into .tools/ (a CUDA 13 toolkit
# without it, as on Debian's CI machines, is common). Never fails: without it those tests are
# UNSUPPORTED.
tg_find_nvdisasm() {
  local p
  p=$(command -v nvdisasm 2>/dev/null || true)
  [ -z "$p" ] && [ -x /usr/local/cuda/bin/nvdisasm ] && p=/usr/local/cuda/bin/nvdisasm
  if [ -z "$p" ]; then
    p=$(find "$TG_ROOT/.tools" -name nvdisasm -type f 2>/dev/null | head -1)
    if [ -z "$p" ] && [ "${TILEGEN_NO_INSTALL:-0}" != 1 ] && command -v python3 >/dev/null 2>&1; then
      tg_say "nvdisasm: installing the nvidia-cuda-nvdisasm wheel into .tools/"
      # --target keeps it out of the system's packages (Debian marks its Python as externally
      # managed, hence --break-system-packages, which only lifts that check).
      local py=python3
      [ -x /usr/bin/python3 ] && /usr/bin/python3 -m pip --version >/dev/null 2>&1 && py=/usr/bin/python3
      "$py" -m pip install -q --disable-pip-version-check --break-system-packages \
        --target "$TG_ROOT/.tools" nvidia-cuda-nvdisasm </dev/null >/dev/null 2>&1 ||
        "$py" -m pip install -q --disable-pip-version-check --target "$TG_ROOT/.tools" \
          nvidia-cuda-nvdisasm </dev/null >/dev/null 2>&1 || true
      p=$(find "$TG_ROOT/.tools" -name nvdisasm -type f 2>/dev/null | head -1)
    fi
  fi
  if [ -z "$p" ]; then
    tg_warn "nvdisasm not found: the SASS census tests of the sm_100a kernels are UNSUPPORTED"
    return 0
  fi
  chmod +x "$p" 2>/dev/null || true
  export PATH="$(dirname "$p"):$PATH"
  tg_say "nvdisasm: $p"
}

# Configures (once) and builds tilegen, tilegen-opt and, where it builds, tilegen-run; with
# TG_SANITIZE=1 all of them with ASan + UBSan, and the fuzzers.
tg_build() {
  [ -d "$TG_LLVM/lib/cmake/mlir" ] || tg_die "MLIR 22 not found at $TG_LLVM/lib/cmake/mlir (package libmlir-22-dev)"
  local extra=()
  if [ "$TG_SANITIZE" = 1 ]; then
    command -v clang++-22 >/dev/null 2>&1 || tg_die "clang++-22 not found (package clang-22)"
    extra=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
           -DTILEGEN_SANITIZE=ON -DTILEGEN_FUZZ=ON)
  fi
  if [ -f "$TG_BUILD/CMakeCache.txt" ]; then
    # A folder configured the other way would silently test the wrong build.
    local cached=0
    grep -q '^TILEGEN_SANITIZE:BOOL=ON' "$TG_BUILD/CMakeCache.txt" && cached=1
    [ "$cached" = "$TG_SANITIZE" ] ||
      tg_die "$TG_BUILD was configured with TILEGEN_SANITIZE=$([ "$cached" = 1 ] && echo ON || echo OFF); use another TILEGEN_BUILD_DIR or remove it"
  fi
  if [ ! -f "$TG_BUILD/build.ninja" ]; then
    tg_say "configuring $TG_BUILD"
    cmake -G Ninja -S "$TG_ROOT" -B "$TG_BUILD" \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR="$TG_LLVM/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$TG_LLVM/bin/lit" "${extra[@]}" </dev/null || tg_die "cmake configure failed"
  fi
  tg_say "building (ninja -C $TG_BUILD)"
  ninja -C "$TG_BUILD" ${TILEGEN_JOBS:+-j "$TILEGEN_JOBS"} </dev/null || tg_die "build failed"
}

# Everything a fresh machine needs before tilegen runs.
tg_setup() {
  tg_install_deps
  tg_find_ptxas
  tg_find_nvdisasm
  tg_build
}
