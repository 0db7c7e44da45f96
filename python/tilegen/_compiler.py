"""Finding and running the tilegen compiler.

The binary is $TILEGEN_BIN, else `tilegen` on PATH, else tilegen/bin/tilegen inside this package,
else build/bin/tilegen of the source checkout the package sits in. Its `--version` output (tilegen,
LLVM and ptxas versions) is part of every cache key; running it takes tens of milliseconds, so it
is remembered per process and on disk (versions.json in the cache folder), keyed by the binary's
and the ptxas's paths, sizes and modification times.
"""

import hashlib
import json
import os
import shutil
import subprocess

from ._errors import CompileError, ManifestError
from ._manifest import read_input_file

_memo = {}


def _package_dir():
    return os.path.dirname(os.path.abspath(__file__))


def tilegen_candidates():
    env = os.environ.get("TILEGEN_BIN")
    if env:
        return [env]
    cands = []
    on_path = shutil.which("tilegen")
    if on_path:
        cands.append(on_path)
    pkg = _package_dir()
    cands.append(os.path.join(pkg, "bin", "tilegen"))
    cands.append(os.path.join(os.path.dirname(os.path.dirname(pkg)), "build", "bin", "tilegen"))
    return cands


def find_tilegen(explicit=None, required=True):
    """The tilegen binary to run: explicit, else the first candidate that is an executable."""
    cands = [explicit] if explicit else tilegen_candidates()
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    if not required:
        return None
    looked = ", ".join(c for c in cands if c) or "$TILEGEN_BIN and PATH"
    raise CompileError(
        "cannot find the tilegen compiler (looked at %s). Set TILEGEN_BIN or put tilegen on "
        "PATH; tilegen.load() runs already compiled kernels without it" % looked)


def _ptxas_path():
    # Found as tilegen finds it: $TILEGEN_PTXAS, PATH, /usr/local/cuda/bin.
    p = os.environ.get("TILEGEN_PTXAS") or shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    return p


def _stat_key(path):
    try:
        st = os.stat(path)
        return [os.path.realpath(path), st.st_size, st.st_mtime_ns]
    except OSError:
        return [path, None, None]


def _text(data):
    """A child's output as text: UTF-8, with what is not UTF-8 replaced (U+FFFD)."""
    return (data or b"").decode("utf-8", errors="replace")


def tool_version(exe, cache_dir=None, timeout=60):
    """`exe --version`, the tilegen, LLVM and ptxas versions, as text (the run limited to
    timeout seconds, at most 60; None: 60)."""
    ident = json.dumps([_stat_key(exe), _stat_key(_ptxas_path())])
    v = _memo.get(ident)
    if v is not None:
        return v
    memo_file = os.path.join(cache_dir, "versions.json") if cache_dir else None
    disk = {}
    if memo_file:
        try:
            raw = read_input_file(memo_file, "versions file", 1 << 20, missing_ok=True)
            disk = json.loads(raw) if raw is not None else {}
            if not isinstance(disk, dict):
                disk = {}
        except (ManifestError, ValueError, RecursionError):
            disk = {}  # unreadable or corrupted: asked again and rewritten
        h = hashlib.sha256(ident.encode()).hexdigest()
        rec = disk.get(h)
        if isinstance(rec, dict) and rec.get("ident") == ident and isinstance(
                rec.get("version"), str):
            _memo[ident] = rec["version"]
            return rec["version"]
    limit = 60 if timeout is None else min(timeout, 60)
    try:
        p = subprocess.run([exe, "--version"], capture_output=True, timeout=limit)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CompileError("cannot run %s --version: %s" % (exe, e))
    out, err = _text(p.stdout), _text(p.stderr)
    if p.returncode != 0 or not out.startswith("tilegen"):
        raise CompileError("%s --version failed (exit %d): %s" %
                           (exe, p.returncode, (err or out).strip()))
    v = out.strip()
    _memo[ident] = v
    if memo_file:
        disk = {k: r for k, r in disk.items() if isinstance(r, dict)}
        disk[hashlib.sha256(ident.encode()).hexdigest()] = {"ident": ident, "version": v}
        from ._cache import atomic_write
        try:
            atomic_write(memo_file, json.dumps(disk, indent=1).encode())
        except OSError:
            pass  # a read-only cache folder still compiles; the next call asks again
    return v


def run_tilegen(exe, desc_path, target, out_cubin, options, timeout):
    """Compiles desc_path to out_cubin (+ the manifest beside it); raises CompileError."""
    cmd = [exe, desc_path, "--target=" + target, "--emit=cubin", "-o", out_cubin]
    if options.get("ptxas_options"):
        cmd.append("--ptxas-options=" + options["ptxas_options"])
    if options.get("ptxas_timeout"):
        cmd.append("--ptxas-timeout=%d" % options["ptxas_timeout"])
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise CompileError("tilegen took longer than %s s: %s" % (timeout, " ".join(cmd)))
    except (OSError, ValueError) as e:
        raise CompileError("cannot run %s: %s" % (exe, e))
    out = _text(p.stderr) + _text(p.stdout)
    if p.returncode != 0:
        raise CompileError("tilegen failed (exit %d) for target %s:\n%s" %
                           (p.returncode, target, out.strip()))
    return out
