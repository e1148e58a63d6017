#!/usr/bin/env python3
"""Recovering a diffusion coefficient field from observations: a
physics-informed inversion through a time loop (docs/Python.md,
"PyTorch").

The forward model is a front-end kernel: `steps` explicit steps of
    u1 = u0 + div(k grad u0)       (k in units of h^2 / dt, below 1/4)
on two rotated states, with face coefficients the mean of k at the two
cells, and a misfit summed over the steps against observations d[t] of
the whole field (dense receivers). Wrapped by stencilad.torch.function
with a checkpoint count (`--snapshots`), it is a torch op returning the
misfit; a smoothness penalty on k is written with ordinary torch ops, and
torch.optim.Adam updates k. The observations are made by the same model
from a true k (two Gaussian bumps on a background); the inversion starts
from the background.

    PYTHONPATH=build/python python3 examples/torch/invert_diffusion.py \\
        [--size N] [--steps T] [--iterations K] [--snapshots S] [--out DIR]

Checks that the misfit falls by --factor and that the recovered field
correlates with the truth (exit status 1 otherwise) and writes
DIR/diffusion_fields.png and DIR/diffusion_loss.png (matplotlib, Agg).
"""

import argparse
import os
import sys

import torch

import stencilad as sa
import stencilad.torch as st

BACKGROUND = 0.08


def kernel():
    """The diffusion time loop and its misfit against d[t] (a result)."""
    i, j = sa.indices("i j")
    n, steps = sa.size("n steps")
    u0, u1 = (sa.Array(name, 2, active=True) for name in ("u0", "u1"))
    k = sa.Array("k", 2, active=True)
    d = sa.Array("d", shape=(steps, n, n))
    K = sa.Kernel("diffusion2d")
    loop = K.time_loop(steps, rotate=(u0, u1))       # current, next
    with loop as t:
        with K.domain({i: (1, n - 1), j: (1, n - 1)}):
            u1[i, j] = u0[i, j] + 0.5 * (
                (k[i + 1, j] + k[i, j]) * (u0[i + 1, j] - u0[i, j])
                - (k[i, j] + k[i - 1, j]) * (u0[i, j] - u0[i - 1, j])
                + (k[i, j + 1] + k[i, j]) * (u0[i, j + 1] - u0[i, j])
                - (k[i, j] + k[i, j - 1]) * (u0[i, j] - u0[i, j - 1]))
        # after the step: the new state against the observation d[t]
        misfit = K.sum(0.5 * (u1[i, j] - d[t, i, j]) ** 2,
                       {i: (1, n - 1), j: (1, n - 1)})
    K.returns(misfit)
    return K


def true_field(n):
    x = (torch.arange(n, dtype=torch.float64) + 0.5) / n
    X, Y = torch.meshgrid(x, x, indexing="ij")
    bump = lambda cx, cy, s: torch.exp(-((X - cx) ** 2 + (Y - cy) ** 2)
                                       / (2 * s * s))
    return (BACKGROUND + 0.12 * bump(0.35, 0.35, 0.12)
            + 0.08 * bump(0.7, 0.65, 0.1)).contiguous()


def initial_state(n):
    """A rough start (random, zero on the border): every part of k
    matters early."""
    g = torch.Generator().manual_seed(1)
    u = torch.rand(n, n, generator=g, dtype=torch.float64)
    u[0, :] = u[-1, :] = u[:, 0] = u[:, -1] = 0.0
    return u


def smoothness(k):
    return (((k[1:, :] - k[:-1, :]) ** 2).sum()
            + ((k[:, 1:] - k[:, :-1]) ** 2).sum())


def correlation(a, b):
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / (a.norm() * b.norm()))


def plot(out, fields, losses):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(10, 3.3))
    lo = min(float(f.min()) for _, f in fields)
    hi = max(float(f.max()) for _, f in fields)
    for ax, (title, f) in zip(axes, fields):
        im = ax.imshow(f.numpy(), vmin=lo, vmax=hi, cmap="viridis")
        ax.set_title(title)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.colorbar(im, ax=list(axes), shrink=0.8)
    pictures = os.path.join(out, "diffusion_fields.png")
    fig.savefig(pictures, dpi=72)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5, 3.4))
    ax.semilogy(losses)
    ax.set_xlabel("Adam step")
    ax.set_ylabel("misfit")
    ax.set_title("recovering k(x, y)")
    fig.tight_layout()
    curve = os.path.join(out, "diffusion_loss.png")
    fig.savefig(curve, dpi=72)
    plt.close(fig)
    return pictures, curve


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=32)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--snapshots", type=int, default=4)
    parser.add_argument("--smoothing", type=float, default=1e-4,
                        help="weight of the smoothness penalty")
    parser.add_argument("--factor", type=float, default=20.0,
                        help="the misfit must fall by this factor")
    parser.add_argument("--correlation", type=float, default=0.8,
                        help="least correlation of recovered and true k")
    parser.add_argument("--out", default=".")
    opts = parser.parse_args()
    n, T = opts.size, opts.steps
    print("invert_diffusion: n = %d, %d steps, %d snapshots, %d iterations"
          % (n, T, opts.snapshots, opts.iterations))

    op = st.function(kernel(), snapshots=opts.snapshots)
    u_start = initial_state(n)

    def run(k, d):
        return op(u0=u_start, u1=u_start, k=k, d=d, n=n, steps=T)

    # Observations: the states of the true model, made by torch ops
    # (observe, an independent twin of the kernel's step); the kernel's
    # misfit of the true field is then zero up to rounding.
    k_true = true_field(n)
    d = observe(u_start, k_true, T)
    with torch.no_grad():
        zero_misfit = run(k_true, d).item()
    print("misfit of the true field: %.2e" % zero_misfit)

    k = torch.full((n, n), BACKGROUND, dtype=torch.float64,
                   requires_grad=True)
    k_initial = k.detach().clone()
    opt = torch.optim.Adam([k], lr=0.004)
    losses = []
    for it in range(opts.iterations):
        opt.zero_grad()
        misfit = run(k, d)
        loss = misfit + opts.smoothing * smoothness(k)
        loss.backward()
        opt.step()
        with torch.no_grad():
            k.clamp_(0.0, 0.24)          # the explicit scheme's stability
        losses.append(misfit.item())
        if it % 20 == 0:
            print("iteration %4d: misfit %.4e" % (it, losses[-1]))
    with torch.no_grad():
        losses.append(run(k, d).item())
    inner = (slice(1, -1), slice(1, -1))
    corr = correlation(k.detach()[inner], k_true[inner])
    fell = losses[0] / max(losses[-1], 1e-300)
    ok = zero_misfit < 1e-20 and fell > opts.factor and \
        corr > opts.correlation
    print("misfit fell by %.1f (from %.3e to %.3e), correlation of "
          "recovered and true k %.3f: %s"
          % (fell, losses[0], losses[-1], corr, "PASS" if ok else "FAIL"))
    os.makedirs(opts.out, exist_ok=True)
    for path in plot(opts.out, [("true k", k_true), ("initial k", k_initial),
                                ("recovered k", k.detach())], losses):
        print("wrote %s" % path)
    return 0 if ok else 1


def observe(u, k, steps):
    """The observed states d[t], t = 0 .. steps - 1, computed with torch
    ops (an independent twin of the kernel's step)."""
    u = u.clone()
    out = []
    for _ in range(steps):
        kx = 0.5 * (k[1:, :] + k[:-1, :])            # faces i+1/2
        ky = 0.5 * (k[:, 1:] + k[:, :-1])            # faces j+1/2
        fx = kx * (u[1:, :] - u[:-1, :])
        fy = ky * (u[:, 1:] - u[:, :-1])
        new = u.clone()
        new[1:-1, 1:-1] = (u[1:-1, 1:-1] + fx[1:, 1:-1] - fx[:-1, 1:-1]
                           + fy[1:-1, 1:] - fy[1:-1, :-1])
        u = new
        out.append(u)
    return torch.stack(out).contiguous()


if __name__ == "__main__":
    sys.exit(main())
