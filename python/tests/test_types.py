"""Element types and results: f32 arrays, scalar results returned as a
float or a tuple, against NumPy references computed independently."""

import numpy as np
import pytest

import stencilad

F32 = """
func.func @smooth32(%out: memref<?xf32> {stencil.active}, %in: memref<?xf32> {stencil.active},
                    %a: f32, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %l = stencil.gather %in[-1] : memref<?xf32>
    %c = stencil.gather %in[0] : memref<?xf32>
    %r = stencil.gather %in[1] : memref<?xf32>
    %s = arith.addf %l, %r : f32
    %t = arith.mulf %a, %s : f32
    %v = arith.addf %c, %t : f32
    stencil.store %v to %out : memref<?xf32>
  }
  return
}
"""

SUMS = """
func.func @moments(%x: memref<?x?xf64> {stencil.active}, %n: index,
                   %m: index) -> (f64, f64) {
  %s, %q = stencil.domain (%i, %j) = (0, 0) to (%n, %m) -> (f64, f64) {
    %v = stencil.gather %x[0, 0] : memref<?x?xf64>
    %v2 = arith.mulf %v, %v : f64
    stencil.yield %v, %v2 : f64, f64
  }
  return %s, %q : f64, f64
}
"""


def test_f32(rng):
    f = stencilad.compile(F32).smooth32
    n = 100
    x = rng.uniform(-1, 1, n).astype(np.float32)
    out = np.zeros(n, dtype=np.float32)
    f(out, x, 0.25, n)
    ref = x[1:-1] + np.float32(0.25) * (x[:-2] + x[2:])
    np.testing.assert_allclose(out[1:-1], ref, rtol=1e-6)
    assert out[0] == 0 and out[-1] == 0
    with pytest.raises(TypeError, match="'out' must have dtype float32, not "
                       "float64"):
        f(out.astype(np.float64), x, 0.25, n)


def test_two_results_and_their_seeds(rng):
    f = stencilad.compile(SUMS).moments
    x = rng.uniform(-1, 1, (7, 5))
    s, q = f(x, 7, 5)
    assert s == pytest.approx(x.sum(), rel=1e-12)
    assert q == pytest.approx((x * x).sum(), rel=1e-12)
    g = f.adjoint(x, 7, 5, seed0=2.0, seed1=3.0)
    np.testing.assert_allclose(g["x"], 2.0 + 6.0 * x, rtol=1e-14)
    report = stencilad.check_gradient(f, [x, 7, 5], threads=(1, 2))
    print(report)
    assert report.ok


def test_results_only_over_part_of_an_array(rng):
    f = stencilad.compile(SUMS).moments
    x = rng.uniform(-1, 1, (7, 5))
    s, _ = f(x, 3, 2)
    assert s == pytest.approx(x[:3, :2].sum(), rel=1e-12)
    with pytest.raises(ValueError, match=r"'x' has shape \(7, 5\), but the "
                       r"function reads its dimension 1 at indices 0..5 "
                       r"\(with m = 6\)"):
        f(x, 7, 6)


def test_signature_from_the_ir():
    import inspect
    f = stencilad.compile(SUMS).moments
    assert str(inspect.signature(f)) == ("(x, n, m, *, threads=None, "
                                         "check_bounds=True)")
    assert str(inspect.signature(f.adjoint)) == (
        "(x, n, m, *, x_b=None, seed0=None, seed1=None, threads=None, "
        "check_bounds=True)")
    assert f.signature == ("moments(x: memref<?x?xf64>, n: index, m: index) "
                           "-> f64, f64")


STATIC = """
func.func @corner(%out: memref<?x?xf64> {stencil.active}, %in: memref<4x4xf64> {stencil.active},
                  %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %x = stencil.gather %in[0, 0] : memref<4x4xf64>
    %y = arith.mulf %x, %x : f64
    stencil.store %y to %out : memref<?x?xf64>
  }
  return
}
"""


def test_static_extents_and_strides(rng):
    """A memref<4x4xf64> argument: its extents and its row stride are
    compiled in, so another shape, or a view whose rows are not 4 apart,
    is refused; the right view works."""
    f = stencilad.compile(STATIC).corner
    out = np.zeros((3, 3))
    with pytest.raises(ValueError, match=r"'in' must have extent 4 in "
                       r"dimension 1 \(memref<4x4xf64>\), not 5"):
        f(out, np.ones((4, 5)), 3)
    big = rng.uniform(-1, 1, (4, 8))
    with pytest.raises(ValueError, match="'in' has strides .* row-major "
                       "behind static extents"):
        f(out, big[:, :4], 3)
    f(out, np.ascontiguousarray(big[:, :4]), 3)
    np.testing.assert_array_equal(out, big[:3, :3] ** 2)


# check_gradient on an f32 function: weights, shadows and directions in
# float32, and the f32 comparisons (a step that stands out of f32 rounding).
F32_SQUARE = """
func.func @f32k(%u: memref<?xf32> {stencil.active}, %v: memref<?xf32> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf32>
    %y = arith.mulf %x, %x : f32
    stencil.store %y to %v : memref<?xf32>
  }
  return
}
"""


def test_check_gradient_f32(rng, monkeypatch):
    f = stencilad.compile(F32_SQUARE).f32k
    u = rng.uniform(0.5, 1.5, 64).astype(np.float32)
    args = [u, np.zeros(64, np.float32), 64]
    report = stencilad.check_gradient(f, args, threads=(1, 2))
    print(report)
    assert report.ok and len(report.results) == 4, str(report)
    from test_examples import _Scaled
    monkeypatch.setattr(f, "adjoint", _Scaled(f.adjoint, 1.01))
    report = stencilad.check_gradient(f, args)
    failed = {check for check, ok, _ in report.results if not ok}
    assert {"fd0", "fd1"} <= failed, str(report)
