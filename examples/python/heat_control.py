#!/usr/bin/env python3
"""An objective of the final state from Python, written with the SymPy
front end (docs/Python.md, "Writing stencils in Python"; docs/TimeLoops.md,
section 1.1): recovering a diffusivity field from the temperature at the
end of a run.

The kernel below conducts heat through T steps with a variable diffusivity
k (a time loop rotating two buffers) and returns J = 1/2 |u_T - target|^2
(a sum over the final state, `loop.final(u)`) plus a small roughness
penalty on k (`K.returns`). examples/heat_control.mlir is the same function
in the stencil dialect, for MLIR users. The target is the final temperature of a true k with a
less-conducting blob (computed here with NumPy, which also checks the
compiled primal). From a uniform k, the gradient dJ/dk of the reversed time
loop with binomial checkpointing is checked against a central difference of
J, then drives a few steps of gradient descent with a backtracking line
search. The script exits 1 if a check fails.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/heat_control.py \\
        [n [steps [snapshots [iterations]]]]       (default 40 120 8 8)
"""

import sys

import numpy as np

import stencilad as sa

ALPHA = 1e-4


def heat_kernel():
    """J = 1/2 sum (u_T - target)^2
           + alpha/2 sum (k[i+1,j] - k[i,j])^2 + (k[i,j+1] - k[i,j])^2"""
    i, j = sa.indices("i j")
    n, m, steps = sa.size("n m steps")
    alpha = sa.scalar("alpha")
    u0, u1, k = (sa.Array(name, 2, active=True) for name in ("u0", "u1", "k"))
    target = sa.Array("target", 2)

    K = sa.Kernel("heat_control")
    loop = K.time_loop(steps, rotate=(u0, u1))      # u, next
    with loop:
        with K.domain({i: (1, n - 1), j: (1, m - 1)}):
            lap = (u0[i - 1, j] + u0[i + 1, j] + u0[i, j - 1] + u0[i, j + 1]
                   - 4 * u0[i, j])
            u1[i, j] = u0[i, j] + k[i, j] * lap
    u_T = loop.final(u0)          # the buffer holding u after the last step
    misfit = K.sum(0.5 * (u_T[i, j] - target[i, j]) ** 2,
                   {i: (1, n - 1), j: (1, m - 1)})
    rough = K.sum(0.5 * ((k[i + 1, j] - k[i, j]) ** 2
                         + (k[i, j + 1] - k[i, j]) ** 2),
                  {i: (0, n - 1), j: (0, m - 1)})
    K.returns(misfit + alpha * rough)
    return K


def initial(n):
    """A hot spot off the centre and a ripple; zero on the edges."""
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    u = np.exp(-((i - 0.4 * n) ** 2 + (j - 0.55 * n) ** 2) / (0.02 * n * n))
    u += 0.3 * np.sin(np.pi * i / (n - 1)) * np.sin(3 * np.pi * j / (n - 1))
    u[0, :] = u[-1, :] = u[:, 0] = u[:, -1] = 0.0
    return u


def true_k(n):
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    blob = np.exp(-((i - 0.5 * n) ** 2 + (j - 0.45 * n) ** 2) / (0.01 * n * n))
    return 0.2 - 0.12 * blob


def numpy_final(u, k, steps):
    """The same steps in NumPy: the reference for the compiled primal."""
    u = u.copy()
    for _ in range(steps):
        lap = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
               - 4 * u[1:-1, 1:-1])
        nxt = u.copy()
        nxt[1:-1, 1:-1] = u[1:-1, 1:-1] + k[1:-1, 1:-1] * lap
        u = nxt
    return u


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 120
    snapshots = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    iterations = int(sys.argv[4]) if len(sys.argv) > 4 else 8

    f = heat_kernel().compile()
    u_start = initial(n)
    target = numpy_final(u_start, true_k(n), steps)

    def args(k):
        # The state arrays are work space for the adjoint: fresh each call.
        return dict(u0=u_start.copy(), u1=u_start.copy(), k=k,
                    target=target, alpha=ALPHA, n=n, m=n, steps=steps)

    def objective(k):
        return f(**args(k))

    def gradient(k):
        # The primal on copies, its adjoint from the arrays as given: the
        # gradient at k, never at a state the primal has advanced.
        return f.value_and_grad(**args(k), snapshots=snapshots).grads["k"]

    print("heat_control: n = %d, %d steps, %d snapshots" % (n, steps, snapshots))
    k = np.full((n, n), 0.2)
    ok = True
    # The compiled primal against NumPy: the objective of the true k is
    # its penalty alone.
    k_true = true_k(n)
    dk = np.diff(k_true, axis=0)[:, :-1], np.diff(k_true, axis=1)[:-1, :]
    penalty = 0.5 * ALPHA * (np.sum(dk[0] ** 2) + np.sum(dk[1] ** 2))
    primal_ok = abs(objective(k_true) - penalty) <= 1e-12 + 1e-9 * penalty
    print("primal against NumPy: %s" % ("PASS" if primal_ok else "FAIL"))
    ok &= primal_ok

    g = gradient(k)
    dk = np.random.default_rng(12345).uniform(-1, 1, k.shape)
    h = 1e-6
    fd = (objective(k + h * dk) - objective(k - h * dk)) / (2 * h)
    ad = float(np.vdot(g, dk))
    rel = abs(fd - ad) / max(abs(fd), 1e-300)
    check_ok = rel < 1e-6
    print("gradient check: <dJ/dk, dk> = %.10g, finite difference = %.10g, "
          "relative difference %.2e: %s" % (ad, fd, rel,
                                           "PASS" if check_ok else "FAIL"))
    ok &= check_ok

    J0 = J = objective(k)
    start_error = np.linalg.norm(k - k_true)
    step = 0.1 / max(np.abs(g).max(), 1e-300)
    for it in range(iterations):
        # Backtracking: halve the step until J decreases (k stays within
        # the stable range 0 < k <= 1/4).
        while step > 1e-12:
            trial = np.clip(k - step * g, 1e-3, 0.25)
            J_trial = objective(trial)
            if J_trial < J:
                break
            step *= 0.5
        else:
            break
        k, J = trial, J_trial
        print("iteration %d: J = %.6e, |k - k_true| / |k_0 - k_true| = %.3f"
              % (it + 1, J, np.linalg.norm(k - k_true) / start_error))
        g = gradient(k)
        step *= 2.0
    decreased = J < 0.5 * J0
    print("J went from %.6e to %.6e: %s" % (J0, J, "PASS" if decreased
                                             else "FAIL"))
    ok &= decreased
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
