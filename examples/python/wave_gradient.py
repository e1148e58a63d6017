#!/usr/bin/env python3
"""The wave equation's gradient from Python, written with the SymPy front
end (docs/Python.md, "Writing stencils in Python").

One leapfrog step of a 3-D wave equation,

    u = 2 u_1 - u_2 + c D (u_1[i-1] + u_1[i+1] + ... - 6 u_1)

on the interior of an n^3 grid, written as a stencilad.Kernel and compiled
with its race-free gather adjoint. The script calls both on NumPy arrays,
checks the gradient with stencilad.check_gradient (central finite
differences, the dot-product test and 1 vs 2 threads) and prints the
gradient's norm and the times. It exits 1 if a check fails.

examples/wave3d.mlir is the same kernel written in the stencil dialect, for
those who write MLIR or embed the passes in their own compiler; print(K)
shows what the front end makes of the lines below.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/wave_gradient.py [n]
"""

import sys
import time

import numpy as np

import stencilad as sa


def wave_kernel():
    i, j, k = sa.indices("i j k")
    n = sa.size("n")
    D = sa.scalar("D")
    u, u_1, u_2 = (sa.Array(name, 3, active=True)
                   for name in ("u", "u_1", "u_2"))
    c = sa.Array("c", 3)

    K = sa.Kernel("wave3d")
    with K.domain({i: (1, n - 1), j: (1, n - 1), k: (1, n - 1)}):
        lap = (u_1[i - 1, j, k] + u_1[i + 1, j, k] + u_1[i, j - 1, k]
               + u_1[i, j + 1, k] + u_1[i, j, k - 1] + u_1[i, j, k + 1]
               - 6 * u_1[i, j, k])
        u[i, j, k] = 2 * u_1[i, j, k] - u_2[i, j, k] + c[i, j, k] * D * lap
    return K


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    wave = wave_kernel().compile()
    print(wave.signature)

    rng = np.random.default_rng(0)
    u = np.zeros((n, n, n))
    u_1, u_2 = rng.uniform(-1, 1, (2, n, n, n))
    c = rng.uniform(0.5, 1.0, (n, n, n))
    D = 0.1

    t0 = time.perf_counter()
    wave(u, u_1, u_2, c, D, n)
    t1 = time.perf_counter()
    # The gradient of J = <w, u> with respect to the previous states.
    w = rng.uniform(-1, 1, (n, n, n))
    g = wave.adjoint(u, u_1, u_2, c, D, n, u_b=w)
    t2 = time.perf_counter()
    print("primal %.2f ms, adjoint %.2f ms; |dJ/du_1| = %.6g, |dJ/du_2| = "
          "%.6g" % ((t1 - t0) * 1e3, (t2 - t1) * 1e3,
                    np.linalg.norm(g["u_1"]), np.linalg.norm(g["u_2"])))

    small = [np.zeros((12, 12, 12))] + list(
        rng.uniform(-1, 1, (3, 12, 12, 12))) + [D, 12]
    report = sa.check_gradient(wave, small, linear=True, threads=(1, 2))
    print(report)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
