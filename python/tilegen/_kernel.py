"""Kernel: one compiled tilegen kernel, callable on tensors."""

import ctypes
import os
import sys
import threading

from . import _native
from ._errors import ArgumentError, DTypeError, ManifestError
from ._manifest import (MAX_CUBIN_BYTES, Manifest, check_cubin_bytes, cubin_path_of,
                        f32_scalar, path_arg, read_input_file)
from ._tensors import _shown, matrix_ld, torch_dtype, view_of

_registry = {}
_registry_lock = threading.Lock()
# Set by _torch_ops when PyTorch is present: how a call made while torch.compile traces goes
# through the tilegen custom ops.
_compiled_call = None


def registered(op_id):
    """The Kernel or Dispatch a torch custom-op call names."""
    try:
        return _registry[op_id]
    except KeyError:
        raise ArgumentError("no tilegen kernel or dispatch table is registered as %r in this "
                            "process" % op_id)


def register(obj, prefix):
    with _registry_lock:
        op_id = "%s%d" % (prefix, len(_registry))
        _registry[op_id] = obj
    return op_id


def _type_spelling(t):
    return {"bf16": "torch.bfloat16", "f16": "torch.float16", "f32": "torch.float32",
            "tf32": "torch.float32", "e4m3": "torch.float8_e4m3fn",
            "e5m2": "torch.float8_e5m2"}[t]


def _handle_value(h, what):
    """h as a CUstream handle (an integer from 0 to 2^64 - 1), or an ArgumentError."""
    if isinstance(h, int) and not isinstance(h, bool) and 0 <= h < 1 << 64:
        return h
    raise ArgumentError("%s must be a CUstream handle, an integer from 0 to 2^64 - 1; got %s" %
                        (what, _shown(h)))


def _stream_handle(stream):
    if isinstance(stream, int) and not isinstance(stream, bool):
        return _handle_value(stream, "stream")
    if hasattr(stream, "__cuda_stream__"):
        try:
            got = stream.__cuda_stream__()
        except Exception as e:  # the producer's own error, named
            raise ArgumentError("stream: __cuda_stream__() failed: %s: %s" %
                                (type(e).__name__, e))
        if not isinstance(got, tuple) or len(got) != 2:
            raise ArgumentError("stream: __cuda_stream__() must return a tuple (version, "
                                "handle), got %s" % _shown(got))
        return _handle_value(got[1], "stream's __cuda_stream__() handle")
    for attr in ("cuda_stream", "ptr", "handle"):
        h = getattr(stream, attr, None)
        if isinstance(h, int) and not isinstance(h, bool):
            return _handle_value(h, "stream.%s" % attr)
    raise ArgumentError("stream must be a CUstream handle (int), a torch.cuda.Stream or an "
                        "object with __cuda_stream__, got %s" % type(stream).__name__)


def _device_ordinal(device):
    """The device ordinal of prepare()'s device: an int, or a torch.device of type cuda."""
    if isinstance(device, int) and not isinstance(device, bool):
        if not 0 <= device <= 2**31 - 1:
            raise ArgumentError("device = %s: expected a CUDA device ordinal (0 or more)" %
                                _shown(device))
        return device
    dtype = getattr(device, "type", None)
    index = getattr(device, "index", None)
    if isinstance(dtype, str) and dtype == "cuda" and (
            index is None or isinstance(index, int) and not isinstance(index, bool) and
            0 <= index <= 2**31 - 1):
        if index is None:
            return _native.driver().current_device() or 0
        return index
    raise ArgumentError("device must be a CUDA device ordinal (an int) or a torch.device of "
                        "type cuda, got %s" % (_shown(device) if isinstance(
                            device, (str, float, bool)) else type(device).__name__))


def _packed(spec):
    """Elements per byte of an operand's storage: 2 for packed e2m1, else 1."""
    return 2 if spec.type == "e2m1" else 1


def _logical_shape(shape, spec):
    """The logical (rows, cols) of an operand stored as `shape`: a packed e2m1 tensor holds two
    elements per byte along its contiguous dim (the second for row layout, the first for col)."""
    rows, cols = shape
    if _packed(spec) == 1:
        return rows, cols
    return (rows, cols * 2) if spec.layout == "row" else (rows * 2, cols)


class Kernel:
    """A kernel compiled by tilegen, loaded onto a GPU on its first call there.

    ``kernel(a, b, out=None, c=None, alpha=None, beta=None, stream=None, scale_a=None,
    scale_b=None)`` computes out = alpha * a @ b + beta * c (alpha None: 1, beta None: 0): a is M x K, b is K x N, c and out
    M x N, each stored in the layout the manifest gives (``a_layout`` ...), on one CUDA device;
    it returns out (allocated when None, for torch inputs). Launches are asynchronous, on
    ``stream`` or else PyTorch's current stream of the tensors' device (the legacy default
    stream when no input is a torch tensor).
    """

    def __init__(self, manifest, cubin, origin=None):
        self.manifest = manifest
        self._cubin = bytes(cubin)
        self.origin = origin
        self.name = manifest.kernel
        self.target = manifest.target
        self._handles = {}
        self._workspaces = {}
        self._geometry = {}  # torch arguments' shapes, strides, dtypes, devices -> sizes
        self._lock = threading.Lock()
        self._op_id = register(self, "kernel:")

    def __repr__(self):
        m = self.manifest
        return ("<tilegen.Kernel %s %s: A %s/%s, B %s/%s, C/D %s/%s, tile %dx%d>" %
                (self.name, self.target, m.a.type, m.a.layout, m.b.type, m.b.layout, m.c.type,
                 m.c.layout, m.tile_m, m.tile_n))

    # What the manifest says, for callers.
    @property
    def a_layout(self):
        return self.manifest.a.layout

    @property
    def b_layout(self):
        return self.manifest.b.layout

    @property
    def c_layout(self):
        return self.manifest.c.layout

    @property
    def cubin(self):
        return self._cubin

    def problem_errors(self, m, n, k):
        """Why this kernel cannot run M x N x K (the manifest's constraints): [] when it can."""
        return self.manifest.problem_errors(m, n, k)

    def supports(self, m, n, k):
        return not self.manifest.problem_errors(m, n, k)

    # Loading -------------------------------------------------------------------------------
    def prepare(self, device=None):
        """Loads the kernel onto a device now (default: the current device, else 0), so that a
        cubin for another GPU fails here rather than at the first call."""
        if device is None:
            device = _native.driver().current_device() or 0
        else:
            device = _device_ordinal(device)
        self._handle(device)
        return self

    def _handle(self, device):
        h = self._handles.get(device)
        if h is not None:
            return h
        with self._lock:
            h = self._handles.get(device)
            if h is not None:
                return h
            drv = _native.driver()
            lib = _native.launch_library()
            ctx = drv.primary_context(device)
            prev = drv.current_context()
            if prev != ctx:
                drv.check(drv.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
            try:
                out = ctypes.c_void_p()
                text = self.manifest.text.encode("utf-8")
                st = lib.kernel_load_data(text, len(text), self._cubin, len(self._cubin),
                                          ctypes.byref(out))
                if st == _native.STATUS_MANIFEST:
                    # A manifest the library reads more strictly than load did: named as the
                    # manifest's error, with its file.
                    e = lib.thread_failure(st)
                    raise ManifestError(str(e).replace(
                        "manifest <memory>", "manifest %s" % (self.manifest.path or "<memory>")))
                if st != 0:
                    raise lib.thread_failure(st)
            finally:
                if prev != ctx:
                    drv.cuCtxSetCurrent(prev)
            h = self._handles[device] = (out.value, ctx)
            return h

    # Calling -------------------------------------------------------------------------------
    def __call__(self, a, b, out=None, c=None, alpha=None, beta=None, stream=None, scale_a=None,
                 scale_b=None):
        # alpha None means 1 and beta None 0; None defaults, unlike float ones, stay constants
        # when torch.compile traces with dynamic shapes (float defaults become graph inputs).
        if _compiled_call is not None and _torch.compiler.is_compiling():
            return _compiled_call(self._op_id, a, b, out, c, alpha, beta, stream, scale_a,
                                  scale_b)
        return self._launch(a, b, out, c, alpha, beta, stream, scale_a, scale_b)

    def out_spec(self):
        """The type and layout of D: ("bf16", "row")."""
        return self.manifest.c.type, self.manifest.c.layout

    def out_mn(self, a_shape, b_shape):
        """(M, N) of a call on tensors of these shapes (packed e2m1 operands counted in
        elements)."""
        if len(a_shape) != 2 or len(b_shape) != 2:
            # Not a GEMM's operands: the launch says why; a shape for torch.compile's graph.
            return (a_shape[0] if len(a_shape) else 1), (b_shape[-1] if len(b_shape) else 1)
        return (_logical_shape(tuple(a_shape), self.manifest.a)[0],
                _logical_shape(tuple(b_shape), self.manifest.b)[1])

    def _check_type(self, v, name, want, what):
        if want == "e2m1":
            if v.type not in ("u8", "e2m1x2"):
                raise DTypeError("%s has dtype %s, but kernel %s takes packed e2m1 for %s: "
                                 "torch.uint8 holding two elements per byte (the first in the "
                                 "low 4 bits), or torch.float4_e2m1fn_x2 (tilegen.mx.quantize "
                                 "makes them)" % (name, v.typename, self.name, what))
            return
        if v.type != want and not (want == "tf32" and v.type == "f32"):
            spell = _type_spelling(want)
            raise DTypeError("%s has dtype %s, but kernel %s takes %s for %s (%s)" %
                             (name, v.typename, self.name, want, what, spell))

    def _launch(self, a, b, out, c, alpha, beta, stream, scale_a, scale_b):
        if self.manifest.unsupported:
            raise ArgumentError("not supported yet: kernel %s (%s) cannot be called from "
                                "Python: %s (docs/python.md)" %
                                (self.name, self.target, self.manifest.unsupported))
        alpha = 1.0 if alpha is None else f32_scalar(alpha, "alpha", ArgumentError)
        beta = 0.0 if beta is None else f32_scalar(beta, "beta", ArgumentError)
        key = None
        T = _Tensor
        if (T is not None and scale_a is None and scale_b is None and isinstance(a, T) and
                isinstance(b, T) and (out is None or isinstance(out, T)) and
                (c is None or isinstance(c, T))):
            # Torch tensors whose shapes, strides, dtypes and devices passed the checks before
            # skip them: only the pointers' alignment is new.
            key = (a.shape, a.stride(), a.dtype, a.device, b.shape, b.stride(), b.dtype,
                   b.device,
                   None if out is None else (out.shape, out.stride(), out.dtype, out.device),
                   None if c is None else (c.shape, c.stride(), c.dtype, c.device))
            geo = self._geometry.get(key)
            if geo is not None and (c is not None or beta == 0.0):
                m, n, k, lda, ldb, ldc, ldd, device = geo
                if out is None:
                    out = self._alloc_out(_torch, m, n, device)
                pa, pb, pd = a.data_ptr(), b.data_ptr(), out.data_ptr()
                pc = 0 if c is None else c.data_ptr()
                if not (pa | pb | pc | pd) & 15:
                    self._submit(device, _torch, stream, (m, n, k, lda, ldb, ldc, ldd),
                                 pa, pb, pc, pd, 0, 0, alpha, beta)
                    return out
        man = self.manifest
        va = view_of(a, "a")
        vb = view_of(b, "b")
        self._check_type(va, "a", man.a.type, "A")
        self._check_type(vb, "b", man.b.type, "B")
        if len(va.shape) != 2 or len(vb.shape) != 2:
            raise ArgumentError("a and b must be 2-D (M x K and K x N); got shapes %s and %s" %
                                (va.shape, vb.shape))
        m, k = _logical_shape(va.shape, man.a)
        k2, n = _logical_shape(vb.shape, man.b)
        if k != k2:
            raise ArgumentError("a is %d x %d%s and b is %d x %d%s: K differs (%d != %d)" %
                                (m, k, _packed_note(va, man.a), k2, n, _packed_note(vb, man.b),
                                 k, k2))
        errors = man.problem_errors(m, n, k)
        if errors:
            raise ArgumentError("kernel %s cannot run M x N x K = %d x %d x %d: %s" %
                                (self.name, m, n, k, "; ".join(errors)))
        lda = matrix_ld(va, man.a.layout, "a", "A, M x K" + _packed_note(va, man.a),
                        self.name) * _packed(man.a)
        ldb = matrix_ld(vb, man.b.layout, "b", "B, K x N" + _packed_note(vb, man.b),
                        self.name) * _packed(man.b)
        views = [("a", va), ("b", vb)]
        vc = None
        ldc = 0
        if c is not None:
            vc = view_of(c, "c")
            self._check_type(vc, "c", man.c.type, "C")
            self._check_shape(vc, "c", m, n)
            ldc = matrix_ld(vc, man.c.layout, "c", "C, M x N", self.name)
            views.append(("c", vc))
        elif beta != 0.0:
            raise ArgumentError("beta = %g but c is None: kernel %s reads C when beta != 0; "
                                "pass c, or beta = 0" % (beta, self.name))
        torch = _torch if (va.tensor is not None or vb.tensor is not None or
                           (vc is not None and vc.tensor is not None)) else None
        if out is None:
            if torch is None:
                raise ArgumentError("out is None and no input is a torch tensor: pass out (a "
                                    "%d x %d %s tensor, %s layout)" %
                                    (m, n, man.c.type, man.c.layout))
            out = self._alloc_out(torch, m, n, self._device(views))
        vd = view_of(out, "out")
        if vd.readonly:
            raise ArgumentError("out is read-only (its __cuda_array_interface__ data[1] is "
                                "True): kernel %s writes D into out; pass a writable array" %
                                self.name)
        self._check_type(vd, "out", man.c.type, "D")
        self._check_shape(vd, "out", m, n)
        ldd = matrix_ld(vd, man.c.layout, "out", "D, M x N", self.name)
        views.append(("out", vd))
        sa = self._scale(scale_a, "scale_a", man.a.scale, m, k, views)
        sb = self._scale(scale_b, "scale_b", man.b.scale, n, k, views)
        device = self._device(views)
        if torch is None and vd.tensor is not None:
            torch = _torch  # out is the only torch tensor: its stream, its allocator
        for name, v in views:
            if name.startswith("scale"):
                continue
            if v.ptr % 16:
                raise ArgumentError("%s's data pointer 0x%x is not 16-byte aligned (the kernels "
                                    "move tensors in 16-byte pieces; a view that starts inside "
                                    "a tensor can cause this: pass a copy)" % (name, v.ptr))
        sizes = (m, n, k, lda, ldb, ldc, ldd)
        self._submit(device, torch, stream, sizes, va.ptr, vb.ptr,
                     vc.ptr if vc is not None else 0, vd.ptr, sa, sb, alpha, beta)
        if key is not None and len(self._geometry) < 1024:
            self._geometry[key] = sizes + (device,)
        return out

    def _submit(self, device, torch, stream, sizes, pa, pb, pc, pd, sa, sb, alpha, beta):
        """Launches on device with checked arguments (the library checks them again)."""
        handle, ctx = self._handles.get(device) or self._handle(device)
        if stream is None:
            stream = _current_stream(torch, device) if torch is not None else 0
        else:
            stream = _stream_handle(stream)
        # ctypes wraps an int64 field silently: a leading dimension past it (a huge stride,
        # doubled for packed e2m1) is refused here, named, not passed on as another number.
        for name, v in zip(("m", "n", "k", "lda", "ldb", "ldc", "ldd"), sizes):
            if not 0 <= v <= 2 ** 63 - 1:
                raise ArgumentError("%s = %d is beyond the launch library's 64-bit sizes "
                                    "(0 to 2^63 - 1)" % (name, v))
        args = _native.GemmArgs()
        p = args.problem
        p.m, p.n, p.k, p.lda, p.ldb, p.ldc, p.ldd = sizes
        args.a, args.b, args.c, args.d = pa, pb, pc, pd
        args.scale_a, args.scale_b = sa, sb
        args.alpha, args.beta = alpha, beta
        lib = _native.launch_library()
        if self.manifest.has_workspace:
            args.workspace = self._workspace(lib, handle, p, device, stream, torch)
        drv = _native.driver()
        prev = drv.current_context()
        if prev != ctx:
            drv.check(drv.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        try:
            st = lib.kernel_launch(handle, ctypes.byref(args), stream)
        finally:
            if prev != ctx:
                drv.cuCtxSetCurrent(prev)
        if st != 0:
            raise lib.kernel_failure(handle, st)

    def _check_shape(self, v, name, m, n):
        if len(v.shape) != 2 or v.shape != (m, n):
            raise ArgumentError("%s must be M x N = %d x %d, got shape %s" %
                                (name, m, n, v.shape))

    def _device(self, views):
        devices = {v.device for _, v in views if v.device is not None}
        if len(devices) > 1:
            where = ", ".join("%s on cuda:%s" % (n, v.device) for n, v in views
                              if v.device is not None)
            raise ArgumentError("the tensors are on different devices (%s); kernel %s runs on "
                                "one device" % (where, self.name))
        if devices:
            return devices.pop()
        d = _native.driver().current_device()
        return d if d is not None else 0

    def _alloc_out(self, torch, m, n, device):
        dtype = torch_dtype(torch, self.manifest.c.type)
        dev = torch.device("cuda", device)
        if self.manifest.c.layout == "row":
            return torch.empty((m, n), dtype=dtype, device=dev)
        return torch.empty((n, m), dtype=dtype, device=dev).t()

    def _scale(self, s, name, spec, outer, k, views):
        op = name[-1].upper()
        if spec is None:
            if s is not None:
                raise ArgumentError("%s is given, but kernel %s has no scale for %s" %
                                    (name, self.name, op))
            return 0
        e8m0 = spec.get("type") == "e8m0"
        kind = "e8m0" if e8m0 else "f32"
        if s is None:
            raise ArgumentError("kernel %s scales %s: pass %s (%s, %s)" %
                                (self.name, op, name, kind, _scale_text(spec, op, outer, k)))
        v = view_of(s, name)
        if e8m0 and v.type not in ("u8", "e8m0"):
            raise DTypeError("%s has dtype %s, but kernel %s takes e8m0 scales for %s: "
                             "torch.uint8 codes (value 2^(code - 127)) or torch.float8_e8m0fnu" %
                             (name, v.typename, self.name, op))
        if not e8m0 and v.type != "f32":
            raise DTypeError("%s has dtype %s; kernel %s takes f32 scales for %s "
                             "(torch.float32)" % (name, v.typename, self.name, op))
        if spec.get("granularity") == "tensor":
            count = 1
            for d in v.shape:
                count *= d
            if count != 1:
                raise ArgumentError("%s must hold 1 value (one %s scale for all of %s), got "
                                    "shape %s" % (name, kind, op, v.shape))
        elif not _block_scale_layout_ok(v, spec, outer, k):
            bo, bk = spec["block"]
            ob, kb = -(-outer // bo), -(-k // bk)
            raise ArgumentError(
                "%s must be %s's %s scales, %s; got shape %s with strides %s%s" %
                (name, op, kind, _scale_text(spec, op, outer, k), v.shape, v.strides,
                 "; pass s.t().contiguous().t() for an [%s block, K block] tensor s in "
                 "row-major order" % ("M" if op == "A" else "N")
                 if tuple(v.shape) == (ob, kb) and kb > 1 and ob > 1 else ""))
        # f32 scales and e8m0 bytes alike: the kernels copy scales in 4-byte pieces.
        if v.ptr % 4:
            raise ArgumentError("%s's data pointer 0x%x is not 4-byte aligned (%s; the kernels "
                                "copy scales in 4-byte pieces)"
                                % (name, v.ptr, "e8m0 scales" if e8m0 else "f32 scales"))
        views.append((name, v))
        return v.ptr

    def _workspace(self, lib, handle, problem, device, stream, torch):
        cfg = _native.LaunchConfig()
        st = lib.kernel_launch_config(handle, ctypes.byref(problem), ctypes.byref(cfg))
        if st != 0:
            raise lib.kernel_failure(handle, st)
        need = cfg.workspace_bytes
        if need == 0:
            return 0
        key = (device, stream)
        ws = self._workspaces.get(key)
        if ws is None or ws[1] < need:
            # Zeroed once (the kernel leaves it zero), on the launch's stream.
            if torch is not None:
                with torch.cuda.device(device), torch.cuda.stream(
                        torch.cuda.ExternalStream(stream, device=torch.device("cuda", device))):
                    buf = torch.zeros(need, dtype=torch.uint8, device=torch.device("cuda",
                                                                                   device))
                ws = (buf, need, buf.data_ptr())
            else:
                ws = (_native.DeviceBuffer(device, need, zero=True), need, None)
                ws = (ws[0], need, ws[0].ptr)
            self._workspaces[key] = ws
        return ws[2]


def _scale_text(spec, op, outer, k):
    """What a scale tensor of spec holds for operand op (A or B) with `outer` rows (M or N)."""
    if spec.get("granularity") == "tensor":
        return "one value per tensor"
    bo, bk = spec["block"]
    ob, kb = -(-outer // bo), -(-k // bk)
    o = "M" if op == "A" else "N"
    return ("one per %d x %d block (%s x K): ceil(%s / %d) x ceil(K / %d) = %d x %d values with "
            "the K blocks outermost in memory, the scale of (%s block i, K block j) at j * %d + "
            "i: a tensor of shape (%d, %d) indexed [i, j] with strides (1, %d), or its "
            "C-contiguous transpose (%d, %d), or %d contiguous values" %
            (bo, bk, o, o, bo, bk, ob, kb, o, ob, ob, kb, ob, kb, ob, ob * kb))


def _block_scale_layout_ok(v, spec, outer, k):
    """Whether the view v holds block scales in the layout the kernels read: K blocks
    outermost, entry (ob, kb) at kb * OB + ob, contiguous."""
    bo, bk = spec["block"]
    ob, kb = -(-outer // bo), -(-k // bk)
    shape, strides = tuple(v.shape), tuple(v.strides)

    def strided(want_shape, want_strides):
        return shape == want_shape and all(d == 1 or st == w for d, st, w in
                                           zip(shape, strides, want_strides))
    if len(shape) == 1:
        return strided((ob * kb,), (1,))
    if len(shape) == 2:
        return strided((kb, ob), (ob, 1)) or strided((ob, kb), (1, ob))
    return False


def _packed_note(v, spec):
    """" (packed e2m1: 48 x 64 bytes)" for a packed operand's message; "" otherwise."""
    if _packed(spec) == 1:
        return ""
    return " (packed e2m1: %d x %d bytes)" % tuple(v.shape)


_raw_stream = None


def _current_stream(torch, device):
    global _raw_stream
    if _raw_stream is None:
        f = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        _raw_stream = f if f is not None else (
            lambda d: torch.cuda.current_stream(d).cuda_stream)
    return _raw_stream(device)


def load(path):
    """A Kernel from a .cubin (its manifest is the .json beside it, same stem) or a manifest
    .json (its "cubin" field names the cubin beside it). Reads and checks both files; the
    kernel is loaded onto a GPU at its first call (or by Kernel.prepare)."""
    path = path_arg(path, "path")
    if path.endswith(".cubin"):
        mpath = path[:-len(".cubin")] + ".json"
        if not os.path.exists(mpath):
            raise ManifestError("cannot read manifest %s: no such file (tilegen writes it "
                                "beside %s, with the same stem)" % (mpath, path))
        man = Manifest.read(mpath)
        cpath = path
    else:
        man = Manifest.read(path)
        cpath = cubin_path_of(path, man)
    cubin = read_input_file(cpath, "cubin", MAX_CUBIN_BYTES)
    check_cubin_bytes(cubin, cpath)
    return Kernel(man, cubin, origin=os.path.abspath(cpath))


try:
    if "torch" in sys.modules:
        _torch = sys.modules["torch"]
    else:
        import importlib.util
        _torch = None
        if importlib.util.find_spec("torch") is not None and os.environ.get(
                "TILEGEN_NO_TORCH") != "1":
            import torch as _torch
except ImportError:
    _torch = None
_Tensor = _torch.Tensor if _torch is not None else None
