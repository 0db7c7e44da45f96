"""tilegen.compile: a description to a Kernel, through the kernel cache."""

import os
import shutil
import threading

from . import _cache, _compiler
from ._errors import CompileError, ManifestError
from ._kernel import Kernel

_kernels = {}
_kernels_lock = threading.Lock()


def _description_text(description):
    if isinstance(description, os.PathLike):
        path = os.fspath(description)
    elif isinstance(description, str) and "tile.gemm" not in description:
        path = description
    else:
        return description, None
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    except OSError as e:
        raise CompileError("cannot read description %s: %s (pass a file's path or the text of "
                           "a tile.gemm description)" % (path, e.strerror or e))


def compile(description, target="sm_90a", *, ptxas_options=None, ptxas_timeout=None,
            cache=True, cache_dir=None, tilegen=None, timeout=600):
    """Compiles a tile.gemm description (its text, or the path of a .mlir file) for target and
    returns a Kernel.

    The cubin and manifest are cached (see tilegen.cache_dir()) under a key of the description
    text, the target, `tilegen --version` (tilegen, LLVM and ptxas versions) and ptxas_options
    (ptxas_timeout only limits ptxas's time); a warm call reads the entry and runs nothing.
    cache=False compiles anyway and does not store the result. tilegen names the compiler binary (default:
    $TILEGEN_BIN, PATH, beside the package).
    """
    text, path = _description_text(description)
    if not isinstance(target, str) or not target:
        raise CompileError("target must be a string such as 'sm_90a', got %r" % (target,))
    options = {}  # what decides the cubin: part of the key
    if ptxas_options:
        options["ptxas_options"] = str(ptxas_options)
    run_options = dict(options)
    if ptxas_timeout:
        run_options["ptxas_timeout"] = int(ptxas_timeout)
    exe = _compiler.find_tilegen(tilegen)
    folder = _cache.cache_dir(cache_dir)
    if cache:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            raise CompileError("cannot create the cache folder %s: %s (set TILEGEN_CACHE_DIR, or "
                               "pass cache=False)" % (folder, e.strerror or e))
    version = _compiler.tool_version(exe, folder if cache else None)
    key = _cache.cache_key(text, target, version, options)
    if cache:
        kern = _kernels.get((folder, key))
        if kern is not None:
            return kern
        entry = _cache.lookup(folder, key)
        if entry is not None:
            return _remember(folder, key, Kernel(entry.manifest, entry.cubin,
                                                 origin=entry.cubin_path))
    try:
        work = _cache.make_workdir(folder) if cache else _tempdir()
    except OSError as e:
        raise CompileError("cannot create a folder to compile in, in %s: %s (set "
                           "TILEGEN_CACHE_DIR, or pass cache=False)" %
                           (folder if cache else "the temporary folder", e.strerror or e))
    try:
        desc = os.path.join(work, "description.mlir")
        with open(desc, "w", encoding="utf-8") as f:
            f.write(text)
        cubin = os.path.join(work, "kernel.cubin")
        _compiler.run_tilegen(exe, desc, target, cubin, run_options, timeout)
        mpath = os.path.join(work, "kernel.json")
        try:
            with open(mpath, encoding="utf-8") as f:
                mtext = f.read()
            with open(cubin, "rb") as f:
                cbytes = f.read()
        except OSError as e:
            raise CompileError("tilegen succeeded but its output is missing: %s" % e)
        if not cache:
            from ._manifest import Manifest, check_cubin_bytes
            check_cubin_bytes(cbytes, cubin)
            return Kernel(Manifest.parse(mtext, path), cbytes, origin=path)
        record = {"target": target, "options": options, "tilegen_version": version,
                  "source": os.path.abspath(path) if path else None}
        # Another process may have published the same key meanwhile; its entry is as good.
        try:
            entry = _cache.read_entry(folder, key)
        except ManifestError:
            entry = None  # the corrupted entry this call found: replaced below
        if entry is None:
            entry = _cache.store(folder, key, record, mtext, cbytes)
        return _remember(folder, key, Kernel(entry.manifest, entry.cubin,
                                             origin=entry.cubin_path))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _tempdir():
    import tempfile
    return tempfile.mkdtemp(prefix="tilegen-compile-")


def _remember(folder, key, kern):
    with _kernels_lock:
        return _kernels.setdefault((folder, key), kern)
