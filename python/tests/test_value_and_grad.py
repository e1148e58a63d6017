"""f.value_and_grad: the value and the gradient at the same point, even for
a time loop whose primal advances its state arrays in place (calling the
adjoint on the arrays the primal advanced gives the gradient at the wrong
point), against central differences."""

import numpy as np
import pytest

from conftest import example
from test_examples import heat_control_args


def objective(f, args, k, dk, t):
    run = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    run[2] = k + t * dk
    return f(*run)


def test_heat_control_against_finite_differences(rng):
    f = example("heat_control").heat_control
    args = heat_control_args(rng)
    before = [a.copy() for a in args if isinstance(a, np.ndarray)]
    res = f.value_and_grad(*args, snapshots=3)
    after = [a for a in args if isinstance(a, np.ndarray)]
    assert all(x.tobytes() == y.tobytes() for x, y in zip(before, after)), \
        "value_and_grad changed the caller's arrays"
    value, outputs, grads = res
    assert value == objective(f, args, args[2], 0, 0)
    assert set(outputs) <= {"u0", "u1"} and outputs
    dk = rng.uniform(-1, 1, args[2].shape)
    h = 1e-6
    fd = (objective(f, args, args[2], dk, h)
          - objective(f, args, args[2], dk, -h)) / (2 * h)
    ad = float(np.vdot(grads["k"], dk))
    assert abs(ad - fd) <= 1e-6 * abs(fd), (ad, fd)
    # The trap it removes: the adjoint called on the arrays the primal
    # advanced differentiates at another point.
    misused = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    f(*misused)
    wrong = f.adjoint(*misused, snapshots=3)["k"]
    assert abs(float(np.vdot(wrong, dk)) - fd) > 1e-3 * abs(fd)


def test_shadows_and_overlap(rng):
    f = example("heat_control").heat_control
    args = heat_control_args(rng)
    shadow = np.zeros_like(args[2])
    res = f.value_and_grad(*args, k_b=shadow)
    assert res.grads["k"] is shadow and np.any(shadow != 0)
    with pytest.raises(ValueError, match="'u0' and 'u1' share memory"):
        f.value_and_grad(args[0], args[0], *args[2:])
    with pytest.raises(ValueError, match="has no adjoint"):
        f.adjoint.value_and_grad(*args)
