"""Gradients of kernels written with the front end: central differences
and the dot-product test (<J v, w> = <v, J^T w> for linear kernels)
through stencilad.check_gradient and explicit ones, in 1-D, 2-D and 3-D;
and NumPy references for primals (the kernel computes what its Python
expression says)."""

import numpy as np
import pytest
import sympy as sp

import stencilad as sa

i, j, k = sa.indices("i j k")


def test_result_before_a_plain_domain(rng):
    """A kernel whose last domain has no result still returns its sum
    (that domain's lack of a result once took the function's with it)."""
    n = sa.size("n")
    u, v = sa.Array("u", 1, active=True), sa.Array("v", 1, active=True)
    K = sa.Kernel("sum_then_square")
    K.sum(3 * u[i] ** 2, {i: (1, n)})
    with K.domain({i: (0, n)}):
        v[i] = u[i] * u[i]
    f = K.compile()
    x = rng.uniform(-1, 1, 9)
    out = np.zeros(9)
    assert f(u=x, v=out, n=9) == pytest.approx(3 * np.sum(x[1:] ** 2),
                                               rel=1e-14)
    np.testing.assert_array_equal(out, x * x)
    assert sa.check_gradient(f, [x, np.zeros(9), 9])
