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

from ._errors import ManifestError
from ._manifest import Manifest, check_cubin_bytes

KEY_FORMAT = 1


class CacheWarning(UserWarning):
    """A cache entry was unusable (corrupted, truncated) and is compiled again."""


def cache_dir(explicit=None):
    if explicit:
        return os.path.abspath(os.path.expanduser(explicit))
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
    try:
        with open(mpath, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ManifestError("cannot read %s: %s" % (mpath, e.strerror or e))
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
    try:
        with open(cpath, "rb") as f:
            cubin = f.read()
    except OSError as e:
        raise ManifestError("cannot read cubin %s: %s" % (cpath, e.strerror or e))
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
    data = json.loads(manifest_text)
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


def make_workdir(folder):
    os.makedirs(folder, exist_ok=True)
    return tempfile.mkdtemp(prefix=".compile-", dir=folder)


def list_entries(folder=None):
    """Every entry of the cache: dicts with key, kernel, target, size, created, status."""
    folder = cache_dir(folder)
    out = []
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return out
    for name in names:
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
    """Removes every entry, temporary file and compile folder; returns the number of files."""
    folder = cache_dir(folder)
    removed = 0
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return 0
    for name in names:
        p = os.path.join(folder, name)
        if name.startswith(".compile-") and os.path.isdir(p):
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
    folder = cache_dir(args.dir)
    if args.command == "dir":
        print(folder)
        return 0
    if args.command == "clear":
        n = clear(folder)
        print("tilegen-cache: removed %d file(s) from %s" % (n, folder))
        return 0
    rows = list_entries(folder)
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
