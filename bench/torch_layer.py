#!/usr/bin/env python3
# ===- torch_layer.py - stencilad.torch layers against torch's conv -------=== #
#
# A 3x3 (2-D) and a 3x3x3 (3-D) stencil layer written with the front end,
# r[i,j] = sum w[a,b] * u[i+a-1, j+b-1] on the interior, run as a torch op
# through stencilad.torch (st.function; u and w require grad), against
# torch.nn.functional.conv2d / conv3d (a cross-correlation: the same r on
# the interior) on the same tensors, CPU, float64 and float32.
#
#   bench/torch_layer.py [--build-dir build] [--threads 1,2] [--rounds 3]
#                        [--min-time 0.1] [--sizes 2d:64,128 3d:32]
#                        [--markdown out.md] [--json out.json]
#   bench/torch_layer.py --quick    two small sizes, one round (smoke)
#   bench/torch_layer.py --check    the numerical comparison only
#   bench/torch_layer.py --check --flip-taps   torch gets the taps flipped
#                        (a convolution): the comparison must fail
#
# Before anything is timed at a size, ours and torch's are compared on the
# same data, with torch.use_deterministic_algorithms(True) and without:
# the forward (interior), the input's gradient and the weight's, relative
# to max(1, max |ours|) (TOLERANCE). Then each round times every contender
# once, in a shuffled order, and a ratio is the median over the rounds of
# the ratio within a round (bench/rounds.py):
#
#   ours_fwd        op(u, w, r0, n) under torch.no_grad()
#   ours_fwd_bwd    op(...) then r.backward(grad): u.grad and w.grad
#   torch_fwd       conv under torch.no_grad()
#   torch_fwd_bwd   conv then y.backward(grad)
#   torch_det_fwd_bwd  the same with torch.use_deterministic_algorithms(True)
#
# The call overhead: at 8^2 with a one-point kernel (r = w[0,0] * u), the
# time of the torch op (forward; forward and backward) minus that of the
# compiled functions called through stencilad (f and f.adjoint, with their
# checks) and through ctypes (the entry points with descriptors filled
# once), in microseconds, at one thread.
#
# Ours (LLVM's libomp) and torch (libgomp) run on different OpenMP
# runtimes whose idle workers spin for a while: each timed batch is
# preceded by a pause (as in bench/torch_peer.py).
#
# ===----------------------------------------------------------------------=== #

import argparse
import os
import random
import statistics
import sys
import time
import timeit

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import rounds  # noqa: E402
from torch_support import (import_stencilad, import_torch,  # noqa: E402
                           write_outputs)

TOOL = "torch_layer.py"

# Relative tolerances of the comparison (to max(1, max |ours|)), by dtype:
# the weight's gradient sums n^d products in another order than torch's.
TOLERANCE = {"f64": {"r": 1e-12, "u_b": 1e-12, "w_b": 1e-10},
             "f32": {"r": 1e-5, "u_b": 1e-5, "w_b": 1e-3}}
PAUSE = 0.25
CONTENDERS = ["ours_fwd", "ours_fwd_bwd", "torch_fwd", "torch_fwd_bwd",
              "torch_det_fwd_bwd"]
SIZES = {2: [64, 128, 256, 512, 1024], 3: [32, 64, 128, 256]}
QUICK = {2: [64], 3: [32]}
# Sizes with fewer rounds (their batches are a second or more).
FEW_ROUNDS = {(2, 1024): 2, (3, 256): 1}


def layer_kernel(sa, dim, dtype, taps=3):
    """r = sum over the taps of w * u shifted, on the interior."""
    idx = sa.indices("i j k")[:dim]
    n = sa.size("n")
    u = sa.Array("u", dim, dtype=dtype, active=True)
    w = sa.Array("w", dim, dtype=dtype, shape=(taps,) * dim, active=True)
    r = sa.Array("r", dim, dtype=dtype, active=True)
    K = sa.Kernel("layer%dd_%s_%d" % (dim, dtype, taps))
    half = taps // 2
    offsets = np.ndindex(*(taps,) * dim)
    with K.domain({i: (half, n - half) for i in idx}):
        r[idx] = sum(w[o] * u[tuple(i + a - half for i, a in zip(idx, o))]
                     for o in offsets)
    return K


class Case:
    """One layer at one size and dtype: our op and torch's, the tensors of
    both (the same memory) and the gradient handed to backward."""

    def __init__(self, torch, sa, st, dim, n, dtype, seed=0):
        self.torch, self.dim, self.n, self.dtype = torch, dim, n, dtype
        F = torch.nn.functional
        self.conv = F.conv2d if dim == 2 else F.conv3d
        tdtype = torch.float64 if dtype == "f64" else torch.float32
        gen = torch.Generator().manual_seed(seed)
        shape = (n,) * dim

        def uniform(*s):
            return (torch.rand(*s, generator=gen, dtype=torch.float64)
                    - 0.5).to(tdtype)
        self.op = st.function(layer_kernel(sa, dim, dtype))
        self.u = uniform(*shape).requires_grad_()
        self.w = uniform(*(3,) * dim).requires_grad_()
        self.r0 = torch.zeros(shape, dtype=tdtype)
        self.grad = uniform(*shape)
        inner = (slice(1, -1),) * dim
        self.inner = inner
        self.grad_inner = self.grad[inner].contiguous().view(
            1, 1, *(n - 2,) * dim)
        self.x = self.u.view(1, 1, *shape)
        self.k = self.w.view(1, 1, *(3,) * dim)

    def ours(self):
        return self.op(self.u, self.w, self.r0, self.n)

    def theirs(self, flip=False):
        k = self.k.flip(*range(2, 2 + self.dim)) if flip else self.k
        return self.conv(self.x, k)

    def zero_grads(self):
        self.u.grad = None
        self.w.grad = None


def agreement(ours, theirs):
    scale = max(1.0, float(ours.abs().max()))
    return float((ours - theirs).abs().max()) / scale


def check(torch, case, flip=False):
    """Ours against torch's in both of torch's modes; exits on a
    disagreement. Returns the errors."""
    tol = TOLERANCE[case.dtype]
    case.zero_grads()
    r = case.ours()
    r.backward(case.grad)
    ours = {"r": r.detach()[case.inner], "u_b": case.u.grad.clone(),
            "w_b": case.w.grad.clone()}
    errors = {}
    label = "%dd n=%d %s" % (case.dim, case.n, case.dtype)
    for deterministic in (False, True):
        torch.use_deterministic_algorithms(deterministic)
        case.zero_grads()
        y = case.theirs(flip)
        y.backward(case.grad_inner)
        theirs = {"r": y.detach()[0, 0], "u_b": case.u.grad,
                  "w_b": case.w.grad}
        mode = "deterministic" if deterministic else "default"
        for name in ("r", "u_b", "w_b"):
            err = agreement(ours[name], theirs[name])
            errors["%s %s" % (name, mode)] = err
            ok = err <= tol[name]
            print("torch_layer.py: %s %s (%s): torch %s ours (%.1e)" % (
                label, name, mode, "agrees with" if ok else
                "DISAGREES with", err), flush=True)
            if not ok:
                sys.exit("torch_layer.py: torch's conv%dd disagrees with "
                         "the stencil layer" % case.dim)
    torch.use_deterministic_algorithms(False)
    case.zero_grads()
    return errors


def make_runs(torch, case):
    """{contender: (call, deterministic)}."""
    def ours_fwd():
        with torch.no_grad():
            case.ours()

    def ours_fwd_bwd():
        case.zero_grads()
        case.ours().backward(case.grad)

    def torch_fwd():
        with torch.no_grad():
            case.theirs()

    def torch_fwd_bwd():
        case.zero_grads()
        case.theirs().backward(case.grad_inner)

    return {"ours_fwd": (ours_fwd, False),
            "ours_fwd_bwd": (ours_fwd_bwd, False),
            "torch_fwd": (torch_fwd, False),
            "torch_fwd_bwd": (torch_fwd_bwd, False),
            "torch_det_fwd_bwd": (torch_fwd_bwd, True)}


def time_batch(torch, call, deterministic, min_time):
    """Seconds per call: one untimed call, then calls until min_time."""
    torch.use_deterministic_algorithms(deterministic)
    time.sleep(PAUSE)
    call()
    count, start = 0, time.perf_counter()
    while True:
        call()
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            torch.use_deterministic_algorithms(False)
            return elapsed / count


def measure(torch, case, nrounds, min_time):
    """{contender: rounds.py entry ({"rounds_ms": {round: ms}, ...})}."""
    runs = make_runs(torch, case)
    times = {c: {} for c in CONTENDERS}
    order = list(CONTENDERS)
    for r in range(nrounds):
        random.Random(r).shuffle(order)
        for c in order:
            call, det = runs[c]
            times[c][r] = time_batch(torch, call, det, min_time) * 1e3
    case.zero_grads()
    return {c: {"rounds_ms": t, "time_ms": statistics.median(t.values()),
                "paired": True} for c, t in times.items()}


# The ratios reported, (numerator, denominator, column).
RATIOS = [("torch_fwd", "ours_fwd", "torch/ours fwd"),
          ("torch_fwd_bwd", "ours_fwd_bwd", "torch/ours fwd+bwd"),
          ("torch_det_fwd_bwd", "ours_fwd_bwd", "torch det/ours fwd+bwd")]


def fmt_ms(ms):
    return "%.3f" % ms if ms < 1 else "%.2f" % ms if ms < 100 else \
        "%.0f" % ms


def markdown(results):
    head = ["layer", "n", "dtype", "threads", "rounds"] + \
        ["%s ms" % c for c in CONTENDERS] + [t for _, _, t in RATIOS]
    lines = ["| " + " | ".join(head) + " |",
             "|---|---:|---|---:|---:|" + "---:|" * (len(head) - 5)]
    for key, entries in results:
        dim, n, dtype, threads = key
        cells = ["%dx%d" % (3, 3) if dim == 2 else "3x3x3",
                 "%d^%d" % (n, dim), dtype, str(threads),
                 str(len(entries["ours_fwd"]["rounds_ms"]))]
        cells += [fmt_ms(entries[c]["time_ms"]) for c in CONTENDERS]
        for a, b, _ in RATIOS:
            cells.append("%.2f" % rounds.ratio(entries[a], entries[b]))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def per_call_us(call, min_time=0.3):
    """Microseconds per call: the best of 5 batches."""
    timer = timeit.Timer(call)
    number = 1
    while timer.timeit(number) < min_time / 5:
        number *= 2
    return min(timer.repeat(5, number)) / number * 1e6


def overhead(torch, sa, st, dtype="f64", n=8, min_time=0.3):
    """The call overhead of stencilad.torch at one thread, in us."""
    torch.set_num_threads(1)
    K = layer_kernel(sa, 2, dtype, taps=1)
    op = st.function(K)
    f = op.f
    tdtype = torch.float64 if dtype == "f64" else torch.float32
    u = torch.rand(n, n, dtype=tdtype).requires_grad_()
    w = torch.rand(1, 1, dtype=tdtype).requires_grad_()
    r0 = torch.zeros(n, n, dtype=tdtype)
    grad = torch.rand(n, n, dtype=tdtype)
    un, wn, rn, gn = (t.detach().numpy() for t in (u, w, r0, grad))
    ub, wb = np.zeros_like(un), np.zeros_like(wn)

    def op_fwd():
        with torch.no_grad():
            op(u, w, r0, n)

    def op_fwd_bwd():
        u.grad = w.grad = None
        op(u, w, r0, n).backward(grad)

    def sa_fwd():
        f(un, wn, rn.copy(), n, threads=1)

    def sa_bwd():
        f.adjoint(un, wn, rn.copy(), n, r_b=gn.copy(), u_b=ub, w_b=wb,
                  threads=1)

    fwd_c, adj_c = ctypes_calls(f, [un, wn, rn.copy(), n],
                                {"r_b": gn.copy(), "u_b": ub, "w_b": wb})
    calls = {"op_fwd": op_fwd, "op_fwd_bwd": op_fwd_bwd, "sa_fwd": sa_fwd,
             "sa_bwd": sa_bwd, "c_fwd": fwd_c, "c_bwd": adj_c}
    return {k: per_call_us(call, min_time) for k, call in calls.items()}


def ctypes_calls(f, primal, extra):
    """Calls of the entry points of f and f.adjoint through ctypes alone,
    at one OpenMP thread, their descriptors filled once (the arrays'
    memory as given, kept alive by the calls)."""
    out = []
    f.module._lib.omp_set_num_threads(1)
    for g, args in ((f, primal), (f.adjoint, None)):
        if args is None:
            by_name = dict(zip(f.adjoint.keywords, primal))
            by_name.update(extra)
            args = [by_name[k] for k in g.keywords]
        cargs, keep = g._pack(g.params, args)
        cfunc = g._cfunc

        keep.append(args)   # the arrays the descriptors point into

        def call(cfunc=cfunc, cargs=cargs, keep=keep):
            cfunc(*cargs)
        out.append(call)
    return out


def overhead_table(t, dtype):
    rows = [
        ("forward", t["op_fwd"], t["sa_fwd"], t["c_fwd"]),
        ("forward + backward", t["op_fwd_bwd"], t["sa_fwd"] + t["sa_bwd"],
         t["c_fwd"] + t["c_bwd"])]
    lines = ["| 8^2, 1-point kernel, %s, 1 thread | stencilad.torch us | "
             "through stencilad us | through ctypes us | overhead over "
             "stencilad us | overhead over ctypes us |" % dtype,
             "|---|---:|---:|---:|---:|---:|"]
    for name, op, sa_, c in rows:
        lines.append("| %s | %.1f | %.1f | %.1f | %.1f | %.1f |" % (
            name, op, sa_, c, op - sa_, op - c))
    return "\n".join(lines) + "\n"


def parse_sizes(specs):
    out = {2: [], 3: []}
    for spec in specs:
        dim, _, ns = spec.partition(":")
        out[int(dim.rstrip("d"))] = [int(x) for x in ns.split(",") if x]
    return out


def main():
    p = argparse.ArgumentParser(
        description="stencilad.torch layers against torch's conv2d/conv3d:"
                    " checked, then timed in rounds.")
    p.add_argument("--build-dir", default=os.environ.get(
        "STENCIL_BUILD_DIR", os.path.join(ROOT, "build")))
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--min-time", type=float, default=0.1)
    p.add_argument("--sizes", nargs="*", help="e.g. 2d:64,128 3d:32")
    p.add_argument("--dtypes", default="f64,f32")
    p.add_argument("--quick", action="store_true",
                   help="64^2 and 32^3, one round (smoke)")
    p.add_argument("--check", action="store_true",
                   help="only compare ours with torch's (64^2 and 32^3)")
    p.add_argument("--flip-taps", action="store_true",
                   help="hand torch the taps flipped: the check must fail")
    p.add_argument("--no-overhead", action="store_true")
    p.add_argument("--markdown")
    p.add_argument("--json")
    args = p.parse_args()
    torch = import_torch(TOOL)
    stencilad = import_stencilad(TOOL, os.path.abspath(args.build_dir))
    import stencilad.torch as st
    threads = [int(t) for t in args.threads.split(",") if t.strip()]
    dtypes = [d for d in args.dtypes.split(",") if d]
    sizes = QUICK if args.quick or args.check else SIZES
    if args.sizes:
        sizes = parse_sizes(args.sizes)
    nrounds = 1 if args.quick else args.rounds

    results, errors = [], {}
    for dim in (2, 3):
        for n in sizes.get(dim, []):
            for dtype in dtypes:
                case = Case(torch, stencilad, st, dim, n, dtype)
                for t in (threads if not args.check else [1, 2]):
                    torch.set_num_threads(t)
                    errors["%dd %d %s %d" % (dim, n, dtype, t)] = check(
                        torch, case, args.flip_taps)
                if args.check:
                    continue
                for t in threads:
                    torch.set_num_threads(t)
                    r = min(nrounds, FEW_ROUNDS.get((dim, n), nrounds))
                    entries = measure(torch, case, r, args.min_time)
                    results.append(((dim, n, dtype, t), entries))
                    print("torch_layer.py: %dd n=%d %s %d thread(s): %s" % (
                        dim, n, dtype, t, ", ".join(
                            "%s %s ms" % (c, fmt_ms(entries[c]["time_ms"]))
                            for c in CONTENDERS)), flush=True)
                del case
    print("torch_layer.py: torch %s agrees with the stencil layers"
          % torch.__version__, flush=True)
    if args.check:
        return
    table = markdown(results)
    over = {}
    if not args.no_overhead:
        for dtype in dtypes:
            over[dtype] = overhead(torch, stencilad, st, dtype,
                                   min_time=3 * args.min_time)
            table += "\n" + overhead_table(over[dtype], dtype)
    write_outputs(table, args.markdown, args.json, lambda: {
        "torch": torch.__version__, "check": errors, "overhead_us": over,
        "results": [{"layer": "%dd" % k[0], "n": k[1], "dtype": k[2],
                     "threads": k[3], "ms": e} for k, e in results]})


if __name__ == "__main__":
    main()
