#!/usr/bin/env python3
# ===- torch_peer.py - filter3d against PyTorch's conv3d -----------------=== #
#
# PyTorch as a peer of the filter3d kernel (bench/kernels/filter3d.mlir,
# r = sum of w[a,b,c] * u[i+a-1, j+b-1, k+c-1]): torch.nn.functional.conv3d,
# which is a cross-correlation, computes the same r on the interior, and its
# backward the same gradients with respect to the input (u_b) and the
# weight (w_b). CPU, float64, one image and one channel.
#
#   bench/torch_peer.py [--build-dir build] [--n 256] [--threads 1,2]
#                       [--rounds 5] [--min-time 0.2] [--json out.json]
#   bench/torch_peer.py --check [--n 24]     numerical comparison only
#   bench/torch_peer.py --check --flip-taps  the same against torch with the
#                       taps flipped (a convolution, not a correlation): it
#                       must fail, the comparison's own test
#
# Our primal and adjoint are compiled from the kernel's IR by stencilad
# (docs/Python.md) with the pipeline's defaults, the library stencil-bench
# times as `primal` and `gather_compact`. Before anything is timed, ours and
# torch's are compared on the same data, with
# torch.use_deterministic_algorithms(True) and without: r and u_b to 1e-12,
# w_b (sums of n^3 products, in another order) to 1e-10, relative to the
# largest value. Then, at each thread count (torch.set_num_threads(t), ours
# with t OpenMP threads), each round times every contender once, in a
# shuffled order, and a ratio is the median over the rounds of the ratio
# within a round (bench/rounds.py):
#
#   ours_primal     our primal, r from u and w
#   ours_adjoint    our whole adjoint: u_b and w_b added to, r_b reset
#   torch_forward   conv3d under torch.no_grad()
#   torch_backward  torch.autograd.grad of conv3d's output (retained graph)
#                   with respect to input and weight
#   ..._det         the same with torch.use_deterministic_algorithms(True)
#
# Ours and torch run on different OpenMP runtimes (LLVM's libomp, torch's
# libgomp), whose idle workers spin for a while after a parallel region:
# each timed batch is preceded by a pause so that the other runtime's
# workers are asleep.
#
# ===----------------------------------------------------------------------=== #

import argparse
import os
import random
import statistics
import sys
import time

import numpy as np

from torch_support import import_stencilad, import_torch, write_outputs

TOOL = "torch_peer.py"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL = os.path.join(ROOT, "bench", "kernels", "filter3d.mlir")
# Relative tolerances of the comparison (to max(1, max |ours|)).
TOLERANCE = {"r": 1e-12, "u_b": 1e-12, "w_b": 1e-10}
# Seconds between timed batches: longer than libomp's default blocktime
# (200 ms), after which its idle workers sleep.
PAUSE = 0.25
CONTENDERS = ["ours_primal", "ours_adjoint", "torch_forward", "torch_backward",
              "torch_forward_det", "torch_backward_det"]


class Problem:
    """The arrays of both sides: ours (NumPy) and torch's tensors viewing
    the same memory where the data are inputs."""

    def __init__(self, torch, n, seed=0):
        rng = np.random.default_rng(seed)
        self.n = n
        self.u = rng.uniform(-0.5, 0.5, (n, n, n))
        self.w = rng.uniform(-0.5, 0.5, (3, 3, 3))
        self.r = np.zeros((n, n, n))
        # r_b on the whole array: ours reads only the interior, which is
        # torch's grad_output.
        self.r_b = rng.uniform(-0.5, 0.5, (n, n, n))
        self.r_b_work = self.r_b.copy()
        self.u_b = np.zeros((n, n, n))
        self.w_b = np.zeros((3, 3, 3))
        self.x = torch.from_numpy(self.u).view(1, 1, n, n, n).requires_grad_()
        self.k = torch.from_numpy(self.w).view(1, 1, 3, 3, 3).requires_grad_()
        self.gy = torch.from_numpy(
            np.ascontiguousarray(self.r_b[1:-1, 1:-1, 1:-1])).view(
                1, 1, n - 2, n - 2, n - 2)


def agreement(ours, theirs):
    """max |ours - theirs| / max(1, max |ours|)."""
    scale = max(1.0, float(np.max(np.abs(ours))))
    return float(np.max(np.abs(ours - theirs))) / scale


def check(torch, f, p, threads, flip=False):
    """Ours against torch's on the same data, in both of torch's modes;
    exits with a message on a disagreement. Returns the errors. `flip`
    hands torch the taps reversed in each dimension."""
    F = torch.nn.functional
    n = p.n
    r = np.zeros((n, n, n))
    f(r, p.u, p.w, n, threads=threads)
    r_b = p.r_b.copy()
    u_b = np.zeros((n, n, n))
    w_b = np.zeros((3, 3, 3))
    f.adjoint(r, p.u, p.w, n, r_b=r_b, u_b=u_b, w_b=w_b, threads=threads)
    errors = {}
    for deterministic in (False, True):
        torch.use_deterministic_algorithms(deterministic)
        taps = p.k.flip(2, 3, 4) if flip else p.k
        y = F.conv3d(p.x, taps)
        gx, gk = torch.autograd.grad(y, (p.x, p.k), p.gy)
        mode = "deterministic" if deterministic else "default"
        for name, ours, theirs in [
                ("r", r[1:-1, 1:-1, 1:-1], y.detach().numpy()[0, 0]),
                ("u_b", u_b, gx.numpy()[0, 0]),
                ("w_b", w_b, gk.numpy()[0, 0])]:
            err = agreement(ours, theirs)
            errors["%s %s" % (name, mode)] = err
            ok = err <= TOLERANCE[name]
            print("torch_peer.py: %s (%s): torch %s ours (%.1e)"
                  % (name, mode, "agrees with" if ok else "DISAGREES with",
                     err), flush=True)
            if not ok:
                sys.exit("torch_peer.py: torch's conv3d disagrees with "
                         "filter3d")
    torch.use_deterministic_algorithms(False)
    return errors


def make_runs(torch, f, p):
    """{contender: a call doing one sweep}."""
    F = torch.nn.functional
    n = p.n
    y = F.conv3d(p.x, p.k)

    def ours_primal(t):
        f(p.r, p.u, p.w, n, threads=t)

    def ours_adjoint(t):
        f.adjoint(p.r, p.u, p.w, n, r_b=p.r_b_work, u_b=p.u_b, w_b=p.w_b,
                  threads=t)

    def forward(_t):
        with torch.no_grad():
            F.conv3d(p.x, p.k)

    def backward(_t):
        torch.autograd.grad(y, (p.x, p.k), p.gy, retain_graph=True)

    return {"ours_primal": (ours_primal, None),
            "ours_adjoint": (ours_adjoint, None),
            "torch_forward": (forward, False),
            "torch_backward": (backward, False),
            "torch_forward_det": (forward, True),
            "torch_backward_det": (backward, True)}


def time_batch(torch, call, deterministic, threads, min_time):
    """Seconds per call: one untimed call, then calls until min_time."""
    if deterministic is not None:
        torch.use_deterministic_algorithms(deterministic)
    time.sleep(PAUSE)
    call(threads)
    count, start = 0, time.perf_counter()
    while True:
        call(threads)
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / count


def measure(torch, runs, threads, rounds, min_time):
    """{threads: {contender: {round: seconds}}}."""
    out = {}
    for t in threads:
        torch.set_num_threads(t)
        times = {c: {} for c in CONTENDERS}
        order = list(CONTENDERS)
        for r in range(rounds):
            random.Random(r).shuffle(order)
            for c in order:
                call, det = runs[c]
                times[c][r] = time_batch(torch, call, det, t, min_time)
            print("torch_peer.py: %d thread(s), round %d: %s" % (
                t, r, ", ".join("%s %.1f ms" % (c, times[c][r] * 1e3)
                                for c in CONTENDERS)), flush=True)
        out[t] = times
    torch.use_deterministic_algorithms(False)
    return out


def ratio(times, a, b):
    """The median over the rounds of a's time over b's within a round, and
    the smallest and largest of those."""
    within = [times[a][r] / times[b][r] for r in sorted(times[a])]
    return statistics.median(within), min(within), max(within)


# The ratios reported, (numerator, denominator, what it says).
RATIOS = [
    ("ours_adjoint", "ours_primal", "our adjoint / our primal"),
    ("torch_backward", "torch_forward", "torch backward / torch forward"),
    ("torch_forward", "ours_primal", "torch forward / our primal"),
    ("torch_backward", "ours_adjoint", "torch backward / our adjoint"),
    ("torch_backward_det", "ours_adjoint",
     "torch backward (deterministic) / our adjoint"),
    ("torch_backward_det", "torch_backward",
     "torch backward: deterministic / default"),
]


def markdown(results, n, rounds):
    lines = ["#### filter3d against PyTorch conv3d (n = %d, median of %d "
             "rounds)\n" % (n, rounds),
             "| threads | " + " | ".join(CONTENDERS) + " |",
             "|---:|" + "---:|" * len(CONTENDERS)]
    for t, times in sorted(results.items()):
        lines.append("| %d | %s |" % (t, " | ".join(
            "%.1f ms" % (statistics.median(times[c].values()) * 1e3)
            for c in CONTENDERS)))
    lines += ["", "| ratio (median of per-round ratios, range) | " +
              " | ".join("%d thread(s)" % t for t in sorted(results)) + " |",
              "|---|" + "---:|" * len(results)]
    for a, b, text in RATIOS:
        cells = []
        for t in sorted(results):
            mid, lo, hi = ratio(results[t], a, b)
            spec = "%.1f (%.1f-%.1f)" if mid >= 10 else "%.2f (%.2f-%.2f)"
            cells.append(spec % (mid, lo, hi))
        lines.append("| %s | %s |" % (text, " | ".join(cells)))
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(
        description="filter3d against PyTorch's conv3d: checked, then "
                    "timed in rounds.")
    p.add_argument("--build-dir", default=os.environ.get(
        "STENCIL_BUILD_DIR", os.path.join(ROOT, "build")))
    p.add_argument("--n", type=int, default=None,
                   help="grid size (default: 256; 24 with --check)")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--min-time", type=float, default=0.2,
                   help="seconds of calls per timed batch (default: 0.2)")
    p.add_argument("--check", action="store_true",
                   help="only compare ours with torch's, at 1 and 2 threads")
    p.add_argument("--flip-taps", action="store_true",
                   help="hand torch the taps flipped: the check must fail")
    p.add_argument("--json", help="write the times and ratios here")
    p.add_argument("--markdown", help="write the tables here")
    args = p.parse_args()
    torch = import_torch(TOOL)
    stencilad = import_stencilad(TOOL, os.path.abspath(args.build_dir))
    torch.set_default_dtype(torch.float64)
    threads = [int(t) for t in args.threads.split(",") if t.strip()]
    n = args.n or (24 if args.check else 256)

    f = stencilad.compile(KERNEL).filter3d
    problem = Problem(torch, n)
    errors = {}
    for t in (threads if not args.check else [1, 2]):
        torch.set_num_threads(t)
        errors[t] = check(torch, f, problem, t, args.flip_taps)
    print("torch_peer.py: torch %s agrees with filter3d (n = %d)"
          % (torch.__version__, n), flush=True)
    if args.check:
        return
    results = measure(torch, make_runs(torch, f, problem), threads,
                      args.rounds, args.min_time)
    table = markdown(results, n, args.rounds)
    write_outputs(table, args.markdown, args.json, lambda: {
        "n": n, "rounds": args.rounds, "min_time": args.min_time,
        "torch": torch.__version__, "check": errors,
        "seconds": {str(t): times for t, times in results.items()},
        "ratios": {str(t): {"%s/%s" % (a, b): ratio(results[t], a, b)
                            for a, b, _ in RATIOS} for t in results}})


if __name__ == "__main__":
    main()
