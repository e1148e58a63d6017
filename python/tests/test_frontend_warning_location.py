"""A compiler warning on a kernel written with the front end is issued at
the user's line: the CompileWarning's own location (what `python -W` and
the warnings module print) is this file, not the package's Kernel.compile,
and its text holds the compiler's diagnostics located at this file's lines,
from a fresh build and from the cache."""

import inspect
import warnings

import stencilad as sa


def _unmarked_output_kernel():
    i = sa.indices("i")
    n = sa.size("n")
    u, v = sa.Array("u", 1, active=True), sa.Array("v", 1)
    kernel_line = inspect.currentframe().f_lineno + 1
    K = sa.Kernel("smooth_unmarked")
    with K.domain({i: (1, n - 1)}):
        v[i] = u[i - 1] + u[i + 1]
    return K, kernel_line


def test_kernel_compile_warns_at_the_users_line():
    K, kernel_line = _unmarked_output_kernel()
    for build in ("fresh", "cached"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call_line = inspect.currentframe().f_lineno + 1
            f = K.compile()
        caught = [w for w in caught
                  if issubclass(w.category, sa.CompileWarning)]
        assert len(caught) == 1, build
        assert caught[0].filename == __file__, (build, caught[0].filename)
        assert caught[0].lineno == call_line, build
        text = str(caught[0].message)
        assert "writes no argument marked stencil.active" in text
        assert "%s:%d:" % (__file__, kernel_line) in text, text
        assert hasattr(f, "adjoint")
