#!/usr/bin/env python3
"""Learning a 3x3 filter from an image pair by gradient descent
(examples/filter/README.md; docs/Python.md, "Parameter gradients").

filter.mlir applies a 3x3 filter w to an image u, reading the nine taps as
fixed elements of w. Its adjoint returns dL/dw, a sum over the image, in an
order that does not depend on the thread count. The image pair is
synthetic: a deterministic picture (a checkerboard, smooth shapes and a
fine texture) and its filtering by a known kernel. Starting from another
filter, gradient descent with momentum on the mean squared difference
recovers the known kernel. The loss is computed in NumPy from the filtered
image r; the adjoint is seeded with its derivative, r_b = dL/dr.

    PYTHONPATH=build/python python3 examples/filter/learn_filter.py \\
        [--size N] [--iterations K] [--kernel blur|edge] [--out DIR]

It checks the compiled filter against NumPy and dL/dw against central
differences first (exit status 1 if either disagrees), then writes
DIR/filter_before_after.png and DIR/filter_loss.png (matplotlib, Agg).
"""

import argparse
import os
import sys

import numpy as np

import stencilad

HERE = os.path.dirname(os.path.abspath(__file__))

KERNELS = {
    # A blur that leans towards the lower right: not symmetric, so the
    # descent has to find the orientation too.
    "blur": np.array([[0.04, 0.10, 0.04],
                      [0.10, 0.30, 0.14],
                      [0.04, 0.14, 0.10]]),
    # An edge detector (a Laplacian with a diagonal part).
    "edge": np.array([[-0.25, -1.0, -0.25],
                      [-1.00, 5.0, -1.00],
                      [-0.25, -1.0, -0.25]]) / 2.0,
}


def image(n):
    """A deterministic n x n picture in [0, 1]: a checkerboard of 8-pixel
    squares, a bright disc, a Gaussian blob and a fine texture."""
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    x, y = i / n, j / n
    board = ((i // 8 + j // 8) % 2).astype(float)
    disc = ((x - 0.35) ** 2 + (y - 0.6) ** 2 < 0.04).astype(float)
    blob = np.exp(-((x - 0.7) ** 2 + (y - 0.3) ** 2) / 0.02)
    texture = 0.5 + 0.5 * np.sin(1.7 * i + 2.9 * j) * np.cos(0.9 * i * j / n)
    return 0.35 * board + 0.25 * disc + 0.25 * blob + 0.15 * texture


def numpy_filter(u, w):
    """The reference: the same filter in NumPy, zero on the border."""
    n, m = u.shape
    r = np.zeros_like(u)
    for a in range(3):
        for b in range(3):
            r[1:-1, 1:-1] += w[a, b] * u[a:n - 2 + a, b:m - 2 + b]
    return r


class Problem:
    """L(w) = mean over the interior of (filter(u, w) - target)^2 and its
    gradient from the compiled filter's adjoint."""

    def __init__(self, f, u, target, threads):
        self.f, self.u, self.target, self.threads = f, u, target, threads
        self.n, self.m = u.shape
        self.count = (self.n - 2) * (self.m - 2)

    def apply(self, w):
        r = np.zeros_like(self.u)
        self.f(r, self.u, w, self.n, self.m, threads=self.threads)
        return r

    def loss(self, w):
        d = (self.apply(w) - self.target)[1:-1, 1:-1]
        return float(np.sum(d * d)) / self.count

    def loss_and_grad(self, w):
        r = self.apply(w)
        d = (r - self.target)[1:-1, 1:-1]
        # The adjoint's seed: dL/dr, zero on the border the filter leaves.
        seed = np.zeros_like(r)
        seed[1:-1, 1:-1] = 2.0 * d / self.count
        grads = self.f.adjoint(np.zeros_like(r), self.u, w, self.n, self.m,
                               r_b=seed, threads=self.threads)
        return float(np.sum(d * d)) / self.count, grads["w"]


def check_gradient(problem, w, h=1e-4):
    """dL/dw against a central difference along every tap (L is quadratic
    in w: the difference is exact up to rounding)."""
    _, g = problem.loss_and_grad(w)
    fd = np.zeros_like(w)
    for a in range(3):
        for b in range(3):
            e = np.zeros_like(w)
            e[a, b] = h
            fd[a, b] = (problem.loss(w + e) - problem.loss(w - e)) / (2 * h)
    rel = np.max(np.abs(g - fd)) / max(np.max(np.abs(fd)), 1e-300)
    return rel, g, fd


def plot(out, u, target, before, after, losses):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4, figsize=(13, 3.6))
    lo, hi = target.min(), target.max()
    for ax, (title, img) in zip(axes, [
            ("input u", u), ("target (true filter)", target),
            ("initial filter", before), ("learned filter", after)]):
        ax.imshow(img[1:-1, 1:-1], cmap="gray", vmin=lo, vmax=hi)
        ax.set_title(title)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.tight_layout()
    pictures = os.path.join(out, "filter_before_after.png")
    fig.savefig(pictures, dpi=80)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5, 3.6))
    ax.semilogy(np.arange(len(losses)), losses)
    ax.set_xlabel("iteration")
    ax.set_ylabel("mean squared difference")
    ax.set_title("learning a 3x3 filter")
    fig.tight_layout()
    curve = os.path.join(out, "filter_loss.png")
    fig.savefig(curve, dpi=80)
    plt.close(fig)
    return pictures, curve


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=64,
                        help="the image is SIZE x SIZE (default 64)")
    parser.add_argument("--iterations", type=int, default=300,
                        help="gradient-descent steps (default 300)")
    parser.add_argument("--kernel", choices=sorted(KERNELS), default="blur")
    parser.add_argument("--out", default=".",
                        help="folder for the two PNG files (default .)")
    parser.add_argument("--threads", type=int, default=None)
    opts = parser.parse_args()

    f = stencilad.compile(os.path.join(HERE, "filter.mlir")).filter3x3
    n = opts.size
    u = image(n)
    w_true = KERNELS[opts.kernel]
    target = numpy_filter(u, w_true)
    problem = Problem(f, u, target, opts.threads)
    print("filter: %d x %d image, %s kernel, %d iterations"
          % (n, n, opts.kernel, opts.iterations))

    # The compiled filter against NumPy, at the true kernel.
    err = np.max(np.abs(problem.apply(w_true) - target))
    primal_ok = err <= 1e-13 * max(1.0, np.max(np.abs(target)))
    print("primal against NumPy: max difference %.2e: %s"
          % (err, "PASS" if primal_ok else "FAIL"))

    # Start from the identity filter (r = u).
    w0 = np.zeros((3, 3))
    w0[1, 1] = 1.0
    rel, g, fd = check_gradient(problem, w0)
    grad_ok = rel < 1e-7
    print("gradient check: dL/dw against central differences on all 9 taps, "
          "max relative difference %.2e: %s"
          % (rel, "PASS" if grad_ok else "FAIL"))
    if not (primal_ok and grad_ok):
        print("dL/dw  =\n%s\ncentral differences =\n%s" % (g, fd))
        return 1

    # Gradient descent with heavy-ball momentum. The step is 1 / trace of
    # the loss's Hessian (2/count A^T A, A the matrix of shifted images):
    # below 2 / its largest eigenvalue, hence stable.
    trace = 2.0 * 9 * np.mean(u * u)
    step, momentum = 1.0 / trace, 0.9
    w, velocity, losses = w0.copy(), np.zeros_like(w0), []
    for it in range(opts.iterations):
        loss, g = problem.loss_and_grad(w)
        losses.append(loss)
        velocity = momentum * velocity - step * g
        w = w + velocity
    losses.append(problem.loss(w))

    np.set_printoptions(precision=4, suppress=True)
    print("true filter:\n%s" % w_true)
    print("learned filter:\n%s" % w)
    error = np.max(np.abs(w - w_true))
    print("max |learned - true| = %.2e" % error)
    decreased = losses[-1] < 1e-3 * losses[0]
    print("loss went from %.3e to %.3e: %s"
          % (losses[0], losses[-1], "PASS" if decreased else "FAIL"))
    os.makedirs(opts.out, exist_ok=True)
    for path in plot(opts.out, u, target, problem.apply(w0),
                     problem.apply(w), losses):
        print("wrote %s" % path)
    return 0 if decreased else 1


if __name__ == "__main__":
    sys.exit(main())
