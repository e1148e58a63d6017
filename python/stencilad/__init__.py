"""stencilad: stencil IR compiled to native code, called on NumPy arrays,
with its race-free parallel adjoint.

    import numpy as np, stencilad
    mod = stencilad.compile("examples/wave3d.mlir")        # adjoint=True
    mod.wave3d(u, u_1, u_2, c, 0.1, n)                      # the primal
    value, outputs, g = mod.wave3d.value_and_grad(
        u, u_1, u_2, c, 0.1, n, u_b=w)                      # and its adjoint
    g["u_1"], g["u_2"]                                      # gradients

Every call is checked before it is made (types, ranks, shapes against
what the function accesses, integer arithmetic that would wrap, strides,
overlap); see docs/Python.md.
"""

from .compiler import CompileError, CompileWarning, cache_dir, compile
from .function import (AdjointFunction, Function, Gradients, Module,
                       ValueAndGrad)
from .gradcheck import GradientReport, check_gradient
from .cimport import import_c
from .distributed import Blocks, DistributedError

try:
    from ._config import VERSION as __version__
except ImportError:     # the source tree, not configured by CMake
    __version__ = None

# The front end (stencils written with SymPy) loads on first use, so that
# the package works without SymPy for those who compile MLIR.
_FRONTEND = ("Array", "FrontendError", "Kernel", "indices", "scalar", "size")


def __getattr__(name):
    if name in _FRONTEND:
        from . import frontend
        return getattr(frontend, name)
    raise AttributeError("module 'stencilad' has no attribute %r" % name)


__all__ = [
    *_FRONTEND,
    "AdjointFunction",
    "Blocks",
    "CompileError",
    "CompileWarning",
    "DistributedError",
    "Function",
    "GradientReport",
    "Gradients",
    "Module",
    "ValueAndGrad",
    "cache_dir",
    "check_gradient",
    "compile",
    "import_c",
]
