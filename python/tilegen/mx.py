"""OCP Microscaling (MX) formats: quantise to MXFP4, MXFP8 and MXFP6 in the layout tilegen's
block-scaled kernels read, and dequantise.

The rule is the one of include/tilegen/Support/MicroScaling.h (the OCP MX specification v1.0,
section 6.3), bit for bit: a row is cut along K into blocks of 32 (the last one may be shorter);
a block's scale is the E8M0 power of two X = 2^(floor(log2(amax)) - emax), with amax the block's
largest magnitude (NaN elements do not count; an all-zero block gets X = 2^-127, code 0; an
infinite amax code 0xFE) and emax the element format's largest exponent (e2m1 2, e2m3 2, e3m2 4,
e4m3 8, e5m2 15); each element is x / X (exact in float64) rounded to nearest, ties to even, and
clamped to the format's largest finite value (infinities too); NaN becomes the format's NaN
(e4m3 0x7F, e5m2 0x7E, with the sign; e2m1 and the 6-bit formats have none and take +-max).

    import torch, tilegen
    w = torch.randn(4096, 8192, device="cuda")            # N x K, a weight
    wq, ws = tilegen.mx.quantize(w, "e2m1")                # wq: N x K/2 uint8, ws: N x K/32
    k = tilegen.load("gemm_mxfp4_bf16_upcast_sm90a.sm_90a.cubin")
    d = k(a, wq.t(), scale_b=ws)                           # a: M x K bf16

Layouts (docs/manifest.md, "Block-scaled operands"): the elements of a rows x K matrix are
K-major; e2m1 codes are packed two per byte, element 2i in bits [0, 4) and 2i + 1 in bits
[4, 8), so a row is K / 2 bytes (uint8). e4m3 and e5m2 codes are torch.float8_e4m3fn /
torch.float8_e5m2; e2m3 and e3m2 codes one per byte (uint8, the low 6 bits). The scales are E8M0
codes (uint8, value 2^(code - 127)) with the K blocks outermost in memory: the scale of row r's
block b is at b * rows + r. quantize returns them as a rows x ceil(K/32) tensor indexed
[r, b], which is that memory seen transposed (strides (1, rows)); .contiguous() gives the
row-major copy other libraries (Triton's tl.dot_scaled) take.

quantize and dequantize need PyTorch; quantize_reference, encode, decode and scale_code are
plain Python (the host tests compare them with the C library's tilegen_quantize_mx).
"""

import math
import operator

from ._errors import ArgumentError, DTypeError

BLOCK = 32


class Format:
    """An MX element format: bits, exponent and mantissa widths, bias, emax, largest finite."""

    __slots__ = ("name", "bits", "exp_bits", "man_bits", "bias", "emax", "max_finite",
                 "max_code", "nan_code", "sign_bit")

    def __init__(self, name, bits, exp_bits, man_bits, bias, emax, max_finite):
        self.name, self.bits = name, bits
        self.exp_bits, self.man_bits, self.bias = exp_bits, man_bits, bias
        self.emax, self.max_finite = emax, max_finite
        e_max_field = (1 << exp_bits) - 1
        m_max = (1 << man_bits) - 1
        if name == "e4m3":  # S.1111.111 is NaN: the largest finite is S.1111.110
            self.max_code = (e_max_field << man_bits) | (m_max - 1)
            self.nan_code = (e_max_field << man_bits) | m_max
        elif name == "e5m2":  # IEEE-like: the top exponent holds infinities and NaNs
            self.max_code = ((e_max_field - 1) << man_bits) | m_max
            self.nan_code = (e_max_field << man_bits) | 2
        else:  # every code finite: NaN saturates like an overflow
            self.max_code = (e_max_field << man_bits) | m_max
            self.nan_code = self.max_code
        self.sign_bit = 1 << (exp_bits + man_bits)

    @property
    def min_exp(self):
        """The exponent of the smallest normal value."""
        return 1 - self.bias

    def __repr__(self):
        return "<tilegen.mx.Format %s>" % self.name


FORMATS = {
    "e2m1": Format("e2m1", 4, 2, 1, 1, 2, 6.0),
    "e2m3": Format("e2m3", 6, 2, 3, 1, 2, 7.5),
    "e3m2": Format("e3m2", 6, 3, 2, 3, 4, 28.0),
    "e4m3": Format("e4m3", 8, 4, 3, 7, 8, 448.0),
    "e5m2": Format("e5m2", 8, 5, 2, 15, 15, 57344.0),
}


def _format(fmt):
    if isinstance(fmt, Format):
        return fmt
    f = FORMATS.get(fmt) if isinstance(fmt, str) else None
    if f is None:
        shown = repr(fmt) if isinstance(fmt, str) else "a %s" % type(fmt).__name__
        raise ArgumentError("format %s is not an MX element format: expected one of %s" %
                            (shown[:60], ", ".join(FORMATS)))
    return f


def _real(x, what):
    """x (a real number: a Python or NumPy int or float, not a bool) as a float, or an
    ArgumentError naming what."""
    if isinstance(x, (bool, str, bytes, complex)) or type(x).__name__ == "bool_":
        raise ArgumentError("%s must be a real number, got %s" % (what, type(x).__name__))
    try:
        return float(x)
    except OverflowError:
        raise ArgumentError("%s is an integer too large for a float64 (%d bits)" %
                            (what, int(x).bit_length()))
    except (TypeError, ValueError):
        raise ArgumentError("%s must be a real number, got %s" % (what, type(x).__name__))


def _length(values):
    """len(values), or an ArgumentError when values is no sequence."""
    try:
        return len(values)
    except TypeError:
        raise ArgumentError("values must be a sequence of numbers, got %s" %
                            type(values).__name__)


def _reals(values):
    """values as Python floats, each checked by _real: abs() of a NumPy int8 -128 would wrap
    around."""
    return [_real(v, "values[%d]" % i) for i, v in enumerate(values)]


def _count(v, what):
    """v as a positive int (rows, k), or an ArgumentError naming what."""
    if isinstance(v, bool) or type(v).__name__ == "bool_":
        raise ArgumentError("%s must be a positive integer, got a bool" % what)
    try:
        i = operator.index(v)
    except TypeError:
        raise ArgumentError("%s must be a positive integer, got %s" %
                            (what, repr(v) if isinstance(v, float) else type(v).__name__))
    if i < 1:
        raise ArgumentError("%s = %s: it must be at least 1" %
                            (what, i if i.bit_length() <= 64 else "an integer of %d bits" %
                             i.bit_length()))
    if i.bit_length() > 62:
        raise ArgumentError("%s is an integer of %d bits: too large for a matrix in memory" %
                            (what, i.bit_length()))
    return i


# Scalars (plain Python) ---------------------------------------------------------------------
def decode(code, fmt):
    """The exact value of an element code (e8m0: fmt "e8m0", value 2^(code - 127))."""
    bits = 8 if fmt == "e8m0" else _format(fmt).bits
    c = None if isinstance(code, bool) or type(code).__name__ == "bool_" else code
    try:
        c = operator.index(c)
    except TypeError:
        raise ArgumentError("code must be an integer, got %s" % type(code).__name__)
    if not 0 <= c < 1 << bits:
        raise ArgumentError("code %s is out of range for %s: expected 0 .. %d" %
                            (c if c.bit_length() <= 64 else "of %d bits" % c.bit_length(),
                             fmt if isinstance(fmt, str) else fmt.name, (1 << bits) - 1))
    code = c
    if fmt == "e8m0":
        return float("nan") if code == 0xFF else math.ldexp(1.0, code - 127)
    f = _format(fmt)
    neg = (code >> (f.exp_bits + f.man_bits)) & 1
    e = (code >> f.man_bits) & ((1 << f.exp_bits) - 1)
    m = code & ((1 << f.man_bits) - 1)
    e_top = (1 << f.exp_bits) - 1
    if f.name == "e4m3" and e == e_top and m == (1 << f.man_bits) - 1:
        v = float("nan")
    elif f.name == "e5m2" and e == e_top:
        v = float("inf") if m == 0 else float("nan")
    elif e == 0:
        v = math.ldexp(float(m), 1 - f.bias - f.man_bits)
    else:
        v = math.ldexp(float((1 << f.man_bits) | m), e - f.bias - f.man_bits)
    return -v if neg else v


def encode(x, fmt):
    """The code of x in fmt: round to nearest, ties to even, saturating (overflow and infinities
    become +-max); NaN the format's NaN (+-max without one); -0.0 keeps its sign."""
    f = _format(fmt)
    x = _real(x, "x")
    sign = f.sign_bit if math.copysign(1.0, x) < 0 else 0
    if math.isnan(x):
        return sign | f.nan_code
    a = abs(x)
    if math.isinf(a):
        return sign | f.max_code
    if a == 0:
        return sign
    # The spacing of the format's values in a's binade (the subnormal spacing below the
    # smallest normal): a / quantum is exact, and round() rounds half to even.
    _, e = math.frexp(a)
    exp = max(e - 1, f.min_exp)
    quantum = math.ldexp(1.0, exp - f.man_bits)
    r = round(a / quantum) * quantum
    if r > f.max_finite:
        return sign | f.max_code
    if r < math.ldexp(1.0, f.min_exp):  # subnormal or zero: exponent field 0
        return sign | int(r / math.ldexp(1.0, f.min_exp - f.man_bits))
    _, e = math.frexp(r)
    r_exp = e - 1
    mant = int((r / math.ldexp(1.0, r_exp) - 1.0) * (1 << f.man_bits))
    return sign | ((r_exp + f.bias) << f.man_bits) | mant


def scale_code(amax, fmt):
    """The E8M0 code of the scale of a block whose largest magnitude is amax."""
    f = _format(fmt)
    amax = _real(amax, "amax")
    if not amax > 0:
        return 0
    if math.isinf(amax):
        return 0xFE
    _, e = math.frexp(amax)  # floor(log2(amax)) = e - 1
    return min(max(e - 1 - f.emax, -127), 127) + 127


def quantize_block(values, fmt):
    """(scale code, [element codes]) of one block (at most 32 values)."""
    f = _format(fmt)
    n = _length(values)
    if n > BLOCK:
        raise ArgumentError("quantize_block: %d values; a block holds at most %d" % (n, BLOCK))
    values = _reals(values)
    amax = 0.0
    for v in values:
        a = abs(v)
        if a > amax:  # NaN never compares greater: it does not count
            amax = a
    code = scale_code(amax, f)
    scale = math.ldexp(1.0, code - 127)
    return code, [encode(v / scale, f) for v in values]


def quantize_reference(values, rows, k, fmt):
    """Plain-Python quantisation of a rows x k matrix (values: a flat sequence, row-major) into
    (elements, scales) as bytes, in the layout of the C function tilegen_quantize_mx: element
    (r, c) at linear index r * k + c (e2m1: two per byte, low nibble first); the scale of row r's
    block b at b * rows + r. Slow: for tests and small tensors."""
    f = _format(fmt)
    rows = _count(rows, "rows")
    k = _count(k, "k")
    n = _length(values)
    if n != rows * k:
        raise ArgumentError("quantize_reference: %d values for a %d x %d matrix" %
                            (n, rows, k))
    values = _reals(values)
    blocks = -(-k // BLOCK)
    count = rows * k
    elements = bytearray((count + 1) // 2 if f.bits == 4 else count)
    scales = bytearray(blocks * rows)
    for r in range(rows):
        for b in range(blocks):
            first = r * k + b * BLOCK
            n = min(BLOCK, k - b * BLOCK)
            code, codes = quantize_block(values[first:first + n], f)
            scales[b * rows + r] = code
            for i, c in enumerate(codes):
                at = first + i
                if f.bits == 4:
                    elements[at // 2] |= (c & 0xF) << (4 * (at % 2))
                else:
                    elements[at] = c
    return bytes(elements), bytes(scales)


# Tensors (PyTorch) --------------------------------------------------------------------------
def _torch():
    try:
        import torch
    except ImportError:
        raise ArgumentError("tilegen.mx.quantize and dequantize need PyTorch; "
                            "quantize_reference is plain Python")
    return torch


def _pow2(torch, n):
    """2.0 ** n as float64, exactly, for an int64 tensor n in [-1022, 1023]."""
    return torch.bitwise_left_shift(n + 1023, 52).view(torch.float64)


def _encode(torch, y, f):
    """Codes (int64) of the float64 tensor y in format f, as encode() gives them."""
    sign = torch.signbit(y)
    a = y.abs()
    nan = torch.isnan(a)
    inf = torch.isinf(a)
    a = torch.where(nan | inf, torch.zeros_like(a), a)
    _, e = torch.frexp(a)
    exp = torch.clamp(e.to(torch.int64) - 1, min=f.min_exp)
    quantum = _pow2(torch, exp - f.man_bits)
    r = torch.round(a / quantum) * quantum  # round half to even
    sub = r < math.ldexp(1.0, f.min_exp)
    sub_code = (r / math.ldexp(1.0, f.min_exp - f.man_bits)).to(torch.int64)
    _, er = torch.frexp(torch.where(sub, torch.ones_like(r), r))
    r_exp = er.to(torch.int64) - 1
    mant = ((r / _pow2(torch, r_exp) - 1.0) * (1 << f.man_bits)).to(torch.int64)
    code = torch.where(sub, sub_code, ((r_exp + f.bias) << f.man_bits) | mant)
    code = torch.where((r > f.max_finite) | inf, torch.full_like(code, f.max_code), code)
    code = torch.where(nan, torch.full_like(code, f.nan_code), code)
    return code | torch.where(sign, torch.full_like(code, f.sign_bit), torch.zeros_like(code))


def quantize(x, fmt="e2m1"):
    """Quantises a 2-D floating-point tensor x (rows x K) along K (its second dim) to fmt with
    E8M0 scales per 32 elements. Returns (elements, scales) on x's device:

    - elements: e2m1 a rows x K/2 torch.uint8 tensor (K must be even), two codes per byte, low
      nibble first; e4m3 / e5m2 a rows x K torch.float8_e4m3fn / float8_e5m2 tensor; e2m3 /
      e3m2 a rows x K torch.uint8 tensor. Contiguous, K-major.
    - scales: rows x ceil(K/32) torch.uint8 E8M0 codes indexed [r, block], stored with the
      blocks outermost (strides (1, rows)): the layout the kernels' scale pointer takes.

    Computed in float64 with the rule of the module's docstring, bit for bit the C++ one.
    For an N x K weight w, pass elements.t() as B (b = col) and scales as scale_b."""
    torch = _torch()
    f = _format(fmt)
    if not isinstance(x, torch.Tensor):
        raise DTypeError("x must be a torch.Tensor, got %s" % type(x).__name__)
    if x.dim() != 2:
        raise ArgumentError("x must be 2-D (rows x K, quantised along K), got shape %s" %
                            (tuple(x.shape),))
    if not x.is_floating_point():
        raise DTypeError("x has dtype %s; quantize takes a floating-point tensor" % x.dtype)
    rows, k = x.shape
    if rows < 1 or k < 1:
        raise ArgumentError("x has shape %s; quantize needs at least one row and column" %
                            (tuple(x.shape),))
    if f.bits == 4 and k % 2:
        raise ArgumentError("K = %d is odd: packed e2m1 rows hold two elements per byte, so K "
                            "must be even" % k)
    blocks = -(-k // BLOCK)
    xd = x.detach().to(torch.float64)
    if blocks * BLOCK != k:
        xd = torch.nn.functional.pad(xd, (0, blocks * BLOCK - k))  # zeros leave amax alone
    xd = xd.reshape(rows, blocks, BLOCK)
    mag = xd.abs()
    amax = torch.where(torch.isnan(mag), torch.zeros_like(mag), mag).amax(dim=2)
    _, e = torch.frexp(amax)
    code = torch.clamp(e.to(torch.int64) - 1 - f.emax, -127, 127) + 127
    code = torch.where(amax > 0, code, torch.zeros_like(code))
    code = torch.where(torch.isinf(amax), torch.full_like(code, 0xFE), code)
    y = xd / _pow2(torch, code - 127).unsqueeze(2)
    codes = _encode(torch, y, f).reshape(rows, blocks * BLOCK)[:, :k].to(torch.uint8)
    if f.bits == 4:
        elements = (codes[:, 0::2] | (codes[:, 1::2] << 4)).contiguous()
    elif f.name == "e4m3":
        elements = codes.contiguous().view(torch.float8_e4m3fn)
    elif f.name == "e5m2":
        elements = codes.contiguous().view(torch.float8_e5m2)
    else:
        elements = codes.contiguous()
    scales = code.to(torch.uint8).t().contiguous().t()
    return elements, scales


_tables = {}


def _table(torch, fmt, device):
    key = (fmt, str(device))
    t = _tables.get(key)
    if t is None:
        n = 256 if fmt == "e8m0" or _format(fmt).bits == 8 else 1 << _format(fmt).bits
        t = torch.tensor([decode(c, fmt) for c in range(n)], dtype=torch.float64, device=device)
        _tables[key] = t
    return t


def dequantize(elements, scales, fmt="e2m1", dtype=None):
    """The values elements x 2^(scale - 127) of a quantize() result, rows x K, as dtype
    (default torch.float64: exact). elements: as quantize gives them (uint8, or the float8 /
    float4_e2m1fn_x2 / float8_e8m0fnu dtypes viewed as bytes); scales: rows x ceil(K/32),
    indexed [r, block] whatever its strides."""
    torch = _torch()
    f = _format(fmt)
    dtype = dtype or torch.float64
    if elements.dim() != 2 or scales.dim() != 2:
        raise ArgumentError("elements and scales must be 2-D, got shapes %s and %s" %
                            (tuple(elements.shape), tuple(scales.shape)))
    raw = elements.contiguous().view(torch.uint8).to(torch.int64)
    rows = raw.shape[0]
    if f.bits == 4:
        raw = torch.stack((raw & 0xF, raw >> 4), dim=2).reshape(rows, -1)
    k = raw.shape[1]
    want = (rows, -(-k // BLOCK))
    if tuple(scales.shape) != want:
        raise ArgumentError("scales has shape %s; %d x %d elements of %s need %d x %d "
                            "(rows x ceil(K / 32))" % (tuple(scales.shape), rows, k, f.name,
                                                       want[0], want[1]))
    values = _table(torch, f.name, raw.device)[raw]
    s = _table(torch, "e8m0", raw.device)[scales.contiguous().view(torch.uint8).to(torch.int64)]
    values = values * s.repeat_interleave(BLOCK, dim=1)[:, :k]
    return values.to(dtype)


# FP8 with f32 block scales (per tensor, 1 x 128, 128 x 128, ...) ------------------------------
def quantize_fp8_blocks(x, block, fmt="e4m3"):
    """Quantises a 2-D floating-point tensor x (outer x K: M x K for A, N x K for a weight B) to
    FP8 with one f32 scale per block of (outer, k) = `block` elements, the form of the sm_90a
    block-scaled FP8 kernels (e.g. block (1, 128) for A and (128, 128) for B). A block's scale
    is amax / the format's largest finite value (448 e4m3, 57344 e5m2), 1 for an all-zero
    block; its codes are x / scale rounded to nearest even and clamped to that value. Returns
    (codes, scales, dequantised):

    - codes: outer x K, torch.float8_e4m3fn / float8_e5m2, contiguous (K-major);
    - scales: ceil(K / k) x ceil(outer / o) float32, contiguous: the K blocks outermost, the
      layout the kernels' scale pointers take (docs/manifest.md);
    - dequantised: outer x K float64, codes x scale (the reference's inputs)."""
    torch = _torch()
    if fmt not in ("e4m3", "e5m2"):
        raise ArgumentError("quantize_fp8_blocks takes fmt e4m3 or e5m2, got %r" % (fmt,))
    if not isinstance(x, torch.Tensor):
        raise DTypeError("x must be a torch.Tensor, got %s" % type(x).__name__)
    if x.dim() != 2 or not x.is_floating_point():
        raise ArgumentError("x must be a 2-D floating-point tensor (outer x K), got shape %s "
                            "dtype %s" % (tuple(x.shape), x.dtype))
    try:
        bo, bk = (int(v) for v in block)
    except (TypeError, ValueError):
        raise ArgumentError("block must be two positive integers (outer, k), got %r" % (block,))
    if bo < 1 or bk < 1:
        raise ArgumentError("block must be two positive integers (outer, k), got %r" % (block,))
    outer, k = x.shape
    if outer < 1 or k < 1:
        raise ArgumentError("x has shape %s; it needs at least one row and column" %
                            (tuple(x.shape),))
    dtype = torch.float8_e4m3fn if fmt == "e4m3" else torch.float8_e5m2
    fmax = FORMATS[fmt].max_finite
    ob, kb = -(-outer // bo), -(-k // bk)
    xp = torch.nn.functional.pad(x.detach().float(), (0, kb * bk - k, 0, ob * bo - outer))
    blocks = xp.reshape(ob, bo, kb, bk)
    amax = blocks.abs().amax(dim=(1, 3))
    scale = torch.where(amax > 0, amax / fmax, torch.ones_like(amax))
    q = (blocks / scale[:, None, :, None]).clamp(-fmax, fmax).to(dtype)
    dq = (q.double() * scale.double()[:, None, :, None]).reshape(ob * bo, kb * bk)[:outer, :k]
    return q.reshape(ob * bo, kb * bk)[:outer, :k].contiguous(), scale.t().contiguous(), dq
