"""Exceptions raised by the tilegen package.

Every failure is a TilegenError; the subclasses say what went wrong. Argument errors also derive
from ValueError or TypeError, so code that catches those keeps working.
"""


class TilegenError(Exception):
    """Base class of every error the package raises."""


class CompileError(TilegenError):
    """The tilegen compiler is missing or failed; the message holds its diagnostics."""


class ManifestError(TilegenError):
    """A manifest or a dispatch table is missing, unreadable or invalid."""


class ArgumentError(TilegenError, ValueError):
    """A tensor or scalar handed to a kernel does not fit what its manifest says."""


class DTypeError(ArgumentError, TypeError):
    """A tensor has the wrong element type, or is not a tensor at all."""


class LaunchError(TilegenError):
    """libtilegen-launch refused a call; ``status`` is its status name (TILEGEN_ERROR_...)."""

    def __init__(self, message, status="TILEGEN_ERROR_INTERNAL"):
        super().__init__(message)
        self.status = status


class TargetError(LaunchError):
    """The cubin was built for another GPU than the one the tensors are on."""


class DriverError(LaunchError):
    """No CUDA driver or no GPU, or the launch library cannot be found."""
