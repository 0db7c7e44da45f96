"""The kernel cache: compiled cubins and manifests, keyed by everything that decides them.

Folder: $TILEGEN_CACHE_DIR, else $XDG_CACHE_HOME/tilegen, else ~/.cache/tilegen. An entry is two
files, KEY.json and KEY.HASH.cubin (HASH: the first 16 hex digits of the cubin's SHA-256); the
.json is the manifest tilegen wrote, with its "cubin" field naming KEY.HASH.cubin and a
"tilegen_cache" object added (the key's inputs, the cubin's size and SHA-256), so tilegen-run
and tilegen.load() take it as it is. The key is the SHA-256 of the description text, the target,
the `tilegen --version` text (tilegen, LLVM and ptxas versions) and the options.

Concurrency: a compile runs in a private temporary folder inside the cache folder; the cubin
is then written to a temporary name beside its final one and renamed onto it (os.replace), and
the manifest after it, the same way. The manifest is the entry's commit, and it names its cubin
by content: a file is only ever replaced by one with the same bytes, so a reader never pairs a
manifest with another writer's cubin, and never sees a torn file. It still checks the cubin
against the size and hash the manifest records.

A corrupted entry (manifest not JSON or not a manifest, cubin missing, without ELF magic, of
another size or hash) is reported with a warning and compiled again.
"""

import hashlib
import json
import os
import shutil
import tempfile
import time
import warnings

from ._errors import ArgumentError, ManifestError
from ._manifest import (MAX_CUBIN_BYTES, MAX_MANIFEST_BYTES, Manifest, check_cubin_bytes,
                        path_arg, read_input_file)

try:
    import fcntl
except ImportError:  # Windows: no locks, so compile folders are kept while young
    fcntl = None

# A compile folder that holds no lock (one being created, or a process without fcntl) is
# another process's work while it is younger than this many seconds.
WORKDIR_GRACE_S = 15 * 60

KEY_FORMAT = 1


class CacheWarning(UserWarning):
    """A cache entry was unusable (corrupted, truncated) and is compiled again."""


def cache_dir(explicit=None):
    if explicit is not None and (not isinstance(explicit, str) or explicit):
        return os.path.abspath(os.path.expanduser(path_arg(explicit, "cache_dir")))
    env = os.environ.get("TILEGEN_CACHE_DIR")
    if env:
        return os.path.abspath(os.path.expanduser(env))
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = xdg if xdg and os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tilegen")


def cache_key(description, target, version, options):
    """The hex SHA-256 of the key's inputs (a canonical JSON text)."""
    text = json.dumps({"format": KEY_FORMAT, "description": description, "target": target,
                       "tilegen": version, "options": options}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def atomic_write(path, data):
    """Writes data to path whole or not at all: a temporary file beside it, then os.replace."""
    d = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".tmp-", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o644 & ~umask)  # mkstemp's 0600, widened as a plain open would
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Entry:
    """A cache entry that passed its checks: the manifest and the cubin's bytes."""

    def __init__(self, key, manifest, cubin, manifest_path, cubin_path):
        self.key = key
        self.manifest = manifest
        self.cubin = cubin
        self.manifest_path = manifest_path
        self.cubin_path = cubin_path


def read_entry(folder, key):
    """The entry for key: None when absent; raises ManifestError when present but corrupted."""
    mpath = os.path.join(folder, key + ".json")
    raw = read_input_file(mpath, "manifest", MAX_MANIFEST_BYTES, missing_ok=True)
    if raw is None:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ManifestError("manifest %s is not UTF-8 text" % mpath)
    man = Manifest.parse(text, mpath)
    rec = man.data.get("tilegen_cache")
    if not isinstance(rec, dict) or rec.get("key") != key:
        raise ManifestError("manifest %s has no cache record for key %s" % (mpath, key[:16]))
    if (os.path.basename(man.cubin) != man.cubin or not man.cubin.startswith(key + ".") or
            not man.cubin.endswith(".cubin")):
        raise ManifestError("manifest %s names cubin %r, not one of its entry" % (mpath, man.cubin))
    cpath = os.path.join(folder, man.cubin)
    cubin = read_input_file(cpath, "cubin", MAX_CUBIN_BYTES)
    if len(cubin) != rec.get("cubin_size"):
        raise ManifestError("cubin %s has %d bytes; its manifest records %s" %
                            (cpath, len(cubin), rec.get("cubin_size")))
    check_cubin_bytes(cubin, cpath)
    if hashlib.sha256(cubin).hexdigest() != rec.get("cubin_sha256"):
        raise ManifestError("cubin %s does not match the SHA-256 its manifest records" % cpath)
    return Entry(key, man, cubin, mpath, cpath)


def lookup(folder, key):
    """The valid entry for key or None; a corrupted one gives a CacheWarning and None."""
    try:
        return read_entry(folder, key)
    except ManifestError as e:
        warnings.warn("tilegen cache: entry %s is corrupted, compiling again: %s" % (key[:16], e),
                      CacheWarning, stacklevel=4)
        return None


def store(folder, key, record, manifest_text, cubin):
    """Publishes an entry (cubin first, then the manifest that commits it); returns it."""
    data = dict(Manifest.parse(manifest_text, "written by tilegen").data)
    check_cubin_bytes(cubin, "written by tilegen")
    digest = hashlib.sha256(cubin).hexdigest()
    mpath = os.path.join(folder, key + ".json")
    cpath = os.path.join(folder, "%s.%s.cubin" % (key, digest[:16]))
    data["cubin"] = os.path.basename(cpath)
    rec = dict(record)
    rec.update({"key": key, "cubin_size": len(cubin), "cubin_sha256": digest,
                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    data["tilegen_cache"] = rec
    text = json.dumps(data, indent=2) + "\n"
    atomic_write(cpath, cubin)
    atomic_write(mpath, text.encode("utf-8"))
    return Entry(key, Manifest.parse(text, mpath), cubin, mpath, cpath)


class Workdir:
    """A private compile folder in the cache folder, locked (its file "lock", flock'ed) while
    it is in use so that clear() in another process leaves it alone."""

    def __init__(self, folder):
        os.makedirs(folder, exist_ok=True)
        self.path = tempfile.mkdtemp(prefix=".compile-", dir=folder)
        self._fd = None
        if fcntl is not None:
            try:
                self._fd = os.open(os.path.join(self.path, "lock"),
                                   os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
                fcntl.flock(self._fd, fcntl.LOCK_EX)
            except OSError:
                self.close()
                raise

    def close(self):
        """Removes the folder, then drops its lock."""
        shutil.rmtree(self.path, ignore_errors=True)
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def make_workdir(folder):
    return Workdir(folder)


def _workdir_in_use(path):
    """Whether the compile folder path is another process's work in progress: its lock is
    held, or it has no lock yet and is younger than WORKDIR_GRACE_S."""
    if fcntl is not None:
        try:
            fd = os.open(os.path.join(path, "lock"), os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            fd = None
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return False  # nobody holds it: a folder left by a process that ended
            except OSError:
                return True
            finally:
                os.close(fd)
    try:
        return time.time() - os.stat(path).st_mtime < WORKDIR_GRACE_S
    except OSError:
        return False


def _list_folder(folder):
    """The names in the cache folder ([] when it does not exist), or an ArgumentError."""
    try:
        return os.listdir(folder)
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        raise ArgumentError("the cache folder %s is not a folder (set TILEGEN_CACHE_DIR or "
                            "pass a folder)" % folder)
    except OSError as e:
        raise ArgumentError("cannot read the cache folder %s: %s" % (folder, e.strerror or e))


def list_entries(folder=None):
    """Every entry of the cache: dicts with key, kernel, target, size, created, status."""
    folder = cache_dir(folder)
    out = []
    for name in sorted(_list_folder(folder)):
        if not name.endswith(".json") or name.startswith(".") or name == "versions.json":
            continue
        key = name[:-5]
        row = {"key": key, "manifest": os.path.join(folder, name)}
        try:
            e = read_entry(folder, key)
            if e is None:
                continue
            rec = e.manifest.data["tilegen_cache"]
            row.update({"kernel": e.manifest.kernel, "target": e.manifest.target,
                        "bytes": len(e.cubin), "created": rec.get("created"),
                        "options": rec.get("options"), "status": "ok"})
        except ManifestError as err:
            row.update({"status": "corrupted", "reason": str(err)})
        out.append(row)
    return out


def clear(folder=None):
    """Removes every entry, temporary file and compile folder (but not the compile folders of
    compiles in progress); returns the number of files."""
    folder = cache_dir(folder)
    removed = 0
    for name in _list_folder(folder):
        p = os.path.join(folder, name)
        if name.startswith(".compile-") and os.path.isdir(p) and not os.path.islink(p):
            if _workdir_in_use(p):
                continue
            shutil.rmtree(p, ignore_errors=True)
            removed += 1
        elif os.path.isfile(p) and (name.endswith((".json", ".cubin")) or ".tmp-" in name):
            try:
                os.unlink(p)
                removed += 1
            except FileNotFoundError:
                pass
    return removed


def main(argv=None):
    """tilegen-cache: list or clear the kernel cache."""
    import argparse
    import sys
    ap = argparse.ArgumentParser(
        prog="tilegen-cache",
        description="List or clear the tilegen kernel cache (TILEGEN_CACHE_DIR, else "
                    "$XDG_CACHE_HOME/tilegen, else ~/.cache/tilegen).")
    ap.add_argument("--dir", help="the cache folder (default: as above)")
    sub = ap.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("list", help="one line per entry: key, kernel, target, bytes, created")
    ls.add_argument("--json", action="store_true", help="print the entries as a JSON array")
    sub.add_parser("clear", help="remove every entry")
    sub.add_parser("dir", help="print the cache folder")
    args = ap.parse_args(argv)
    from ._errors import TilegenError
    try:
        folder = cache_dir(args.dir)
        if args.command == "dir":
            print(folder)
            return 0
        if args.command == "clear":
            n = clear(folder)
            print("tilegen-cache: removed %d file(s) from %s" % (n, folder))
            return 0
        rows = list_entries(folder)
    except TilegenError as e:
        print("tilegen-cache: error: %s" % e, file=sys.stderr)
        return 1
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return 0
    print("cache %s: %d entr%s" % (folder, len(rows), "y" if len(rows) == 1 else "ies"))
    for r in rows:
        if r["status"] == "ok":
            print("  %s  %-40s %-8s %8d B  %s" % (r["key"][:16], r["kernel"], r["target"],
                                                   r["bytes"], r["created"]))
        else:
            print("  %s  corrupted: %s" % (r["key"][:16], r["reason"]))
    return 0
