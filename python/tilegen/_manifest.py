"""The fields of a kernel manifest (docs/manifest.md) that the Python side needs.

libtilegen-launch reads and checks the whole manifest when a kernel is loaded onto a GPU; this
module reads what Python needs before that: the operand types and layouts (to check tensors), the
constraints on M, N and K (to check sizes and to pick kernels from a dispatch table), the scales
and the scratch parameters.
"""

import json
import math
import operator
import os
import stat
import struct

from ._errors import ArgumentError, ManifestError

# Manifest operand types -> bits per element.
TYPE_BITS = {"bf16": 16, "f16": 16, "f32": 32, "tf32": 32, "e4m3": 8, "e5m2": 8}
# Block-scaled operand types (docs/types.md). Python calls e2m1 operands with e8m0 scales per
# 1 x 32 passed by pointer (the sm_90a upcast kernels); the others are read but not called.
BLOCK_SCALED_BITS = {"e2m1": 4, "e2m3": 6, "e3m2": 6}
C_TYPES = ("bf16", "f16", "f32")
I32_MAX = 2**31 - 1
ELF_MAGIC = b"\x7fELF"
EM_CUDA = 190
# The largest files read, as tilegen-run and libtilegen-launch read them.
MAX_MANIFEST_BYTES = 4 << 20
MAX_DISPATCH_BYTES = 16 << 20
MAX_CUBIN_BYTES = 1 << 30
# The largest alpha or beta: 3.4028235e38, the shortest decimal that reads back as the largest
# finite f32 (the bound tilegen's verifier and tilegen-run take; a manifest written for
# alpha = 3.40282347e38, the largest f32 as C prints it, holds a double just above that f32).
# Every value up to it rounds to a finite f32. And the smallest normal f32.
F32_SCALAR_MAX = 3.4028235e38
F32_MIN_NORMAL = 2.0 ** -126


def _size_text(n):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d %s" % (n >> shift, unit)
    return "%d bytes" % n


def path_arg(path, what, error=ArgumentError):
    """path (a str, bytes or os.PathLike) as a str, or `error` naming what it is for: not a
    path, empty, or holding a NUL byte (which no file name can)."""
    try:
        p = os.fspath(path)
    except TypeError:
        raise error("%s must be a path (str or os.PathLike), got %s" %
                    (what, type(path).__name__))
    if isinstance(p, bytes):
        p = os.fsdecode(p)
    if not p:
        raise error("%s is an empty path" % what)
    if "\0" in p:
        raise error("%s %r holds a NUL byte, which no file name can" % (what, p))
    return p


def read_input_file(path, what, limit, error=ManifestError, missing_ok=False):
    """The bytes of the regular file path (at most limit of them), or `error` naming it:
    missing, unreadable, a directory, a FIFO or device (which could wait for a writer or never
    end), or larger than limit. missing_ok: None when there is no such file."""
    if "\0" in path:
        raise error("cannot read %s %r: the file name holds a NUL byte" % (what, path))

    def fail(why):
        return error("cannot read %s %s: %s" % (what, path, why))
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) |
                     getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError as e:
        if missing_ok:
            return None
        raise fail(e.strerror or e)
    except OSError as e:
        raise fail(e.strerror or e)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise fail("it is a directory, not a %s" % what)
        if not stat.S_ISREG(st.st_mode):
            kind = ("a FIFO" if stat.S_ISFIFO(st.st_mode) else
                    "a character device" if stat.S_ISCHR(st.st_mode) else
                    "a block device" if stat.S_ISBLK(st.st_mode) else
                    "a socket" if stat.S_ISSOCK(st.st_mode) else "a special file")
            raise fail("it is %s, not a regular file" % kind)
        if st.st_size > limit:
            raise error("%s %s is %d bytes, more than the %s a %s may have" %
                        (what, path, st.st_size, _size_text(limit), what))
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise error("%s %s holds more than the %s a %s may have" %
                            (what, path, _size_text(limit), what))
        return b"".join(chunks)
    except OSError as e:
        raise fail(e.strerror or e)
    finally:
        os.close(fd)


def problem_sizes(m, n, k):
    """(m, n, k) as Python ints, or an ArgumentError naming the size that is not an integer
    (a float, even a whole one, a string, a bool, NaN)."""
    out = []
    for name, v in (("M", m), ("N", n), ("K", k)):
        if isinstance(v, bool) or type(v).__name__ == "bool_":
            raise ArgumentError("%s = %r is a bool, not a problem size (an integer)" % (name, v))
        try:
            i = operator.index(v)
        except TypeError:
            try:
                shown = repr(v)
            except Exception:
                shown = "?"
            raise ArgumentError("%s = %s (%s) is not an integer: problem sizes are integers" %
                                (name, shown if len(shown) <= 60 else shown[:57] + "...",
                                 type(v).__name__))
        if i.bit_length() > 63:
            raise ArgumentError("%s is an integer of %d bits: out of range, expected 1 .. %d "
                                "(the kernel takes it as i32)" % (name, i.bit_length(), I32_MAX))
        out.append(i)
    return tuple(out)


def parse_json(text, what):
    """json.loads(text), or a ManifestError naming what: not JSON, or nested too deeply."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ManifestError("%s is not valid JSON: nested too deeply" % what)
    except (ValueError, UnicodeDecodeError) as e:
        raise ManifestError("%s is not valid JSON: %s" % (what, e))


def f32_scalar(v, what, error, normal=True):
    """v (a real number, not a bool) as a float within the f32 range, or `error` naming what.
    normal: v must also be 0 or a normal f32 number (what a kernel's f32 parameter takes
    exactly: a smaller magnitude is subnormal in f32 or rounds to 0)."""
    def wrong():
        shown = repr(v) if isinstance(v, (int, float, complex, str, bytes)) else "a"
        return error("%s must be a real number, got %s %s" %
                     (what, shown[:60], type(v).__name__))
    if isinstance(v, (bool, str, bytes, bytearray, complex)) or type(v).__name__ == "bool_":
        raise wrong()
    try:
        f = float(v)
    except OverflowError:
        raise error("%s is beyond the f32 range (|x| <= %.8g): it does not even fit a "
                    "float" % (what, F32_SCALAR_MAX))
    except (TypeError, ValueError):
        raise wrong()
    if math.isnan(f) or math.isinf(f):
        raise error("%s = %r is not finite" % (what, f))
    if abs(f) > F32_SCALAR_MAX:
        raise error("%s = %r is beyond the f32 range (|x| <= %.8g)" % (what, f, F32_SCALAR_MAX))
    if normal and f != 0 and abs(f) < F32_MIN_NORMAL:
        raise error("%s = %r is below the smallest normal f32 number (%.8g): the kernel would "
                    "take it as a subnormal or 0; pass 0 or a normal f32 number" %
                    (what, f, F32_MIN_NORMAL))
    return f


class Operand:
    __slots__ = ("type", "layout", "scale")

    def __init__(self, type_, layout, scale):
        self.type = type_
        self.layout = layout
        self.scale = scale  # None, or the manifest's "scale" object

    def __repr__(self):
        return "%s %s" % (self.type, self.layout)


class Manifest:
    """A parsed manifest. ``text`` is the JSON it came from, ``path`` its file (or None)."""

    def __init__(self, data, text, path=None):
        self.data = data
        self.text = text
        self.path = path
        where = path or "<memory>"

        def field(obj, name, kind, ctx=""):
            if not isinstance(obj, dict) or name not in obj:
                raise ManifestError("manifest %s: missing field '%s%s'" % (where, ctx, name))
            v = obj[name]
            ok = isinstance(v, kind) and not (kind is int and isinstance(v, bool))
            if not ok:
                raise ManifestError("manifest %s: field '%s%s' has the wrong type (%s)" %
                                    (where, ctx, name, type(v).__name__))
            if kind is str:
                try:
                    v.encode("utf-8")
                except UnicodeEncodeError:
                    raise ManifestError("manifest %s: field '%s%s' is %s, which holds a lone "
                                        "surrogate: not valid Unicode" %
                                        (where, ctx, name, ascii(v)[:80]))
            return v

        if data.get("format") != "tilegen-manifest":
            raise ManifestError("manifest %s: field 'format' is %r, expected \"tilegen-manifest\"" %
                                (where, data.get("format")))
        if type(data.get("version")) is not int or data.get("version") != 1:
            raise ManifestError("manifest %s: version %r is not supported (this package reads "
                                "version 1)" % (where, data.get("version")))
        self.kernel = field(data, "kernel", str)
        self.cubin = field(data, "cubin", str)
        if not file_name_ok(self.cubin):
            raise ManifestError("manifest %s: field 'cubin' is %r: expected a file name, "
                                "without NUL or other control characters" % (where, self.cubin))
        # A file name in the manifest's folder, as tilegen writes it: a manifest cannot point a
        # loader at a file elsewhere.
        if "/" in self.cubin or os.sep in self.cubin or self.cubin in (".", ".."):
            raise ManifestError("manifest %s: field 'cubin' is %r: expected the cubin's file name "
                                "in the manifest's folder, without a folder part" %
                                (where, self.cubin))
        self.target = field(data, "target", str)
        self.tilegen_version = data.get("tilegen_version")
        grid = field(data, "grid", dict)
        self.tile_m = field(grid, "tile_m", int, "grid.")
        self.tile_n = field(grid, "tile_n", int, "grid.")
        for name, v in (("tile_m", self.tile_m), ("tile_n", self.tile_n)):
            if not 1 <= v <= I32_MAX:
                raise ManifestError("manifest %s: field 'grid.%s' is %s: expected an integer "
                                    "from 1 to %d" % (where, name, v if v.bit_length() <= 64
                                                      else "an integer of %d bits" %
                                                      v.bit_length(), I32_MAX))
        # The grid's shape, for the dispatch table's scaled rule (the launcher reads the rest).
        self.grid_rule = grid.get("rule") if isinstance(grid.get("rule"), str) else "tiles"
        per_sm = grid.get("ctas_per_sm", 1)
        self.ctas_per_sm = per_sm if isinstance(per_sm, int) and per_sm >= 1 else 1
        cluster = data.get("cluster", [1, 1, 1])
        size = 1
        if isinstance(cluster, list):
            for c in cluster:
                size *= c if isinstance(c, int) and c >= 1 else 1
        self.cluster_size = size
        # The tiles one cluster takes at a time along M and N (without the field: a cluster
        # along M).
        ct = grid.get("cluster_tiles")
        self.cluster_tiles = ((ct[0], ct[1]) if isinstance(ct, list) and len(ct) == 2 and
                              all(isinstance(x, int) and x >= 1 for x in ct) and
                              ct[0] * ct[1] == size else (size, 1))
        ops = field(data, "operands", dict)
        parsed = {}
        for name in ("a", "b", "c"):
            o = field(ops, name, dict, "operands.")
            t = field(o, "type", str, "operands.%s." % name)
            lay = field(o, "layout", str, "operands.%s." % name)
            allowed = C_TYPES if name == "c" else dict(TYPE_BITS, **BLOCK_SCALED_BITS)
            if t not in allowed:
                raise ManifestError("manifest %s: operands.%s.type %r is not one of %s" %
                                    (where, name, t, ", ".join(allowed)))
            if lay not in ("row", "col"):
                raise ManifestError("manifest %s: operands.%s.layout %r is not row or col" %
                                    (where, name, lay))
            scale = o.get("scale")
            if scale is not None:
                if not isinstance(scale, dict):
                    raise ManifestError("manifest %s: operands.%s.scale is not an object" %
                                        (where, name))
                self._check_scale(scale, name, where, field)
            parsed[name] = Operand(t, lay, scale)
        self.a, self.b, self.c = parsed["a"], parsed["b"], parsed["c"]
        # Operands of block-scaled formats (MXFP4 and kin).
        self.block_scaled = [n for n in ("a", "b") if parsed[n].type in BLOCK_SCALED_BITS]
        epi = data.get("epilogue", {})
        if not isinstance(epi, dict):
            raise ManifestError("manifest %s: field 'epilogue' has the wrong type (%s): expected "
                                "an object {\"alpha\": ..., \"beta\": ...}" %
                                (where, type(epi).__name__))
        self.alpha = f32_scalar(epi.get("alpha", 1.0), "manifest %s: field 'epilogue.alpha'" %
                                where, ManifestError, normal=False)
        self.beta = f32_scalar(epi.get("beta", 0.0), "manifest %s: field 'epilogue.beta'" %
                               where, ManifestError, normal=False)
        self.constraints = []
        for i, c in enumerate(field(data, "constraints", list)):
            ctx = "constraints[%d]." % i
            dim = field(c, "dim", str, ctx)
            mult = field(c, "multiple", int, ctx)
            if dim not in ("M", "N", "K") or mult < 1:
                raise ManifestError("manifest %s: %s is not a dim M, N or K with a positive "
                                    "multiple" % (where, ctx[:-1]))
            self.constraints.append((dim, mult, c.get("reason", "")))
        params = field(data, "params", list)
        self.has_workspace = any(isinstance(p, dict) and p.get("kind") == "scratch"
                                 for p in params)
        self.description = data.get("description", "")
        self.unsupported = self._unsupported(params)

    @staticmethod
    def _check_scale(scale, name, where, field):
        """Checks operands.<name>.scale: a type, granularity "tensor" (no block) or "block"
        with a block [outer rows, K elements] of two integers from 1 to 2^31 - 1."""
        ctx = "operands.%s.scale." % name
        field(scale, "type", str, ctx)
        gran = field(scale, "granularity", str, ctx)
        if gran == "tensor":
            if "block" in scale:
                raise ManifestError("manifest %s: %sblock: a per-tensor scale has no block "
                                    "(only granularity \"block\" does)" % (where, ctx))
            return
        if gran != "block":
            raise ManifestError("manifest %s: %sgranularity is %r: expected \"tensor\" or "
                                "\"block\"" % (where, ctx, gran))
        block = field(scale, "block", list, ctx)
        outer = "M" if name == "a" else "N"
        if len(block) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and
                                      1 <= v <= I32_MAX for v in block):
            shown = (json.dumps(block) if all(not isinstance(v, (list, dict)) for v in block)
                     else "an array of %d items" % len(block))
            raise ManifestError("manifest %s: %sblock is %s: expected an array [%s rows, K "
                                "elements] of 2 integers from 1 to %d" %
                                (where, ctx, shown, outer, I32_MAX))

    def _unsupported(self, params):
        """Why Python cannot call this kernel (a "not supported yet" reason), or None."""
        for name in ("a", "b"):
            op = getattr(self, name)
            sc = op.scale
            stype = sc.get("type") if sc is not None else None
            if op.type in ("e2m3", "e3m2"):
                return ("operand %s is %s (MXFP6), whose unpacked 6-bit elements and scales "
                        "Python does not pass" % (name, op.type))
            if op.type == "e2m1" and (sc is None or stype != "e8m0" or
                                      sc.get("granularity") != "block" or
                                      sc.get("block") != [1, 32]):
                return ("operand %s is e2m1 with %s scales; Python passes e2m1 with e8m0 "
                        "scales per 1 x 32 (MXFP4) only" %
                        (name, "no" if sc is None else "%s %s %s" % (
                            stype, sc.get("granularity"), sc.get("block"))))
            if stype is not None and stype != "f32" and op.type != "e2m1":
                return ("operand %s is %s with %s scales (native block scaling), which Python "
                        "does not pass" % (name, op.type, stype))
        for p in params:
            if not isinstance(p, dict):
                continue
            tensor = p.get("tensor")
            if p.get("kind") == "tensormap" and isinstance(tensor, str) and \
                    tensor.startswith("scale"):
                return ("param '%s' reads %s through a tensor map (%s layout: the native "
                        "block-scaled kernels' scale atoms), which Python does not build" %
                        (p.get("name"), tensor, p.get("layout", "?")))
            if p.get("kind") == "ptr" and tensor not in ("A", "B", "C", "D", "scale_a",
                                                         "scale_b"):
                return ("param '%s' is a pointer to %r (a per-tensor factor of NVFP4), which "
                        "Python does not pass" % (p.get("name"), tensor))
        return None

    @classmethod
    def parse(cls, text, path=None):
        where = path or "<memory>"
        try:
            data = json.loads(text)
        except RecursionError:
            raise ManifestError("manifest %s: not valid JSON: nested too deeply" % where)
        except (ValueError, UnicodeDecodeError) as e:
            raise ManifestError("manifest %s: not valid JSON: %s" % (where, e))
        if not isinstance(data, dict):
            raise ManifestError("manifest %s: not a JSON object" % (path or "<memory>"))
        return cls(data, text, path)

    @classmethod
    def read(cls, path):
        raw = read_input_file(path, "manifest", MAX_MANIFEST_BYTES)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ManifestError("manifest %s is not UTF-8 text: %s" % (path, e))
        return cls.parse(text, path)

    def problem_errors(self, m, n, k):
        """Why the kernel cannot run M x N x K: a list of messages, empty when it can.
        Raises ArgumentError when a size is not an integer."""
        m, n, k = problem_sizes(m, n, k)
        errors = []
        for name, v in (("M", m), ("N", n), ("K", k)):
            if not 1 <= v <= I32_MAX:
                errors.append("%s = %d is out of range: expected 1 .. %d (the kernel takes it "
                              "as i32)" % (name, v, I32_MAX))
        if errors:
            return errors
        dims = {"M": m, "N": n, "K": k}
        for dim, mult, reason in self.constraints:
            if dims[dim] % mult:
                errors.append("%s = %d is not a multiple of %d%s" %
                              (dim, dims[dim], mult, " (%s)" % reason if reason else ""))
        tiles = -(-m // self.tile_m) * -(-n // self.tile_n)
        if tiles > I32_MAX:
            errors.append("%d output tiles of %d x %d, more than %d" %
                          (tiles, self.tile_m, self.tile_n, I32_MAX))
        return errors


    def padded_problem(self, m, n, k):
        """The zero-padded problem the kernel can run in place of M x N x K (each size rounded
        up to the least common multiple of the kernel's constraints on it), or None with the
        reason when padding cannot help (block scales: padding K would shift their blocks; a
        padded size beyond 32 bits). Returns ((m, n, k), None) unchanged when no padding is
        needed."""
        m, n, k = problem_sizes(m, n, k)
        step = {"M": 1, "N": 1, "K": 1}
        for dim, mult, _ in self.constraints:
            step[dim] = step[dim] * mult // math.gcd(step[dim], mult)
        sizes = {"M": m, "N": n, "K": k}
        padded = {d: -(-v // step[d]) * step[d] for d, v in sizes.items()}
        for d in "MNK":
            if padded[d] > I32_MAX:
                return None, ("%s = %d padded to a multiple of %d is %d, beyond the kernel's "
                              "32-bit sizes" % (d, sizes[d], step[d], padded[d]))
        changed = [d for d in "MNK" if padded[d] != sizes[d]]
        for name, op in (("A", self.a), ("B", self.b)):
            if not changed:
                break
            if op.type in BLOCK_SCALED_BITS:
                return None, ("not supported yet: padding %d x %d x %d to %d x %d x %d, as "
                              "operand %s is packed %s (its padded copy and scales are not "
                              "written)" % (m, n, k, padded["M"], padded["N"], padded["K"],
                                            name, op.type))
            if op.scale is not None and op.scale.get("granularity") == "block":
                if "K" in changed:
                    return None, ("the kernel scales %s per block of K, so K = %d cannot be "
                                  "padded to %d" % (name, k, padded["K"]))
                outer = "M" if name == "A" else "N"
                if outer in changed:
                    return None, ("the kernel scales %s per block of %s, so %s = %d cannot be "
                                  "padded to %d (the scale tensor would change its shape)" %
                                  (name, outer, outer, sizes[outer], padded[outer]))
        return (padded["M"], padded["N"], padded["K"]), None


def check_cubin_bytes(data, where):
    """Raises ManifestError unless data looks like a cubin: a 64-bit little-endian ELF file for
    EM_CUDA whose section header table lies inside it (libtilegen-launch checks the rest)."""
    if len(data) < 64:
        raise ManifestError("cubin %s is truncated (%d bytes, less than an ELF header)" %
                            (where, len(data)))
    if data[:4] != ELF_MAGIC:
        what = "PTX text" if data.lstrip()[:2] in (b"//", b".v") else "not an ELF file"
        raise ManifestError("cubin %s is %s (no ELF magic)" % (where, what))
    if data[4] != 2 or data[5] != 1:
        raise ManifestError("cubin %s is not a 64-bit little-endian ELF file" % where)
    machine = struct.unpack_from("<H", data, 18)[0]
    if machine != EM_CUDA:
        raise ManifestError("cubin %s is an ELF file for machine %d, not CUDA (%d)" %
                            (where, machine, EM_CUDA))
    shoff, = struct.unpack_from("<Q", data, 40)
    shentsize, shnum = struct.unpack_from("<HH", data, 58)
    if shoff + shentsize * shnum > len(data):
        raise ManifestError("cubin %s is truncated: its section headers end at byte %d of %d" %
                            (where, shoff + shentsize * shnum, len(data)))


def file_name_ok(name):
    """Whether name is a usable file name: not empty, no NUL or other control character."""
    return bool(name) and not any(ord(ch) < 0x20 or ch == "\x7f" for ch in name)


def cubin_path_of(manifest_path, manifest):
    return os.path.join(os.path.dirname(os.path.abspath(manifest_path)), manifest.cubin)
