#!/usr/bin/env python3
"""Block-scaled GEMM on the GPU against its peer: tilegen's sm_90a MXFP4 upcast kernel (called
from Python) and a Triton kernel built on tl.dot_scaled, on the same tensors in one process;
with tilegen's bf16 kernel and torch.matmul (cuBLAS) on the same shapes for context.

Runs THERE (the GPU machine: PyTorch, Triton, the cubins of scripts/gpu-prepare.sh, and
build-runner/lib/libtilegen-launch.so from scripts/gpu-run.sh build), from the repository root:

  python3 bench/peers/triton_dot_scaled.py [--shapes bench/sweeps/dot-scaled.txt]
      [--cubins .dev/gpu/cubins] [--csv FILE] [--iters 50] [--warmup 10] [--no-triton]
      [--formats mxfp4,mxfp8] [--triton-configs N] [--max-seconds S]

Per shape (M N K), with fresh random data (seed 1):
  mxfp4  A bf16 (M x K, N(0, 1)), B an N x K weight whose blocks of 32 along K are N(0, 1) x
         2^e (e uniform in [-4, 4] per block), quantised to MXFP4 by tilegen.mx.quantize (E2M1
         packed two per byte, K-major, one E8M0 scale per 32 of K: the OCP MX rule of
         include/tilegen/Support/MicroScaling.h). Timed: tilegen's
         gemm_mxfp4_bf16_upcast_sm90a (scales with the K blocks outermost), Triton's
         tl.dot_scaled(a, None, "bf16", b, b_scale, "e2m1") (the same codes; scales row-major
         [N, K/32], the layout tl.dot_scaled reads), tilegen's gemm_bf16 and torch.matmul on A and
         the dequantised B in bf16 (exact: E2M1 x 2^e values are bf16 values).
  mxfp8  A and B both quantised to MXFP8 (E4M3, E8M0 per 32 of K) by tilegen.mx.quantize.
         Timed: Triton's tl.dot_scaled(a, a_scale, "e4m3", b, b_scale, "e4m3"). tilegen has no
         MXFP8 kernel for sm_90a; for context its block-scaled FP8 kernel
         (gemm_fp8_blockscaled_sm90a: E4M3 with f32 scales per 1 x 128 of A and 128 x 128 of B,
         another format, quantised here with amax / 448 per block) on the same A and B values.
Correctness first: every result is compared with a float64 reference of the dequantised
inputs (tilegen-run's rule: ||D - ref|| / ||ref|| < 1e-2 for bf16 D and no element off by more
than 2^-6 (|ref| + rms(ref))); a result that fails is reported and not timed.
Timing as tilegen-run times: CUDA events around each launch alone, --warmup untimed launches,
then --iters timed ones, each after a memset of a buffer of twice the L2 size on the same
stream (cold L2) and a GPU spin of about 100 us that covers the host's time to issue the launch;
the median, min, p10 and p90 in ms; TFLOP/s = 2 M N K / median. Triton's
configuration is chosen by triton.autotune (its own warm-L2 timing) among a few Hopper tile
configurations (CONFIGS; --triton-configs N keeps the first N) before the timed runs; tilegen's
kernels are the cubins as compiled. Most of a run's time is Triton compiling (one kernel per
configuration, format and K alignment); --max-seconds bounds a run by starting no shape after it,
and the CSV is rewritten after every shape.

Triton without tl.dot_scaled, or whose tl.dot_scaled fails for a format on this GPU (tried on a
small problem first), gives rows that say so; the script goes on with the rest. Prints a table;
--csv writes every row (one per shape and implementation). Exit code: 0 when every result
that ran passed its check, 1 when one failed, 2 on a usage error.
"""

import argparse
import csv
import datetime
import os
import platform
import statistics
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import torch  # noqa: E402

import tilegen  # noqa: E402
from tilegen import mx  # noqa: E402

DEV = torch.device("cuda", 0)

try:
    import triton
    import triton.language as tl
    TRITON_ERROR = None
except Exception as e:  # noqa: BLE001 - any import failure means no Triton here
    triton = tl = None
    TRITON_ERROR = "%s: %s" % (type(e).__name__, e)


# ---------------------------------------------------------------------------------------------
# The Triton kernel: C[M, N] = dot_scaled(A, B) in bf16, A M x K (row-major, or packed for e2m1),
# B K x N with K contiguous (an N x K weight transposed; packed e2m1 is K/2 x N bytes), scales
# [rows, K/32] row-major uint8.
# Tile configurations autotune picks from, most likely first (--triton-configs N keeps the first
# N): BLOCK_M, BLOCK_N, BLOCK_K, stages, warps.
CONFIGS = ((128, 128, 128, 3, 8), (128, 256, 128, 3, 8), (128, 128, 64, 4, 8),
           (64, 128, 128, 4, 4), (256, 128, 128, 3, 8), (128, 128, 128, 4, 4))
_scaled_gemm = None  # the autotuned kernel, made by tune_kernel()

if tl is not None and hasattr(tl, "dot_scaled"):
    @triton.jit
    def _scaled_gemm_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, M, N, K,
                     stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     stride_as, stride_bs,
                     A_FMT: tl.constexpr, B_FMT: tl.constexpr, A_SCALED: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     GROUP_M: tl.constexpr, EVEN_K: tl.constexpr):
        # Tiles in groups of GROUP_M rows of tiles, for L2 reuse.
        pid = tl.program_id(0)
        tiles_m = tl.cdiv(M, BLOCK_M)
        tiles_n = tl.cdiv(N, BLOCK_N)
        group = pid // (GROUP_M * tiles_n)
        first_m = group * GROUP_M
        rows = min(tiles_m - first_m, GROUP_M)
        pid_m = first_m + (pid % (GROUP_M * tiles_n)) % rows
        pid_n = (pid % (GROUP_M * tiles_n)) // rows
        A_PER: tl.constexpr = 2 if A_FMT == "e2m1" else 1
        B_PER: tl.constexpr = 2 if B_FMT == "e2m1" else 1
        # Rows past M (columns past N) wrap around: their loads stay in bounds and their results
        # are not stored.
        rm = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
        rn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
        ka = tl.arange(0, BLOCK_K // A_PER)
        kb = tl.arange(0, BLOCK_K // B_PER)
        ks = tl.arange(0, BLOCK_K // 32)
        a_ptrs = a_ptr + rm[:, None] * stride_am + ka[None, :] * stride_ak
        b_ptrs = b_ptr + kb[:, None] * stride_bk + rn[None, :] * stride_bn
        bs_ptrs = b_scale_ptr + rn[:, None] * stride_bs + ks[None, :]
        as_ptrs = a_scale_ptr + rm[:, None] * stride_as + ks[None, :]
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for i in range(0, tl.cdiv(K, BLOCK_K)):
            if EVEN_K:
                a = tl.load(a_ptrs)
                b = tl.load(b_ptrs)
                bs = tl.load(bs_ptrs)
            else:
                left = K - i * BLOCK_K
                a = tl.load(a_ptrs, mask=ka[None, :] < left // A_PER, other=0)
                b = tl.load(b_ptrs, mask=kb[:, None] < left // B_PER, other=0)
                bs = tl.load(bs_ptrs, mask=ks[None, :] < left // 32, other=127)
            if A_SCALED:
                if EVEN_K:
                    sa = tl.load(as_ptrs)
                else:
                    sa = tl.load(as_ptrs, mask=ks[None, :] < (K - i * BLOCK_K) // 32, other=127)
                acc = tl.dot_scaled(a, sa, A_FMT, b, bs, B_FMT, acc)
            else:
                acc = tl.dot_scaled(a, None, A_FMT, b, bs, B_FMT, acc)
            a_ptrs += (BLOCK_K // A_PER) * stride_ak
            b_ptrs += (BLOCK_K // B_PER) * stride_bk
            bs_ptrs += BLOCK_K // 32
            as_ptrs += BLOCK_K // 32
        cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c_ptrs = c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn
        tl.store(c_ptrs, acc.to(tl.bfloat16), mask=(cm[:, None] < M) & (cn[None, :] < N))
else:
    _scaled_gemm_kernel = None


def tune_kernel(n_configs):
    """The kernel under triton.autotune over the first n_configs of CONFIGS (None without
    tl.dot_scaled)."""
    global _scaled_gemm
    if _scaled_gemm_kernel is None:
        return None
    configs = [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8},
                             num_stages=stages, num_warps=warps)
               for bm, bn, bk, stages, warps in CONFIGS[:n_configs]]
    even_k = triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BLOCK_K"] == 0})
    _scaled_gemm = triton.autotune(configs=configs, key=["M", "N", "K", "A_FMT", "B_FMT"])(
        even_k(_scaled_gemm_kernel))
    return _scaled_gemm


def triton_scaled(a, a_scale, a_fmt, b, b_scale, b_fmt, out):
    """out = dot_scaled over K. a: M x K (packed M x K/2 for e2m1) row-major; b: K x N with K
    contiguous (K/2 x N bytes for e2m1); scales [rows, K/32] uint8 row-major (a_scale None for
    bf16 A)."""
    m = a.shape[0]
    n = b.shape[1]
    k = a.shape[1] * (2 if a_fmt == "e2m1" else 1)
    def grid(meta):
        return (triton.cdiv(m, meta["BLOCK_M"]) * triton.cdiv(n, meta["BLOCK_N"]),)
    _scaled_gemm[grid](a, a_scale if a_scale is not None else b_scale, b, b_scale, out, m, n, k,
                       a.stride(0), a.stride(1), b.stride(0), b.stride(1), out.stride(0),
                       out.stride(1), a_scale.stride(0) if a_scale is not None else 0,
                       b_scale.stride(0), A_FMT=a_fmt, B_FMT=b_fmt,
                       A_SCALED=a_scale is not None)
    return out


# ---------------------------------------------------------------------------------------------
def check(d, ref):
    """(passed, normwise relative error, elements off) by tilegen-run's rule for bf16 D."""
    d = d.double()
    if bool(torch.isnan(d).any()) or bool(torch.isinf(d).any()):
        return False, float("nan"), -1
    diff = d - ref
    norm = float(torch.linalg.norm(ref))
    rel = float(torch.linalg.norm(diff)) / norm if norm > 0 else float(torch.linalg.norm(diff))
    rms = norm / ref.numel() ** 0.5
    bad = int((diff.abs() > 2.0 ** -6 * (ref.abs() + rms)).sum())
    return rel < 1e-2 and bad == 0, rel, bad


class Timer:
    """CUDA events around each launch, each after an L2 flush on the same stream. A spin of
    about 100 us on the GPU (torch.cuda._sleep, where this PyTorch has it) follows the flush, so
    that the GPU is still busy when the host has finished issuing the launch (Python's argument
    checks, Triton's launcher): the start event does not wait on the host, whichever
    implementation is timed."""

    SPIN_CYCLES = 200000  # about 100 us at the H200's 1.98 GHz

    def __init__(self, iters, warmup):
        self.iters, self.warmup = iters, warmup
        l2 = getattr(torch.cuda.get_device_properties(DEV), "L2_cache_size", 0) or (60 << 20)
        self.flush = torch.empty(max(2 * l2, 64 << 20), dtype=torch.uint8, device=DEV)
        self.spin = getattr(torch.cuda, "_sleep", None)

    def cold(self):
        self.flush.zero_()
        if self.spin is not None:
            self.spin(self.SPIN_CYCLES)

    def __call__(self, fn):
        for _ in range(self.warmup):
            self.cold()
            fn()
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(self.iters)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(self.iters)]
        for i in range(self.iters):
            self.cold()
            starts[i].record()
            fn()
            ends[i].record()
        torch.cuda.synchronize()
        ms = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
        q = lambda p: ms[min(len(ms) - 1, int(p * len(ms)))]  # noqa: E731
        return {"median_ms": statistics.median(ms), "min_ms": ms[0], "p10_ms": q(0.1),
                "p90_ms": q(0.9)}


def weight(n, k, gen):
    """An N x K float32 weight whose 32-blocks along K are N(0, 1) x 2^e, e in [-4, 4]."""
    e = torch.randint(-4, 5, (n, -(-k // 32)), generator=gen, device=DEV)
    return torch.randn(n, k, generator=gen, device=DEV) * torch.pow(
        2.0, e.float()).repeat_interleave(32, 1)[:, :k]


class Bench:
    def __init__(self, args):
        self.args = args
        self.timer = Timer(args.iters, args.warmup)
        self.rows = []
        self.failed = False
        self.kernels = {}
        for key, stem in (("mxfp4", "gemm_mxfp4_bf16_upcast_sm90a.sm_90a"),
                          ("bf16", "gemm_bf16.sm_90a"),
                          ("fp8block", "gemm_fp8_blockscaled_sm90a.sm_90a")):
            path = os.path.join(args.cubins, stem + ".cubin")
            try:
                self.kernels[key] = (stem, tilegen.load(path).prepare(0))
            except tilegen.TilegenError as e:
                self.kernels[key] = (stem, None)
                print("note: tilegen kernel %s not available: %s" % (stem, e))
        self.triton_ok = {}

    def row(self, shape, fmt, impl, kernel, result=None, note=""):
        m, n, k = shape
        r = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
             "gpu": torch.cuda.get_device_name(DEV), "torch": torch.__version__,
             "triton": getattr(triton, "__version__", "none") if triton else "none",
             "m": m, "n": n, "k": k, "format": fmt, "impl": impl, "kernel": kernel,
             "check": "", "rel_err": "", "bad": "", "median_ms": "", "min_ms": "", "p10_ms": "",
             "p90_ms": "", "tflops": "", "note": note,
             "iters": self.args.iters, "warmup": self.args.warmup,
             "triton_configs": self.args.triton_configs}
        if result:
            r.update(result)
        self.rows.append(r)
        return r

    def run(self, shape, fmt, impl, kernel, fn, ref):
        """Checks fn() against ref, then times it; one row."""
        m, n, k = shape
        try:
            d = fn()
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - reported in the row
            self.failed = True
            return self.row(shape, fmt, impl, kernel, note="error: %s: %s" % (
                type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
        ok, rel, bad = check(d, ref)
        res = {"check": "pass" if ok else "FAIL", "rel_err": "%.3e" % rel, "bad": bad}
        if not ok:
            self.failed = True
            return self.row(shape, fmt, impl, kernel, res, "not timed: the check failed")
        t = self.timer(fn)
        res.update({key: "%.4f" % v for key, v in t.items()})
        res["tflops"] = "%.1f" % (2.0 * m * n * k / (t["median_ms"] * 1e-3) / 1e12)
        return self.row(shape, fmt, impl, kernel, res)

    def triton_supported(self, a_fmt, b_fmt):
        """None if tl.dot_scaled(a_fmt x b_fmt) compiles, runs and is right on a small problem,
        else why not."""
        key = (a_fmt, b_fmt)
        if key in self.triton_ok:
            return self.triton_ok[key]
        if self.args.no_triton:
            why = "not run (--no-triton)"
        elif triton is None:
            why = "Triton is not importable here (%s)" % TRITON_ERROR
        elif _scaled_gemm_kernel is None:
            why = "Triton %s has no tl.dot_scaled" % triton.__version__
        else:
            why = None
            try:
                gen = torch.Generator(device=DEV).manual_seed(2)
                ops = self.operands((256, 256, 256), gen, a_fmt)
                d = self.triton_call(ops, a_fmt, b_fmt)()
                ok, rel, bad = check(d, ops["ref"])
                if not ok:
                    why = ("Triton %s tl.dot_scaled(%s x %s) gives wrong results on this GPU "
                           "(256^3: relative error %.3g, %d elements off)" %
                           (triton.__version__, a_fmt, b_fmt, rel, bad))
            except Exception as e:  # noqa: BLE001 - the reason is the report
                msg = str(e).strip().splitlines()
                why = "Triton %s tl.dot_scaled(%s x %s) fails on this GPU: %s: %s" % (
                    triton.__version__, a_fmt, b_fmt, type(e).__name__, msg[-1] if msg else "")
                if self.args.verbose:
                    traceback.print_exc()
        self.triton_ok[key] = why
        if why:
            print("note: %s" % why)
        return why

    def operands(self, shape, gen, a_fmt):
        """The tensors of one shape for an A format (bf16: the MXFP4 problem; e4m3: MXFP8)."""
        m, n, k = shape
        w = weight(n, k, gen)
        if a_fmt == "bf16":
            a = torch.randn(m, k, generator=gen, device=DEV).to(torch.bfloat16)
            wq, ws = mx.quantize(w, "e2m1")
            wdq = mx.dequantize(wq, ws, "e2m1")
            return {"a": a, "a_scale": None, "wq": wq, "ws": ws, "wdq": wdq, "w": w,
                    "ref": a.double() @ wdq.t()}
        x = torch.randn(m, k, generator=gen, device=DEV) * torch.pow(
            2.0, torch.randint(-4, 5, (m, 1), generator=gen, device=DEV).float())
        aq, as_ = mx.quantize(x, "e4m3")
        wq, ws = mx.quantize(w, "e4m3")
        adq, wdq = mx.dequantize(aq, as_, "e4m3"), mx.dequantize(wq, ws, "e4m3")
        return {"a": aq, "a_scale": as_, "wq": wq, "ws": ws, "x": x, "w": w, "wdq": wdq,
                "ref": adq @ wdq.t()}

    def triton_call(self, ops, a_fmt, b_fmt):
        m, n = ops["a"].shape[0], ops["wq"].shape[0]
        out = torch.empty(m, n, device=DEV, dtype=torch.bfloat16)
        a_scale = ops["a_scale"].contiguous() if ops["a_scale"] is not None else None
        b_scale = ops["ws"].contiguous()  # [N, K/32] row-major, as tl.dot_scaled reads it
        b = ops["wq"].t()  # K x N (K/2 x N bytes for e2m1), K contiguous
        a = ops["a"]
        if a_fmt != "bf16":  # FP8 codes as bytes (tl.dot_scaled takes uint8 for e4m3 / e5m2)
            a = a.view(torch.uint8)
        if b_fmt != "e2m1":
            b = b.view(torch.uint8)
        return lambda: triton_scaled(a, a_scale, a_fmt, b, b_scale, b_fmt, out)

    def shape(self, shape):
        m, n, k = shape
        gen = torch.Generator(device=DEV).manual_seed(1)
        if "mxfp4" in self.args.formats:
            ops = self.operands(shape, gen, "bf16")
            stem, kern = self.kernels["mxfp4"]
            if kern is not None and kern.supports(m, n, k):
                out = torch.empty(m, n, device=DEV, dtype=torch.bfloat16)
                self.run(shape, "mxfp4", "tilegen", stem,
                         lambda: kern(ops["a"], ops["wq"].t(), out=out, scale_b=ops["ws"]),
                         ops["ref"])
            else:
                self.row(shape, "mxfp4", "tilegen", stem, note="not run: %s" % (
                    "no cubin" if kern is None else "; ".join(kern.problem_errors(m, n, k))))
            why = self.triton_supported("bf16", "e2m1")
            if why:
                self.row(shape, "mxfp4", "triton", "tl.dot_scaled(bf16, e2m1)", note=why)
            else:
                self.run(shape, "mxfp4", "triton", "tl.dot_scaled(bf16, e2m1)",
                         self.triton_call(ops, "bf16", "e2m1"), ops["ref"])
            # Context: the same values in bf16 (the dequantised weight is exact in bf16).
            wb = ops["wdq"].to(torch.bfloat16)
            stem, kern = self.kernels["bf16"]
            if kern is not None and kern.supports(m, n, k):
                out = torch.empty(m, n, device=DEV, dtype=torch.bfloat16)
                self.run(shape, "bf16", "tilegen", stem,
                         lambda: kern(ops["a"], wb.t(), out=out), ops["ref"])
            out2 = torch.empty(m, n, device=DEV, dtype=torch.bfloat16)
            self.run(shape, "bf16", "cublas", "torch.matmul",
                     lambda: torch.matmul(ops["a"], wb.t(), out=out2), ops["ref"])
            del ops, wb
        if "mxfp8" in self.args.formats:
            ops = self.operands(shape, gen, "e4m3")
            why = self.triton_supported("e4m3", "e4m3")
            if why:
                self.row(shape, "mxfp8", "triton", "tl.dot_scaled(e4m3, e4m3)", note=why)
            else:
                self.run(shape, "mxfp8", "triton", "tl.dot_scaled(e4m3, e4m3)",
                         self.triton_call(ops, "e4m3", "e4m3"), ops["ref"])
            stem, kern = self.kernels["fp8block"]
            if kern is not None and kern.supports(m, n, k):
                (bao, bak), (bbo, bbk) = (kern.manifest.a.scale["block"],
                                          kern.manifest.b.scale["block"])
                aq, sa, adq = mx.quantize_fp8_blocks(ops["x"], (bao, bak))
                wq, sb, wdq = mx.quantize_fp8_blocks(ops["w"], (bbo, bbk))
                out = torch.empty(m, n, device=DEV, dtype=torch.bfloat16)
                self.run(shape, "fp8-f32-blocks", "tilegen", stem,
                         lambda: kern(aq, wq.t(), out=out, scale_a=sa, scale_b=sb),
                         adq @ wdq.t())
            else:
                self.row(shape, "fp8-f32-blocks", "tilegen", stem, note="not run: %s" % (
                    "no cubin" if kern is None else "; ".join(kern.problem_errors(m, n, k))))
            del ops
        torch.cuda.empty_cache()


def read_shapes(path):
    shapes = []
    with open(path) as f:
        for i, line in enumerate(f, 1):
            line = line.split("#")[0].strip()
            if not line:
                continue
            parts = line.replace("x", " ").split()
            try:
                m, n, k = (int(p) for p in parts)
            except ValueError:
                raise SystemExit("triton_dot_scaled: %s:%d: expected 'M N K', found %r" %
                                 (path, i, line))
            if min(m, n, k) < 1:
                raise SystemExit("triton_dot_scaled: %s:%d: sizes must be positive" % (path, i))
            shapes.append((m, n, k))
    return shapes


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shapes", default=os.path.join(ROOT, "bench", "sweeps", "dot-scaled.txt"))
    p.add_argument("--cubins", default=os.path.join(ROOT, ".dev", "gpu", "cubins"))
    p.add_argument("--csv", default=None)
    p.add_argument("--iters", type=int, default=50)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--formats", default="mxfp4,mxfp8")
    p.add_argument("--no-triton", action="store_true")
    p.add_argument("--triton-configs", type=int, default=len(CONFIGS),
                   help="autotune over the first N tile configurations (default all %d; each "
                        "costs a compile per format and K alignment)" % len(CONFIGS))
    p.add_argument("--max-seconds", type=float, default=0,
                   help="start no shape after this many seconds (0: no limit); the shapes "
                        "left are reported as not run")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args()
    args.formats = set(args.formats.split(","))
    if not args.formats <= {"mxfp4", "mxfp8"} or args.iters < 1 or args.warmup < 0:
        p.error("--formats takes mxfp4 and/or mxfp8; --iters >= 1, --warmup >= 0")
    if not 1 <= args.triton_configs <= len(CONFIGS) or args.max_seconds < 0:
        p.error("--triton-configs takes 1 .. %d; --max-seconds >= 0" % len(CONFIGS))
    tune_kernel(args.triton_configs)
    if not torch.cuda.is_available():
        print("triton_dot_scaled: no CUDA GPU visible to PyTorch", file=sys.stderr)
        return 2
    shapes = read_shapes(args.shapes)
    print("GPU %s (sm_%d%d), torch %s, Triton %s, Python %s" % (
        torch.cuda.get_device_name(DEV), *torch.cuda.get_device_capability(DEV),
        torch.__version__, triton.__version__ if triton else "none (%s)" % TRITON_ERROR,
        platform.python_version()))
    b = Bench(args)
    start = time.monotonic()
    for shape in shapes:
        print("== %dx%dx%d" % shape, flush=True)
        if args.max_seconds and time.monotonic() - start > args.max_seconds:
            b.row(shape, ",".join(sorted(args.formats)), "-", "-",
                  note="not run: --max-seconds %g reached" % args.max_seconds)
            print("  not run: --max-seconds %g reached" % args.max_seconds)
            continue
        b.shape(shape)
        if args.csv:
            write_csv(args.csv, b.rows)  # after every shape: a cut-short run keeps its rows
        for r in b.rows:
            if (r["m"], r["n"], r["k"]) == shape and not r.get("_printed"):
                r["_printed"] = True
                print("  %-15s %-8s %-40s %-5s %8s TFLOP/s  %9s ms  rel %-10s %s" % (
                    r["format"], r["impl"], r["kernel"], r["check"], r["tflops"],
                    r["median_ms"], r["rel_err"], r["note"]), flush=True)
    # Ratios: tilegen's MXFP4 against Triton's, and each kernel against cuBLAS bf16.
    by = {}
    for r in b.rows:
        if r["tflops"]:
            by[(r["m"], r["n"], r["k"], r["format"], r["impl"])] = float(r["tflops"])
    print("\nratios (TFLOP/s over TFLOP/s, same shape)")
    for shape in shapes:
        tg = by.get(shape + ("mxfp4", "tilegen"))
        tr = by.get(shape + ("mxfp4", "triton"))
        cb = by.get(shape + ("bf16", "cublas"))
        tb = by.get(shape + ("bf16", "tilegen"))
        f8 = by.get(shape + ("mxfp8", "triton"))
        parts = []
        if tg and tr:
            parts.append("tilegen mxfp4 / triton mxfp4 = %.3f" % (tg / tr))
        if tg and cb:
            parts.append("tilegen mxfp4 / cublas bf16 = %.3f" % (tg / cb))
        if tr and cb:
            parts.append("triton mxfp4 / cublas bf16 = %.3f" % (tr / cb))
        if tb and cb:
            parts.append("tilegen bf16 / cublas bf16 = %.3f" % (tb / cb))
        if f8 and cb:
            parts.append("triton mxfp8 / cublas bf16 = %.3f" % (f8 / cb))
        print("  %dx%dx%d: %s" % (shape + ("; ".join(parts) or "-",)))
        for r in b.rows:
            if (r["m"], r["n"], r["k"]) == shape and r["format"] == "mxfp4" and \
                    r["impl"] == "tilegen" and tg and tr:
                r["ratio_vs_triton"] = "%.3f" % (tg / tr)
            if (r["m"], r["n"], r["k"]) == shape and r["tflops"] and cb:
                r["ratio_vs_cublas_bf16"] = "%.3f" % (float(r["tflops"]) / cb)
    if args.csv:
        write_csv(args.csv, b.rows)
        print("wrote %s (%d rows)" % (args.csv, len(b.rows)))
    print("total %.0f s" % (time.monotonic() - start))
    return 1 if b.failed else 0


def write_csv(path, rows):
    cols = ["date", "gpu", "torch", "triton", "m", "n", "k", "format", "impl", "kernel",
            "check", "rel_err", "bad", "median_ms", "min_ms", "p10_ms", "p90_ms", "tflops",
            "ratio_vs_triton", "ratio_vs_cublas_bf16", "iters", "warmup", "triton_configs",
            "note"]
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    os.replace(tmp, path)


if __name__ == "__main__":
    sys.exit(main())
