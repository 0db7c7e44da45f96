"""tilegen: compile GEMM descriptions to NVIDIA tensor-core kernels and call them on tensors.

    import tilegen, torch
    k = tilegen.compile("examples/gemm_bf16.mlir", target="sm_90a")   # cached
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)  # N x K: B column-major
    d = k(a, w.t())                                                     # a @ w.t()

tilegen.load() takes a compiled .cubin or manifest (no compiler needed), load_dispatch() a
dispatch table written by `tilegen tune`; tilegen.mx quantises tensors to MXFP4 / MXFP8 for
the block-scaled kernels. docs/python.md has the rules.
"""

from ._cache import CacheWarning, cache_dir, clear as clear_cache, list_entries as cache_entries
from ._compile import compile
from ._dispatch import Dispatch, load_dispatch
from ._errors import (ArgumentError, CompileError, DriverError, DTypeError, LaunchError,
                      ManifestError, TargetError, TilegenError)
from ._kernel import Kernel, load
from . import mx

__version__ = "0.1.0"

__all__ = [
    "compile", "load", "load_dispatch", "Kernel", "Dispatch", "cache_dir", "cache_entries",
    "clear_cache", "CacheWarning", "TilegenError", "CompileError", "ManifestError",
    "ArgumentError", "DTypeError", "LaunchError", "TargetError", "DriverError", "mx",
]

from . import _kernel as _k

if _k._torch is not None:
    try:
        from . import _torch_ops  # noqa: F401  (registers tilegen::gemm and tilegen::gemm_out)
    except Exception as _e:  # an older PyTorch: eager calls still work
        import warnings as _w
        _w.warn("tilegen: no torch.compile support with this PyTorch (%s %s): %s: %s" %
                (_k._torch.__name__, getattr(_k._torch, "__version__", "?"),
                 type(_e).__name__, _e), RuntimeWarning)
del _k
