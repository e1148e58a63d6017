#!/usr/bin/env python3
"""Full-waveform inversion's gradient from Python (docs/Python.md,
docs/TimeLoops.md): the Python twin of examples/fwi/fwi_main.c.

A 3-D acoustic wave equation (examples/fwi/fwi.mlir) with a Ricker point
source near the bottom and a plane of receivers near the top. "Observed"
traces come from a true model with a slow blob; the misfit J of a smooth
model and dJ/dm come from the compiled time loop and its reversal with
binomial checkpointing. The gradient is checked against a central finite
difference of J, and its central slice is drawn with matplotlib: the
banana-shaped sensitivity between the source and the receivers.

    PYTHONPATH=build/python python3 examples/python/fwi_gradient.py \\
        [n [steps [snapshots [out.png]]]]        (default 40 160 12)
"""

import os
import sys
import time

import numpy as np

import stencilad

HERE = os.path.dirname(os.path.abspath(__file__))


def ricker(t, f):
    a = np.pi * f * (t - 1.2 / f)
    return (1.0 - 2.0 * a * a) * np.exp(-a * a)


def model(n, blob):
    """m = (v dt / h)^2: 0.09, less in a Gaussian blob half way down."""
    i, j, k = np.meshgrid(*(np.arange(n),) * 3, indexing="ij")
    c, sigma = (n - 1) / 2.0, n / 8.0
    r2 = (i - 0.35 * n) ** 2 + (j - c) ** 2 + (k - 0.5 * n) ** 2
    return 0.09 * (1.0 - blob * np.exp(-r2 / (2 * sigma ** 2)))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 160
    snapshots = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    out = sys.argv[4] if len(sys.argv) > 4 else "fwi_gradient_python.png"

    mod = stencilad.compile(os.path.join(HERE, "..", "fwi", "fwi.mlir"))
    w = ricker(np.arange(steps, dtype=np.float64), 0.04)
    d = np.zeros((steps, n, n))
    survey = dict(n=n, sx=n // 2, sy=n // 2, sz=n - 4, zr=3, steps=steps)

    def state():
        return dict(u0=np.zeros((n, n, n)), u1=np.zeros((n, n, n)),
                    u2=np.zeros((n, n, n)))

    mod.record(**state(), m=model(n, 0.2), w=w, d=d, **survey)
    m0 = model(n, 0.0)

    def misfit(m):
        return mod.fwi(**state(), m=m, w=w, d=d, **survey)

    # The misfit and its gradient at m0 together: the primal runs on
    # copies and the adjoint from the state as given, so the gradient is
    # never taken at a state the primal has already advanced.
    t0 = time.perf_counter()
    J, _, grads = mod.fwi.value_and_grad(**state(), m=m0, w=w, d=d,
                                         **survey, snapshots=snapshots)
    grad = grads["m"]
    t1 = time.perf_counter()
    print("fwi: n = %d, %d steps, %d snapshots" % (n, steps, snapshots))
    print("misfit J = %.10g (primal and gradient %.3f s)" % (J, t1 - t0))

    dm = np.random.default_rng(12345).uniform(-1, 1, m0.shape)
    h = 1e-7
    fd = (misfit(m0 + h * dm) - misfit(m0 - h * dm)) / (2 * h)
    ad = float(np.vdot(grad, dm))
    rel = abs(fd - ad) / max(abs(fd), 1e-300)
    ok = rel < 1e-5
    print("gradient check: <dJ/dm, dm> = %.10g, finite difference = %.10g, "
          "relative difference %.2e: %s" % (ad, fd, rel,
                                           "PASS" if ok else "FAIL"))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    section = grad[:, n // 2, :].T      # depth down, x across
    # The source point dwarfs the rest: the colours saturate at the 99th
    # percentile of the magnitude (as fwi_main.c does).
    limit = np.quantile(np.abs(section), 0.99) or 1.0
    fig, ax = plt.subplots(figsize=(5, 4.5))
    image = ax.imshow(section, cmap="seismic", vmin=-limit, vmax=limit)
    ax.plot([survey["sx"]], [survey["sz"]], "k*", markersize=10)
    ax.axhline(survey["zr"], color="k", linewidth=0.8, linestyle="--")
    ax.set_title("dJ/dm, central slice (y = n/2)")
    ax.set_xlabel("x")
    ax.set_ylabel("z")
    fig.colorbar(image, ax=ax, shrink=0.8)
    fig.savefig(out, dpi=100, bbox_inches="tight")
    print("wrote %s" % out)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
