"""GPU tests of the tilegen package with PyTorch (an sm_90 GPU: H100, H200).

Every precompiled example kernel (TILEGEN_GPU_CUBINS: the *.sm_90a and *.sm_90 cubins with
their manifests, as scripts/gpu-prepare.sh carries them) is loaded with tilegen.load and checked
against torch.matmul on odd shapes; then bad inputs (each a Python exception, after which the
GPU still works), torch.compile (fullgraph, dynamic shapes, out=, reduce-overhead), CUDA graph
capture and replay, and a dispatch table made of two of the kernels. test_overhead.py times the
launch. The lit test test/Integration/python-torch.test runs both.
"""

import glob
import json
import os
import shutil
import sys
import tempfile
import unittest

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import tilegen  # noqa: E402

CUBINS = os.environ.get("TILEGEN_GPU_CUBINS", "")
DEV = torch.device("cuda", 0)
TORCH = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
         "e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}

# Odd shapes: M = 1, partial tiles on every edge, K below and not a multiple of the K tile,
# more tiles than SMs. Each dim is rounded up to the kernel's constraints.
SHAPES = [(1, 8, 8), (77, 99, 131), (127, 136, 136), (257, 392, 264), (129, 1000, 40), (33, 264, 2056),
          (1023, 776, 1000), (2049, 2056, 200), (2048, 2048, 2048)]


def cubins():
    """The example cubins whose operands operand() can make and that Python calls (the packed
    MXFP4 kernels are test_blockscaled.py's; kernels Python refuses, such as the MXFP8 and
    NVFP4 upcasts, are left out)."""
    found = sorted(glob.glob(os.path.join(CUBINS, "*.sm_90a.cubin")) +
                   glob.glob(os.path.join(CUBINS, "*.sm_90.cubin")))
    keep = []
    for c in found:
        if not os.path.exists(c[:-6] + ".json"):
            continue
        man = tilegen.load(c).manifest
        if not man.block_scaled and man.unsupported is None:
            keep.append(c)
    return keep


def fit(kern, m, n, k):
    dims = {"M": m, "N": n, "K": k}
    for dim, mult, _ in kern.manifest.constraints:
        dims[dim] = -(-dims[dim] // mult) * mult
    return dims["M"], dims["N"], dims["K"]


def operand(rows, cols, spec, gen):
    """A rows x cols tensor of spec's type in spec's layout, values exact in every type."""
    if spec.layout == "row":
        x = torch.randint(-3, 4, (rows, cols), generator=gen, device=DEV).float()
    else:
        x = torch.randint(-3, 4, (cols, rows), generator=gen, device=DEV).float().t()
    if spec.type in ("e4m3", "e5m2"):
        x = x * 0.5
    return x.to(TORCH[spec.type])


def empty(rows, cols, spec):
    if spec.layout == "row":
        return torch.empty((rows, cols), dtype=TORCH[spec.type], device=DEV)
    return torch.empty((cols, rows), dtype=TORCH[spec.type], device=DEV).t()


def scales(spec, outer, k, gen):
    """(the scale tensor to pass, its values expanded to outer x k) for a scale spec."""
    if spec is None:
        return None, None
    if spec["granularity"] == "tensor":
        s = torch.tensor([0.75], device=DEV)
        return s, s.expand(outer, k)
    bo, bk = spec["block"]
    ob, kb = -(-outer // bo), -(-k // bk)
    s = torch.randint(1, 5, (kb, ob), generator=gen, device=DEV).float() * 0.25
    full = s.t().repeat_interleave(bo, 0)[:outer].repeat_interleave(bk, 1)[:, :k]
    return s, full


def rel_error(d, ref):
    return ((d.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def tolerance(kern):
    return 2e-2 if kern.manifest.c.type != "f32" else 1e-4


class ExamplesTest(unittest.TestCase):
    """Each example kernel against torch.matmul."""

    def test_every_example(self):
        found = cubins()
        self.assertTrue(found, "no *.sm_90a / *.sm_90 cubins in TILEGEN_GPU_CUBINS=%r" % CUBINS)
        gen = torch.Generator(device=DEV)
        gen.manual_seed(1)
        for path in found:
            kern = tilegen.load(path)
            man = kern.manifest
            for shape in SHAPES:
                m, n, k = fit(kern, *shape)
                for beta in (0.0, 0.5) if shape == SHAPES[3] else (0.0,):
                    with self.subTest(kernel=os.path.basename(path), m=m, n=n, k=k, beta=beta):
                        a = operand(m, k, man.a, gen)
                        b = operand(k, n, man.b, gen)
                        sa, fa = scales(man.a.scale, m, k, gen)
                        sb, fb = scales(man.b.scale, n, k, gen)
                        c = operand(m, n, man.c, gen) if beta else None
                        af, bf = a.float(), b.float()
                        if fa is not None:
                            af = af * fa
                        if fb is not None:
                            bf = bf * fb.t()
                        ref = 2.0 * torch.matmul(af, bf)
                        if c is not None:
                            ref += beta * c.float()
                        d = kern(a, b, c=c, alpha=2.0, beta=beta, scale_a=sa, scale_b=sb)
                        torch.cuda.synchronize()
                        self.assertEqual(d.dtype, TORCH[man.c.type])
                        self.assertEqual(tuple(d.shape), (m, n))
                        err = rel_error(d, ref)
                        self.assertLess(err, tolerance(kern), "relative error %.3g" % err)
                        # out= given, in the manifest's layout
                        out = empty(m, n, man.c)
                        self.assertIs(kern(a, b, out=out, c=c, alpha=2.0, beta=beta,
                                           scale_a=sa, scale_b=sb), out)
                        torch.cuda.synchronize()
                        self.assertLess(rel_error(out, ref), tolerance(kern))
                        # The same call again: torch tensors seen before skip the checks.
                        out.zero_()
                        kern(a, b, out=out, c=c, alpha=2.0, beta=beta, scale_a=sa, scale_b=sb)
                        torch.cuda.synchronize()
                        self.assertLess(rel_error(out, ref), tolerance(kern))


def default_kernel():
    p = os.path.join(CUBINS, "gemm_bf16.sm_90a.cubin")
    if not os.path.exists(p):
        raise AssertionError("no gemm_bf16.sm_90a.cubin in TILEGEN_GPU_CUBINS=%r" % CUBINS)
    return tilegen.load(p)


def streamk_kernel():
    p = os.path.join(CUBINS, "gemm_bf16_streamk_sm90a.sm_90a.cubin")
    if not os.path.exists(p):
        raise AssertionError("no gemm_bf16_streamk_sm90a.sm_90a.cubin in TILEGEN_GPU_CUBINS=%r" %
                             CUBINS)
    return tilegen.load(p)


def bf16_inputs(m, n, k, seed=0):
    g = torch.Generator(device=DEV)
    g.manual_seed(seed)
    a = torch.randn(m, k, generator=g, device=DEV).to(torch.bfloat16)
    w = torch.randn(n, k, generator=g, device=DEV).to(torch.bfloat16)
    return a, w.t()  # b column-major: K x N with K contiguous


class BadInputTest(unittest.TestCase):
    """Every bad input is a Python exception, and the GPU works afterwards."""

    def test_bad_inputs(self):
        kern = default_kernel()
        a, b = bf16_inputs(256, 512, 128)
        cases = [
            ("wrong dtype", lambda: kern(a.half(), b), tilegen.DTypeError,
             "a has dtype torch.float16, but kernel gemm_bf16 takes bf16"),
            ("non-contiguous a", lambda: kern(a[:, ::2], b[::2]), tilegen.ArgumentError,
             "must be row-major"),
            ("row-major b", lambda: kern(a, b.contiguous()), tilegen.ArgumentError,
             "b .* must be column-major .* pass b.t\\(\\).contiguous\\(\\).t\\(\\)"),
            ("CPU tensor", lambda: kern(a.cpu(), b), tilegen.ArgumentError,
             "a is on cpu; tilegen kernels need CUDA tensors"),
            ("CPU out", lambda: kern(a, b, out=torch.empty(256, 512, dtype=torch.bfloat16)),
             tilegen.ArgumentError, "out is on cpu"),
            ("forbidden K", lambda: kern(*bf16_inputs(128, 128, 12)), tilegen.ArgumentError,
             "K = 12 is not a multiple of 8"),
            ("forbidden N", lambda: kern(*bf16_inputs(128, 129, 128)), tilegen.ArgumentError,
             "N = 129 is not a multiple of 8"),
            ("K mismatch", lambda: kern(a, bf16_inputs(1, 512, 64)[1]), tilegen.ArgumentError,
             "K differs"),
            ("wrong out dtype",
             lambda: kern(a, b, out=torch.empty(256, 512, dtype=torch.float32, device=DEV)),
             tilegen.DTypeError, "out has dtype torch.float32"),
            ("misaligned a", lambda: kern(a.flatten()[1:].narrow(0, 0, 255 * 128).view(255, 128),
                                          b), tilegen.ArgumentError, "not 16-byte aligned"),
            ("beta without c", lambda: kern(a, b, beta=1.0), tilegen.ArgumentError,
             "beta = 1 but c is None"),
            ("scale on bf16", lambda: kern(a, b, scale_a=torch.ones(1, device=DEV)),
             tilegen.ArgumentError, "has no scale for A"),
            ("1-D", lambda: kern(a[0], b), tilegen.ArgumentError, "must be 2-D"),
        ]
        if torch.cuda.device_count() > 1:
            cases.append(("two devices", lambda: kern(a, b.to("cuda:1")), tilegen.ArgumentError,
                          "the tensors are on different devices"))
        for name, call, exc, msg in cases:
            with self.subTest(name):
                with self.assertRaisesRegex(exc, msg):
                    call()
        torch.cuda.synchronize()
        d = kern(a, b)
        torch.cuda.synchronize()
        self.assertLess(rel_error(d, a.float() @ b.float()), 2e-2)

    def test_checks_after_a_good_call(self):
        # Shapes, strides and dtypes seen before skip their checks; what can still differ is
        # checked: the pointers' alignment, beta without c.
        kern = default_kernel()
        a, b = bf16_inputs(255, 512, 128)
        buf = torch.empty(255 * 128 + 8, dtype=torch.bfloat16, device=DEV)
        aligned = buf[:255 * 128].view(255, 128)
        misaligned = buf[1:255 * 128 + 1].view(255, 128)
        aligned.copy_(a)
        d1 = kern(aligned, b)
        d2 = kern(aligned, b)
        with self.assertRaisesRegex(tilegen.ArgumentError, "a's data pointer .* not 16-byte"):
            kern(misaligned, b)
        with self.assertRaisesRegex(tilegen.ArgumentError, "beta = 2 but c is None"):
            kern(aligned, b, beta=2.0)
        torch.cuda.synchronize()
        self.assertLess(rel_error(d1, a.float() @ b.float()), 2e-2)
        self.assertTrue(torch.equal(d1, d2))

    def test_bad_files(self):
        d = tempfile.mkdtemp(prefix="tilegen-gpu-")
        try:
            src = os.path.join(CUBINS, "gemm_bf16.sm_90a")
            self.assertTrue(os.path.exists(src + ".cubin"), "no gemm_bf16.sm_90a.cubin")
            # A cubin for another GPU (the manifest says sm_100a).
            shutil.copy(src + ".cubin", os.path.join(d, "other.cubin"))
            man = json.load(open(src + ".json"))
            man["target"], man["cubin"] = "sm_100a", "other.cubin"
            json.dump(man, open(os.path.join(d, "other.json"), "w"))
            other = tilegen.load(os.path.join(d, "other.cubin"))
            a, b = bf16_inputs(128, 128, 128)
            with self.assertRaisesRegex(tilegen.TargetError, "built for sm_100a"):
                other(a, b)
            # A truncated cubin.
            data = open(src + ".cubin", "rb").read()
            open(os.path.join(d, "cut.cubin"), "wb").write(data[:len(data) // 2])
            man["target"], man["cubin"] = "sm_90a", "cut.cubin"
            json.dump(man, open(os.path.join(d, "cut.json"), "w"))
            with self.assertRaisesRegex(tilegen.ManifestError, "truncated"):
                tilegen.load(os.path.join(d, "cut.cubin"))
            # A corrupted cache entry: detected, recompiled elsewhere; here, refused.
            torch.cuda.synchronize()
        finally:
            shutil.rmtree(d, ignore_errors=True)


class CompileTest(unittest.TestCase):
    """torch.compile: the kernel is one custom op in the graph (fullgraph: no graph break)."""

    def setUp(self):
        torch._dynamo.reset()

    def test_fullgraph(self):
        kern = default_kernel()

        def f(a, b):
            return torch.relu(kern(a, b)) * 2 + 1

        g = torch.compile(f, fullgraph=True)
        for m, n, k in ((256, 512, 128), (1000, 512, 256)):
            a, b = bf16_inputs(m, n, k)
            ref = torch.relu(a.float() @ b.float()) * 2 + 1
            self.assertLess(rel_error(g(a, b), ref), 2e-2)

    def test_dynamic_and_out(self):
        kern = default_kernel()

        def f(a, b, c, out):
            kern(a, b, out=out, c=c, beta=1.0)
            return out

        g = torch.compile(f, fullgraph=True, dynamic=True)
        for m in (64, 200, 333):
            a, b = bf16_inputs(m, 256, 64, seed=m)
            c = torch.ones(m, 256, dtype=torch.bfloat16, device=DEV)
            out = torch.empty(m, 256, dtype=torch.bfloat16, device=DEV)
            r = g(a, b, c, out)
            self.assertLess(rel_error(r, a.float() @ b.float() + 1), 2e-2)
            self.assertLess(rel_error(out, a.float() @ b.float() + 1), 2e-2)

    def test_reduce_overhead(self):
        kern = default_kernel()
        g = torch.compile(lambda a, b: kern(a, b) + 1, mode="reduce-overhead", fullgraph=True)
        a, b = bf16_inputs(512, 256, 128)
        for _ in range(3):
            r = g(a, b)
        self.assertLess(rel_error(r, a.float() @ b.float() + 1), 2e-2)

    def test_dispatch_in_compile(self):
        table = make_table(self)
        g = torch.compile(lambda a, b: table(a, b), fullgraph=True)
        for m, n, k in ((64, 256, 128), (4096, 2048, 512)):
            a, b = bf16_inputs(m, n, k)
            self.assertLess(rel_error(g(a, b), a.float() @ b.float()), 2e-2)


class GraphTest(unittest.TestCase):
    """CUDA graph capture: launches are captured (no sync, no allocation with out given)."""

    def check_capture(self, kern, m, n, k):
        a, b = bf16_inputs(m, n, k)
        out = torch.empty(m, n, dtype=torch.bfloat16, device=DEV)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            kern(a, b, out=out)  # warm-up: loads the module, allocates any workspace
        torch.cuda.current_stream().wait_stream(s)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            kern(a, b, out=out)
        for seed in (5, 6):
            a2, b2 = bf16_inputs(m, n, k, seed=seed)
            a.copy_(a2)
            b.copy_(b2)
            out.zero_()
            graph.replay()
            torch.cuda.synchronize()
            self.assertLess(rel_error(out, a2.float() @ b2.float()), 2e-2)

    def test_capture(self):
        self.check_capture(default_kernel(), 1000, 512, 256)

    def test_capture_streamk(self):
        self.check_capture(streamk_kernel(), 256, 512, 4096)

    def test_capture_allocating_out(self):
        kern = default_kernel()
        a, b = bf16_inputs(256, 256, 128)
        kern(a, b)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            d = kern(a, b)
        graph.replay()
        torch.cuda.synchronize()
        self.assertLess(rel_error(d, a.float() @ b.float()), 2e-2)


def make_table(case):
    small = os.path.join(CUBINS, "gemm_bf16_64row_sm90a.sm_90a")
    big = os.path.join(CUBINS, "gemm_bf16.sm_90a")
    if not (os.path.exists(small + ".cubin") and os.path.exists(big + ".cubin")):
        case.fail("needs gemm_bf16_64row_sm90a.sm_90a and gemm_bf16.sm_90a in %s" % CUBINS)
    d = tempfile.mkdtemp(prefix="tilegen-table-")
    case.addCleanup(shutil.rmtree, d, True)
    kernels = []
    for p in (small, big):
        man = json.load(open(p + ".json"))
        shutil.copy(p + ".cubin", d)
        shutil.copy(p + ".json", d)
        kernels.append({"name": man["kernel"], "cubin": os.path.basename(p) + ".cubin",
                        "manifest": os.path.basename(p) + ".json"})
    table = {"format": "tilegen-dispatch", "version": 1, "target": "sm_90a",
             "kernels": kernels,
             "entries": [{"m": 64, "n": 4096, "k": 4096, "kernel": kernels[0]["name"],
                          "candidates": []},
                         {"m": 4096, "n": 4096, "k": 4096, "kernel": kernels[1]["name"],
                          "candidates": []}]}
    path = os.path.join(d, "dispatch.json")
    json.dump(table, open(path, "w"))
    t = tilegen.load_dispatch(path)
    case.assertEqual(t.pick(64, 256, 128).name, kernels[0]["name"])
    case.assertEqual(t.pick(4096, 2048, 512).name, kernels[1]["name"])
    return t


class DispatchTest(unittest.TestCase):
    def test_dispatch(self):
        table = make_table(self)
        for m, n, k in ((64, 256, 128), (100, 4096, 1000), (4096, 2048, 512)):
            a, b = bf16_inputs(m, n, k)
            self.assertLess(rel_error(table(a, b), a.float() @ b.float()), 2e-2)

    def test_dispatch_padded(self):
        # N and K off the 16-byte rule: the table's TMA kernels run on zero-padded copies; the
        # result (allocated, into out, and with beta reading C) against torch in f32.
        table = make_table(self)
        for m, n, k in ((1, 1, 1), (63, 777, 999), (1023, 776, 1001), (4095, 4097, 4095)):
            with self.subTest(shape=(m, n, k)):
                kern, padded = table.pick_padded(m, n, k)
                self.assertIsNotNone(padded)
                a, b = bf16_inputs(m, n, k)
                ref = a.float() @ b.float()
                self.assertLess(rel_error(table(a, b), ref), 2e-2)
                c = torch.randn(m, n, device="cuda").to(torch.bfloat16)
                out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
                r = table(a, b, out=out, c=c, alpha=0.5, beta=2.0)
                self.assertIs(r, out)
                self.assertLess(rel_error(out, 0.5 * ref + 2.0 * c.float()), 2e-2)


if __name__ == "__main__":
    unittest.main()
