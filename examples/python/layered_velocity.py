#!/usr/bin/env python3
"""Inverting a layered velocity v[k] (docs/Python.md, "Parameter
gradients"), written with the SymPy front end: a 3-D wave equation whose
velocity depends on depth alone.

The kernel below reads v[k] at every point of the (i, j, k) domain (the
front end makes it `stencil.gather %v[0] dims [2]`) and sums the misfit of
the wavefield on the receiver plane k = 1 over the steps of a time loop.
layered_velocity.mlir (next to this script) is the same function in the
stencil dialect, for MLIR users. The data are recorded in a true model with
three layers (computed here with NumPy, which also checks the compiled
primal: the misfit of the true model is 0). From a uniform model, dJ/dv
(one value per depth, a sum over (i, j) and the steps, from the reversed
time loop with binomial checkpointing) is checked against a central
difference of J, then drives a few steps of gradient descent. Layers that
the waves do not reach and return from within the steps keep their starting
value: their gradient is 0. The script exits 1 if a check fails.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/layered_velocity.py \\
        [n [steps [snapshots [iterations]]]]       (default 24 80 8 10)
"""

import sys

import numpy as np

import stencilad as sa

DTOH = 0.25     # dt / h: stable for v * DTOH < 1 / sqrt(3)
RECEIVERS = 1   # the depth of the receiver plane


def layered_kernel():
    """J = 1/2 sum_t sum_(i,j) (u_t(i, j, zr) - d[t, i, j])^2 with
    u_next = 2 u - u_prev + (v[k] dt / h)^2 lap(u) on the interior."""
    i, j, k = sa.indices("i j k")
    n, zr, steps = sa.size("n zr steps")
    dtoh = sa.scalar("dtoh")
    u0, u1, u2 = (sa.Array(name, 3, active=True) for name in ("u0", "u1", "u2"))
    v = sa.Array("v", 1, active=True)             # one value per depth
    d = sa.Array("d", shape=(steps, n, n))

    # args= keeps the argument order of layered_velocity.mlir.
    K = sa.Kernel("layered_wave", args=[u0, u1, u2, v, dtoh, d, n, zr, steps])
    with K.time_loop(steps, rotate=(u0, u1, u2)) as t:
        K.sum(0.5 * (u1[i, j, k] - d[t, i, j]) ** 2,
              {i: (1, n - 1), j: (1, n - 1), k: (zr, zr + 1)})
        with K.domain({i: (1, n - 1), j: (1, n - 1), k: (1, n - 1)}):
            lap = (u1[i - 1, j, k] + u1[i + 1, j, k] + u1[i, j - 1, k]
                   + u1[i, j + 1, k] + u1[i, j, k - 1] + u1[i, j, k + 1]
                   - 6 * u1[i, j, k])
            u2[i, j, k] = (2 * u1[i, j, k] - u0[i, j, k]
                           + (v[k] * dtoh) ** 2 * lap)
    return K


def pulse(n):
    i, j, k = np.meshgrid(*[np.arange(n)] * 3, indexing="ij")
    u = np.exp(-((i - n / 2) ** 2 + (j - n / 2) ** 2 + (k - 3) ** 2) / 3.0)
    u[[0, -1]] = u[:, [0, -1]] = u[:, :, [0, -1]] = 0.0
    return u


def true_v(n):
    """Three layers: 1.0 above, 1.8 from a third of the depth, 1.4 below
    two thirds."""
    k = np.arange(n)
    return np.where(k < n // 3, 1.0, np.where(k < 2 * n // 3, 1.8, 1.4))


def record(u0, v, steps):
    """The receiver plane of each step in NumPy: the observed data."""
    prev, cur = u0.copy(), u0.copy()
    m = (v * DTOH) ** 2
    data = np.zeros((steps,) + u0.shape[:2])
    for t in range(steps):
        data[t] = cur[:, :, RECEIVERS]
        c = cur[1:-1, 1:-1, 1:-1]
        lap = (cur[:-2, 1:-1, 1:-1] + cur[2:, 1:-1, 1:-1] + cur[1:-1, :-2, 1:-1]
               + cur[1:-1, 2:, 1:-1] + cur[1:-1, 1:-1, :-2]
               + cur[1:-1, 1:-1, 2:] - 6 * c)
        nxt = prev.copy()
        nxt[1:-1, 1:-1, 1:-1] = 2 * c - prev[1:-1, 1:-1, 1:-1] + m[1:-1] * lap
        prev, cur = cur, nxt
    return data


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 80
    snapshots = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    iterations = int(sys.argv[4]) if len(sys.argv) > 4 else 10

    f = layered_kernel().compile()
    u = pulse(n)
    v_true = true_v(n)
    data = record(u, v_true, steps)

    def args(v):
        # The state arrays are work space for the adjoint: fresh each call.
        return dict(u0=u.copy(), u1=u.copy(), u2=np.zeros_like(u), v=v,
                    dtoh=DTOH, d=data, n=n, zr=RECEIVERS, steps=steps)

    def misfit(v):
        return f(**args(v))

    def gradient(v):
        return f.value_and_grad(**args(v), snapshots=snapshots).grads["v"]

    print("layered_velocity: n = %d, %d steps, %d snapshots"
          % (n, steps, snapshots))
    ok = True
    primal_ok = misfit(v_true) <= 1e-24
    print("primal against NumPy (misfit of the true model is 0): %s"
          % ("PASS" if primal_ok else "FAIL"))
    ok &= primal_ok

    v = np.full(n, 1.2)
    g = gradient(v)
    dv = np.random.default_rng(7).uniform(-1, 1, n)
    h = 1e-6
    fd = (misfit(v + h * dv) - misfit(v - h * dv)) / (2 * h)
    ad = float(np.dot(g, dv))
    rel = abs(fd - ad) / max(abs(fd), 1e-300)
    check_ok = rel < 1e-6
    print("gradient check: <dJ/dv, dv> = %.10g, finite difference = %.10g, "
          "relative difference %.2e: %s"
          % (ad, fd, rel, "PASS" if check_ok else "FAIL"))
    ok &= check_ok

    J0 = J = misfit(v)
    step = 0.2 / max(np.abs(g).max(), 1e-300)
    for it in range(iterations):
        # Backtracking: halve the step until J decreases; v stays stable.
        while step > 1e-12:
            trial = np.clip(v - step * g, 0.5, 2.2)
            J_trial = misfit(trial)
            if J_trial < J:
                break
            step *= 0.5
        else:
            break
        v, J = trial, J_trial
        print("iteration %d: J = %.6e" % (it + 1, J))
        g = gradient(v)
        step *= 2.0
    np.set_printoptions(precision=2)
    print("true v:      %s" % v_true[1:-1])
    print("recovered v: %s" % v[1:-1])
    decreased = J < 0.5 * J0
    print("J went from %.6e to %.6e: %s"
          % (J0, J, "PASS" if decreased else "FAIL"))
    ok &= decreased
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
