#!/usr/bin/env python3
"""The wave equation's gradient from Python (docs/Python.md).

Compiles examples/wave3d.mlir (one leapfrog step of a 3-D wave equation)
with its race-free gather adjoint, calls both on NumPy arrays, checks the
gradient with stencilad.check_gradient (central finite differences and the
dot-product test), and prints the gradient's norm and the times.

    PYTHONPATH=build/python python3 examples/python/wave_gradient.py [n]
"""

import os
import sys
import time

import numpy as np

import stencilad

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    mod = stencilad.compile(os.path.join(HERE, "..", "wave3d.mlir"))
    wave = mod.wave3d
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
    report = stencilad.check_gradient(wave, small, linear=True,
                                      threads=(1, 2))
    print(report)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
