"""ctypes bindings: the CUDA driver (libcuda) and libtilegen-launch.

The launch library does the work of a launch (include/tilegen/launch.h); the driver is needed
here only for what a Python caller without PyTorch cannot do otherwise: make a device's primary
context current before a kernel is loaded into it, ask which device a pointer lives on, and
allocate a stream-K kernel's workspace. Both libraries are loaded on first use, so importing the
package needs neither.

Where the launch library is looked for, first match wins:
  1. $TILEGEN_LAUNCH_LIB (a file);
  2. tilegen/lib/libtilegen-launch.so inside this package (a wheel built with it bundled);
  3. ../lib/ beside the tilegen binary that compile() would use (an install prefix or a build
     folder: bin/tilegen and lib/libtilegen-launch.so);
  4. a source checkout: build/lib and build-runner/lib above the python/ folder;
  5. the system's library path (libtilegen-launch.so.0).
The driver is $TILEGEN_RUN_LIBCUDA when set (as for the launch library itself), else
libcuda.so.1.
"""

import ctypes
import os
import threading

from ._errors import DriverError, LaunchError, TargetError

_lock = threading.Lock()
_launch = None
_driver = None

STATUS_NAMES = [
    "TILEGEN_OK", "TILEGEN_ERROR_INVALID_ARGUMENT", "TILEGEN_ERROR_IO", "TILEGEN_ERROR_MANIFEST",
    "TILEGEN_ERROR_CUBIN", "TILEGEN_ERROR_TARGET", "TILEGEN_ERROR_PROBLEM",
    "TILEGEN_ERROR_POINTER", "TILEGEN_ERROR_NO_DRIVER", "TILEGEN_ERROR_NO_CONTEXT",
    "TILEGEN_ERROR_CUDA", "TILEGEN_ERROR_INTERNAL",
]
STATUS_MANIFEST = 3
STATUS_TARGET = 5
STATUS_NO_DRIVER = 8


class Problem(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int64) for n in ("m", "n", "k", "lda", "ldb", "ldc", "ldd")]


class GemmArgs(ctypes.Structure):
    _fields_ = [("problem", Problem)] + [
        (n, ctypes.c_uint64) for n in ("a", "b", "c", "d", "scale_a", "scale_b", "workspace")
    ] + [("alpha", ctypes.c_float), ("beta", ctypes.c_float), ("scale_b_tensor", ctypes.c_uint64)]


class LaunchConfig(ctypes.Structure):
    _fields_ = [("grid", ctypes.c_uint64), ("block", ctypes.c_uint * 3),
                ("cluster", ctypes.c_uint * 3), ("dynamic_smem", ctypes.c_uint64),
                ("workspace_bytes", ctypes.c_uint64), ("workspace_zeroed", ctypes.c_int)]


def _package_dir():
    return os.path.dirname(os.path.abspath(__file__))


def launch_library_candidates():
    """The paths tried for libtilegen-launch, in order (see the module's docstring)."""
    from . import _compiler  # the tilegen binary's location
    cands = []
    env = os.environ.get("TILEGEN_LAUNCH_LIB")
    if env:
        return [env]
    pkg = _package_dir()
    cands.append(os.path.join(pkg, "lib", "libtilegen-launch.so"))
    exe = _compiler.find_tilegen(required=False)
    if exe:
        cands.append(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(exe))),
                                  "lib", "libtilegen-launch.so"))
    root = os.path.dirname(os.path.dirname(pkg))
    for b in ("build", "build-runner"):
        cands.append(os.path.join(root, b, "lib", "libtilegen-launch.so"))
    cands.append("libtilegen-launch.so.0")
    return cands


class LaunchLibrary:
    """libtilegen-launch through ctypes."""

    def __init__(self):
        tried = []
        lib = None
        for c in launch_library_candidates():
            if os.sep in c and not os.path.exists(c):
                tried.append(c + " (missing)")
                continue
            try:
                lib = ctypes.CDLL(c)
                self.path = c
                break
            except OSError as e:
                tried.append("%s (%s)" % (c, e))
        if lib is None:
            raise DriverError(
                "cannot load libtilegen-launch; tried: " + "; ".join(tried) + ". Build it "
                "(ninja -C build tilegen-launch, or cmake -DTILEGEN_RUNNER_ONLY=ON without LLVM) "
                "and set TILEGEN_LAUNCH_LIB, or install a wheel that bundles it (docs/python.md)",
                "TILEGEN_ERROR_NO_DRIVER")
        self.lib = lib
        P = ctypes.POINTER
        vp = ctypes.c_void_p
        sig = {
            "tilegen_launch_api_version": (ctypes.c_int, []),
            "tilegen_last_error": (ctypes.c_char_p, []),
            "tilegen_kernel_load_data": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_size_t,
                                                        ctypes.c_char_p, ctypes.c_size_t,
                                                        P(vp)]),
            "tilegen_kernel_destroy": (None, [vp]),
            "tilegen_kernel_error": (ctypes.c_char_p, [vp]),
            "tilegen_kernel_launch_config": (ctypes.c_int, [vp, P(Problem), P(LaunchConfig)]),
            "tilegen_kernel_check": (ctypes.c_int, [vp, P(GemmArgs)]),
            "tilegen_kernel_launch": (ctypes.c_int, [vp, P(GemmArgs), vp]),
        }
        for name, (res, args) in sig.items():
            fn = getattr(lib, name)
            fn.restype = res
            fn.argtypes = args
            setattr(self, name[len("tilegen_"):], fn)
        # OCP MX quantisation (tilegen/mx.py's reference; tests compare the two). Optional: a
        # library built before it has the launch entry points above only.
        self.quantize_mx = getattr(lib, "tilegen_quantize_mx", None)
        if self.quantize_mx is not None:
            self.quantize_mx.restype = ctypes.c_int
            self.quantize_mx.argtypes = [ctypes.c_char_p, P(ctypes.c_double), ctypes.c_int64,
                                         ctypes.c_int64, P(ctypes.c_uint8), P(ctypes.c_uint8)]
        if self.launch_api_version() != 2:
            raise DriverError("%s has launch API version %d; this package speaks version 2" %
                              (self.path, self.launch_api_version()))

    def error(self, status, message):
        name = STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else str(status)
        if message.startswith("libtilegen-launch: "):
            message = message[len("libtilegen-launch: "):]
        cls = {STATUS_TARGET: TargetError, STATUS_NO_DRIVER: DriverError}.get(status, LaunchError)
        return cls("%s (%s)" % (message, name), name)

    def thread_failure(self, status):
        """The exception for a failed call that has no kernel handle (a load)."""
        return self.error(status, (self.last_error() or b"").decode("utf-8", "replace"))

    def kernel_failure(self, handle, status):
        """The exception for a failed call on a kernel."""
        return self.error(status, (self.kernel_error(handle) or b"").decode("utf-8",
                                                                         "replace"))


class Driver:
    """The few CUDA driver entry points the package calls itself."""

    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9

    def __init__(self):
        name = os.environ.get("TILEGEN_RUN_LIBCUDA") or "libcuda.so.1"
        try:
            lib = ctypes.CDLL(name)
        except OSError as e:
            raise DriverError("no CUDA driver/GPU: cannot load %s (%s)" % (name, e),
                              "TILEGEN_ERROR_NO_DRIVER")
        try:
            gpa = lib.cuGetProcAddress_v2
        except AttributeError:
            raise DriverError("no CUDA driver/GPU: %s has no cuGetProcAddress_v2 (a driver older "
                              "than CUDA 12.0)" % name, "TILEGEN_ERROR_NO_DRIVER")
        gpa.restype = ctypes.c_int
        gpa.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int,
                        ctypes.c_uint64, ctypes.POINTER(ctypes.c_int)]
        self._gpa = gpa
        i, u, vp, P = ctypes.c_int, ctypes.c_uint, ctypes.c_void_p, ctypes.POINTER
        self.cuGetErrorName = self._fn("cuGetErrorName", [i, P(ctypes.c_char_p)])
        self.cuInit = self._fn("cuInit", [u])
        self.cuDeviceGetCount = self._fn("cuDeviceGetCount", [P(i)])
        self.cuDeviceGet = self._fn("cuDeviceGet", [P(i), i])
        self.cuDeviceGetAttribute = self._fn("cuDeviceGetAttribute", [P(i), i, i])
        self.cuDevicePrimaryCtxRetain = self._fn("cuDevicePrimaryCtxRetain", [P(vp), i])
        self.cuCtxGetCurrent = self._fn("cuCtxGetCurrent", [P(vp)])
        self.cuCtxSetCurrent = self._fn("cuCtxSetCurrent", [vp])
        self.cuCtxGetDevice = self._fn("cuCtxGetDevice", [P(i)])
        self.cuMemAlloc = self._fn("cuMemAlloc", [P(ctypes.c_uint64), ctypes.c_size_t])
        self.cuMemFree = self._fn("cuMemFree", [ctypes.c_uint64])
        self.cuMemsetD8 = self._fn("cuMemsetD8", [ctypes.c_uint64, ctypes.c_ubyte,
                                                   ctypes.c_size_t])
        self.cuMemcpyHtoD = self._fn("cuMemcpyHtoD", [ctypes.c_uint64, vp, ctypes.c_size_t])
        self.cuMemcpyDtoH = self._fn("cuMemcpyDtoH", [vp, ctypes.c_uint64, ctypes.c_size_t])
        self.cuPointerGetAttribute = self._fn("cuPointerGetAttribute",
                                              [vp, i, ctypes.c_uint64], required=False)
        self.check(self.cuInit(0), "cuInit")
        self._primary = {}

    def _fn(self, name, argtypes, required=True):
        slot = ctypes.c_void_p()
        status = ctypes.c_int(0)
        r = self._gpa(name.encode(), ctypes.byref(slot), 12000, 0, ctypes.byref(status))
        if r != 0 or status.value != 0 or not slot.value:
            if not required:
                return None
            raise DriverError("no CUDA driver/GPU: the CUDA driver has no entry point %s" % name,
                              "TILEGEN_ERROR_NO_DRIVER")
        return ctypes.CFUNCTYPE(ctypes.c_int, *argtypes)(slot.value)

    def check(self, r, call):
        if r == 0:
            return
        s = ctypes.c_char_p()
        name = "CUresult %d" % r
        if self.cuGetErrorName(r, ctypes.byref(s)) == 0 and s.value:
            name = s.value.decode()
        cls = DriverError if call in ("cuInit", "cuDeviceGet") else LaunchError
        raise cls("%s failed: %s" % (call, name), "TILEGEN_ERROR_CUDA")

    def device_count(self):
        n = ctypes.c_int(0)
        self.check(self.cuDeviceGetCount(ctypes.byref(n)), "cuDeviceGetCount")
        return n.value

    def primary_context(self, ordinal):
        ctx = self._primary.get(ordinal)
        if ctx is None:
            count = self.device_count()
            if not 0 <= ordinal < count:
                raise DriverError("CUDA device %d does not exist (the driver reports %d)" %
                                  (ordinal, count), "TILEGEN_ERROR_CUDA")
            dev = ctypes.c_int()
            self.check(self.cuDeviceGet(ctypes.byref(dev), ordinal), "cuDeviceGet")
            c = ctypes.c_void_p()
            self.check(self.cuDevicePrimaryCtxRetain(ctypes.byref(c), dev.value),
                       "cuDevicePrimaryCtxRetain")
            ctx = self._primary[ordinal] = c.value
        return ctx

    def current_context(self):
        c = ctypes.c_void_p()
        self.check(self.cuCtxGetCurrent(ctypes.byref(c)), "cuCtxGetCurrent")
        return c.value

    def current_device(self):
        """The device of the current context, or None when no context is current."""
        if not self.current_context():
            return None
        d = ctypes.c_int()
        self.check(self.cuCtxGetDevice(ctypes.byref(d)), "cuCtxGetDevice")
        return d.value

    def pointer_device(self, ptr):
        """The device ordinal that owns ptr, or None when the driver cannot say."""
        if self.cuPointerGetAttribute is None:
            return None
        d = ctypes.c_int(-1)
        if self.cuPointerGetAttribute(ctypes.byref(d), self.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                      ptr) != 0:
            return None
        return d.value


def launch_library():
    global _launch
    if _launch is None:
        with _lock:
            if _launch is None:
                _launch = LaunchLibrary()
    return _launch


def driver():
    global _driver
    if _driver is None:
        with _lock:
            if _driver is None:
                _driver = Driver()
    return _driver


class DeviceBuffer:
    """Device memory from the driver (cuMemAlloc in the device's primary context), for callers
    without PyTorch: a stream-K kernel's workspace, and the tests' matrices."""

    def __init__(self, device, nbytes, zero=False):
        drv = driver()
        self._drv = drv
        self.device = device
        self.nbytes = nbytes
        self._ctx = drv.primary_context(device)
        p = ctypes.c_uint64()
        with _Current(drv, self._ctx):
            drv.check(drv.cuMemAlloc(ctypes.byref(p), max(nbytes, 1)), "cuMemAlloc")
            self.ptr = p.value
            if zero:
                drv.check(drv.cuMemsetD8(self.ptr, 0, max(nbytes, 1)), "cuMemsetD8")

    def write(self, data):
        with _Current(self._drv, self._ctx):
            self._drv.check(self._drv.cuMemcpyHtoD(self.ptr, data, len(data)), "cuMemcpyHtoD")

    def read(self):
        buf = ctypes.create_string_buffer(self.nbytes)
        with _Current(self._drv, self._ctx):
            self._drv.check(self._drv.cuMemcpyDtoH(buf, self.ptr, self.nbytes), "cuMemcpyDtoH")
        return buf.raw

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                with _Current(self._drv, self._ctx):
                    self._drv.cuMemFree(ptr)
            except Exception:
                pass


class _Current:
    """Makes ctx current for a block and restores the previous context after it."""

    def __init__(self, drv, ctx):
        self.drv, self.ctx = drv, ctx

    def __enter__(self):
        self.prev = self.drv.current_context()
        if self.prev != self.ctx:
            self.drv.check(self.drv.cuCtxSetCurrent(self.ctx), "cuCtxSetCurrent")

    def __exit__(self, *exc):
        if self.prev != self.ctx:
            self.drv.cuCtxSetCurrent(self.prev)
