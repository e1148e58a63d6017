"""A nonrectangular domain through the package: the triangle
i in [1, n-1), j in [i, n-1). The primal against NumPy loops, the gather
adjoint by the dot-product test, and the bounds checked before a call as
for a box: an array one column short of the triangle's last column is
refused, naming it, and a size whose domain is empty accesses nothing."""

import numpy as np
import pytest

import stencilad

TRIANGLE = """
func.func @triangle(%r: memref<?x?xf64> {stencil.active},
                    %u: memref<?x?xf64> {stencil.active},
                    %c: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, %i) to (%n - 1, %n - 1) {
    %uc = stencil.gather %u[0, 0] : memref<?x?xf64>
    %ue = stencil.gather %u[0, 1] : memref<?x?xf64>
    %us = stencil.gather %u[1, 0] : memref<?x?xf64>
    %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
    %a = arith.subf %ue, %uc : f64
    %b = arith.addf %a, %us : f64
    %v = arith.mulf %cc, %b : f64
    stencil.store %v to %r : memref<?x?xf64>
  }
  return
}
"""


@pytest.fixture(scope="module")
def triangle():
    return stencilad.compile(TRIANGLE).triangle


def reference(u, c, n):
    r = np.zeros((n, n))
    for i in range(1, n - 1):
        for j in range(i, n - 1):
            r[i, j] = c[i, j] * (u[i, j + 1] - u[i, j] + u[i + 1, j])
    return r


@pytest.mark.parametrize("n", [2, 3, 4, 9, 17])
def test_primal(triangle, rng, n):
    u, c = rng.random((n, n)), rng.random((n, n))
    r = np.zeros((n, n))
    triangle(r, u, c, n)
    assert np.array_equal(r, reference(u, c, n))


@pytest.mark.parametrize("n", [3, 9, 17])
def test_dot_product(triangle, rng, n):
    """<J v, w> = <v, J^T w>: the kernel is linear in u."""
    v, w, c = rng.random((n, n)), rng.random((n, n)), rng.random((n, n))
    r = np.zeros((n, n))
    triangle(r, v, c, n)
    r_b, u_b = w.copy(), np.zeros((n, n))
    triangle.adjoint(np.zeros((n, n)), v, c, n, r_b=r_b, u_b=u_b)
    lhs, rhs = np.vdot(r, w), np.vdot(v, u_b)
    assert abs(lhs - rhs) <= 1e-13 * abs(lhs)


def test_too_narrow_is_refused(triangle, rng):
    n = 9
    u, c = rng.random((n, n - 1)), rng.random((n, n))
    r = np.zeros((n, n))
    with pytest.raises(ValueError, match=r"argument 'u' has shape \(9, 8\), "
                       r"but the function reads its dimension 1 at "
                       r"indices 1\.\.8"):
        triangle(r, u, c, n)
    assert not r.any(), "the refused call ran"


def test_empty_domain_accesses_nothing(triangle):
    """n = 2: no row; arrays of any shape are fine."""
    empty = np.zeros((0, 0))
    triangle(empty, empty, empty, 2)
