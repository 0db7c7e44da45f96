"""Reading tensors: PyTorch tensors, __cuda_array_interface__ objects and __dlpack__ objects.

A tensor is reduced to a View: its device address, shape, strides in elements, element type (a
manifest type name: bf16, f16, f32, e4m3, e5m2; or, for the packed operands and scales of
block-scaled kernels, u8 for bytes, e2m1x2 for torch.float4_e2m1fn_x2 and e8m0 for
torch.float8_e8m0fnu) and device ordinal. Nothing here touches the GPU except, for
__cuda_array_interface__ objects, asking the driver which device owns the pointer.
"""

import operator
import sys

from . import _native
from ._errors import ArgumentError, DTypeError

# __cuda_array_interface__ typestr -> manifest type. NumPy's type strings have no bf16 or FP8:
# such tensors come through PyTorch or __dlpack__.
CAI_TYPES = {"<f2": "f16", "<f4": "f32", "|u1": "u8"}
TYPE_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "tf32": 4, "e4m3": 1, "e5m2": 1, "u8": 1,
              "e2m1x2": 1, "e8m0": 1}

_torch_types = None


def torch_types(torch):
    global _torch_types
    if _torch_types is None:
        t = {torch.bfloat16: "bf16", torch.float16: "f16", torch.float32: "f32",
             torch.uint8: "u8"}
        for name, ours in (("float8_e4m3fn", "e4m3"), ("float8_e5m2", "e5m2"),
                           ("float4_e2m1fn_x2", "e2m1x2"), ("float8_e8m0fnu", "e8m0")):
            if hasattr(torch, name):
                t[getattr(torch, name)] = ours
        _torch_types = t
    return _torch_types


def torch_dtype(torch, ours):
    """The torch dtype of a manifest type (tf32 inputs are float32 tensors)."""
    if ours == "tf32":
        ours = "f32"
    for k, v in torch_types(torch).items():
        if v == ours:
            return k
    raise DTypeError("this PyTorch has no dtype for %s" % ours)


class View:
    __slots__ = ("ptr", "shape", "strides", "type", "device", "tensor", "typename", "readonly")

    def __init__(self, ptr, shape, strides, type_, device, tensor, typename, readonly=False):
        self.ptr = ptr
        self.shape = shape
        self.strides = strides
        self.type = type_          # manifest type name, or None when it has none
        self.device = device       # device ordinal, or None when unknown
        self.tensor = tensor       # the torch.Tensor, or None
        self.typename = typename   # how the caller's dtype is spelled, for messages
        self.readonly = readonly   # __cuda_array_interface__'s read-only flag


def _torch_module():
    return sys.modules.get("torch")


def view_of(x, name):
    """The View of x, or an ArgumentError / DTypeError naming the argument."""
    torch = _torch_module()
    if torch is not None and isinstance(x, torch.Tensor):
        return _torch_view(torch, x, name)
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        return _cai_view(cai, name)
    if hasattr(x, "__array_interface__") or _dlpack_on_host(x):
        raise DTypeError("%s is a host array (%s, in CPU memory); tilegen kernels need a CUDA "
                         "device array: a torch.Tensor on cuda, or an object with "
                         "__cuda_array_interface__ or __dlpack__ on a CUDA device" %
                         (name, type(x).__name__))
    if hasattr(x, "__dlpack__"):
        if torch is None:
            raise DTypeError("%s is a __dlpack__ object (%s); reading those needs PyTorch "
                             "(torch.from_dlpack); pass a torch tensor or an object with "
                             "__cuda_array_interface__" % (name, type(x).__name__))
        try:
            t = torch.from_dlpack(x)
        except Exception as e:  # the producer's own error, named
            raise ArgumentError("%s: torch.from_dlpack failed: %s" % (name, e))
        return _torch_view(torch, t, name)
    raise DTypeError("%s must be a CUDA tensor (a torch.Tensor, or an object with "
                     "__cuda_array_interface__ or __dlpack__), got %s" %
                     (name, type(x).__name__))


def _dlpack_on_host(x):
    """Whether x's __dlpack_device__() says it is in CPU memory (DLPack's kDLCPU, 1)."""
    f = getattr(x, "__dlpack_device__", None)
    if f is None:
        return False
    try:
        dev = f()
        return int(dev[0]) == 1
    except Exception:  # the producer's own error: from_dlpack reports it
        return False


def _torch_view(torch, t, name):
    dev = t.device
    if dev.type != "cuda":
        raise ArgumentError("%s is on %s; tilegen kernels need CUDA tensors (%s.cuda())" %
                            (name, dev, name))
    ours = torch_types(torch).get(t.dtype)
    return View(t.data_ptr(), tuple(t.shape), tuple(t.stride()), ours, dev.index, t,
                str(t.dtype))


def _int_field(v):
    """v as an int when it is one (a Python or NumPy integer, not a bool), else None."""
    if isinstance(v, bool) or type(v).__name__ == "bool_":
        return None
    try:
        return operator.index(v)
    except TypeError:
        return None


def _shown(v):
    """A short text of a caller's value, for messages."""
    try:
        text = repr(v)
    except Exception:
        text = "<%s>" % type(v).__name__
    return text if len(text) <= 80 else text[:77] + "..."


def _int_tuple(v, what, name, rank=None):
    """The tuple of ints v (shape or strides) of a __cuda_array_interface__, or an
    ArgumentError naming the argument."""
    if not isinstance(v, (tuple, list)):
        raise ArgumentError("%s: __cuda_array_interface__ %s must be a tuple of integers, got "
                            "%s" % (name, what, _shown(v)))
    if rank is not None and len(v) != rank:
        raise ArgumentError("%s: __cuda_array_interface__ %s %s has %d entries, but the shape "
                            "has %d dims" % (name, what, _shown(v), len(v), rank))
    out = []
    for x in v:
        i = _int_field(x)
        if i is None or not 0 <= i < 1 << 63:
            raise ArgumentError("%s: __cuda_array_interface__ %s %s: %s is not a non-negative "
                                "64-bit integer" % (name, what, _shown(v), _shown(x)))
        out.append(i)
    return tuple(out)


def _cai_view(cai, name):
    if not isinstance(cai, dict):
        raise ArgumentError("%s: __cuda_array_interface__ must be a dict, got %s" %
                            (name, type(cai).__name__))
    for key in ("shape", "typestr", "data"):
        if key not in cai:
            raise ArgumentError("%s: invalid __cuda_array_interface__ (no '%s')" % (name, key))
    shape = _int_tuple(cai["shape"], "shape", name)
    typestr = cai["typestr"]
    if not isinstance(typestr, str):
        raise ArgumentError("%s: __cuda_array_interface__ typestr must be a str such as '<f2', "
                            "got %s" % (name, _shown(typestr)))
    data = cai["data"]
    if not isinstance(data, (tuple, list)) or len(data) != 2:
        raise ArgumentError("%s: __cuda_array_interface__ data must be a tuple (pointer, "
                            "read_only), got %s" % (name, _shown(data)))
    ptr = _int_field(data[0])
    if ptr is None or not 0 <= ptr < 1 << 64:
        raise ArgumentError("%s: __cuda_array_interface__ data pointer %s is not an address "
                            "(an integer from 0 to 2^64 - 1)" % (name, _shown(data[0])))
    if not isinstance(data[1], (bool, int)) and type(data[1]).__name__ != "bool_":
        raise ArgumentError("%s: __cuda_array_interface__ data[1] (read-only) must be a bool, "
                            "got %s" % (name, _shown(data[1])))
    readonly = bool(data[1])
    ours = CAI_TYPES.get(typestr)
    digits = typestr[2:]
    itemsize = int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 3 else 0
    strides = cai.get("strides")
    if strides is None:  # C-contiguous
        st, acc = [], 1
        for s in reversed(shape):
            st.append(acc)
            acc *= max(s, 1)
        strides = tuple(reversed(st))
    else:
        strides = _int_tuple(strides, "strides", name, rank=len(shape))
        if not itemsize or any(s % itemsize for s in strides):
            raise ArgumentError("%s: strides %s (bytes) are not multiples of the element size "
                                "(%s bytes)" % (name, strides, itemsize or "?"))
        strides = tuple(s // itemsize for s in strides)
    if cai.get("mask") is not None:
        raise ArgumentError("%s: masked __cuda_array_interface__ arrays are not supported" % name)
    device = None
    if ptr:
        device = _native.driver().pointer_device(ptr)
    return View(ptr, shape, strides, ours, device, None, "typestr %r" % typestr, readonly)


def matrix_ld(v, layout, name, what, kernel):
    """The leading dimension of the 2-D view v stored in `layout` (row: the second dim is
    contiguous; col: the first), or an ArgumentError that says what is wrong."""
    rows, cols = v.shape
    rs, cs = v.strides
    if layout == "row":
        if cols > 1 and cs != 1 or rows > 1 and rs < cols:
            raise ArgumentError(
                "%s (%s, %d x %d) must be row-major (the second dim contiguous, strides "
                "(>= %d, 1)), as kernel %s's manifest says; its strides are %s%s" %
                (name, what, rows, cols, cols, kernel, v.strides, _fix(name, "row", v)))
        return rs if rows > 1 else cols
    if rows > 1 and rs != 1 or cols > 1 and cs < rows:
        raise ArgumentError(
            "%s (%s, %d x %d) must be column-major (the first dim contiguous, strides (1, >= %d)),"
            " as kernel %s's manifest says; its strides are %s%s" %
            (name, what, rows, cols, rows, kernel, v.strides, _fix(name, "col", v)))
    return cs if cols > 1 else rows


def _fix(name, layout, v):
    if v.tensor is None:
        return ""
    if layout == "row":
        return "; pass %s.contiguous()" % name
    return ("; pass %s.t().contiguous().t(), or keep the transposed tensor w (%d x %d, "
            "contiguous) and pass w.t()" % (name, v.shape[1], v.shape[0]))
