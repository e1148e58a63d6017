"""The call-time checks model the compiled arithmetic, which wraps: index
values are 64-bit, a lowered scf.for steps `iv += step` while `iv < ub`.
Arguments for which a bound, a loop's next induction value or an index
would leave its integer type are refused before the call; so are integers
that do not fit their argument's C type."""

import numpy as np
import pytest

import stencilad

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1

# The domain [1, n - 1) is empty for n = -2**63 in exact arithmetic, but the
# compiled n - 1 wraps to INT64_MAX: the call would write far past v.
SUB_WRAPS = """
func.func @k(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active}, %n: index) {
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  stencil.domain (%i) = (1) to (%nm1) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}
"""

# From lb = 2**63 - 2 with step 2 the loop runs once in exact arithmetic;
# compiled, t + 2 wraps negative, stays below ub and the loop writes v[2],
# v[4], ...
STEP_WRAPS = """
func.func @wrap(%w: memref<?xf64>, %v: memref<?xf64>, %lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %t = %lb to %ub step %c2 {
    %k = arith.subi %t, %lb : index
    %k1 = arith.addi %k, %c1 : index
    stencil.domain (%i) = (%k) to (%k1) {
      %x = stencil.gather %w[0] : memref<?xf64>
      stencil.store %x to %v : memref<?xf64>
    }
  }
  return
}
"""

# 32-bit arithmetic wraps at 2**31: n + 1 for n = 2**31 - 1 is -2**31.
NARROW = """
func.func @narrow(%u: memref<?xf64>, %v: memref<?xf64>, %n: i32) {
  %c1 = arith.constant 1 : i32
  %m = arith.addi %n, %c1 : i32
  %mi = arith.index_cast %m : i32 to index
  stencil.domain (%i) = (0) to (%mi) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}
"""


def untouched(f, arrays, *args, match, **kwargs):
    before = [a.copy() for a in arrays]
    with pytest.raises(ValueError, match=match):
        f(*arrays, *args, **kwargs)
    for x, y in zip(before, arrays):
        assert x.tobytes() == y.tobytes(), "the refused call ran"


def test_index_arithmetic_that_wraps_is_refused():
    k = stencilad.compile(SUB_WRAPS).k
    for call in (k, k.adjoint):
        untouched(call, [np.zeros(4), np.zeros(4)], INT64_MIN,
                  match=r"with n = -9223372036854775808, the compiled index "
                        r"arithmetic would wrap")
    u, v = np.arange(4.0), np.zeros(4)
    k(u, v, 4)
    assert list(v) == [0, 0, 1, 0]
    # n - 1 and the domain's span n - 2 fit: an empty domain, called.
    k(u, v, INT64_MIN + 2)
    untouched(k, [u, v], INT64_MIN + 1, match="with n = "
              "-9223372036854775807, the compiled index arithmetic would wrap")


def test_loop_step_past_the_largest_index_is_refused():
    f = stencilad.compile(STEP_WRAPS, adjoint=False).wrap
    untouched(f, [np.ones(1), np.zeros(1)], INT64_MAX - 1, INT64_MAX,
              match=r"with lb = 9223372036854775806, ub = "
                    r"9223372036854775807, .* would wrap")
    # The same single iteration where t + 2 still fits.
    w, v = np.ones(1), np.zeros(1)
    f(w, v, INT64_MAX - 3, INT64_MAX - 2)
    assert v[0] == 1
    # An ordinary call whose w does not cover the loop: the bounds refuse.
    with pytest.raises(ValueError, match="'w' has shape"):
        f(w, np.zeros(1), 0, 4)


def test_narrow_integers():
    f = stencilad.compile(NARROW, adjoint=False).narrow
    u, v = np.arange(4.0), np.zeros(4)
    f(u, v, 3)
    assert list(v) == [0, 1, 2, 3]
    untouched(f, [u, np.zeros(4)], (1 << 31) - 1,
              match=r"with n = 2147483647, .* signed 32-bit range")
    untouched(f, [u, np.zeros(4)], 1 << 31,
              match="'n' = 2147483648 does not fit in 32 bits")
    untouched(f, [u, np.zeros(4)], -(1 << 31) - 1,
              match="does not fit in 32 bits")


# The same loop over an i32 induction variable: t + 2 wraps at 2**31.
STEP_WRAPS_I32 = """
func.func @wrap32(%w: memref<?xf64>, %v: memref<?xf64>, %lb: i32, %ub: i32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : i32
  scf.for %t = %lb to %ub step %c2 : i32 {
    %k = arith.subi %t, %lb : i32
    %ki = arith.index_cast %k : i32 to index
    %k1 = arith.addi %ki, %c1 : index
    stencil.domain (%i) = (%ki) to (%k1) {
      %x = stencil.gather %w[0] : memref<?xf64>
      stencil.store %x to %v : memref<?xf64>
    }
  }
  return
}
"""


def test_narrow_loop_step():
    f = stencilad.compile(STEP_WRAPS_I32, adjoint=False).wrap32
    w, v = np.ones(1), np.zeros(1)
    f(w, v, (1 << 31) - 4, (1 << 31) - 3)
    assert v[0] == 1
    untouched(f, [w, np.zeros(1)], (1 << 31) - 2, (1 << 31) - 1,
              match=r"with lb = 2147483646, ub = 2147483647, .* signed "
                    r"32-bit range")


def test_unchecked_calls_skip_the_model():
    """check_bounds=False opts out of every bound check, the wrap included
    (called here where it is harmless: an empty domain)."""
    k = stencilad.compile(SUB_WRAPS).k
    k(np.zeros(4), np.zeros(4), 1, check_bounds=False)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, 1 << 31, 1 << 70, "2"])
def test_threads_out_of_range(bad):
    k = stencilad.compile(SUB_WRAPS).k
    with pytest.raises(ValueError, match="threads must be a positive int of "
                       "at most 2147483647"):
        k(np.zeros(4), np.zeros(4), 4, threads=bad)
    k(np.zeros(4), np.zeros(4), 4, threads=np.int64(2))
