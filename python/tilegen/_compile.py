"""tilegen.compile: a description to a Kernel, through the kernel cache."""

import math
import numbers
import os
import shutil
import threading
import warnings

from . import _cache, _compiler
from ._errors import CompileError, ManifestError
from ._kernel import Kernel
from ._manifest import Manifest, check_cubin_bytes, path_arg, read_input_file

_kernels = {}
_kernels_lock = threading.Lock()
# The largest description file read.
MAX_DESCRIPTION_BYTES = 16 << 20


def _description_text(description):
    if isinstance(description, os.PathLike):
        path = path_arg(description, "description", CompileError)
    elif isinstance(description, str) and "tile.gemm" not in description:
        path = path_arg(description, "description", CompileError)
    elif isinstance(description, str):
        try:
            description.encode("utf-8")
        except UnicodeEncodeError as e:
            raise CompileError("description text is not valid Unicode: %s" % e)
        return description, None
    else:
        raise CompileError("description must be the text of a tile.gemm description (str) or "
                           "the path of a .mlir file, got %s" % type(description).__name__)
    try:
        raw = read_input_file(path, "description", MAX_DESCRIPTION_BYTES, CompileError)
    except CompileError as e:
        raise CompileError("%s (pass a file's path or the text of a tile.gemm description)" % e)
    try:
        return raw.decode("utf-8"), path
    except UnicodeDecodeError as e:
        raise CompileError("description %s is not UTF-8 text: %s" % (path, e))


def _option_text(value, what):
    """A string option passed on tilegen's command line: no NUL or other control characters
    (a command line cannot hold NUL)."""
    if not isinstance(value, str):
        raise CompileError("%s must be a string, got %s" % (what, type(value).__name__))
    if any(ord(ch) < 0x20 and ch not in "\t" or ch == "\x7f" for ch in value):
        raise CompileError("%s %r holds a NUL or other control character" % (what, value))
    return value


def _seconds(value, what, most):
    """A positive, finite number of seconds (at most `most`), or CompileError."""
    if isinstance(value, (bool, str, bytes)) or not isinstance(value, numbers.Real):
        raise CompileError("%s must be a number of seconds, got %r" %
                           (what, value if isinstance(value, (bool, str, bytes)) else
                            type(value).__name__))
    try:
        v = float(value)
    except OverflowError:
        v = math.inf
    if not 0 < v <= most:
        raise CompileError("%s = %s is not a number of seconds from above 0 to %d" %
                           (what, "a huge integer" if v == math.inf and isinstance(value, int)
                            else repr(value), most))
    return v


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
    _option_text(target, "target")
    options = {}  # what decides the cubin: part of the key
    if ptxas_options:
        options["ptxas_options"] = _option_text(ptxas_options, "ptxas_options")
    run_options = dict(options)
    if ptxas_timeout is not None and not (type(ptxas_timeout) is int and ptxas_timeout == 0):
        # tilegen takes whole seconds (an unsigned int): a fraction rounds up. 0: no limit
        # given, as None.
        run_options["ptxas_timeout"] = math.ceil(_seconds(ptxas_timeout, "ptxas_timeout",
                                                          2**32 - 1))
    if timeout is not None:
        timeout = _seconds(timeout, "timeout", 2**31 - 1)
    if tilegen is not None:
        tilegen = path_arg(tilegen, "tilegen", CompileError)
    if cache_dir is not None:
        cache_dir = path_arg(cache_dir, "cache_dir", CompileError)
    exe = _compiler.find_tilegen(tilegen)
    folder = _cache.cache_dir(cache_dir)
    if cache:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            raise CompileError("cannot create the cache folder %s: %s (set TILEGEN_CACHE_DIR, or "
                               "pass cache=False)" % (folder, e.strerror or e))
    version = _compiler.tool_version(exe, folder if cache else None, timeout)
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
        work = _cache.make_workdir(folder) if cache else _TempWork()
    except OSError as e:
        raise CompileError("cannot create a folder to compile in, in %s: %s (set "
                           "TILEGEN_CACHE_DIR, or pass cache=False)" %
                           (folder if cache else "the temporary folder", e.strerror or e))
    try:
        desc = os.path.join(work.path, "description.mlir")
        with open(desc, "w", encoding="utf-8") as f:
            f.write(text)
        cubin = os.path.join(work.path, "kernel.cubin")
        _compiler.run_tilegen(exe, desc, target, cubin, run_options, timeout)
        mpath = os.path.join(work.path, "kernel.json")
        try:
            with open(mpath, encoding="utf-8") as f:
                mtext = f.read()
            with open(cubin, "rb") as f:
                cbytes = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise CompileError("tilegen succeeded but its output is missing or unreadable: %s"
                               % e)
        if not cache:
            return _uncached(mtext, cbytes, cubin, path)
        record = {"target": target, "options": options, "tilegen_version": version,
                  "source": os.path.abspath(path) if path else None}
        # Another process may have published the same key meanwhile; its entry is as good.
        try:
            entry = _cache.read_entry(folder, key)
        except ManifestError:
            entry = None  # the corrupted entry this call found: replaced below
        if entry is None:
            try:
                entry = _cache.store(folder, key, record, mtext, cbytes)
            except OSError as e:
                # Something in the cache folder is in the way (a folder where the entry's
                # file goes, a full disk): the kernel is good, only not cached.
                warnings.warn("tilegen cache: cannot store entry %s in %s, using the kernel "
                              "uncached: %s" % (key[:16], folder, e), _cache.CacheWarning,
                              stacklevel=2)
                return _uncached(mtext, cbytes, cubin, path)
        return _remember(folder, key, Kernel(entry.manifest, entry.cubin,
                                             origin=entry.cubin_path))
    finally:
        work.close()


def _uncached(mtext, cbytes, cubin, path):
    """The Kernel of a compile's manifest text and cubin bytes, not through the cache."""
    check_cubin_bytes(cbytes, cubin)
    return Kernel(Manifest.parse(mtext, path), cbytes, origin=path)


class _TempWork:
    """A private compile folder outside the cache (cache=False)."""

    def __init__(self):
        import tempfile
        self.path = tempfile.mkdtemp(prefix="tilegen-compile-")

    def close(self):
        shutil.rmtree(self.path, ignore_errors=True)


def _remember(folder, key, kern):
    with _kernels_lock:
        return _kernels.setdefault((folder, key), kern)
