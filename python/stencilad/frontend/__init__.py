"""The front end: stencils written in Python with SymPy (docs/Python.md,
"Writing stencils in Python"; the reference: docs/Frontend.md).

    import stencilad as sa
    i, j = sa.indices("i j")
    n = sa.size("n")
    u, r = sa.Array("u", 2, active=True), sa.Array("r", 2, active=True)
    k = sa.Kernel("smooth")
    with k.domain({i: (1, n - 1), j: (1, n - 1)}):
        r[i, j] = (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]) / 4
    f = k.compile()          # f(u, r, n), f.adjoint(...), check_gradient(f, ...)
    print(k.mlir)            # the stencil dialect it made

Pipeline: symbols.py (what stencils are written with) -> kernel.py
(statements, checked at the user's line) -> emit.py and expr.py (lowering)
-> mlir.py (the dialect's text, the only place that writes it) ->
stencilad.compile. perforad.py gives PerforAD's API on the same path.
"""

from .emit import emit
from .kernel import Domain, Kernel, TimeLoop
from .symbols import (Array, Counter, FrontendError, Scalar, Size, SumValue,
                      indices, scalar, size)

__all__ = ["Array", "Counter", "Domain", "FrontendError", "Kernel", "Scalar",
           "Size", "SumValue", "TimeLoop", "emit", "indices", "scalar",
           "size"]
