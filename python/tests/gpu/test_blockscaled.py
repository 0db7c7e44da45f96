"""GPU tests of block-scaled kernels called from Python with PyTorch (an sm_90 GPU: H100, H200).

- tilegen.mx.quantize (PyTorch, on the GPU and on the CPU) gives bit for bit the codes of the C++
  quantiser (include/tilegen/Support/MicroScaling.h, through libtilegen-launch's
  tilegen_quantize_mx), for MXFP4, MXFP8 (e4m3, e5m2) and MXFP6 on random and special values.
- The sm_90a MXFP4 upcast kernel (bf16 A x e2m1 B with e8m0 scales per 1 x 32) on odd shapes,
  its B quantised by tilegen.mx.quantize, against a float64 reference of the dequantised
  inputs; with out=, C and beta; with the scales in each accepted form and dtype
  (torch.float8_e8m0fnu and torch.float4_e2m1fn_x2 where this PyTorch has them); bad inputs are
  Python exceptions after which the GPU still works.
- The sm_90a block-scaled FP8 kernel (e4m3 with f32 scales per 1 x 128 of A and 128 x 128 of
  B) on odd shapes, against a float64 reference of the dequantised inputs.

The cubins are TILEGEN_GPU_CUBINS/<example>.sm_90a.cubin as scripts/gpu-prepare.sh carries them;
test/Integration/python-torch-blockscaled.test runs this file.
"""

import ctypes
import os
import sys
import unittest

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import tilegen  # noqa: E402
from tilegen import _native, mx  # noqa: E402

CUBINS = os.environ.get("TILEGEN_GPU_CUBINS", "")
DEV = torch.device("cuda", 0)
MXFP4 = os.path.join(CUBINS, "gemm_mxfp4_bf16_upcast_sm90a.sm_90a.cubin")
FP8_BLOCK = os.path.join(CUBINS, "gemm_fp8_blockscaled_sm90a.sm_90a.cubin")


def c_quantize(x, fmt):
    """The C++ quantiser's (elements, scales) bytes for a 2-D float64 CPU tensor x."""
    lib = _native.launch_library()
    rows, k = x.shape
    flat = x.contiguous().view(-1).tolist()
    buf = (ctypes.c_double * len(flat))(*flat)
    count = rows * k
    elements = (ctypes.c_uint8 * ((count + 1) // 2 if fmt == "e2m1" else count))()
    scales = (ctypes.c_uint8 * (-(-k // 32) * rows))()
    st = lib.quantize_mx(fmt.encode(), buf, rows, k, elements, scales)
    if st != 0:
        raise lib.thread_failure(st)
    return bytes(elements), bytes(scales)


def as_bytes(elements, scales):
    """quantize()'s tensors as the C layout's bytes (scales: K blocks outermost)."""
    e = elements.contiguous().view(torch.uint8).cpu().view(-1)
    s = scales.t().contiguous().view(torch.uint8).cpu().view(-1)
    return bytes(e.tolist()), bytes(s.tolist())


def test_values(rows, k, gen):
    """float64 values: magnitudes over a wide range per 32-element block, exact ties of the
    formats' grids, zeros, NaN and infinities, whole zero and NaN blocks."""
    x = torch.randn(rows, k, generator=gen, dtype=torch.float64)
    blocks = -(-k // 32)
    exps = torch.randint(-20, 21, (rows, blocks), generator=gen).repeat_interleave(32, 1)[:, :k]
    x = x * torch.pow(2.0, exps.double())
    ties = (torch.randint(-64, 65, (rows, k), generator=gen).double() / 8) * 2.0 ** torch.randint(
        -3, 4, (rows, k), generator=gen).double()
    x[1::4] = ties[1::4]
    special = torch.tensor([0.0, -0.0, float("nan"), float("inf"), -float("inf"), 2.0 ** -127,
                            2.0 ** -149, 6.0, 0.25, 0.75, 2.5, 448.0, 464.0, 57344.0, 61440.0,
                            1e300, -1e-310], dtype=torch.float64)
    pick = torch.randint(0, len(special), (rows, k), generator=gen)
    mask = torch.rand(rows, k, generator=gen) < 0.1
    x[2::4] = torch.where(mask, special[pick], x)[2::4]
    if rows > 3:
        x[3, :min(k, 64)] = 0.0
    if rows > 7:
        x[7, :min(k, 32)] = float("nan")
    return x


class QuantizeTest(unittest.TestCase):
    """tilegen.mx.quantize against the C++ quantiser, bit for bit."""

    def test_matches_cpp(self):
        gen = torch.Generator().manual_seed(3)
        for fmt in ("e2m1", "e4m3", "e5m2", "e2m3", "e3m2"):
            for rows, k in ((9, 64), (16, 1000), (5, 2)):
                x = test_values(rows, k, gen)
                want = c_quantize(x, fmt)
                for device in ("cpu", "cuda"):
                    with self.subTest(fmt=fmt, rows=rows, k=k, device=device):
                        got = as_bytes(*mx.quantize(x.to(device), fmt))
                        self.assertEqual(got[1], want[1], "scales differ")
                        self.assertEqual(got[0], want[0], "elements differ")

    def test_narrow_inputs_are_quantised_exactly(self):
        # bf16 and f32 inputs are widened to float64 exactly, as the C++ code takes doubles.
        gen = torch.Generator().manual_seed(4)
        for dtype in (torch.bfloat16, torch.float32, torch.float16):
            x = (torch.randn(64, 256, generator=gen) * 3).to(dtype)
            for fmt in ("e2m1", "e4m3"):
                with self.subTest(dtype=dtype, fmt=fmt):
                    self.assertEqual(as_bytes(*mx.quantize(x.to(DEV), fmt)),
                                     c_quantize(x.double(), fmt))

    def test_layout_and_dequantize(self):
        w = torch.randn(48, 96, device=DEV)
        q, s = mx.quantize(w, "e2m1")
        self.assertEqual((q.dtype, tuple(q.shape), q.stride()), (torch.uint8, (48, 48), (48, 1)))
        self.assertEqual((s.dtype, tuple(s.shape), s.stride()), (torch.uint8, (48, 3), (1, 48)))
        q8, s8 = mx.quantize(w, "e4m3")
        self.assertEqual((q8.dtype, tuple(q8.shape)), (torch.float8_e4m3fn, (48, 96)))
        # Dequantised values: the element codes' values times 2^(scale - 127), within the
        # format's relative step of the input (blocks scaled so their largest value fits).
        dq = mx.dequantize(q, s, "e2m1")
        self.assertEqual(dq.dtype, torch.float64)
        err = (dq - w.double()).abs()
        # (x / X lies below 8: rounding moves it at most half a step, 1, and clamping to 6 less
        # than 2, in units of the block's scale X.)
        bound = torch.pow(2.0, s.double() - 127).repeat_interleave(32, 1) * 2.0
        self.assertTrue(bool((err <= bound).all()), "an element is off by more than a step")
        self.assertTrue(torch.equal(mx.dequantize(q8, s8, "e4m3"),
                                    q8.double() * torch.pow(2.0, s8.double() - 127)
                                    .repeat_interleave(32, 1)))
        with self.assertRaisesRegex(tilegen.ArgumentError, "K = 33 is odd"):
            mx.quantize(torch.ones(4, 33, device=DEV), "e2m1")
        with self.assertRaisesRegex(tilegen.ArgumentError, "x must be 2-D"):
            mx.quantize(torch.ones(4, device=DEV), "e2m1")


def check(test, d, ref, what):
    """tilegen-run's rule: normwise relative error < 1e-2 (bf16 out), no NaN, and no element
    off by more than 2^-6 (|ref| + rms(ref))."""
    d = d.double()
    test.assertFalse(bool(torch.isnan(d).any()), "%s: NaN in D" % what)
    norm = torch.linalg.norm(ref)
    rel = float(torch.linalg.norm(d - ref) / norm) if norm > 0 else float(
        torch.linalg.norm(d - ref))
    rms = float(norm / ref.numel() ** 0.5)
    bad = int(((d - ref).abs() > 2.0 ** -6 * (ref.abs() + rms)).sum())
    test.assertLess(rel, 1e-2, "%s: relative error %.3g" % (what, rel))
    test.assertEqual(bad, 0, "%s: %d elements off (relative error %.3g)" % (what, bad, rel))
    return rel


def fit(kern, m, n, k):
    dims = {"M": m, "N": n, "K": k}
    for dim, mult, _ in kern.manifest.constraints:
        dims[dim] = -(-dims[dim] // mult) * mult
    return dims["M"], dims["N"], dims["K"]


SHAPES = [(1, 8, 32), (77, 136, 160), (127, 264, 1056), (257, 392, 2080), (1000, 1048, 1056),
          (2048, 2048, 2048), (4096, 4096, 4096)]


@unittest.skipUnless(os.path.exists(MXFP4), "no %s (scripts/gpu-prepare.sh)" % MXFP4)
class Mxfp4UpcastTest(unittest.TestCase):
    def setUp(self):
        self.kern = tilegen.load(MXFP4)
        self.gen = torch.Generator(device=DEV).manual_seed(5)

    def problem(self, m, n, k):
        """bf16 A, an N x K weight whose 32-blocks span 2^-4 .. 2^4, its MXFP4 form, and the
        float64 reference of A x dequant(B)."""
        a = torch.randn(m, k, generator=self.gen, device=DEV).to(torch.bfloat16)
        e = torch.randint(-4, 5, (n, -(-k // 32)), generator=self.gen, device=DEV)
        w = torch.randn(n, k, generator=self.gen, device=DEV) * torch.pow(
            2.0, e.float()).repeat_interleave(32, 1)[:, :k]
        wq, ws = mx.quantize(w, "e2m1")
        ref = a.double() @ mx.dequantize(wq, ws, "e2m1").t()
        return a, wq, ws, ref

    def test_shapes(self):
        for m, n, k in SHAPES:
            m, n, k = fit(self.kern, m, n, k)
            with self.subTest(shape=(m, n, k)):
                a, wq, ws, ref = self.problem(m, n, k)
                d = self.kern(a, wq.t(), scale_b=ws)
                self.assertEqual((d.dtype, tuple(d.shape)), (torch.bfloat16, (m, n)))
                check(self, d, ref, "%dx%dx%d" % (m, n, k))

    def test_out_c_beta_and_scale_forms(self):
        m, n, k = 333, 520, 2080
        a, wq, ws, ref = self.problem(m, n, k)
        c = torch.randn(m, n, generator=self.gen, device=DEV).to(torch.bfloat16)
        out = torch.empty(m, n, device=DEV, dtype=torch.bfloat16)
        want = 2.0 * ref + 0.5 * c.double()
        forms = {"N x KB view (quantize's)": ws, "KB x N contiguous": ws.t().contiguous(),
                 "flat": ws.t().contiguous().view(-1)}
        if hasattr(torch, "float8_e8m0fnu"):
            forms["float8_e8m0fnu"] = ws.view(torch.float8_e8m0fnu)
        for what, s in forms.items():
            with self.subTest(what):
                out.fill_(float("nan"))
                r = self.kern(a, wq.t(), out=out, c=c, alpha=2.0, beta=0.5, scale_b=s)
                self.assertIs(r, out)
                check(self, out, want, what)
        if hasattr(torch, "float4_e2m1fn_x2"):
            d = self.kern(a, wq.view(torch.float4_e2m1fn_x2).t(), scale_b=ws)
            check(self, d, ref, "float4_e2m1fn_x2")
        # Views into larger tensors: padded leading dimensions of A and of packed B (read
        # through tensor maps) and a slice of the scales.
        kk = 1056
        d = self.kern(a[:, :kk], wq[:, :kk // 2].t(), scale_b=ws[:, :kk // 32])
        check(self, d, a[:, :kk].double() @ mx.dequantize(wq[:, :kk // 2], ws[:, :kk // 32]).t(),
              "padded lda and ldb")

    def test_bad_inputs_leave_the_gpu_working(self):
        a, wq, ws, ref = self.problem(64, 64, 128)
        cases = [
            (lambda: self.kern(a, wq.t(), scale_b=ws.contiguous()), tilegen.ArgumentError,
             r"scale_b must be B's e8m0 scales.*pass s.t\(\).contiguous\(\).t\(\)"),
            (lambda: self.kern(a, wq.t(), scale_b=ws.float()), tilegen.DTypeError,
             "scale_b has dtype torch.float32, but kernel .* takes e8m0 scales"),
            (lambda: self.kern(a, wq.t()), tilegen.ArgumentError,
             "kernel .* scales B: pass scale_b"),
            (lambda: self.kern(a, wq, scale_b=ws), tilegen.ArgumentError, "must be column-major"),
            (lambda: self.kern(a, mx.dequantize(wq, ws).to(torch.bfloat16).t(), scale_b=ws),
             tilegen.DTypeError, "takes packed e2m1 for B"),
            (lambda: self.kern(a, wq.t(), scale_b=ws.cpu()), tilegen.ArgumentError,
             "scale_b is on cpu"),
            (lambda: self.kern(a[:, :80], wq[:, :40].t(), scale_b=ws[:, :3]),
             tilegen.ArgumentError, "K = 80 is not a multiple of 32"),
        ]
        for call, exc, msg in cases:
            with self.subTest(msg):
                with self.assertRaisesRegex(exc, msg):
                    call()
        torch.cuda.synchronize()
        check(self, self.kern(a, wq.t(), scale_b=ws), ref, "after the bad inputs")


@unittest.skipUnless(os.path.exists(FP8_BLOCK), "no %s (scripts/gpu-prepare.sh)" % FP8_BLOCK)
class Fp8BlockScaledTest(unittest.TestCase):
    def test_shapes(self):
        kern = tilegen.load(FP8_BLOCK)
        (bao, bak), (bbo, bbk) = (kern.manifest.a.scale["block"], kern.manifest.b.scale["block"])
        gen = torch.Generator(device=DEV).manual_seed(6)
        for m, n, k in SHAPES:
            m, n, k = fit(kern, m, n, k)
            with self.subTest(shape=(m, n, k)):
                ea = torch.randint(-4, 5, (m, 1), generator=gen, device=DEV).float()
                a = torch.randn(m, k, generator=gen, device=DEV) * torch.pow(2.0, ea)
                w = torch.randn(n, k, generator=gen, device=DEV)
                aq, sa, adq = mx.quantize_fp8_blocks(a, (bao, bak))
                wq, sb, wdq = mx.quantize_fp8_blocks(w, (bbo, bbk))
                d = kern(aq, wq.t(), scale_a=sa, scale_b=sb)
                check(self, d, adq @ wdq.t(), "%dx%dx%d" % (m, n, k))


if __name__ == "__main__":
    unittest.main()
