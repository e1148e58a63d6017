"""Gradients with respect to parameters that a domain reads without
following every iteration dimension (docs/Python.md, "Parameter
gradients"): a filter's taps read as fixed elements (`dims [_, _]`), a
layered coefficient v[k] (`dims [2]`) in a time loop, a rank-0 array. Each
against central differences (and the dot-product test where linear) and
bitwise across thread counts; their shadows are arrays of the parameter's
shape. The bounds check covers fixed and selected reads."""

import numpy as np
import pytest

import stencilad
from conftest import example

# A rank-0 scale s and a coefficient e[j] along the second dimension,
# both active, read nonlinearly.
SCALED = """
func.func @scaled(%r: memref<?x?xf64> {stencil.active},
                  %u: memref<?x?xf64> {stencil.active},
                  %s: memref<f64> {stencil.active},
                  %e: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %sc = stencil.gather %s[] dims [] : memref<f64>
    %ej = stencil.gather %e[1] dims [1] : memref<?xf64>
    %um = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %up = stencil.gather %u[0, 1] : memref<?x?xf64>
    %a = arith.mulf %sc, %um : f64
    %b = math.sin %a : f64
    %c = arith.mulf %ej, %ej : f64
    %d = arith.mulf %c, %up : f64
    %o = arith.addf %b, %d : f64
    stencil.store %o to %r : memref<?x?xf64>
  }
  return
}
"""

# A fixed element w[1][4] and a fixed row of a selection, w[2][i] (a
# dynamic w: its extents are checked at each call).
TAPS = """
func.func @taps(%r: memref<?x?xf64> {stencil.active},
                %w: memref<?x?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %a = stencil.gather %w[1, 4] dims [_, _] : memref<?x?xf64>
    %b = stencil.gather %w[2, 0] dims [_, 0] : memref<?x?xf64>
    %s = arith.mulf %a, %b : f64
    stencil.store %s to %r : memref<?x?xf64>
  }
  return
}
"""

_compiled = {}


def compiled(source, name):
    if source not in _compiled:
        _compiled[source] = stencilad.compile(source)
    return _compiled[source][name]


@pytest.fixture
def filter3x3():
    return example("filter/filter.mlir").filter3x3


def filter_args(rng, n=12, m=9):
    return [np.zeros((n, m)), rng.uniform(-1, 1, (n, m)),
            rng.uniform(-1, 1, (3, 3)), n, m]


def test_filter_gradient(filter3x3, rng):
    report = stencilad.check_gradient(filter3x3, filter_args(rng),
                                      linear=True, threads=(1, 2))
    assert report.ok, str(report)
    assert [c for c, _, _ in report.results] == ["finite", "fd0", "fd1",
                                                 "dot", "threads"]


def test_filter_shadow_is_3x3(filter3x3, rng):
    args = filter_args(rng)
    seed = rng.uniform(-1, 1, args[0].shape)
    g = filter3x3.adjoint(*args, r_b=seed.copy())
    assert isinstance(g["w"], np.ndarray) and g["w"].shape == (3, 3)
    # dL/dw[a][b] = sum over the interior of seed * u shifted by (a-1, b-1).
    n, m = args[3], args[4]
    u = args[1]
    ref = np.array([[np.sum(seed[1:-1, 1:-1] * u[a:n - 2 + a, b:m - 2 + b])
                     for b in range(3)] for a in range(3)])
    assert np.allclose(g["w"], ref, rtol=1e-13, atol=1e-13)
    with pytest.raises(ValueError, match=r"'w_b' must have extent 3 in "
                                         r"dimension 1 \(memref<3x3xf64>\)"):
        filter3x3.adjoint(*args, r_b=seed, w_b=np.zeros((3, 4)))


def test_layered_velocity_time_loop(rng):
    f = example("python/layered_velocity.mlir").layered_wave
    n, steps = 10, 12
    i, j, k = np.meshgrid(*[np.arange(n)] * 3, indexing="ij")
    u = np.exp(-((i - n / 2) ** 2 + (j - n / 2) ** 2 + (k - 3) ** 2) / 3.0)
    args = [u.copy(), u.copy(), np.zeros_like(u), rng.uniform(0.8, 1.6, n),
            0.25, rng.uniform(-0.1, 0.1, (steps, n, n)), n, 1, steps]
    for snapshots in (2, steps):
        report = stencilad.check_gradient(f, args, threads=(1, 2),
                                          snapshots=snapshots)
        assert report.ok, str(report)
    g = f.value_and_grad(*args, snapshots=3).grads["v"]
    assert g.shape == (n,)
    assert g.tobytes() == f.value_and_grad(*args).grads["v"].tobytes()


def test_rank0_and_selected_coefficient(rng):
    f = compiled(SCALED, "scaled")
    n = 9
    args = [np.zeros((n, n)), rng.uniform(-1, 1, (n, n)), np.array(0.7),
            rng.uniform(-1, 1, n), n]
    report = stencilad.check_gradient(f, args, threads=(1, 2))
    assert report.ok, str(report)
    # The shadow of a rank-0 array is a rank-0 array, updated in place.
    s_b = np.array(0.5)
    g = f.adjoint(*args, r_b=np.ones((n, n)), s_b=s_b)
    assert g["s"] is s_b and s_b.shape == ()
    u, e = args[1], args[3]
    want = 0.5 + np.sum(np.cos(0.7 * u[:-2, 1:-1]) * u[:-2, 1:-1])
    assert abs(float(s_b) - want) <= 1e-12 * (1 + abs(want))
    grads = f.value_and_grad(*args, r_b=np.ones((n, n))).grads
    assert isinstance(grads["s"], np.ndarray) and grads["s"].shape == ()
    assert grads["e"].shape == (n,)


def test_fixed_taps_gradient(rng):
    f = compiled(TAPS, "taps")
    n = 6
    report = stencilad.check_gradient(f, [np.zeros((n, n)),
                                          rng.uniform(-1, 1, (3, n)), n],
                                      threads=(1, 2))
    assert report.ok, str(report)


def refused(f, args, match):
    before = [a.copy() for a in args if isinstance(a, np.ndarray)]
    with pytest.raises(ValueError, match=match):
        f(*args)
    for x, y in zip(before, [a for a in args if isinstance(a, np.ndarray)]):
        assert x.tobytes() == y.tobytes(), "the refused call ran"


def test_fixed_index_beyond_dynamic_extent(rng):
    f = compiled(TAPS, "taps")
    n = 6
    # w[1][4] needs 5 columns; w[2][i] 3 rows and n columns.
    refused(f, [np.zeros((n, n)), rng.uniform(-1, 1, (3, 4)), n],
            r"'w' has shape \(3, 4\), but the function reads its dimension 1 "
            r"at indices 0\.\.5")
    refused(f, [np.zeros((n, n)), rng.uniform(-1, 1, (2, n)), n],
            r"'w' has shape \(2, 6\), but the function reads its dimension 0 "
            r"at indices 1\.\.2")
    # The adjoint checks the same reads, and its shadow's.
    refused(f.adjoint, [np.zeros((n, n)), rng.uniform(-1, 1, (3, 4)), n],
            r"'w' has shape \(3, 4\)")


def test_selected_read_beyond_extent(rng):
    f = compiled(SCALED, "scaled")
    n = 9
    # e[j + 1] for j up to n - 2: e needs n points.
    refused(f, [np.zeros((n, n)), rng.uniform(-1, 1, (n, n)), np.array(0.7),
                rng.uniform(-1, 1, n - 1), n],
            r"'e' has shape \(8,\), but the function reads its dimension 0 "
            r"at indices 2\.\.8 \(with n = 9\)")
