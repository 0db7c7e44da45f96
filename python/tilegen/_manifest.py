"""The fields of a kernel manifest (docs/manifest.md) that the Python side needs.

libtilegen-launch reads and checks the whole manifest when a kernel is loaded onto a GPU; this
module reads what Python needs before that: the operand types and layouts (to check tensors), the
constraints on M, N and K (to check sizes and to pick kernels from a dispatch table), the scales
and the scratch parameters.
"""

import json
import math
import os
import struct

from ._errors import ManifestError

# Manifest operand types -> bits per element.
TYPE_BITS = {"bf16": 16, "f16": 16, "f32": 32, "tf32": 32, "e4m3": 8, "e5m2": 8}
# Block-scaled operand types (docs/types.md). Python calls e2m1 operands with e8m0 scales per
# 1 x 32 passed by pointer (the sm_90a upcast kernels); the others are read but not called.
BLOCK_SCALED_BITS = {"e2m1": 4, "e2m3": 6, "e3m2": 6}
C_TYPES = ("bf16", "f16", "f32")
I32_MAX = 2**31 - 1
ELF_MAGIC = b"\x7fELF"
EM_CUDA = 190


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
            return v

        if data.get("format") != "tilegen-manifest":
            raise ManifestError("manifest %s: field 'format' is %r, expected \"tilegen-manifest\"" %
                                (where, data.get("format")))
        if data.get("version") != 1:
            raise ManifestError("manifest %s: version %r is not supported (this package reads "
                                "version 1)" % (where, data.get("version")))
        self.kernel = field(data, "kernel", str)
        self.cubin = field(data, "cubin", str)
        self.target = field(data, "target", str)
        self.tilegen_version = data.get("tilegen_version")
        grid = field(data, "grid", dict)
        self.tile_m = field(grid, "tile_m", int, "grid.")
        self.tile_n = field(grid, "tile_n", int, "grid.")
        if self.tile_m < 1 or self.tile_n < 1:
            raise ManifestError("manifest %s: grid tile %dx%d is not positive" %
                                (where, self.tile_m, self.tile_n))
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
            if scale is not None and not isinstance(scale, dict):
                raise ManifestError("manifest %s: operands.%s.scale is not an object" %
                                    (where, name))
            parsed[name] = Operand(t, lay, scale)
        self.a, self.b, self.c = parsed["a"], parsed["b"], parsed["c"]
        # Operands of block-scaled formats (MXFP4 and kin).
        self.block_scaled = [n for n in ("a", "b") if parsed[n].type in BLOCK_SCALED_BITS]
        epi = data.get("epilogue") or {}
        self.alpha = float(epi.get("alpha", 1.0))
        self.beta = float(epi.get("beta", 0.0))
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
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as e:
            raise ManifestError("manifest %s: not valid JSON: %s" % (path or "<memory>", e))
        if not isinstance(data, dict):
            raise ManifestError("manifest %s: not a JSON object" % (path or "<memory>"))
        return cls(data, text, path)

    @classmethod
    def read(cls, path):
        try:
            with open(path, "rb") as f:
                raw = f.read((4 << 20) + 1)
        except OSError as e:
            raise ManifestError("cannot read manifest %s: %s" % (path, e.strerror or e))
        if len(raw) > 4 << 20:
            raise ManifestError("manifest %s is larger than 4 MiB" % path)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ManifestError("manifest %s is not UTF-8 text: %s" % (path, e))
        return cls.parse(text, path)

    def problem_errors(self, m, n, k):
        """Why the kernel cannot run M x N x K: a list of messages, empty when it can."""
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


def cubin_path_of(manifest_path, manifest):
    return os.path.join(os.path.dirname(os.path.abspath(manifest_path)), manifest.cubin)
