"""PyTorch custom ops, so that kernels and dispatch tables work inside torch.compile.

Two ops, registered with torch.library when the package is imported with PyTorch present:

  tilegen::gemm(str kernel, Tensor a, Tensor b, Tensor? c, Tensor? scale_a, Tensor? scale_b,
                float alpha, float beta) -> Tensor
  tilegen::gemm_out(str kernel, Tensor a, Tensor b, Tensor(a!) out, Tensor? c, Tensor? scale_a,
                    Tensor? scale_b, float alpha, float beta) -> ()

`kernel` names a Kernel or dispatch table of this process (its op_id). Their fake (meta)
implementations give D's shape, dtype and strides from the manifest, so graphs are traced
without running anything; at run time they launch exactly as an eager call does. Calls made
while torch.compile traces (torch.compiler.is_compiling()) go through them.
"""

import inspect
from typing import Optional

import torch

from . import _kernel
from ._errors import ArgumentError
from ._kernel import registered
from ._tensors import torch_dtype


# The kernels need their operands in the manifest's layouts: ask the compiler to keep the strides
# the caller gave (where this PyTorch knows the tags).
_tags = {}
if "tags" in inspect.signature(torch.library.custom_op).parameters:
    for _name in ("needs_exact_strides", "needs_fixed_stride_order"):
        if hasattr(torch.Tag, _name):
            _tags = {"tags": (getattr(torch.Tag, _name),)}
            break


@torch.library.custom_op("tilegen::gemm", mutates_args=(), **_tags)
def gemm(kernel: str, a: torch.Tensor, b: torch.Tensor, c: Optional[torch.Tensor],
         scale_a: Optional[torch.Tensor], scale_b: Optional[torch.Tensor], alpha: float,
         beta: float) -> torch.Tensor:
    return registered(kernel)._launch(a, b, None, c, alpha, beta, None, scale_a, scale_b)


@gemm.register_fake
def _gemm_fake(kernel, a, b, c, scale_a, scale_b, alpha, beta):
    obj = registered(kernel)
    ctype, layout = obj.out_spec()
    dtype = torch_dtype(torch, ctype)
    out_mn = getattr(obj, "out_mn", None)  # packed e2m1 operands count two elements a byte
    m, n = out_mn(a.shape, b.shape) if out_mn is not None else (a.shape[0], b.shape[1])
    if layout == "row":
        return a.new_empty((m, n), dtype=dtype)
    return a.new_empty((n, m), dtype=dtype).t()


@torch.library.custom_op("tilegen::gemm_out", mutates_args=("out",), **_tags)
def gemm_out(kernel: str, a: torch.Tensor, b: torch.Tensor, out: torch.Tensor,
             c: Optional[torch.Tensor], scale_a: Optional[torch.Tensor],
             scale_b: Optional[torch.Tensor], alpha: float, beta: float) -> None:
    registered(kernel)._launch(a, b, out, c, alpha, beta, None, scale_a, scale_b)


@gemm_out.register_fake
def _gemm_out_fake(kernel, a, b, out, c, scale_a, scale_b, alpha, beta):
    return None


def call(op_id, a, b, out, c, alpha, beta, stream, scale_a, scale_b):
    """A kernel call made while torch.compile traces: through the ops above."""
    if stream is not None:
        raise ArgumentError("stream= is not supported inside torch.compile: the kernel runs on "
                            "the current stream")
    alpha = 1.0 if alpha is None else alpha
    beta = 0.0 if beta is None else beta
    if out is None:
        return torch.ops.tilegen.gemm(op_id, a, b, c, scale_a, scale_b, alpha, beta)
    torch.ops.tilegen.gemm_out(op_id, a, b, out, c, scale_a, scale_b, alpha, beta)
    return out


_kernel._compiled_call = call
