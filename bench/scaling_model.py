#!/usr/bin/env python3
"""A weak- and strong-scaling model of distributed functions, from their
distribution plans (docs/Distributed.md, "Performance and scale").

    scaling_model.py FILE.mlir [--stencil-opt PATH] [--alpha-us A]
        [--beta-gbs B] [--gamma-ns G ...] [--block b] [--global N]
        [--processes P ...] [--blocking]
        [--measured n=N,ranks=R,mpi_ms=T ...]

The plan of each function (`--stencil-distribute="grid=auto report=1"`
prints it as JSON) says which arrays each call exchanges and how wide. For
a grid P0 x P1 x P2 (chosen for P processes as MPI_Dims_create would) and
blocks b0 x b1 x b2, the busiest process sends, per exchange and split
dimension k, one message per side of non-zero width, of width x the face
(the halos of the dimensions exchanged before included, as the lowering
packs them). The model of one call:

    t = gamma * points per process + sum over messages (alpha + bytes / beta)

(one message per side: latency alpha, bandwidth beta per link; gamma the
time per point of the function on one core). With overlap (the compiler's
default; --blocking models overlap-exchanges=0), the messages of the first
split dimension are started before the interior of the nests, the rows
whose reads stay in the block, and only what they take beyond that
computation is exposed. Weak scaling keeps the block, strong scaling the
global size. --measured compares the model's
exchange time with the MPI time a run measured (stencil-bench-mpi's
mpi_ms, which also counts waiting for the partner).
"""

import argparse
import json
import subprocess
import sys


def plans(source, stencil_opt):
    """[(function number, plan)] of the distributed functions of `source`,
    from the remarks of --stencil-distribute's report (JSON)."""
    done = subprocess.run(
        [stencil_opt, source, "--stencil-adjoint",
         "--stencil-distribute=grid=auto report=1", "-o", "/dev/null"],
        stderr=subprocess.PIPE, text=True, check=True)
    marker = "distribution plan: "
    return [json.loads(line.split(marker, 1)[1])
            for line in done.stderr.splitlines() if marker in line]


def dims_create(processes, ndims):
    """The balanced grid MPI_Dims_create chooses (non-increasing)."""
    dims, rest = [1] * ndims, processes
    factors, f = [], 2
    while rest > 1:
        while rest % f == 0:
            factors.append(f)
            rest //= f
        f += 1
    for f in sorted(factors, reverse=True):
        dims[dims.index(min(dims))] *= f
    return sorted(dims, reverse=True)


def traffic(plan, grid, block, overlap=True):
    """(messages, bytes, started) the busiest process sends in one call: one
    with neighbours on both sides of each split dimension where the grid
    has 3 processes along it or more, on one side where it has 2. The split
    dimensions are exchanged in order, except that with `overlap` the first
    goes last (its face then carries the others' halos) and is only started
    before the interior: `started` is its (messages, bytes, widest reach)."""
    split = [k for k in range(len(grid)) if grid[k] > 1]
    order = split[1:] + split[:1] if overlap else split
    messages = volume = 0
    started = [0, 0, 0]
    for domain in plan["domains"]:
        for exchange in domain["exchanges"]:
            widths = exchange["widths"]
            for position, k in enumerate(order):
                lo, hi = widths[k]
                face = 1
                for j, b in enumerate(block):
                    if j != k:
                        face *= b + (sum(widths[j]) if j in order[:position]
                                     else 0)
                for width in (lo, hi) if grid[k] > 2 else (max(lo, hi),):
                    if width > 0:
                        messages += 1
                        volume += 8 * width * face
                        if overlap and k == split[0]:
                            started[0] += 1
                            started[1] += 8 * width * face
                if overlap and k == split[0]:
                    started[2] = max(started[2], lo + hi)
    return messages, volume, tuple(started)


def model(plan, processes, block, gamma_ns, alpha_us, beta_gbs, overlap):
    """The call's compute time, exchange time, and the exchange time left
    exposed: with overlap, the started dimension's messages hide behind the
    interior (the rows whose reads stay in the block)."""
    grid = dims_create(processes, plan["rank"])
    messages, volume, started = traffic(plan, grid, block, overlap)
    points = 1
    for b in block:
        points *= b
    compute = gamma_ns * 1e-9 * points

    def seconds(m, v):
        return m * alpha_us * 1e-6 + v / (beta_gbs * 1e9)
    exchange = seconds(messages, volume)
    exposed = exchange
    if started[0]:
        dim = grid.index(max(grid))
        interior = compute * max(0, block[dim] - started[2]) / block[dim]
        exposed -= min(seconds(started[0], started[1]), interior)
    return grid, block, messages, volume, compute, exchange, exposed


def table(title, rows):
    print("\n%s\n" % title)
    print("| P | grid | block | msgs | MB sent | compute ms | exchange ms "
          "| exposed ms | exposed share |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|")
    for p, grid, block, m, v, c, e, x in rows:
        print("| %d | %s | %s | %d | %.2f | %.3f | %.3f | %.3f | %.1f%% |" % (
            p, "x".join(map(str, grid)), "x".join(map(str, block)), m,
            v / 1e6, c * 1e3, e * 1e3, x * 1e3, 100 * x / (c + x)))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("source")
    p.add_argument("--stencil-opt", default="stencil-opt")
    p.add_argument("--alpha-us", type=float, default=2.0)
    p.add_argument("--beta-gbs", type=float, default=10.0)
    p.add_argument("--gamma-ns", type=float, nargs="+", default=[1.0, 2.0],
                   help="time per point of each function (primal, adjoint)")
    p.add_argument("--block", type=int, default=256)
    p.add_argument("--global", dest="global_n", type=int, default=1024)
    p.add_argument("--processes", type=int, nargs="+",
                   default=[1, 8, 64, 512, 4096])
    p.add_argument("--blocking", action="store_true",
                   help="model blocking exchanges (overlap-exchanges=0)")
    p.add_argument("--measured", nargs="*", default=[],
                   help="n=N,ranks=R,mpi_ms=T[,function=K]")
    args = p.parse_args(argv)
    found = plans(args.source, args.stencil_opt)
    for k, plan in enumerate(found):
        gamma = args.gamma_ns[min(k, len(args.gamma_ns) - 1)]
        rank = plan["rank"]
        weak, strong = [], []
        for procs in args.processes:
            block = [args.block] * rank
            weak.append((procs, *model(plan, procs, block, gamma,
                                       args.alpha_us, args.beta_gbs,
                                       not args.blocking)))
            grid = dims_create(procs, rank)
            block = [-(-args.global_n // g) for g in grid]
            strong.append((procs, *model(plan, procs, block, gamma,
                                         args.alpha_us, args.beta_gbs,
                                         not args.blocking)))
        name = "function %d of %s" % (k + 1, args.source)
        table("%s, weak scaling (block %d^%d, alpha %g us, beta %g GB/s, "
              "gamma %g ns)" % (name, args.block, rank, args.alpha_us,
                                args.beta_gbs, gamma), weak)
        table("%s, strong scaling (global %d^%d)" % (
            name, args.global_n, rank), strong)
    for spec in args.measured:
        fields = dict(kv.split("=") for kv in spec.split(","))
        plan = found[int(fields.get("function", 1)) - 1]
        n, ranks = int(fields["n"]), int(fields["ranks"])
        grid = [ranks] + [1] * (plan["rank"] - 1)     # the bench's Rx1x1
        block = [-(-n // ranks)] + [n] * (plan["rank"] - 1)
        m, v, _ = traffic(plan, grid, block, not args.blocking)
        e = m * args.alpha_us * 1e-6 + v / (args.beta_gbs * 1e9)
        print("measured n = %d on %d ranks: %s ms in MPI; model %.3f ms "
              "(%d messages, %.2f MB): measured / model %.1f" % (
                  n, ranks, fields["mpi_ms"], e * 1e3, m, v / 1e6,
                  float(fields["mpi_ms"]) / (e * 1e3) if e else 0.0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
