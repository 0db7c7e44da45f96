"""Host tests of the tilegen package, no GPU needed: cache keys and folders, the cache under
concurrent processes, corrupted entries, tilegen-cache, dispatch picking, and argument checking
and launching through libtilegen-launch on the runner's fake CUDA driver.

Run from the repository root (the lit test test/python/host.test does, with the build's
libraries named):
    TILEGEN_RUN_LIBCUDA=build/lib/libtilegen-fake-cuda.so \
    TILEGEN_LAUNCH_LIB=build/lib/libtilegen-launch.so \
    PYTHONPATH=python python3 -m unittest discover -s python/tests -p 'test_host*.py' -v
Launch tests are skipped when the fake driver or the launch library is not found (an error with
TILEGEN_TEST_REQUIRE_LAUNCH=1, as the lit test sets); the test that runs the real compiler needs
TILEGEN_BIN (or tilegen on PATH) and ptxas.
"""

import importlib.util
import json
import multiprocessing
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import textwrap
import unittest
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
INPUTS = os.environ.get("TILEGEN_TEST_INPUTS") or os.path.join(ROOT, "test", "tools",
                                                               "tilegen-run", "Inputs")
FAKE_CUBIN_PY = os.path.join(ROOT, "tools", "tilegen-run", "testing", "make-fake-cubin.py")

# The fake driver must be named before the launch library first loads a driver.
if not os.environ.get("TILEGEN_RUN_LIBCUDA"):
    _fake = os.path.join(ROOT, "build", "lib", "libtilegen-fake-cuda.so")
    if os.path.exists(_fake):
        os.environ["TILEGEN_RUN_LIBCUDA"] = _fake
os.environ.setdefault("TILEGEN_NO_TORCH", "1")  # the host tests never need PyTorch

sys.path.insert(0, os.path.join(ROOT, "python"))
import tilegen  # noqa: E402
from tilegen import _cache, _compile, _compiler, _native  # noqa: E402


def _have_launch():
    if not os.path.exists(os.environ.get("TILEGEN_RUN_LIBCUDA", "")):
        return False
    try:
        _native.launch_library()
        return True
    except tilegen.DriverError:
        return False


HAVE_LAUNCH = _have_launch()
if not HAVE_LAUNCH and os.environ.get("TILEGEN_TEST_REQUIRE_LAUNCH") == "1":
    raise SystemExit("TILEGEN_TEST_REQUIRE_LAUNCH=1 but the fake driver (TILEGEN_RUN_LIBCUDA=%s) "
                     "or libtilegen-launch (TILEGEN_LAUNCH_LIB=%s) is missing" %
                     (os.environ.get("TILEGEN_RUN_LIBCUDA"), os.environ.get("TILEGEN_LAUNCH_LIB")))
needs_launch = unittest.skipUnless(HAVE_LAUNCH, "no fake CUDA driver or libtilegen-launch")

_spec = importlib.util.spec_from_file_location("make_fake_cubin", FAKE_CUBIN_PY)
make_fake_cubin = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_fake_cubin)


def fake_kernel(folder, stem, a="f16/row", b="f16/col", c="f32/row", tile=(64, 32),
                target="sm_90", arch=90, constraints=(), scratch=False, kernel="gemm_fake",
                mx_b=False):
    """Writes folder/stem.cubin (a fake cubin the fake driver runs) and folder/stem.json.
    mx_b: B's scales are E8M0 codes per 1 x 32 (MXFP4 B), passed by the pointer scale_b."""
    params = ["A", "B", "C", "D", "M", "N", "K", "alpha", "beta"]
    text = ("TILEGEN-FAKE-CUBIN\narch=%d\nkernel=%s\nbehavior=correct\ntile=%dx%d\n"
            "a=%s b=%s c=%s\n%sparams=%s\n" % (arch, kernel, tile[0], tile[1], a, b, c,
                                                "sb=e8m0\n" if mx_b else "",
                                                ",".join(params + (["workspace"] if scratch
                                                                   else []) +
                                                         (["scale_b"] if mx_b else []))))
    with open(os.path.join(folder, stem + ".cubin"), "wb") as f:
        f.write(make_fake_cubin.fake_cubin(text.encode()))
    plist = [{"name": n, "kind": "ptr", "tensor": n} for n in "ABCD"]
    plist += [{"name": n, "kind": "i32", "value": n} for n in "MNK"]
    plist += [{"name": n, "kind": "f32", "value": n} for n in ("alpha", "beta")]
    if scratch:
        plist.append({"name": "workspace", "kind": "scratch", "bytes_per_cta": 256,
                      "zero": True})
    if mx_b:
        plist.append({"name": "scale_b", "kind": "ptr", "tensor": "scale_b"})
    op = lambda s: {"type": s.split("/")[0], "layout": s.split("/")[1]}  # noqa: E731
    man = {"format": "tilegen-manifest", "version": 1, "tilegen_version": "0.1.0",
           "kernel": kernel, "cubin": stem + ".cubin", "target": target,
           "block": [128, 1, 1], "cluster": [1, 1, 1], "dynamic_smem": 1024,
           "grid": {"rule": "stream_k" if scratch else "tiles", "tile_m": tile[0],
                    "tile_n": tile[1], "ctas_per_sm": 1},
           "operands": {"a": op(a), "b": dict(op(b), **({"scale": {
               "type": "e8m0", "granularity": "block", "block": [1, 32]}} if mx_b else {})),
               "c": op(c), "accumulator": "f32"},
           "epilogue": {"alpha": 1.0, "beta": 0.0},
           "constraints": [{"dim": d, "multiple": m, "reason": "test"} for d, m in constraints],
           "params": plist, "description": "tile.gemm @%s (test)" % kernel}
    path = os.path.join(folder, stem + ".json")
    with open(path, "w") as f:
        json.dump(man, f, indent=1)
    return path


FAKE_TILEGEN = r'''#!%(python)s
# A stand-in for the tilegen compiler: --version, and "compiling" copies a fake kernel.
import json, os, shutil, sys, time
log = os.environ.get("FAKE_TILEGEN_LOG")
def note(s):
    if log:
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(fd, (s + "\n").encode()); os.close(fd)
if "--version" in sys.argv:
    note("version")
    print("tilegen 0.1.0-fake\n  LLVM/MLIR 0.0 (fake)\n  ptxas 0.0 (fake)")
    sys.exit(0)
desc = sys.argv[1]
target = [a for a in sys.argv if a.startswith("--target=")][0][9:]
out = sys.argv[sys.argv.index("-o") + 1]
text = open(desc).read()
if "broken" in text:
    sys.stderr.write("%%s:1:20: error: unknown field 'brokenfield'\n" %% desc)
    sys.exit(1)
time.sleep(float(os.environ.get("FAKE_TILEGEN_SLEEP", "0")))
src = os.environ["FAKE_TILEGEN_KERNEL"]
data = open(src + ".cubin", "rb").read()
if os.environ.get("FAKE_TILEGEN_VARY"):  # another cubin each time (trailing bytes)
    data += os.urandom(16)
open(out, "wb").write(data)
man = json.load(open(src + ".json"))
man["cubin"] = os.path.basename(out)
man["target"] = target
man["description"] = text
json.dump(man, open(out[:-6] + ".json", "w"))
note("compile " + target + " " + " ".join(a for a in sys.argv if a.startswith("--ptxas")))
'''

DESC = "tile.gemm @gemm_fake { a = f16 row, b = f16 col, c = f32 row, accumulator = f32 }\n"


class Env:
    """A temporary folder with a fake tilegen, a fake kernel and a cache folder, set up in the
    environment (TILEGEN_BIN, TILEGEN_CACHE_DIR) and the package's in-process memos cleared."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="tilegen-pytest-")
        self.cache = os.path.join(self.dir, "cache")
        self.log = os.path.join(self.dir, "log")
        self.bin = os.path.join(self.dir, "tilegen")
        with open(self.bin, "w") as f:
            f.write(FAKE_TILEGEN % {"python": sys.executable})
        os.chmod(self.bin, 0o755)
        fake_kernel(self.dir, "fake", target="sm_90a")
        self.env = {"TILEGEN_BIN": self.bin, "TILEGEN_CACHE_DIR": self.cache,
                    "FAKE_TILEGEN_LOG": self.log,
                    "FAKE_TILEGEN_KERNEL": os.path.join(self.dir, "fake")}
        self.saved = {k: os.environ.get(k) for k in self.env}
        os.environ.update(self.env)
        forget()

    def calls(self):
        try:
            with open(self.log) as f:
                return f.read().split("\n")[:-1]
        except FileNotFoundError:
            return []

    def close(self):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        forget()
        shutil.rmtree(self.dir, ignore_errors=True)


def forget():
    """Forgets what this process remembers, as a new process would."""
    _compile._kernels.clear()
    _compiler._memo.clear()


class CacheKeyTest(unittest.TestCase):
    def test_key_depends_on_every_input(self):
        base = _cache.cache_key("desc", "sm_90a", "tilegen 0.1.0", {})
        self.assertRegex(base, "^[0-9a-f]{64}$")
        self.assertEqual(base, _cache.cache_key("desc", "sm_90a", "tilegen 0.1.0", {}))
        others = [_cache.cache_key("desc ", "sm_90a", "tilegen 0.1.0", {}),
                  _cache.cache_key("desc", "sm_90", "tilegen 0.1.0", {}),
                  _cache.cache_key("desc", "sm_90a", "tilegen 0.1.1", {}),
                  _cache.cache_key("desc", "sm_90a", "tilegen 0.1.0\n  ptxas 13.1", {}),
                  _cache.cache_key("desc", "sm_90a", "tilegen 0.1.0", {"ptxas_options": "-O2"})]
        self.assertEqual(len(set(others + [base])), 6)

    def test_cache_dir(self):
        saved = {k: os.environ.pop(k, None) for k in ("TILEGEN_CACHE_DIR", "XDG_CACHE_HOME")}
        try:
            self.assertEqual(_cache.cache_dir(),
                             os.path.join(os.path.expanduser("~"), ".cache", "tilegen"))
            os.environ["XDG_CACHE_HOME"] = "/x/cache"
            self.assertEqual(_cache.cache_dir(), "/x/cache/tilegen")
            os.environ["XDG_CACHE_HOME"] = "relative"  # not absolute: ignored, as the spec says
            self.assertEqual(_cache.cache_dir(),
                             os.path.join(os.path.expanduser("~"), ".cache", "tilegen"))
            os.environ["TILEGEN_CACHE_DIR"] = "/y/tg"
            self.assertEqual(_cache.cache_dir(), "/y/tg")
            self.assertEqual(_cache.cache_dir("/z"), "/z")
        finally:
            for k, v in saved.items():
                os.environ.pop(k, None)
                if v is not None:
                    os.environ[k] = v


class CompileCacheTest(unittest.TestCase):
    def setUp(self):
        self.e = Env()

    def tearDown(self):
        self.e.close()

    def test_cold_then_warm(self):
        k1 = tilegen.compile(DESC, target="sm_90a")
        self.assertEqual(self.e.calls(), ["version", "compile sm_90a "])
        self.assertEqual(k1.name, "gemm_fake")
        self.assertEqual(k1.target, "sm_90a")
        # Same process: the same Kernel, nothing run.
        self.assertIs(tilegen.compile(DESC, target="sm_90a"), k1)
        # "A new process": read from disk; --version comes from versions.json.
        forget()
        k2 = tilegen.compile(DESC, target="sm_90a")
        self.assertEqual(self.e.calls(), ["version", "compile sm_90a "])
        self.assertEqual(k2.cubin, k1.cubin)
        # The entry is a manifest tilegen-run and tilegen.load take as it is.
        [entry] = tilegen.cache_entries()
        self.assertEqual(entry["status"], "ok")
        k3 = tilegen.load(entry["manifest"])
        self.assertEqual(k3.cubin, k1.cubin)
        # Other targets and options are other entries.
        tilegen.compile(DESC, target="sm_90")
        tilegen.compile(DESC, target="sm_90a", ptxas_options="-O2")
        self.assertEqual(self.e.calls()[2:], ["compile sm_90 ", "compile sm_90a --ptxas-options=-O2"])
        self.assertEqual(len(tilegen.cache_entries()), 3)

    def test_description_from_file(self):
        p = os.path.join(self.e.dir, "d.mlir")
        with open(p, "w") as f:
            f.write(DESC)
        k = tilegen.compile(p, target="sm_90a")
        forget()
        self.assertEqual(tilegen.compile(DESC, target="sm_90a").cubin, k.cubin)
        self.assertEqual(self.e.calls().count("compile sm_90a "), 1)

    def test_new_compiler_binary_is_a_new_key(self):
        tilegen.compile(DESC, target="sm_90a")
        os.utime(self.e.bin, ns=(1, 1))  # "rebuilt": another mtime, so --version again
        forget()
        tilegen.compile(DESC, target="sm_90a")
        self.assertEqual(self.e.calls().count("version"), 2)
        # Same version text: the same key, so no second compile.
        self.assertEqual(self.e.calls().count("compile sm_90a "), 1)

    def test_no_cache(self):
        tilegen.compile(DESC, target="sm_90a", cache=False)
        tilegen.compile(DESC, target="sm_90a", cache=False)
        self.assertEqual(self.e.calls().count("compile sm_90a "), 2)
        self.assertFalse(os.path.exists(self.e.cache) and
                         any(n.endswith(".cubin") for n in os.listdir(self.e.cache)))

    def _corrupt_and_recompile(self, corrupt, reason):
        k = tilegen.compile(DESC, target="sm_90a")
        [entry] = tilegen.cache_entries()
        corrupt(entry["manifest"], k.origin)
        forget()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            k2 = tilegen.compile(DESC, target="sm_90a")
        msgs = [str(x.message) for x in w if issubclass(x.category, tilegen.CacheWarning)]
        self.assertEqual(len(msgs), 1, msgs)
        self.assertIn("is corrupted, compiling again", msgs[0])
        self.assertIn(reason, msgs[0])
        self.assertEqual(k2.cubin, k.cubin)
        self.assertEqual(self.e.calls().count("compile sm_90a "), 2)
        self.assertEqual([r["status"] for r in tilegen.cache_entries()], ["ok"])

    def test_truncated_cubin(self):
        def cut(m, c):
            with open(c, "r+b") as f:
                f.truncate(100)
        self._corrupt_and_recompile(cut, "has 100 bytes; its manifest records")

    def test_cubin_not_elf(self):
        def ptx(m, c):
            n = os.path.getsize(c)
            with open(c, "wb") as f:
                f.write(b"//\n// Generated by NVIDIA NVVM Compiler\n".ljust(n, b" "))
        self._corrupt_and_recompile(ptx, "is PTX text (no ELF magic)")

    def test_cubin_bytes_changed(self):
        def flip(m, c):
            with open(c, "r+b") as f:
                f.seek(200)
                b = f.read(1)
                f.seek(200)
                f.write(bytes([b[0] ^ 0xFF]))
        self._corrupt_and_recompile(flip, "does not match the SHA-256")

    def test_cubin_missing(self):
        self._corrupt_and_recompile(lambda m, c: os.unlink(c), "cannot read cubin")

    def test_manifest_garbage(self):
        def garbage(m, c):
            with open(m, "w") as f:
                f.write('{"format": "tilegen-manifest", "version": 1, "kern')
        self._corrupt_and_recompile(garbage, "not valid JSON")

    def test_manifest_not_a_manifest(self):
        def other(m, c):
            with open(m, "w") as f:
                f.write('{"format": "something-else"}')
        self._corrupt_and_recompile(other, "field 'format'")

    def test_manifest_nested_too_deeply(self):
        def deep(m, c):
            with open(m, "w") as f:
                f.write("[" * 100000 + "]" * 100000)
        self._corrupt_and_recompile(deep, "not valid JSON: nested too deeply")

    def test_folder_in_place_of_the_cubin(self):
        # The entry is warned about and compiled again; the folder in the way keeps the new
        # cubin from being stored, which is warned about too, and the kernel is used uncached.
        k = tilegen.compile(DESC, target="sm_90a")
        os.unlink(k.origin)
        os.mkdir(k.origin)
        forget()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            k2 = tilegen.compile(DESC, target="sm_90a")
        msgs = [str(x.message) for x in w if issubclass(x.category, tilegen.CacheWarning)]
        self.assertEqual(len(msgs), 2, msgs)
        self.assertIn("is corrupted, compiling again: cannot read cubin %s: it is a directory"
                      % k.origin, msgs[0])
        self.assertIn("cannot store entry", msgs[1])
        self.assertEqual(k2.cubin, k.cubin)

    def test_versions_file_corrupted(self):
        tilegen.compile(DESC, target="sm_90a")
        with open(os.path.join(self.e.cache, "versions.json"), "w") as f:
            f.write("[" * 100000 + "]" * 100000)
        forget()
        tilegen.compile(DESC, target="sm_90a")  # asks tilegen --version again
        self.assertEqual(self.e.calls(), ["version", "compile sm_90a ", "version"])

    def test_compile_refuses_bad_arguments(self):
        latin1 = os.path.join(self.e.dir, "latin1.mlir")
        with open(latin1, "wb") as f:
            f.write(b"// caf\xe9\n" + DESC.encode())
        cases = [
            ((None,), {}, tilegen.CompileError, "description must be the text of a tile.gemm "
             "description \\(str\\) or the path of a .mlir file, got NoneType"),
            ((DESC.encode(),), {}, tilegen.CompileError, "got bytes"),
            ((latin1,), {}, tilegen.CompileError, "description .*latin1.mlir is not UTF-8 text"),
            ((os.path.join(self.e.dir, "x\0.mlir"),), {}, tilegen.CompileError,
             "description .*x\\\\x00.mlir' holds a NUL byte"),
            ((DESC, "sm_90a\0"), {}, tilegen.CompileError,
             "target 'sm_90a\\\\x00' holds a NUL or other control character"),
            ((DESC,), dict(ptxas_options="-O3\0"), tilegen.CompileError,
             "ptxas_options '-O3\\\\x00' holds a NUL"),
            ((DESC,), dict(ptxas_options=["-O3"]), tilegen.CompileError,
             "ptxas_options must be a string, got list"),
            ((DESC,), dict(ptxas_timeout="abc"), tilegen.CompileError,
             "ptxas_timeout must be a number of seconds, got 'abc'"),
            ((DESC,), dict(ptxas_timeout=float("inf")), tilegen.CompileError,
             "ptxas_timeout = inf is not a number of seconds from above 0 to 4294967295"),
            ((DESC,), dict(ptxas_timeout=-1), tilegen.CompileError,
             "ptxas_timeout = -1 is not a number of seconds"),
            ((DESC,), dict(timeout=float("nan")), tilegen.CompileError,
             "timeout = nan is not a number of seconds"),
            ((DESC,), dict(cache_dir="c\0"), tilegen.CompileError,
             "cache_dir 'c\\\\x00' holds a NUL byte"),
        ]
        for args, kw, exc, msg in cases:
            with self.subTest(msg):
                forget()
                with self.assertRaisesRegex(exc, msg):
                    tilegen.compile(*args, **kw)
        # A fraction of a second of ptxas time rounds up: tilegen takes whole seconds.
        tilegen.compile(DESC, target="sm_90a", ptxas_timeout=0.5)
        self.assertIn("compile sm_90a --ptxas-timeout=1", self.e.calls())
        # Output that is not UTF-8 is reported, not a decoding error.
        tg = os.path.join(self.e.dir, "tg-latin1")
        with open(tg, "w") as f:
            f.write("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'tilegen 9'; exit 0; }\n"
                    "printf 'caf\\351\\n' >&2; exit 1\n")
        os.chmod(tg, 0o755)
        forget()
        with self.assertRaisesRegex(tilegen.CompileError,
                                    "tilegen failed \\(exit 1\\) for target sm_90a:\ncaf\ufffd"):
            tilegen.compile(DESC, tilegen=tg)
        # The --version probe keeps to the call's timeout.
        slow = os.path.join(self.e.dir, "tg-slow")
        with open(slow, "w") as f:
            f.write("#!/bin/sh\nexec sleep 30\n")
        os.chmod(slow, 0o755)
        forget()
        with self.assertRaisesRegex(tilegen.CompileError, "cannot run .*tg-slow --version: "
                                                          ".*timed out after 0.5 seconds"):
            tilegen.compile(DESC, tilegen=slow, timeout=0.5)

    def test_cache_folder_problems(self):
        afile = os.path.join(self.e.dir, "afile")
        with open(afile, "w") as f:
            f.write("x")
        for call in (tilegen.cache_entries, tilegen.clear_cache):
            with self.subTest(call.__name__):
                with self.assertRaisesRegex(tilegen.ArgumentError,
                                            "the cache folder .*afile is not a folder"):
                    call(afile)
                with self.assertRaisesRegex(tilegen.ArgumentError,
                                            "cache_dir '.*x\\\\x00y' holds a NUL byte"):
                    call(os.path.join(self.e.dir, "x\0y"))
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
        p = subprocess.run([sys.executable, "-m", "tilegen.cache", "--dir", afile, "list"],
                           capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, "^tilegen-cache: error: the cache folder .*afile is not a "
                                   "folder")
        # A compile in progress keeps its folder; one left behind by a process that ended
        # (its lock free) is removed.
        tilegen.compile(DESC, target="sm_90a")
        work = _cache.make_workdir(self.e.cache)
        try:
            left = os.path.join(self.e.cache, ".compile-left")
            os.mkdir(left)
            open(os.path.join(left, "lock"), "w").close()
            self.assertEqual(tilegen.clear_cache(), 4)  # manifest, cubin, versions.json, left
            self.assertTrue(os.path.isdir(work.path))
            self.assertEqual(sorted(os.listdir(self.e.cache)),
                             [os.path.basename(work.path)])
        finally:
            work.close()
        self.assertEqual(os.listdir(self.e.cache), [])

    def test_compile_errors(self):
        with self.assertRaisesRegex(tilegen.CompileError,
                                    r"tilegen failed \(exit 1\) for target sm_90a:\n.*"
                                    r"error: unknown field 'brokenfield'"):
            tilegen.compile("tile.gemm @x { brokenfield = 1 }", target="sm_90a")
        with self.assertRaisesRegex(tilegen.CompileError, "cannot read description .*nope.mlir"):
            tilegen.compile(os.path.join(self.e.dir, "nope.mlir"))
        os.environ["TILEGEN_BIN"] = os.path.join(self.e.dir, "no-such-tilegen")
        with self.assertRaisesRegex(tilegen.CompileError,
                                    "cannot find the tilegen compiler .*no-such-tilegen.*"
                                    "tilegen.load\\(\\) runs already compiled kernels"):
            tilegen.compile(DESC)
        # Nothing half-written is left behind.
        self.assertEqual([n for n in os.listdir(self.e.cache) if n.startswith(".")], [])

    def test_cache_cli(self):
        tilegen.compile(DESC, target="sm_90a")
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
        run = lambda *a: subprocess.run([sys.executable, "-m", "tilegen.cache"] + list(a),  # noqa
                                        capture_output=True, text=True, env=env)
        p = run("list")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"cache .*: 1 entry\n  [0-9a-f]{16}  gemm_fake +sm_90a +\d+ B")
        rows = json.loads(run("list", "--json").stdout)
        self.assertEqual(rows[0]["kernel"], "gemm_fake")
        self.assertEqual(run("dir").stdout.strip(), self.e.cache)
        with open(rows[0]["manifest"], "w") as f:
            f.write("{")
        self.assertIn("corrupted: manifest", run("list").stdout)
        p = run("clear")
        self.assertIn("removed", p.stdout)
        self.assertEqual(run("list").stdout.strip(), "cache %s: 0 entries" % self.e.cache)


def _compile_worker(args):
    env, desc, target = args
    os.environ.update(env)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a torn entry would warn: fail instead
        k = tilegen.compile(desc, target=target)
    return k.name, len(k.cubin), k.origin


def _publish_worker(args):
    folder, key, cubin, rounds = args
    man = json.dumps({"format": "tilegen-manifest", "version": 1, "kernel": "k",
                      "cubin": "k.cubin", "target": "sm_90a",
                      "grid": {"tile_m": 64, "tile_n": 32},
                      "operands": {"a": {"type": "f16", "layout": "row"},
                                   "b": {"type": "f16", "layout": "col"},
                                   "c": {"type": "f32", "layout": "row"}},
                      "constraints": [], "params": []})
    for _ in range(rounds):
        _cache.store(folder, key, {"target": "sm_90a"}, man, cubin)
    return rounds


def _read_worker(args):
    folder, key, rounds = args
    bad = []
    for _ in range(rounds):
        try:
            _cache.read_entry(folder, key)
        except tilegen.ManifestError as e:
            bad.append(str(e))
    return bad


class ConcurrencyTest(unittest.TestCase):
    def test_readers_never_see_a_mixed_entry(self):
        # Writers publish one key over and over, each with other cubin bytes (as a
        # nondeterministic compiler would), while readers read it: every read finds the
        # manifest with its own cubin.
        d = tempfile.mkdtemp(prefix="tilegen-race-")
        try:
            base = open(os.path.join(INPUTS, "fake-correct.cubin"), "rb").read()
            key = "f" * 64
            ctx = multiprocessing.get_context("spawn")
            jobs = [(_publish_worker, (d, key, base + bytes([i]) * 64, 150)) for i in range(3)]
            jobs += [(_read_worker, (d, key, 1500))] * 3
            with ctx.Pool(6) as pool:
                pending = [pool.apply_async(f, (a,)) for f, a in jobs]
                results = [p.get(timeout=120) for p in pending]
            self.assertEqual(results[:3], [150] * 3)
            self.assertEqual([r for rs in results[3:] for r in rs], [])
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def test_processes_compile_one_key_at_once(self):
        e = Env()
        try:
            env = dict(e.env, FAKE_TILEGEN_SLEEP="0.3")
            ctx = multiprocessing.get_context("spawn")
            jobs = [(env, DESC, "sm_90a")] * 6 + [(env, DESC, "sm_90")] * 2
            with ctx.Pool(8) as pool:
                results = pool.map(_compile_worker, jobs)
            self.assertEqual({r[0] for r in results}, {"gemm_fake"})
            self.assertEqual(len({r[2] for r in results}), 2)  # one entry per target
            rows = tilegen.cache_entries()
            self.assertEqual(sorted(r["target"] for r in rows), ["sm_90", "sm_90a"])
            self.assertTrue(all(r["status"] == "ok" for r in rows))
            leftovers = [n for n in os.listdir(e.cache) if n.startswith(".")]
            self.assertEqual(leftovers, [])
            # Writers whose cubins differ (as a nondeterministic compiler's would) racing
            # readers: no process sees a manifest with another writer's cubin (none warns).
            tilegen.clear_cache()
            env = dict(e.env, FAKE_TILEGEN_VARY="1", FAKE_TILEGEN_SLEEP="0.05")
            with ctx.Pool(8) as pool:
                results = pool.map(_compile_worker, [(env, DESC, "sm_90a")] * 24)
            self.assertEqual(len(results), 24)
            self.assertEqual([r["status"] for r in tilegen.cache_entries()], ["ok"])
        finally:
            e.close()


def _dispatch_table(folder, entries, kernels, fallbacks=None):
    """kernels: {name: constraints}; entries: [(m, n, k, kernel, [candidates])]."""
    os.makedirs(os.path.join(folder, "kernels"), exist_ok=True)
    for name, cons in kernels.items():
        fake_kernel(os.path.join(folder, "kernels"), name, constraints=cons, kernel=name,
                    a="bf16/row", b="bf16/col", c="bf16/row")
    table = {"format": "tilegen-dispatch", "version": 1, "target": "sm_90",
             "kernels": [{"name": n, "cubin": "kernels/%s.cubin" % n,
                          "manifest": "kernels/%s.json" % n} for n in kernels],
             "entries": [{"m": m, "n": n, "k": k, "kernel": kern, "chosen_by": "model",
                          "candidates": [{"kernel": c} for c in cands]}
                         for m, n, k, kern, cands in entries]}
    if fallbacks is not None:
        table["fallbacks"] = fallbacks
    path = os.path.join(folder, "dispatch.json")
    with open(path, "w") as f:
        json.dump(table, f)
    return path


def _mx_manifest(folder, stem, mutate):
    """A fake MXFP4 kernel (the sm_90a upcast kernel's manifest) changed by mutate(manifest)."""
    path = fake_kernel(folder, stem, a="bf16/row", b="e2m1/col", c="bf16/row", kernel="gemm_mx",
                       target="sm_90a", mx_b=True)
    with open(path) as f:
        man = json.load(f)
    mutate(man)
    with open(path, "w") as f:
        json.dump(man, f)
    return path


class BlockScaledManifestTest(unittest.TestCase):
    """Which block-scaled manifests Python calls, and what it says about the others."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tilegen-mx-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def test_mxfp4_by_pointer_is_callable(self):
        kern = tilegen.load(_mx_manifest(self.dir, "ok", lambda m: None))
        self.assertEqual(kern.manifest.block_scaled, ["b"])
        self.assertIsNone(kern.manifest.unsupported)

    def test_padding_is_refused(self):
        # Padded copies of a packed operand and of its scales are not written: a dispatch table
        # must not pick a block-scaled kernel for a size it only takes padded.
        kern = tilegen.load(_mx_manifest(self.dir, "pad", lambda m: m["constraints"].append(
            {"dim": "N", "multiple": 8, "reason": "test"})))
        self.assertEqual(kern.manifest.padded_problem(64, 64, 64), ((64, 64, 64), None))
        padded, why = kern.manifest.padded_problem(64, 60, 64)
        self.assertIsNone(padded)
        self.assertEqual(why, "not supported yet: padding 64 x 60 x 64 to 64 x 64 x 64, as "
                              "operand B is packed e2m1 (its padded copy and scales are not "
                              "written)")
        # f32 block scales: padding K shifts the blocks, padding M or N changes the scale
        # tensor's shape.
        from tilegen._manifest import Manifest
        with open(os.path.join(INPUTS, "fake-fp8-block.json")) as f:
            data = json.load(f)
        data["constraints"].append({"dim": "N", "multiple": 8, "reason": "test"})
        fp8 = Manifest(data, json.dumps(data))
        self.assertEqual(fp8.padded_problem(64, 64, 64), ((64, 64, 64), None))
        self.assertEqual(fp8.padded_problem(64, 60, 64), (None, (
            "the kernel scales B per block of N, so N = 60 cannot be padded to 64 (the scale "
            "tensor would change its shape)")))
        self.assertEqual(fp8.padded_problem(64, 64, 60), (None, (
            "the kernel scales A per block of K, so K = 60 cannot be padded to 64")))

    def test_scale_spec_is_checked_at_load(self):
        # A scale spec the calls could not use is refused when the manifest is read.
        def fp8_a(spec):
            def mutate(m):
                m["operands"]["a"] = {"type": "e4m3", "layout": "row", "scale": spec}
                m["params"].append({"name": "scale_a", "kind": "ptr", "tensor": "scale_a"})
            return mutate
        block = {"type": "f32", "granularity": "block"}
        cases = [
            (dict(block, block=[0, 128]), r"operands.a.scale.block is \[0, 128\]: expected an "
             r"array \[M rows, K elements\] of 2 integers from 1 to 2147483647"),
            (dict(block, block=[1, -128]), r"operands.a.scale.block is \[1, -128\]"),
            (dict(block, block=[1]), r"operands.a.scale.block is \[1\]: expected"),
            (dict(block, block=[1, 128, 1]), r"operands.a.scale.block is \[1, 128, 1\]"),
            (dict(block, block=[1.5, 128]), r"operands.a.scale.block is \[1.5, 128\]"),
            (dict(block, block=[True, 128]), r"operands.a.scale.block is \[true, 128\]"),
            (dict(block, block=[[1], 128]), r"operands.a.scale.block is an array of 2 items"),
            (dict(block, block="ab"), r"field 'operands.a.scale.block' has the wrong type "
             r"\(str\)"),
            (block, "missing field 'operands.a.scale.block'"),
            ({"type": "f32", "granularity": "tensor", "block": [1, 1]},
             "operands.a.scale.block: a per-tensor scale has no block"),
            ({"type": "f32", "granularity": "rows"},
             "operands.a.scale.granularity is 'rows': expected \"tensor\" or \"block\""),
            ({"type": "f32"}, "missing field 'operands.a.scale.granularity'"),
            ({"type": 32, "granularity": "tensor"},
             r"field 'operands.a.scale.type' has the wrong type \(int\)"),
        ]
        for i, (spec, msg) in enumerate(cases):
            with self.subTest(msg):
                with self.assertRaisesRegex(tilegen.ManifestError,
                                            "manifest .*s%d.json: %s" % (i, msg)):
                    tilegen.load(_mx_manifest(self.dir, "s%d" % i, fp8_a(spec)))

    def test_native_block_scaled_kernels_are_refused(self):
        def atoms(m):  # the sm_100a kernels' scale tensor map (docs/manifest.md)
            m["params"][-1] = {"name": "tmap_scale_b", "kind": "tensormap", "tensor": "scale_b",
                               "elem": "e8m0", "layout": "scale_atoms_128x4", "block": 32,
                               "dims": ["atom_row_bytes", "atom_rows", "N_atoms"],
                               "box": [16, 64, 1], "swizzle": 0}

        def nvfp4(m):
            m["operands"]["b"]["scale"] = {"type": "e4m3", "granularity": "block",
                                           "block": [1, 16]}

        def mxfp6(m):
            m["operands"]["b"]["type"] = "e2m3"

        def mxfp8(m):
            m["operands"]["a"] = {"type": "e4m3", "layout": "row", "scale": {
                "type": "e8m0", "granularity": "block", "block": [1, 32]}}

        def factor(m):
            m["params"].append({"name": "scale_b_tensor", "kind": "ptr",
                                "tensor": "scale_b_tensor"})
        cases = [
            (atoms, r"param 'tmap_scale_b' reads scale_b through a tensor map "
                    r"\(scale_atoms_128x4 layout: the native block-scaled kernels' scale "
                    r"atoms\), which Python does not build"),
            (nvfp4, r"operand b is e2m1 with e4m3 block \[1, 16\] scales; Python passes e2m1 "
                    r"with e8m0 scales per 1 x 32 \(MXFP4\) only"),
            (mxfp6, r"operand b is e2m3 \(MXFP6\)"),
            (mxfp8, r"operand a is e4m3 with e8m0 scales \(native block scaling\)"),
            (factor, r"param 'scale_b_tensor' is a pointer to 'scale_b_tensor'"),
        ]
        for i, (mutate, msg) in enumerate(cases):
            with self.subTest(msg):
                kern = tilegen.load(_mx_manifest(self.dir, "k%d" % i, mutate))
                with self.assertRaisesRegex(tilegen.ArgumentError,
                                            r"^not supported yet: kernel gemm_mx \(sm_90a\) "
                                            r"cannot be called from Python: " + msg):
                    kern(None, None)


def _c_quantize(values, rows, k, fmt):
    """tilegen_quantize_mx of libtilegen-launch: (elements, scales) as bytes."""
    import ctypes
    lib = _native.launch_library()
    if lib.quantize_mx is None:
        raise AssertionError("%s has no tilegen_quantize_mx" % lib.path)
    count = rows * k
    x = (ctypes.c_double * count)(*values)
    elements = (ctypes.c_uint8 * ((count + 1) // 2 if fmt == "e2m1" else count))()
    scales = (ctypes.c_uint8 * (-(-k // 32) * rows))()
    st = lib.quantize_mx(fmt.encode(), x, rows, k, elements, scales)
    if st != 0:
        raise lib.thread_failure(st)
    return bytes(elements), bytes(scales)


def _have_launch_library():
    try:
        return _native.launch_library().quantize_mx is not None
    except tilegen.DriverError:
        return False


class MxQuantizeTest(unittest.TestCase):
    """tilegen.mx's plain-Python quantiser: known codes, and bit for bit the C++ one
    (include/tilegen/Support/MicroScaling.h through libtilegen-launch's tilegen_quantize_mx)."""

    FORMATS = ("e2m1", "e4m3", "e5m2", "e2m3", "e3m2")

    def test_known_codes(self):
        from tilegen import mx
        self.assertEqual([mx.decode(c, "e2m1") for c in range(8)],
                         [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])
        # Ties to even (0.25 -> 0, 0.75 -> 1.0, 2.5 -> 2, 5 -> 4), saturation, NaN, -0.0.
        self.assertEqual([mx.encode(x, "e2m1") for x in
                          (0.25, 0.26, 0.75, 1.25, 2.5, 3.5, 5.0, 6.9, 7.0, 1e30, -0.0,
                           float("nan"), float("-inf"), -0.5)],
                         [0, 1, 2, 2, 4, 6, 6, 7, 7, 7, 8, 7, 15, 9])
        self.assertEqual([mx.encode(x, "e4m3") for x in (448.0, 464.0, 480.0, 2.0 ** -10,
                                                         1.5 * 2.0 ** -9, float("nan"),
                                                         -float("nan"))],
                         [0x7E, 0x7E, 0x7E, 0x00, 0x02, 0x7F, 0xFF])
        self.assertEqual([mx.encode(x, "e5m2") for x in (57344.0, 1e9, float("inf"),
                                                         float("nan"), 2.0 ** -17)],
                         [0x7B, 0x7B, 0x7B, 0x7E, 0x00])
        # The scale: 2^(floor(log2 amax) - emax), 0 for an all-zero block, 0xFE for inf.
        self.assertEqual([mx.scale_code(a, f) for a, f in ((6.0, "e2m1"), (7.9, "e2m1"),
                                                           (1.0, "e4m3"), (0.0, "e2m1"),
                                                           (float("inf"), "e5m2"),
                                                           (2.0 ** -140, "e2m1"),
                                                           (2.0 ** 200, "e4m3"))],
                         [127, 127, 119, 0, 0xFE, 0, 0xFE])
        # A block of 1.0 in MXFP4: scale 2^-2 (code 125), elements 4 = e2m1 code 6, packed 0x66;
        # an all-zero row: scale code 0, elements 0.
        self.assertEqual(mx.quantize_reference([1.0] * 32 + [0.0] * 32, 2, 32, "e2m1"),
                         (b"\x66" * 16 + b"\x00" * 16, bytes([125, 0])))
        with self.assertRaisesRegex(tilegen.ArgumentError, "format 'e8m1' is not an MX element "
                                                           "format"):
            mx.encode(1.0, "e8m1")

    def test_bad_arguments(self):
        from tilegen import mx
        cases = [
            (lambda: mx.encode(10**400, "e4m3"), r"^x is an integer too large for a float64"),
            (lambda: mx.encode("1", "e4m3"), "^x must be a real number, got str"),
            (lambda: mx.scale_code(10**400, "e4m3"), "^amax is an integer too large"),
            (lambda: mx.scale_code(None, "e4m3"), "^amax must be a real number, got NoneType"),
            (lambda: mx.decode(300, "e2m1"),
             r"^code 300 is out of range for e2m1: expected 0 .. 15"),
            (lambda: mx.decode(256, "e8m0"),
             r"^code 256 is out of range for e8m0: expected 0 .. 255"),
            (lambda: mx.decode(-1, "e4m3"),
             r"^code -1 is out of range for e4m3: expected 0 .. 255"),
            (lambda: mx.decode(64, "e3m2"), r"^code 64 is out of range for e3m2: expected 0 .. 63"),
            (lambda: mx.decode(1.0, "e2m1"), "^code must be an integer, got float"),
            (lambda: mx.quantize_block([1.0] * 33, "e2m1"),
             "^quantize_block: 33 values; a block holds at most 32"),
            (lambda: mx.quantize_block([1.0, None], "e2m1"),
             r"^values\[1\] must be a real number, got NoneType"),
            (lambda: mx.quantize_reference([None], 1, 1, "e4m3"),
             r"^values\[0\] must be a real number"),
            (lambda: mx.quantize_reference([1.0] * 4, 2.0, 2, "e4m3"),
             "^rows must be a positive integer, got 2.0"),
            (lambda: mx.quantize_reference([1.0] * 4, 2, True, "e4m3"),
             "^k must be a positive integer, got a bool"),
            (lambda: mx.quantize_reference([], 0, 1, "e4m3"), "^rows = 0: it must be at least 1"),
            (lambda: mx.quantize_reference(iter([1.0]), 1, 1, "e4m3"),
             "^values must be a sequence of numbers, got list_iterator"),
            (lambda: mx.encode(1.0, ["e4m3"]), "^format a list is not an MX element format"),
        ]
        for call, msg in cases:
            with self.subTest(msg):
                with self.assertRaisesRegex(tilegen.ArgumentError, msg):
                    call()

        class Int8:  # a NumPy int8: abs(-128) wraps around to -128
            def __init__(self, v):
                self.v = v

            def __float__(self):
                return float(self.v)

            def __abs__(self):
                return Int8(-128 if self.v == -128 else abs(self.v))

            def __gt__(self, other):
                return self.v > other

            def __truediv__(self, other):
                return self.v / other
        self.assertEqual(mx.quantize_reference([Int8(-128), Int8(127)], 1, 2, "e2m1"),
                         mx.quantize_reference([-128.0, 127.0], 1, 2, "e2m1"))

    def _inputs(self, rng, rows, k):
        """Values that reach every branch: magnitudes across the range, exact ties of each
        format's grid, zeros of both signs, NaN and infinities, all-zero and all-NaN blocks."""
        special = [0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1e-310, -1e300,
                   2.0 ** -127, 2.0 ** -149, 6.0, 0.25, 0.75, 2.5, -5.0, 448.0, 464.0, 57344.0,
                   61440.0]
        out = []
        for r in range(rows):
            kind = r % 5
            for c in range(k):
                if kind == 0:  # wide magnitudes
                    v = rng.choice((-1, 1)) * rng.random() * 2.0 ** rng.randint(-140, 140)
                elif kind == 1:  # ties: a grid value and a half step at a shared exponent
                    v = rng.choice((-1, 1)) * (rng.randint(0, 64) / 8.0) * 2.0 ** rng.randint(
                        -3, 3)
                elif kind == 2:
                    v = rng.choice(special) if rng.random() < 0.3 else rng.gauss(0, 1)
                elif kind == 3:
                    v = 0.0 if c < 40 else rng.gauss(0, 1e-3)
                else:
                    v = float("nan") if c % 32 < 31 else rng.gauss(0, 4)
                out.append(v)
        return out

    @unittest.skipUnless(_have_launch_library(), "no libtilegen-launch with tilegen_quantize_mx")
    def test_matches_the_cpp_quantiser(self):
        from tilegen import mx
        rng = random.Random(11)
        for fmt in self.FORMATS:
            for rows, k in ((7, 45), (5, 64), (1, 1), (3, 96), (10, 33)):
                with self.subTest(fmt=fmt, rows=rows, k=k):
                    values = self._inputs(rng, rows, k)
                    self.assertEqual(mx.quantize_reference(values, rows, k, fmt),
                                     _c_quantize(values, rows, k, fmt))

    @unittest.skipUnless(_have_launch_library(), "no libtilegen-launch with tilegen_quantize_mx")
    def test_c_function_errors(self):
        import ctypes
        lib = _native.launch_library()
        buf = (ctypes.c_uint8 * 64)()
        x = (ctypes.c_double * 64)()
        for fmt, rows, k, msg in (
                (b"e8m0", 1, 32, "format 'e8m0' is not an MX element format: expected "
                                 "\"e2m1\", \"e4m3\""),
                (b"fp4", 1, 32, "format 'fp4' is not an MX element format"),
                (b"e2m1", 0, 32, "rows = 0, k = 32: each must be at least 1"),
                (b"e2m1", 1, -1, "rows = 1, k = -1: each must be at least 1"),
                (b"e2m1", 2 ** 62, 2 ** 62, "rows x k doubles must fit in memory"),
                (None, 1, 32, "tilegen_quantize_mx: format is null")):
            with self.subTest(msg):
                st = lib.quantize_mx(fmt, x, rows, k, buf, buf)
                self.assertEqual(_native.STATUS_NAMES[st], "TILEGEN_ERROR_INVALID_ARGUMENT")
                self.assertIn(msg, lib.last_error().decode())


class DispatchTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tilegen-dispatch-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_rule(self):
        path = _dispatch_table(self.dir, [
            (128, 128, 128, "small", ["small", "any"]),
            (4096, 4096, 4096, "big", ["big", "k16", "any"]),
            (64, 8192, 512, "k16", ["k16", "any"]),
        ], {"small": [], "big": [("K", 64)], "k16": [("K", 16)], "any": []})
        d = tilegen.load_dispatch(path)
        pick = lambda m, n, k: d.pick(m, n, k).name  # noqa: E731
        self.assertEqual(pick(128, 128, 128), "small")          # the entry of that size
        self.assertEqual(pick(4096, 4096, 4096), "big")
        self.assertEqual(pick(3000, 5000, 4096), "big")         # nearest in log space
        self.assertEqual(pick(100, 100, 100), "small")
        self.assertEqual(pick(64, 8000, 512), "k16")
        # |log2| distances from (1024, 1024, 1024): to 128^3 9, to 4096^3 6, to the third 7.
        self.assertEqual(pick(1024, 1024, 1024), "big")
        # K = 4112 breaks big's K % 64: its first candidate that runs, k16.
        self.assertEqual(pick(4096, 4096, 4112), "k16")
        # K = 4100: big and k16 refuse; any (a later candidate of the same entry).
        self.assertEqual(pick(4096, 4096, 4100), "any")
        # Ties keep the table's order: (256, 256, 256) is 1 + 1 + 1 = 3 from 128^3 ...
        self.assertEqual(pick(256, 256, 256), "small")
        with self.assertRaisesRegex(tilegen.ArgumentError, "M, N and K must be at least 1"):
            d.pick(0, 10, 10)

    def test_scaled_rule(self):
        # The table tilegen-run's lit test reads (one rule, two readers): with sm_count, sizes
        # between entries take the timed candidate whose time scaled by its waves is least.
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test",
                            "tools", "tilegen-run", "Inputs", "dispatch", "scaled.json")
        d = tilegen.load_dispatch(path)
        pick = lambda m, n, k: (lambda p: (p[0].name, p[1]))(d.pick_padded(m, n, k))  # noqa
        self.assertEqual(pick(384, 384, 384), ("gemm_bf16", None))
        self.assertEqual(pick(512, 512, 512), ("gemm_t256", None))     # the entry's own choice
        self.assertEqual(pick(384, 384, 383), ("gemm_bf16", (384, 384, 384)))
        self.assertEqual(pick(100, 100, 100), ("gemm_bf16", (100, 100, 104)))
        # A stream-K kernel's waves: a tail with no full wave counts as split (a fraction of a
        # wave) only when it fills at most half the SMs (2 tiles of 4), else as a whole
        # wave, as the kernel runs it (the same table as tilegen-run's lit test).
        sk = tilegen.load_dispatch(os.path.join(os.path.dirname(path), "scaled-streamk.json"))
        self.assertEqual(sk.pick(384, 128, 512).name, "gemm_bf16")
        self.assertEqual(sk.pick(256, 128, 512).name, "gemm_strk")
        self.assertEqual(sk.pick(128, 128, 512).name, "gemm_strk")
        # A cluster takes its tiles in units (grid.cluster_tiles): the pair timed at two tile
        # rows loses at one and at three (the same table as tilegen-run's lit test).
        cl = tilegen.load_dispatch(os.path.join(os.path.dirname(path), "scaled-cluster.json"))
        self.assertEqual(cl.pick(256, 512, 512).name, "gemm_pair")
        self.assertEqual(cl.pick(128, 512, 512).name, "gemm_bf16")
        self.assertEqual(cl.pick(384, 512, 512).name, "gemm_bf16")
        # Clusters of 4 count the clusters the table's quad_cluster_ctas holds (one of 4 on 8
        # SMs), not sm_count / 4: the 2 x 2 kernel loses at two units, wins when uncapped; a
        # value that is no multiple of 4 is refused (the same tables as tilegen-run's lit test).
        quad = tilegen.load_dispatch(os.path.join(os.path.dirname(path), "scaled-quad.json"))
        self.assertEqual(quad.pick(512, 256, 512).name, "gemm_bf16")
        free = tilegen.load_dispatch(os.path.join(os.path.dirname(path),
                                                  "scaled-quad-uncapped.json"))
        self.assertEqual(free.pick(512, 256, 512).name, "gemm_quad")
        with self.assertRaisesRegex(tilegen.ManifestError, "quad_cluster_ctas"):
            tilegen.load_dispatch(os.path.join(os.path.dirname(path), "bad-quad.json"))
        # A kernel's "slice" terms scale its time by its K-slice's time at the size's L2 line
        # offsets: at K = 520 the issue-bound gemm_t256 loses to gemm_bf16, which it beats
        # without the terms and at an aligned K; a "slice" that is not an object or has a
        # field out of range is refused (the same tables as tilegen-run's lit test).
        folder = os.path.dirname(path)
        lines = tilegen.load_dispatch(os.path.join(folder, "scaled-lines.json"))
        self.assertEqual(lines.pick(256, 512, 520).name, "gemm_bf16")
        self.assertEqual(lines.pick(256, 512, 1024).name, "gemm_t256")
        none = tilegen.load_dispatch(os.path.join(folder, "scaled-lines-none.json"))
        self.assertEqual(none.pick(256, 512, 520).name, "gemm_t256")
        # With slice terms a stream-K split tail costs its slices at the split's rate and the
        # fix-ups: one tile split 4 ways after a whole wave loses to two whole waves of the
        # tiles kernel, which it beats as a quarter wave without the terms.
        sks = tilegen.load_dispatch(os.path.join(folder, "scaled-streamk-slice.json"))
        self.assertEqual(sks.pick(640, 128, 4096).name, "gemm_bf16")
        sks = tilegen.load_dispatch(os.path.join(folder, "scaled-streamk-slice-none.json"))
        self.assertEqual(sks.pick(640, 128, 4096).name, "gemm_strk")
        for name, message in (("bad-slice.json", r'"slice" must be an object'),
                              ("bad-slice-field.json",
                               r'"slice": "issue_cycles" must be a number from 0 to 1e9, '
                               r'found -1'),
                              ("bad-slice-missing.json",
                               r'"slice": "l2_bytes_per_cycle" must be a number above 0 to '
                               r'1e9, found nothing'),
                              ("bad-slice-k.json",
                               r'"slice": "k" must be an integer from 1 to 65536 \(the '
                               r"tile's K\), found 0"),
                              ("bad-slice-split.json",
                               r'"slice": "split_efficiency" must be a number above 0 and at '
                               r'most 1 beside "fixup_cycles", found nothing')):
            with self.assertRaisesRegex(tilegen.ManifestError, message):
                tilegen.load_dispatch(os.path.join(folder, name))
        # A candidate whose run failed is never picked; an untimed one beside timed ones
        # competes on tune's estimate; a failed chosen kernel or a "measurement" that is not a
        # string is refused (the same tables as tilegen-run's lit test).
        folder = os.path.dirname(path)
        d = tilegen.load_dispatch(os.path.join(folder, "scaled-failed.json"))
        self.assertEqual(d.pick(384, 384, 384).name, "gemm_t256")
        d = tilegen.load_dispatch(os.path.join(folder, "fallback-failed.json"))
        with self.assertRaisesRegex(tilegen.ArgumentError, r"no kernel can run 64 x 64 x "
                                    r"2147483647:\n  gemm_any1: its run at the nearest entry "
                                    r"300 x 200 x 64 failed \(fail\)"):
            d.pick(64, 64, 2147483647)
        d = tilegen.load_dispatch(os.path.join(folder, "fallback-skipped.json"))
        self.assertEqual(d.pick(64, 64, 2147483647).name, "gemm_any1")
        # A time that is null is refused, as tilegen-run refuses it.
        with open(os.path.join(folder, "scaled-estimated.json")) as f:
            table = json.load(f)
        table["entries"][0]["candidates"][0]["estimated_ns"] = None
        for name in os.listdir(os.path.join(folder, "kernels")):
            os.makedirs(os.path.join(self.dir, "kernels"), exist_ok=True)
            shutil.copy(os.path.join(folder, "kernels", name), os.path.join(self.dir, "kernels"))
        with open(os.path.join(self.dir, "null.json"), "w") as f:
            json.dump(table, f)
        with self.assertRaisesRegex(tilegen.ManifestError, "estimated_ns of gemm_bf16 must be a "
                                    "time in ns above 0 and at most 1e15, found None"):
            tilegen.load_dispatch(os.path.join(self.dir, "null.json"))
        d = tilegen.load_dispatch(os.path.join(folder, "scaled-estimated.json"))
        self.assertEqual(d.pick(384, 384, 384).name, "gemm_bf16")
        with self.assertRaisesRegex(tilegen.ManifestError, r"entries\[0\]: candidates\[0\]: "
                                    r"kernel gemm_t256 is the entry's \"kernel\" but its run "
                                    r"failed \(\"measurement\": \"hang\"\)"):
            tilegen.load_dispatch(os.path.join(folder, "chosen-failed.json"))
        with self.assertRaisesRegex(tilegen.ManifestError, r"candidates\[1\]: \"measurement\" "
                                    r"must be a non-empty string"):
            tilegen.load_dispatch(os.path.join(folder, "bad-measurement.json"))
        with self.assertRaisesRegex(tilegen.ManifestError, r"candidates\[1\]: \"measurement\" "
                                    r"must be a non-empty string without control characters"):
            tilegen.load_dispatch(os.path.join(folder, "bad-measurement-ctl.json"))

    def test_rule_line_alignment(self):
        # A size that is a multiple of 64 in one and not the other adds 1 to the distance.
        path = _dispatch_table(self.dir, [
            (4096, 4096, 4096, "aligned", []),
            (4096, 4096, 5000, "unaligned", []),
        ], {"aligned": [], "unaligned": []})
        d = tilegen.load_dispatch(path)
        # log2 distance 0.14 to K = 4096 and 0.15 to K = 5000; 4504 % 64 != 0.
        self.assertEqual(d.pick(4096, 4096, 4504).name, "unaligned")
        # 0.17 to K = 4096, 0.12 to K = 5000; 4608 % 64 == 0.
        self.assertEqual(d.pick(4096, 4096, 4608).name, "aligned")

    def test_next_entry_when_no_candidate_runs(self):
        path = _dispatch_table(self.dir, [
            (4096, 4096, 4096, "k64", []),
            (128, 128, 128, "any", []),
        ], {"k64": [("K", 64)], "any": []})
        d = tilegen.load_dispatch(path)
        self.assertEqual(d.pick(4096, 4096, 4000).name, "any")
        self.assertEqual(d.pick_padded(4096, 4096, 4000)[1], None)
        # The only kernel refuses K = 8 as it is: it runs zero-padded to K = 64.
        path = _dispatch_table(self.dir, [(4096, 4096, 4096, "k64", [])], {"k64": [("K", 64)]})
        d = tilegen.load_dispatch(path)
        kern, padded = d.pick_padded(8, 8, 8)
        self.assertEqual((kern.name, padded), ("k64", (8, 8, 64)))
        self.assertEqual(d.pick(8, 8, 8).name, "k64")
        # ... unless the padded size leaves 32 bits: both reasons are named.
        with self.assertRaisesRegex(tilegen.ArgumentError,
                                    r"no kernel can run 8 x 8 x 2147483647:\n  k64: K = "
                                    r"2147483647 is not a multiple of 64.*\n  k64 \(padded\): "
                                    r"K = 2147483647 padded to a multiple of 64 is 2147483648, "
                                    r"beyond the kernel's 32-bit sizes"):
            d.pick(8, 8, 2147483647)

    def test_fallbacks(self):
        # After every entry's kernels, the table's fallbacks in order (tune lists the mma.sync
        # kernels with alignment 4, 2, 1 there).
        path = _dispatch_table(self.dir, [
            (4096, 4096, 4096, "k8", ["k8"]),
            (64, 64, 64, "k8", []),
        ], {"k8": [("K", 8), ("N", 8)], "a4": [("K", 4), ("N", 4)], "a2": [("K", 2), ("N", 2)],
            "a1": []}, fallbacks=["a4", "a2", "a1"])
        d = tilegen.load_dispatch(path)
        self.assertEqual(d.fallbacks, ["a4", "a2", "a1"])
        self.assertEqual(d.pick(4096, 4096, 4096).name, "k8")
        # A ranked kernel zero-padded comes before the fallbacks ...
        self.assertEqual(d.pick_padded(4096, 4096, 4100), (d.kernels["k8"], (4096, 4096, 4104)))
        self.assertEqual(d.pick_padded(999, 999, 999), (d.kernels["k8"], (999, 1000, 1000)))
        # ... which run what padding cannot (a padded size beyond 32 bits).
        self.assertEqual(d.pick_padded(64, 64, 2147483647), (d.kernels["a1"], None))
        self.assertEqual(d.pick_padded(64, 64, 2147483644), (d.kernels["a4"], None))
        with open(path) as f:
            table = json.load(f)
        table["fallbacks"] = ["a4", "nope"]
        with open(path, "w") as f:
            json.dump(table, f)
        with self.assertRaisesRegex(tilegen.ManifestError,
                                    "fallbacks\\[1\\] names kernel 'nope', which is not in"):
            tilegen.load_dispatch(path)

    def test_inconsistent_tables(self):
        # The rules tilegen-run applies: one entry per size, the chosen kernel among its
        # candidates, each fallback once, a kernel's "cubin" the file its manifest describes.
        kernels = {"k8": [("K", 8)], "k64": [("K", 64)]}
        cases = (
            ([(64, 64, 64, "k8", ["k8"]), (64, 64, 64, "k64", ["k64"])], None, None,
             r"entries\[1\]: size 64 x 64 x 64 \(kernel k64\) has an entry already: "
             r"entries\[0\] \(kernel k8\)"),
            ([(64, 64, 64, "k8", ["k64"])], None, None,
             r"entries\[0\]: \"kernel\" k8 is not among the entry's \"candidates\""),
            ([(64, 64, 64, "k8", ["k8", "k64", "k8"])], None, None,
             r"entries\[0\]: candidates\[2\]: kernel k8 is listed twice \(also candidates\[0\]\)"),
            ([(64, 64, 64, "k8", ["k8"])], ["k8", "k8"], None,
             r"fallbacks\[1\]: kernel 'k8' is listed twice \(also fallbacks\[0\]\)"),
            ([(64, 64, 64, "k8", ["k8"])], None, "kernels/k64.cubin",
             r"kernel k8: \"cubin\" is .*k64.cubin, but its manifest describes .*k8.cubin"),
            ([(64, 64, 64, "k8", ["k8"])], None, "kernels/none.cubin",
             r"kernel k8: cannot read \"cubin\" .*none.cubin"),
        )
        for i, (entries, fallbacks, cubin, msg) in enumerate(cases):
            with self.subTest(i):
                folder = os.path.join(self.dir, "bad%d" % i)
                path = _dispatch_table(folder, entries, kernels, fallbacks)
                if cubin:
                    with open(path) as f:
                        table = json.load(f)
                    table["kernels"][0]["cubin"] = cubin
                    with open(path, "w") as f:
                        json.dump(table, f)
                with self.assertRaisesRegex(tilegen.ManifestError, msg):
                    tilegen.load_dispatch(path)

    def test_runner_fixture(self):
        d = tilegen.load_dispatch(os.path.join(INPUTS, "dispatch", "table.json"))
        self.assertEqual(d.pick(300, 200, 64).name, "gemm_bf16")
        self.assertEqual(d.pick(4000, 4000, 4000).name, "gemm_bx16")
        self.assertEqual(d.pick_padded(300, 200, 60), (d.kernels["gemm_bf16"], (300, 200, 64)))
        with self.assertRaisesRegex(tilegen.ArgumentError,
                                    r"no kernel can run 300 x 200 x 2147483647:\n"
                                    r"  gemm_bf16: K = 2147483647 is not a multiple of 8 .*\n"
                                    r"  gemm_bx16: K = 2147483647"):
            d.pick(300, 200, 2147483647)

    def test_bad_tables(self):
        for name, msg in (("other-target.json", "kernel gemm_bf16 is for sm_90, the table for sm_100a"),
                          ("unknown-kernel.json", "which is not in 'kernels'"),
                          ("missing-kernel.json", "cannot read manifest")):
            with self.subTest(name):
                with self.assertRaisesRegex(tilegen.ManifestError, msg):
                    tilegen.load_dispatch(os.path.join(INPUTS, "dispatch", name))
        with self.assertRaisesRegex(tilegen.ManifestError, "cannot read dispatch table"):
            tilegen.load_dispatch(os.path.join(self.dir, "none.json"))

    def test_bad_table_fields(self):
        def entry(field, value):
            return lambda t: t["entries"][0].__setitem__(field, value)
        cases = [
            (lambda t: json.dumps(t).replace('"m": 64', '"m": Infinity'),
             r'entries\[0\]: "m" is Infinity: expected an integer from 1 to 2147483647'),
            (entry("m", 64.9), r'entries\[0\]: "m" is 64.9: expected an integer'),
            (entry("n", "64"), r'entries\[0\]: "n" is "64": expected an integer'),
            (entry("k", True), r'entries\[0\]: "k" is true: expected an integer'),
            (entry("k", 2**31), r'entries\[0\]: "k" is 2147483648: expected an integer'),
            (entry("kernel", ["k8"]),
             r'entries\[0\]: "kernel" is \["k8"\]: expected a kernel name \(a string\)'),
            (lambda t: t["entries"][0]["candidates"].__setitem__(0, {"kernel": {}}),
             r"entries\[0\]: candidates\[0\].kernel is \{\}: expected a kernel name"),
            (entry("candidates", {"kernel": "k8"}), r"entries\[0\] needs m, n, k, kernel"),
            (lambda t: t["entries"].__setitem__(0, [64, 64, 64]),
             r"entries\[0\] needs m, n, k, kernel"),
            (lambda t: t.__setitem__("version", True), "version True is not supported"),
            (lambda t: t["kernels"][0].__setitem__("manifest", "kernels/k8\0.json"),
             r'kernels\[0\]: "manifest" is "kernels/k8\\u0000.json": expected a file name, '
             r"without NUL or other control characters"),
            (lambda t: t["kernels"][0].__setitem__("cubin", "kernels/k8.cubin\0"),
             r'kernels\[0\]: "cubin" is .*: expected a file name'),
            (lambda t: "[" * 100000 + "]" * 100000, "is not valid JSON: nested too deeply"),
        ]
        for i, (mutate, msg) in enumerate(cases):
            with self.subTest(msg):
                path = _dispatch_table(os.path.join(self.dir, "t%d" % i),
                                       [(64, 64, 64, "k8", ["k8"])], {"k8": [("K", 8)]})
                with open(path) as f:
                    table = json.load(f)
                text = mutate(table)
                with open(path, "w") as f:
                    f.write(text if isinstance(text, str) else json.dumps(table))
                with self.assertRaisesRegex(tilegen.ManifestError, msg):
                    tilegen.load_dispatch(path)
        # Not regular files: nothing waits for a writer or reads without end.
        fifo = os.path.join(self.dir, "fifo.json")
        os.mkfifo(fifo)
        for path, msg in ((fifo, "it is a FIFO, not a regular file"),
                          ("/dev/zero", "it is a character device, not a regular file"),
                          (self.dir, "it is a directory, not a dispatch table")):
            with self.subTest(path):
                with self.assertRaisesRegex(tilegen.ManifestError,
                                            "cannot read dispatch table %s: %s" % (path, msg)):
                    tilegen.load_dispatch(path)
        with self.assertRaisesRegex(tilegen.ManifestError, "dispatch table .*big.json is 16777217 "
                                                           "bytes, more than the 16 MiB"):
            big = os.path.join(self.dir, "big.json")
            with open(big, "wb") as f:
                f.truncate((16 << 20) + 1)
            tilegen.load_dispatch(big)
        with self.assertRaisesRegex(tilegen.ArgumentError, "path '.*t\\\\x00.json' holds a NUL"):
            tilegen.load_dispatch(os.path.join(self.dir, "t\0.json"))

    def test_sizes_must_be_integers(self):
        d = tilegen.load_dispatch(_dispatch_table(self.dir, [(64, 64, 64, "k8", ["k8"])],
                                                  {"k8": [("K", 8)]}))
        kern = d.kernels["k8"]
        for bad, msg in ((float("nan"), r"M = nan \(float\) is not an integer"),
                         (float("inf"), r"M = inf \(float\) is not an integer"),
                         ("64", r"M = '64' \(str\) is not an integer"),
                         (64.5, r"M = 64.5 \(float\) is not an integer"),
                         (64.0, r"M = 64.0 \(float\) is not an integer"),
                         (True, r"M = True is a bool, not a problem size")):
            for call in (d.pick, d.pick_padded, kern.problem_errors, kern.supports):
                with self.subTest(bad=bad, call=call.__name__):
                    with self.assertRaisesRegex(tilegen.ArgumentError, msg):
                        call(bad, 64, 64)
        self.assertEqual(kern.problem_errors(64, 64, 12), ["K = 12 is not a multiple of 8 (test)"])
        self.assertFalse(kern.supports(64, 64, 12))


class FakeArray:
    """A device array through __cuda_array_interface__ (version 3), as CuPy or Numba give."""

    def __init__(self, buf, shape, typestr, strides=None, offset=0):
        self.buf = buf
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (buf.ptr + offset, False),
                                         "strides": strides, "version": 3}


def _pack(fmt, values):
    return struct.pack("<%d%s" % (len(values), fmt), *values)


@needs_launch
class LaunchTest(unittest.TestCase):
    """Argument checks and launches on the fake driver, whose kernels compute D on the host."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tilegen-launch-")
        self.rng = random.Random(7)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def matrix(self, rows, cols, layout, typestr="<f2", fill=True):
        """A rows x cols device matrix in layout, with small integers; returns (array, values)."""
        vals = [[self.rng.randint(-3, 3) if fill else 0 for _ in range(cols)]
                for _ in range(rows)]
        size = 2 if typestr == "<f2" else 4
        flat = ([vals[i][j] for i in range(rows) for j in range(cols)] if layout == "row" else
                [vals[i][j] for j in range(cols) for i in range(rows)])
        buf = _native.DeviceBuffer(0, rows * cols * size)
        buf.write(_pack("e" if size == 2 else "f", flat))
        strides = (cols * size, size) if layout == "row" else (size, rows * size)
        return FakeArray(buf, (rows, cols), typestr, strides), vals

    def read(self, arr, rows, cols, layout):
        raw = arr.buf.read()
        flat = struct.unpack("<%df" % (rows * cols), raw)
        if layout == "row":
            return [[flat[i * cols + j] for j in range(cols)] for i in range(rows)]
        return [[flat[j * rows + i] for j in range(cols)] for i in range(rows)]

    def check_gemm(self, kern, m, n, k, la, lb, lc, beta=0.0):
        a, A = self.matrix(m, k, la)
        b, B = self.matrix(k, n, lb)
        c, C = self.matrix(m, n, lc, "<f4")
        d, _ = self.matrix(m, n, lc, "<f4", fill=False)
        r = kern(a, b, out=d, c=c if beta else None, alpha=2.0, beta=beta)
        self.assertIs(r, d)
        D = self.read(d, m, n, lc)
        bad = sum(1 for i in range(m) for j in range(n)
                  if D[i][j] != 2.0 * sum(A[i][x] * B[x][j] for x in range(k)) + beta * C[i][j])
        self.assertEqual(bad, 0)

    def test_gemm_col(self):
        kern = tilegen.load(os.path.join(INPUTS, "fake-f16-col.cubin"))
        self.check_gemm(kern, 70, 40, 24, "col", "col", "col")
        self.check_gemm(kern, 65, 33, 8, "col", "col", "col", beta=0.5)

    def test_gemm_row(self):
        kern = tilegen.load(fake_kernel(self.dir, "row", constraints=[("K", 8)]))
        self.check_gemm(kern, 129, 31, 16, "row", "col", "row")
        self.check_gemm(kern, 1, 1, 8, "row", "col", "row", beta=-1.0)

    def test_workspace_without_torch(self):
        kern = tilegen.load(fake_kernel(self.dir, "sk", scratch=True))
        self.check_gemm(kern, 100, 50, 16, "row", "col", "row")
        self.assertEqual(len(kern._workspaces), 1)
        self.check_gemm(kern, 100, 50, 16, "row", "col", "row")
        self.assertEqual(len(kern._workspaces), 1)

    def test_bad_arguments(self):
        kern = tilegen.load(fake_kernel(self.dir, "row", constraints=[("K", 8)]))
        a, _ = self.matrix(64, 16, "row")
        b, _ = self.matrix(16, 32, "col")
        d, _ = self.matrix(64, 32, "row", "<f4")
        ok = dict(out=d)
        kern(a, b, **ok)
        kern(a, b, out=d, alpha=0, beta=0.0)
        readonly = FakeArray(d.buf, (64, 32), "<f4", (128, 4))
        readonly.__cuda_array_interface__["data"] = (d.buf.ptr, True)

        class Stream:
            def __init__(self, value):
                self.value = value

            def __cuda_stream__(self):
                return self.value

        class HostArray:  # a NumPy array's protocols: host memory
            __array_interface__ = {"shape": (64, 16), "typestr": "<f2", "version": 3}

            def __dlpack__(self, stream=None):
                raise AssertionError("not read")
        cases = [
            ((a, b), {}, tilegen.ArgumentError, "out is None and no input is a torch tensor: "
             "pass out \\(a 64 x 32 f32 tensor, row layout\\)"),
            ((self.matrix(64, 16, "row", "<f4")[0], b), ok, tilegen.DTypeError,
             "a has dtype typestr '<f4', but kernel gemm_fake takes f16 for A"),
            ((a, self.matrix(16, 32, "row")[0]), ok, tilegen.ArgumentError,
             r"b \(B, K x N, 16 x 32\) must be column-major .* its strides are \(32, 1\)"),
            ((self.matrix(64, 16, "col")[0], b), ok, tilegen.ArgumentError,
             r"a \(A, M x K, 64 x 16\) must be row-major"),
            ((a, self.matrix(24, 32, "col")[0]), ok, tilegen.ArgumentError,
             r"a is 64 x 16 and b is 24 x 32: K differs"),
            ((self.matrix(64, 12, "row")[0], self.matrix(12, 32, "col")[0]), ok,
             tilegen.ArgumentError, r"cannot run M x N x K = 64 x 32 x 12: K = 12 is not a "
             r"multiple of 8"),
            ((a, b), dict(out=self.matrix(64, 33, "row", "<f4")[0]), tilegen.ArgumentError,
             r"out must be M x N = 64 x 32, got shape \(64, 33\)"),
            ((a, b), dict(out=self.matrix(64, 32, "row")[0]), tilegen.DTypeError,
             "out has dtype typestr '<f2', but kernel gemm_fake takes f32 for D"),
            ((a, b), dict(out=d, beta=0.5), tilegen.ArgumentError,
             "beta = 0.5 but c is None: kernel gemm_fake reads C when beta != 0"),
            ((a, b), dict(out=d, scale_a=d), tilegen.ArgumentError,
             "scale_a is given, but kernel gemm_fake has no scale for A"),
            ((FakeArray(a.buf, (64, 16), "<f2", (32, 2), offset=2), b), ok,
             tilegen.ArgumentError, r"a's data pointer 0x[0-9a-f]+ is not 16-byte aligned"),
            (([[1.0]], b), ok, tilegen.DTypeError, "a must be a CUDA tensor .* got list"),
            ((FakeArray(a.buf, (64, 16, 1), "<f2"), b), ok, tilegen.ArgumentError,
             "a and b must be 2-D"),
            ((a, b), dict(out=d, stream="s"), tilegen.ArgumentError,
             "stream must be a CUstream handle"),
            ((a, b), dict(out=d, stream=-1), tilegen.ArgumentError,
             "stream must be a CUstream handle, an integer from 0 to 2\\^64 - 1; got -1"),
            ((a, b), dict(out=d, stream=Stream((0,))), tilegen.ArgumentError,
             r"stream: __cuda_stream__\(\) must return a tuple \(version, handle\), got \(0,\)"),
            ((a, b), dict(out=d, stream=Stream((0, "x"))), tilegen.ArgumentError,
             r"stream's __cuda_stream__\(\) handle must be a CUstream handle"),
            ((a, b), dict(out=readonly), tilegen.ArgumentError,
             r"out is read-only \(its __cuda_array_interface__ data\[1\] is True\)"),
            ((HostArray(), b), ok, tilegen.DTypeError,
             r"a is a host array \(HostArray, in CPU memory\); tilegen kernels need a CUDA "
             r"device array"),
        ]
        # Malformed __cuda_array_interface__ dicts: each field named, never a Python error.
        for shape, strides, typestr, ptr, msg in (
                ((64, 16), (2,), "<f2", None,
                 r"strides \(2,\) has 1 entries, but the shape has 2 dims"),
                ((64, 16), (None, 2), "<f2", None,
                 r"strides \(None, 2\): None is not a non-negative 64-bit integer"),
                ((64, 16), 5, "<f2", None, "strides must be a tuple of integers, got 5"),
                ((64, float("inf")), (32, 2), "<f2", None,
                 r"shape \(64, inf\): inf is not a non-negative 64-bit integer"),
                ((64, 16.7), (32, 2), "<f2", None,
                 r"shape \(64, 16.7\): 16.7 is not a non-negative 64-bit integer"),
                ((64, 16), (32.5, 2), "<f2", None,
                 r"strides \(32.5, 2\): 32.5 is not a non-negative 64-bit integer"),
                ((64, True), (32, 2), "<f2", None,
                 r"shape \(64, True\): True is not a non-negative 64-bit integer"),
                ((64, -16), (32, 2), "<f2", None,
                 r"shape \(64, -16\): -16 is not a non-negative 64-bit integer"),
                ((64, 16), (32, 2), ["<f2"], None,
                 r"typestr must be a str such as '<f2', got \['<f2'\]"),
                ((64, 16), (32, 2), "<f2", -4096,
                 r"data pointer -4096 is not an address \(an integer from 0 to 2\^64 - 1\)"),
                ((64, 16), (32, 2), "<f2", 1 << 64, "data pointer 18446744073709551616 is not"),
                ((64, 16), (32, 2), "<f2", 4096.0, "data pointer 4096.0 is not an address")):
            x = FakeArray(a.buf, shape, typestr, strides)
            if ptr is not None:
                x.__cuda_array_interface__["data"] = (ptr, False)
            cases.append(((x, b), ok, tilegen.ArgumentError,
                          "a: __cuda_array_interface__ " + msg))
        # alpha and beta reach the kernel as f32: 0 or a normal f32 number.
        for value, msg in (("abc", "must be a real number, got 'abc' str"),
                           ([1], "must be a real number, got a list"),
                           (1j, "must be a real number, got 1j complex"),
                           (True, "must be a real number, got True bool"),
                           (10**400, "is beyond the f32 range"),
                           (1e39, r"= 1e\+39 is beyond the f32 range \(\|x\| <= 3.4028235e\+38\)"),
                           (float("nan"), "= nan is not finite"),
                           (-float("inf"), "= -inf is not finite"),
                           (1e-40, "= 1e-40 is below the smallest normal f32 number")):
            for name in ("alpha", "beta"):
                cases.append(((a, b), dict(out=d, c=d, **{name: value}), tilegen.ArgumentError,
                              "^%s %s" % (name, msg)))

        class DLOnly:
            def __dlpack__(self, stream=None):
                raise AssertionError("not called without torch")
        if tilegen._kernel._torch is None:
            cases.append(((DLOnly(), b), ok, tilegen.DTypeError,
                          "a is a __dlpack__ object \\(DLOnly\\); reading those needs PyTorch"))
        else:
            cases.append(((DLOnly(), b), ok, tilegen.ArgumentError,
                          "a: torch.from_dlpack failed: "))
        for args, kw, exc, msg in cases:
            with self.subTest(msg):
                with self.assertRaisesRegex(exc, msg):
                    kern(*args, **kw)

    def bytes_array(self, data, shape, strides):
        buf = _native.DeviceBuffer(0, max(len(data), 1))
        buf.write(bytes(data))
        return FakeArray(buf, shape, "|u1", strides)

    def mxfp4_problem(self, m, n, k):
        """A (f16, small integers), B quantised to MXFP4 by tilegen.mx from values with per-block
        magnitudes 2^-2 .. 2^2, and the exact D = A x dequant(B) in f32."""
        from tilegen import mx
        a, A = self.matrix(m, k, "row")
        w = [self.rng.choice((-1, 1)) * self.rng.randint(0, 12) * 2.0 ** (
            (j // 32) % 5 - 2 - 1) for i in range(n) for j in range(k)]  # N x K, K-major
        elements, scales = mx.quantize_reference(w, n, k, "e2m1")
        dq = [[mx.decode((elements[(i * k + j) // 2] >> (4 * (j % 2))) & 0xF, "e2m1") *
               mx.decode(scales[(j // 32) * n + i], "e8m0") for j in range(k)] for i in range(n)]
        ref = [[sum(A[r][x] * dq[col][x] for x in range(k)) for col in range(n)]
               for r in range(m)]
        return a, elements, scales, ref

    def test_mxfp4_launch(self):
        # A packed e2m1 B (N x K/2 bytes, passed transposed as K/2 x N with strides (1, K/2))
        # and its e8m0 scales in each accepted form: the fake driver computes D from them.
        kern = tilegen.load(fake_kernel(self.dir, "mx", a="f16/row", b="e2m1/col", c="f32/row",
                                        constraints=[("K", 32)], mx_b=True))
        m, n, k = 37, 24, 96
        a, elements, scales, ref = self.mxfp4_problem(m, n, k)
        b = self.bytes_array(elements, (k // 2, n), (1, k // 2))
        kb = k // 32
        forms = {"(KB, N) contiguous": ((kb, n), (n, 1)), "(N, KB) strides (1, N)":
                 ((n, kb), (1, n)), "flat": ((kb * n,), (1,))}
        for what, (shape, strides) in forms.items():
            with self.subTest(what):
                sb = self.bytes_array(scales, shape, strides)
                d, _ = self.matrix(m, n, "row", "<f4", fill=False)
                self.assertIs(kern(a, b, out=d, scale_b=sb), d)
                D = self.read(d, m, n, "row")
                self.assertEqual(sum(1 for i in range(m) for j in range(n)
                                     if D[i][j] != ref[i][j]), 0)
        # Through a dispatch table: M, N and K are counted in elements (K = 2 x B's bytes).
        table = {"format": "tilegen-dispatch", "version": 1, "target": "sm_90",
                 "kernels": [{"name": "gemm_fake", "cubin": "mx.cubin",
                              "manifest": "mx.json"}],
                 "entries": [{"m": 64, "n": 64, "k": 64, "kernel": "gemm_fake",
                              "chosen_by": "model",
                              "candidates": []}]}
        with open(os.path.join(self.dir, "table.json"), "w") as f:
            json.dump(table, f)
        disp = tilegen.load_dispatch(os.path.join(self.dir, "table.json"))
        d, _ = self.matrix(m, n, "row", "<f4", fill=False)
        disp(a, b, out=d, scale_b=self.bytes_array(scales, (kb, n), (n, 1)))
        self.assertEqual(self.read(d, m, n, "row"), ref)
        # e8m0 scales are bytes, copied by the kernels in 4-byte pieces: a pointer 4 bytes into
        # a buffer is fine, one at an odd address is refused before the launch, by the package.
        buf = _native.DeviceBuffer(0, len(scales) + 4)
        buf.write(b"\0" * 4 + scales)
        d, _ = self.matrix(m, n, "row", "<f4", fill=False)
        kern(a, b, out=d, scale_b=FakeArray(buf, (kb, n), "|u1", (n, 1), offset=4))
        self.assertEqual(self.read(d, m, n, "row"), ref)
        with self.assertRaisesRegex(tilegen.ArgumentError, r"scale_b's data pointer "
                                    r"0x[0-9a-f]+ is not 4-byte aligned \(e8m0 scales; the "
                                    r"kernels copy scales in 4-byte pieces\)"):
            kern(a, b, out=d, scale_b=FakeArray(buf, (kb, n), "|u1", (n, 1), offset=1))

    def test_mxfp4_bad_arguments(self):
        kern = tilegen.load(fake_kernel(self.dir, "mx", a="f16/row", b="e2m1/col", c="f32/row",
                                        constraints=[("K", 32)], mx_b=True))
        m, n, k = 16, 8, 64
        a, _ = self.matrix(m, k, "row")
        b = self.bytes_array(bytes(n * k // 2), (k // 2, n), (1, k // 2))
        sb = self.bytes_array(bytes(2 * n), (2, n), (n, 1))
        d, _ = self.matrix(m, n, "row", "<f4", fill=False)
        kern(a, b, out=d, scale_b=sb)
        cases = [
            (dict(b=self.matrix(k, n, "col")[0]), tilegen.DTypeError,
             r"b has dtype typestr '<f2', but kernel gemm_fake takes packed e2m1 for B: "
             r"torch.uint8 holding two elements per byte"),
            (dict(b=self.bytes_array(bytes(n * k), (k, n), (1, k))), tilegen.ArgumentError,
             r"a is 16 x 64 and b is 128 x 8 \(packed e2m1: 64 x 8 bytes\): K differs "
             r"\(64 != 128\)"),
            (dict(b=self.bytes_array(bytes(n * k // 2), (k // 2, n), (n, 1))),
             tilegen.ArgumentError,
             r"b \(B, K x N \(packed e2m1: 32 x 8 bytes\), 32 x 8\) must be column-major"),
            (dict(scale_b=None), tilegen.ArgumentError,
             r"kernel gemm_fake scales B: pass scale_b \(e8m0, one per 1 x 32 block \(N x K\): "
             r"ceil\(N / 1\) x ceil\(K / 32\) = 8 x 2 values"),
            (dict(scale_b=self.bytes_array(bytes(2 * n), (n, 2), (2, 1))), tilegen.ArgumentError,
             r"scale_b must be B's e8m0 scales, .* got shape \(8, 2\) with strides \(2, 1\); "
             r"pass s.t\(\).contiguous\(\).t\(\) for an \[N block, K block\] tensor s in "
             r"row-major order"),
            (dict(scale_b=self.bytes_array(bytes(3 * n), (3, n), (n, 1))), tilegen.ArgumentError,
             r"scale_b must be B's e8m0 scales, .* got shape \(3, 8\)"),
            (dict(scale_b=self.matrix(2, n, "row", "<f4")[0]), tilegen.DTypeError,
             r"scale_b has dtype typestr '<f4', but kernel gemm_fake takes e8m0 scales for B: "
             r"torch.uint8 codes"),
            (dict(scale_a=sb), tilegen.ArgumentError,
             "scale_a is given, but kernel gemm_fake has no scale for A"),
            (dict(a=self.matrix(m, 48, "row")[0],
                  b=self.bytes_array(bytes(n * 24), (24, n), (1, 24)),
                  scale_b=self.bytes_array(bytes(2 * n), (2, n), (n, 1))),
             tilegen.ArgumentError, r"cannot run M x N x K = 16 x 8 x 48: K = 48 is not a "
             r"multiple of 32"),
            # A packed operand's leading dimension in elements is twice its stride in bytes:
            # past 2^63 - 1 it is refused, not wrapped by ctypes into another number.
            (dict(b=FakeArray(b.buf, (k // 2, n), "|u1", (1, 2 ** 62 + 16))),
             tilegen.ArgumentError, r"ldb = 9223372036854775840 is beyond the launch library's "
             r"64-bit sizes \(0 to 2\^63 - 1\)"),
        ]
        for change, exc, msg in cases:
            with self.subTest(msg):
                kw = dict(b=b, out=d, scale_b=sb)
                kw.update(change)
                with self.assertRaisesRegex(exc, msg):
                    kern(kw.pop("a", a), kw.pop("b"), **kw)

    def test_padded_leading_dimension_goes_to_the_library(self):
        kern = tilegen.load(fake_kernel(self.dir, "row"))
        buf = _native.DeviceBuffer(0, 64 * 24 * 2)
        a = FakeArray(buf, (64, 16), "<f2", (48, 2))  # lda 24 > K 16
        b, _ = self.matrix(16, 32, "col")
        d, _ = self.matrix(64, 32, "row", "<f4")
        with self.assertRaises(tilegen.LaunchError) as cm:
            kern(a, b, out=d)
        self.assertEqual(cm.exception.status, "TILEGEN_ERROR_POINTER")
        self.assertIn("lda = 24: kernel gemm_fake addresses A through a pointer parameter",
                      str(cm.exception))

    def test_library_errors(self):
        b, _ = self.matrix(16, 32, "col")
        a, _ = self.matrix(64, 16, "row")
        d, _ = self.matrix(64, 32, "row", "<f4")
        other = tilegen.load(fake_kernel(self.dir, "sm100", target="sm_100a", arch=100))
        with self.assertRaisesRegex(tilegen.TargetError,
                                    r"was built for sm_100a .* is sm_90 .*TILEGEN_ERROR_TARGET"):
            other(a, b, out=d)
        with self.assertRaises(tilegen.TargetError):
            other.prepare()
        missing = tilegen.load(os.path.join(INPUTS, "fake-kernel-missing.cubin"))
        with self.assertRaisesRegex(tilegen.LaunchError,
                                    "kernel 'gemm_typo' .* is not in cubin"):
            missing.prepare(0)

    def test_load_refuses_bad_files(self):
        p = fake_kernel(self.dir, "k")
        cubin = p[:-5] + ".cubin"

        def manifest(mutate):
            with open(p) as f:
                man = json.load(f)
            mutate(man)
            with open(p, "w") as f:
                json.dump(man, f)
        with open(cubin, "wb") as f:
            f.write(b"//\n.version 8.7\n.target sm_90a\n" + b" " * 64)
        with self.assertRaisesRegex(tilegen.ManifestError, "is PTX text"):
            tilegen.load(cubin)
        with open(cubin, "wb") as f:
            f.write(b"\x7fELF\x02\x01" + b"\0" * 10)
        with self.assertRaisesRegex(tilegen.ManifestError, "truncated"):
            tilegen.load(p)
        with self.assertRaisesRegex(tilegen.ManifestError, "no such file .* same stem"):
            tilegen.load(os.path.join(INPUTS, "lonely.cubin"))
        with self.assertRaisesRegex(tilegen.ManifestError, "missing field 'grid.tile_m'"):
            tilegen.load(os.path.join(INPUTS, "missing-field.json"))
        # Not regular files, or too large: nothing waits for a writer or reads without end.
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        big = os.path.join(self.dir, "big.cubin")
        with open(big, "wb") as f:
            f.truncate((1 << 30) + 1)
        zero = os.path.join(self.dir, "zero.cubin")
        os.symlink("/dev/zero", zero)
        folder = os.path.join(self.dir, "folder.cubin")
        os.mkdir(folder)
        for where, msg in ((fifo, "cannot read cubin %s: it is a FIFO, not a regular file"),
                           (zero, "cannot read cubin %s: it is a character device, "
                                  "not a regular file"),
                           (folder, "cannot read cubin %s: it is a directory"),
                           (big, "cubin %s is 1073741825 bytes, more than the 1 GiB a cubin "
                                 "may have")):
            with self.subTest(where):
                manifest(lambda m: m.__setitem__("cubin", os.path.basename(where)))
                with self.assertRaisesRegex(tilegen.ManifestError, msg % where):
                    tilegen.load(p)
        with self.assertRaisesRegex(tilegen.ManifestError,
                                    "cannot read manifest %s: it is a FIFO" % fifo):
            tilegen.load(fifo)
        with self.assertRaisesRegex(tilegen.ArgumentError, r"path '.*k\\x00.json' holds a NUL"):
            tilegen.load(os.path.join(self.dir, "k\0.json"))
        with self.assertRaisesRegex(tilegen.ArgumentError, "path must be a path"):
            tilegen.load(None)
        # A path as bytes is a path.
        self.assertEqual(tilegen.load(os.fsencode(fake_kernel(self.dir, "b"))).name, "gemm_fake")

    def test_load_refuses_bad_manifest_fields(self):
        def epi(value):
            return lambda m: m.__setitem__("epilogue", value)
        cases = [
            (epi([1]), r"field 'epilogue' has the wrong type \(list\): expected an object"),
            (epi("x"), r"field 'epilogue' has the wrong type \(str\)"),
            (epi({"alpha": "abc"}), "field 'epilogue.alpha' must be a real number, got 'abc'"),
            (epi({"alpha": [1]}), "field 'epilogue.alpha' must be a real number, got a list"),
            (epi({"beta": True}), "field 'epilogue.beta' must be a real number, got True"),
            (epi({"alpha": 10**400}), "field 'epilogue.alpha' is beyond the f32 range"),
            (epi({"beta": 1e39}), "field 'epilogue.beta' = 1e\\+39 is beyond the f32 range"),
            (lambda m: m.__setitem__("cubin", "k\0.cubin"),
             r"field 'cubin' is 'k\\x00.cubin': expected a file name, without NUL or other "
             r"control characters"),
            (lambda m: m.__setitem__("cubin", ""), "field 'cubin' is '': expected a file name"),
            (lambda m: m.__setitem__("cubin", "/tmp/k.cubin"),
             "field 'cubin' is '/tmp/k.cubin': expected the cubin's file name in the manifest's "
             "folder, without a folder part"),
            (lambda m: m.__setitem__("cubin", "../k.cubin"), "field 'cubin' is '../k.cubin': "
             "expected the cubin's file name in the manifest's folder"),
            (lambda m: m.__setitem__("cubin", ".."), "field 'cubin' is '..': expected the "
             "cubin's file name"),
            (lambda m: m.__setitem__("version", True), "version True is not supported"),
            (lambda m: "[" * 100000 + "]" * 100000, "not valid JSON: nested too deeply"),
            (lambda m: m["grid"].__setitem__("tile_m", 10**400),
             "field 'grid.tile_m' is an integer of 1329 bits: expected an integer from 1 to "
             "2147483647"),
            (lambda m: json.dumps(m).replace("gemm_fake", "gemm_\\ud800"),
             r"field 'kernel' is 'gemm_\\ud800', which holds a lone surrogate"),
        ]
        for i, (mutate, msg) in enumerate(cases):
            with self.subTest(msg):
                p = fake_kernel(self.dir, "k%d" % i)
                with open(p) as f:
                    man = json.load(f)
                text = mutate(man)
                with open(p, "w") as f:
                    f.write(text if isinstance(text, str) else json.dumps(man))
                with self.assertRaisesRegex(tilegen.ManifestError, "manifest .*k%d.json: %s" %
                                            (i, msg)):
                    tilegen.load(p)
        # The epilogue's values are the description's; they need not be normal f32 numbers.
        p = fake_kernel(self.dir, "sub")
        with open(p) as f:
            man = json.load(f)
        man["epilogue"] = {"alpha": 1e-40, "beta": 0}
        with open(p, "w") as f:
            json.dump(man, f)
        self.assertEqual(tilegen.load(p).manifest.alpha, 1e-40)
        # The bound is tilegen's, 3.4028235e38: the largest f32 as C prints it (3.40282347e38,
        # a double above that f32), which tilegen accepts and writes, is read back; a kernel
        # call takes it too (it rounds to the largest f32).
        man["epilogue"] = {"alpha": 3.40282347e38, "beta": -3.4028235e38}
        with open(p, "w") as f:
            json.dump(man, f)
        self.assertEqual(tilegen.load(p).manifest.alpha, 3.40282347e38)
        self.assertEqual(tilegen._manifest.f32_scalar(3.4028235e38, "alpha", ValueError),
                         3.4028235e38)
        with self.assertRaisesRegex(ValueError, r"= 3.4028236e\+38 is beyond the f32 range"):
            tilegen._manifest.f32_scalar(3.4028236e38, "alpha", ValueError)

    def test_prepare_names_the_manifest_the_library_refuses(self):
        # Fields the package does not read itself are the library's to check, at the first
        # load onto a GPU: still a ManifestError naming the file.
        p = fake_kernel(self.dir, "wide")
        with open(p) as f:
            man = json.load(f)
        man["block"] = [2000, 1, 1]
        with open(p, "w") as f:
            json.dump(man, f)
        kern = tilegen.load(p)
        with self.assertRaisesRegex(tilegen.ManifestError, r"manifest .*wide\.json: field "
                                    r"'block\[0\]': expected an integer in \[1, 1024\], found "
                                    r"2000 \(TILEGEN_ERROR_MANIFEST\)"):
            kern.prepare(0)

    def test_prepare_device(self):
        kern = tilegen.load(fake_kernel(self.dir, "k"))
        self.assertIs(kern.prepare(0), kern)
        for device, msg in (("cuda:0", "got 'cuda:0'"), (0.5, "got 0.5"), (True, "got True"),
                            (-1, r"device = -1: expected a CUDA device ordinal \(0 or more\)")):
            with self.subTest(device):
                with self.assertRaisesRegex(tilegen.ArgumentError, msg):
                    kern.prepare(device)

    def test_padded_dispatch_needs_torch(self):
        path = _dispatch_table(self.dir, [(64, 64, 64, "k8", ["k8"])], {"k8": [("K", 8)]})
        d = tilegen.load_dispatch(path)
        a, _ = self.matrix(64, 12, "row")
        b, _ = self.matrix(12, 32, "col")
        out, _ = self.matrix(64, 32, "row")
        with self.assertRaisesRegex(tilegen.ArgumentError,
                                    r"M x N x K = 64 x 32 x 12 runs on zero-padded copies "
                                    r"\(64 x 32 x 16 for kernel k8\), which need torch tensors"):
            d(a, b, out=out)

    def test_no_driver(self):
        code = textwrap.dedent("""
            import sys, tilegen
            k = tilegen.load(sys.argv[1])
            try:
                k.prepare(0)
            except tilegen.DriverError as e:
                print("DriverError:", e)
        """)
        env = dict(os.environ, TILEGEN_RUN_LIBCUDA=os.path.join(self.dir, "none.so"),
                   PYTHONPATH=os.path.join(ROOT, "python"))
        p = subprocess.run([sys.executable, "-c", code, fake_kernel(self.dir, "k")],
                           capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("DriverError: no CUDA driver/GPU: cannot load", p.stdout)


def _ptxas():
    p = os.environ.get("TILEGEN_PTXAS") or shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    return os.path.exists(p)


@unittest.skipUnless(_compiler.find_tilegen(required=False) and _ptxas() and
                     os.path.exists(os.path.join(ROOT, "examples")),
                     "no tilegen compiler (TILEGEN_BIN) or no ptxas")
class RealCompilerTest(unittest.TestCase):
    def test_compile_example(self):
        d = tempfile.mkdtemp(prefix="tilegen-real-")
        try:
            forget()
            k = tilegen.compile(os.path.join(ROOT, "examples", "gemm_bf16_multistage.mlir"),
                                target="sm_90", cache_dir=d)
            self.assertEqual(k.target, "sm_90")
            self.assertEqual(k.cubin[:4], b"\x7fELF")
            self.assertEqual((k.manifest.a.type, k.b_layout), ("bf16", "col"))
            forget()
            k2 = tilegen.compile(os.path.join(ROOT, "examples", "gemm_bf16_multistage.mlir"),
                                 target="sm_90", cache_dir=d)
            self.assertEqual(k2.origin, k.origin)
            with self.assertRaisesRegex(tilegen.CompileError, "tilegen failed"):
                tilegen.compile("tile.gemm @g { a = bfloat16 row }", target="sm_90",
                                cache_dir=d)
        finally:
            forget()
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
