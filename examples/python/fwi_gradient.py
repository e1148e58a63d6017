#!/usr/bin/env python3
"""Full-waveform inversion's gradient from Python, the time loop written
with the SymPy front end (docs/Python.md, "Writing stencils in Python";
docs/TimeLoops.md): the Python twin of examples/fwi/fwi_main.c.

A 3-D acoustic wave equation, leapfrog in time and second order in space,

    u_next = 2 u - u_prev + m (sum of the 6 neighbours of u - 6 u)

with a Ricker point source w[t] near the bottom and a plane of receivers
near the top, whose misfit against observed traces d[t] is summed over the
steps. The "observed" traces come from a true model with a slow blob,
computed here with NumPy (which also checks the compiled primal: the misfit
of the true model is 0); the misfit J of a smooth model and dJ/dm come from
the compiled time loop and its reversal with binomial checkpointing. The
gradient is checked against a central finite difference of J (the script
exits 1 if it fails), and its central slice is drawn with matplotlib: the
banana-shaped sensitivity between the source and the receivers.

examples/fwi/fwi.mlir is the same model in the stencil dialect (with a
`record` function), for MLIR users and the C driver examples/fwi/fwi_main.c;
print(fwi_kernel()) shows what the front end makes of the lines below.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/fwi_gradient.py \\
        [n [steps [snapshots [out.png]]]]        (default 40 160 12)
"""

import sys
import time

import numpy as np

import stencilad as sa


def fwi_kernel():
    """J(m) = 1/2 sum_t sum_(x,y) (u_t(x, y, zr) - d[t, x, y])^2 over the
    states u_0 .. u_{steps-1} that the steps start from."""
    i, j, k = sa.indices("i j k")
    n, sx, sy, sz, zr, steps = sa.size("n sx sy sz zr steps")
    u0, u1, u2, m = (sa.Array(name, 3, active=True)
                     for name in ("u0", "u1", "u2", "m"))
    w = sa.Array("w", 1)                          # the source wavelet
    d = sa.Array("d", shape=(steps, n, n))        # the observed traces

    K = sa.Kernel("fwi")
    loop = K.time_loop(steps, rotate=(u0, u1, u2))   # prev, cur, next
    with loop as t:
        # The misfit on the receiver plane k = zr, before the update.
        K.sum(0.5 * (u1[i, j, k] - d[t, i, j]) ** 2,
              {i: (1, n - 1), j: (1, n - 1), k: (zr, zr + 1)})
        with K.domain({i: (1, n - 1), j: (1, n - 1), k: (1, n - 1)}):
            lap = (u1[i - 1, j, k] + u1[i + 1, j, k] + u1[i, j - 1, k]
                   + u1[i, j + 1, k] + u1[i, j, k - 1] + u1[i, j, k + 1]
                   - 6 * u1[i, j, k])
            u2[i, j, k] = 2 * u1[i, j, k] - u0[i, j, k] + m[i, j, k] * lap
        K.add_at(u2, (sx, sy, sz), w[t])          # the point source
    return K


def record(m, w, n, sx, sy, sz, zr, steps):
    """The traces d[t] = u_t(:, :, zr) of the model m, in NumPy."""
    prev, cur, nxt = (np.zeros((n, n, n)) for _ in range(3))
    d = np.zeros((steps, n, n))
    for t in range(steps):
        d[t] = cur[:, :, zr]
        c = cur[1:-1, 1:-1, 1:-1]
        lap = (cur[:-2, 1:-1, 1:-1] + cur[2:, 1:-1, 1:-1]
               + cur[1:-1, :-2, 1:-1] + cur[1:-1, 2:, 1:-1]
               + cur[1:-1, 1:-1, :-2] + cur[1:-1, 1:-1, 2:] - 6 * c)
        nxt[1:-1, 1:-1, 1:-1] = (2 * c - prev[1:-1, 1:-1, 1:-1]
                                 + m[1:-1, 1:-1, 1:-1] * lap)
        nxt[sx, sy, sz] += w[t]
        prev, cur, nxt = cur, nxt, prev
    return d


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

    fwi = fwi_kernel().compile()
    w = ricker(np.arange(steps, dtype=np.float64), 0.04)
    survey = dict(n=n, sx=n // 2, sy=n // 2, sz=n - 4, zr=3, steps=steps)
    d = record(model(n, 0.2), w, **survey)
    m0 = model(n, 0.0)

    def state():
        # The state arrays are work space for the adjoint: fresh each call.
        return dict(u0=np.zeros((n, n, n)), u1=np.zeros((n, n, n)),
                    u2=np.zeros((n, n, n)))

    def misfit(m):
        return fwi(**state(), m=m, w=w, d=d, **survey)

    print("fwi: n = %d, %d steps, %d snapshots" % (n, steps, snapshots))
    scale = 0.5 * float(np.sum(d[:, 1:-1, 1:-1] ** 2))
    primal_ok = misfit(model(n, 0.2)) <= 1e-20 * scale
    print("primal against NumPy (misfit of the true model is 0): %s"
          % ("PASS" if primal_ok else "FAIL"))

    # The misfit and its gradient at m0 together: the primal runs on
    # copies and the adjoint from the state as given, so the gradient is
    # never taken at a state the primal has already advanced.
    t0 = time.perf_counter()
    J, _, grads = fwi.value_and_grad(**state(), m=m0, w=w, d=d, **survey,
                                     snapshots=snapshots)
    grad = grads["m"]
    t1 = time.perf_counter()
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
    return 0 if ok and primal_ok else 1


if __name__ == "__main__":
    sys.exit(main())
