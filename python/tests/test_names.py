"""IR argument names that are the call's own keywords stay reachable, and
messages name the caller's file, never the compiler's temporary copy."""

import os
import re

import numpy as np
import pytest

import stencilad

# Arguments named like the call options (threads, check_bounds) and like the
# adjoint's own arguments (u_b, the default name of u's shadow; seed and
# snapshots).
COLLIDING = """
func.func @g(%u: memref<?xf64> {stencil.active}, %u_b: memref<?xf64> {stencil.active}, %threads: index, %check_bounds: index) -> f64 {
  %s = stencil.domain (%i) = (1) to (%threads) -> f64 {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %y = arith.mulf %x, %x : f64
    stencil.store %y to %u_b : memref<?xf64>
    stencil.yield %x : f64
  }
  return %s : f64
}
func.func @h(%seed: memref<?xf64> {stencil.active}, %snapshots: memref<?xf64> {stencil.active}, %n: index) -> f64 {
  %s = stencil.domain (%i) = (1) to (%n) -> f64 {
    %x = stencil.gather %seed[-1] : memref<?xf64>
    %y = arith.mulf %x, %x : f64
    stencil.store %y to %snapshots : memref<?xf64>
    stencil.yield %x : f64
  }
  return %s : f64
}
"""


@pytest.fixture(scope="module")
def mod():
    return stencilad.compile(COLLIDING)


def test_call_options_are_escaped(mod):
    n = 8
    u = np.arange(n, dtype=float)
    assert mod.g.keywords == ["u", "u_b", "threads_", "check_bounds_"]
    by_name = np.zeros(n)
    s = mod.g(u=u, u_b=by_name, threads_=n, check_bounds_=0, threads=2,
              check_bounds=True)
    assert s == u[:-1].sum()
    np.testing.assert_array_equal(by_name[1:], u[:-1] ** 2)
    positional = np.zeros(n)
    assert mod.g(u, positional, n, 0) == s
    np.testing.assert_array_equal(positional, by_name)
    with pytest.raises(TypeError, match=r"missing argument\(s\): threads_, "
                       r"check_bounds_ \(pass the IR arguments 'threads' as "
                       r"threads_, 'check_bounds' as check_bounds_ by that "
                       r"name or positionally"):
        mod.g(u=u, u_b=np.zeros(n), threads=n, check_bounds=False)
    assert "threads_" in str(mod.g.__signature__)


def test_every_shadow_and_seed_can_be_passed(mod):
    n = 8
    u = np.arange(n, dtype=float)
    g = mod.g.adjoint
    # The compiler names u's shadow u_b_ (u_b is taken), u_b's u_b_b.
    assert g.keywords[4:] == ["u_b_", "u_b_b", "seed"]
    grads = g(u, np.zeros(n), n, 0, u_b_=np.full(n, 10.0), u_b_b=np.ones(n),
              seed=3.0)
    # J = <1, u_b after> + 3 s with u_b[i] = u[i-1]^2, s = sum of u[i-1]:
    # 2 u + 3, added to the 10 u's shadow held.
    np.testing.assert_allclose(grads["u"][:-1], 10 + 2 * u[:-1] + 3)
    assert grads["u"][-1] == 10
    h = mod.h.adjoint
    assert h.keywords[3:] == ["seed_b", "snapshots_b", "seed_"]
    grads = h(u, np.zeros(n), n, seed_=2.0)
    np.testing.assert_allclose(grads["seed"][:-1], 2.0)
    with pytest.raises(TypeError, match=r"got argument 'seed' twice; the IR "
                       r"also has 'seed_' \(seed\)"):
        h(u, np.zeros(n), n, seed=2.0)


# The bounds plan cannot bound a loop whose step is an argument: the refusal
# names the op's location, which must be in the caller's file.
UNBOUNDED = """func.func @smooth(%u0: memref<?xf64> {stencil.active},
                  %u1: memref<?xf64> {stencil.active},
                  %c: memref<?xf64> {stencil.active},
                  %n: index, %lb: index, %steps: index, %st: index) {
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %r:2 = scf.for %t = %lb to %steps step %st iter_args(%a = %u0, %b = %u1)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%nm1) {
      %l = stencil.gather %a[-1] : memref<?xf64>
      %r = stencil.gather %a[1] : memref<?xf64>
      stencil.store %l to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}
"""


def test_unsupported_bounds_name_the_source(tmp_path):
    for name in ("smooth.mlir", "other dir/smooth \u00e9.mlir"):
        path = tmp_path / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(UNBOUNDED)
        m = stencilad.compile(str(path))
        with pytest.raises(NotImplementedError) as info:
            m.smooth(*[np.zeros(16) for _ in range(3)], 16, 0, 5, 1)
        where = re.search(r'loc\("([^"]+)":7:\d+', str(info.value))
        assert where and where.group(1) == str(path), str(info.value)
        assert "build-" not in str(info.value)
    m = stencilad.compile(UNBOUNDED)
    with pytest.raises(NotImplementedError, match=r'loc\("<string>":7:'):
        m.smooth(*[np.zeros(16) for _ in range(3)], 16, 0, 5, 1)
