#!/usr/bin/env python3
"""Learning a 3x3 filter with torch.optim.Adam through a stencil layer
(docs/Python.md, "PyTorch").

The layer is a front-end kernel, r[i, j] = sum of w[a, b] u[i+a-1, j+b-1]
over the interior, wrapped as stencilad.torch.Module with its taps `w` as an
nn.Parameter: forward is the compiled primal, backward its adjoint (a
reduction into the nine taps, bitwise the same at any thread count). The
pairs (image, filtered image) come from torch's own conv2d with a known
filter, so the training target is not computed by the code under training.
Starting from the identity filter, Adam on the mean squared difference over
the interior recovers the known taps.

    PYTHONPATH=build/python python3 examples/torch/learn_filter_torch.py \\
        [--size N] [--steps K] [--out DIR]

Prints the loss every tenth step, checks the learnt taps against the true
ones (exit status 1 if they are not within --tolerance), and writes
DIR/torch_filter_loss.png and DIR/torch_filter_before_after.png
(matplotlib, Agg).
"""

import argparse
import os
import sys

import torch

import stencilad as sa
import stencilad.torch as st

# A blur that leans towards the lower right: the orientation must be learnt.
W_TRUE = [[0.04, 0.10, 0.04],
          [0.10, 0.30, 0.14],
          [0.04, 0.14, 0.10]]


def kernel():
    """The 3x3 filter as a front-end kernel (image u, taps w, result r)."""
    i, j = sa.indices("i j")
    n, m = sa.size("n m")
    u = sa.Array("u", 2, active=True)
    w = sa.Array("w", shape=(3, 3), active=True)
    r = sa.Array("r", 2, active=True)
    K = sa.Kernel("filter3x3")
    with K.domain({i: (1, n - 1), j: (1, m - 1)}):
        r[i, j] = sum(w[a, b] * u[i + a - 1, j + b - 1]
                      for a in range(3) for b in range(3))
    return K


def images(count, n, seed=0):
    """`count` n x n pictures: smooth random fields plus a checkerboard."""
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(count, 1, n // 4 + 2, n // 4 + 2, generator=g,
                   dtype=torch.float64)
    smooth = torch.nn.functional.interpolate(x, size=(n, n), mode="bilinear",
                                             align_corners=True)[:, 0]
    i = torch.arange(n)
    board = ((i[:, None] // 4 + i[None, :] // 4) % 2).to(torch.float64)
    noise = torch.rand(count, n, n, generator=g, dtype=torch.float64)
    return (0.3 * smooth + 0.2 * board + 0.5 * noise).contiguous()


def train(layer, pairs, steps, lr=0.01, log=None):
    """Adam on the mean over pairs of the interior's mean squared
    difference; returns the losses (one per step, and the final one)."""
    opt = torch.optim.Adam(layer.parameters(), lr=lr)
    losses = []

    def loss_of():
        total = 0.0
        for u, target in pairs:
            n, m = u.shape
            r = layer(u, torch.zeros_like(u), n, m)
            total = total + ((r[1:-1, 1:-1] - target) ** 2).mean()
        return total / len(pairs)

    for step in range(steps):
        opt.zero_grad()
        loss = loss_of()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if log and step % 10 == 0:
            log("step %4d: loss %.4e" % (step, losses[-1]))
    with torch.no_grad():
        losses.append(loss_of().item())
    return losses


def plot(out, u, target, before, after, losses):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.4))
    ax.semilogy(losses)
    ax.set_xlabel("Adam step")
    ax.set_ylabel("mean squared difference")
    ax.set_title("learning a 3x3 filter (stencilad.torch)")
    fig.tight_layout()
    curve = os.path.join(out, "torch_filter_loss.png")
    fig.savefig(curve, dpi=72)
    plt.close(fig)

    fig, axes = plt.subplots(1, 4, figsize=(12, 3.2))
    lo, hi = float(target.min()), float(target.max())
    for ax, (title, img) in zip(axes, [
            ("input", u[1:-1, 1:-1]), ("target (conv2d, true taps)", target),
            ("initial filter", before), ("learnt filter", after)]):
        ax.imshow(img.numpy(), cmap="gray", vmin=lo, vmax=hi)
        ax.set_title(title)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.tight_layout()
    pictures = os.path.join(out, "torch_filter_before_after.png")
    fig.savefig(pictures, dpi=72)
    plt.close(fig)
    return curve, pictures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=64,
                        help="the images are SIZE x SIZE (default 64)")
    parser.add_argument("--steps", type=int, default=300,
                        help="Adam steps (default 300)")
    parser.add_argument("--pairs", type=int, default=2,
                        help="training pairs (default 2)")
    parser.add_argument("--tolerance", type=float, default=1e-2,
                        help="largest |learnt - true| tap (default 1e-2)")
    parser.add_argument("--out", default=".",
                        help="folder for the two PNG files (default .)")
    opts = parser.parse_args()

    torch.manual_seed(0)
    w_true = torch.tensor(W_TRUE, dtype=torch.float64)
    us = images(opts.pairs, opts.size)
    with torch.no_grad():
        targets = torch.nn.functional.conv2d(us[:, None], w_true[None, None])
    pairs = [(us[k], targets[k, 0]) for k in range(opts.pairs)]
    identity = torch.zeros(3, 3, dtype=torch.float64)
    identity[1, 1] = 1.0
    layer = st.Module(kernel(), params={"w": identity.clone()})
    print("learn_filter_torch: %d pairs of %d x %d images, %d Adam steps"
          % (opts.pairs, opts.size, opts.size, opts.steps))

    losses = train(layer, pairs, opts.steps, log=print)
    w = layer.w.detach()
    torch.set_printoptions(precision=4, sci_mode=False)
    print("true taps:\n%s" % w_true)
    print("learnt taps:\n%s" % w)
    error = (w - w_true).abs().max().item()
    ok = error < opts.tolerance and losses[-1] < 1e-2 * losses[0]
    print("loss went from %.3e to %.3e, max |learnt - true| = %.2e: %s"
          % (losses[0], losses[-1], error, "PASS" if ok else "FAIL"))

    os.makedirs(opts.out, exist_ok=True)
    u, target = pairs[0]
    n = opts.size
    with torch.no_grad():
        before = st.function(layer.op.f)(u, identity, torch.zeros_like(u),
                                         n, n)
        after = layer(u, torch.zeros_like(u), n, n)
    for path in plot(opts.out, u, target, before[1:-1, 1:-1],
                     after[1:-1, 1:-1], losses):
        print("wrote %s" % path)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
