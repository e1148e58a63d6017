"""Parameter gradients from stencilad under mpirun (python-mpi.test).

    stencil-mpirun -n R python3 python_mpi_params.py FILE.mlir filter
    stencil-mpirun -n R python3 python_mpi_params.py FILE.mlir layered

FILE.mlir compiled once with distribute="auto" and once for one process;
on every grid of R processes the distributed call runs on the blocks and
its parameter gradient (and objective) must be the single-process
library's, bitwise, on every process. Process 0 prints a line per grid and
PASS or FAIL.

- filter: examples/filter/filter.mlir on every 2-D grid, for sizes that
  split unevenly: the image and the output's seed scattered from process 0,
  the weights passed whole on every process; the weights' gradient is a sum
  into fixed elements across processes.
- layered: examples/python/layered_velocity.mlir (a 3-D wave equation whose
  velocity v[k] depends on depth alone; the misfit on a receiver plane
  summed over a time loop) on every 3-D grid: the initial state scattered
  from process 0, v and the data passed whole; J and dJ/dv from
  value_and_grad (the reversed loop with checkpoints). dJ/dv sums through
  dimensions 0 and 1 and over the steps: a reduction through some of the
  dimensions across processes.
"""

import itertools
import sys

import numpy as np
from mpi4py import MPI

import stencilad as sa


def grids(size, rank):
    return [g for g in itertools.product(range(1, size + 1), repeat=rank)
            if int(np.prod(g)) == size]


def grid_text(b):
    return "x".join(map(str, b.grid))


def bits_differ(values, want):
    """How many values of the arrays `values` differ from `want` in bits."""
    return sum(int(np.sum(np.atleast_1d(x).view(np.uint64) !=
                          np.atleast_1d(want).view(np.uint64)))
               for x in values)


def check_filter(dist, ref, comm, report):
    for grid in grids(comm.size, 2):
        for n, m in ((11, 9), (17, 23)):
            f = dist.filter3x3
            b = f.blocks((n, m), comm, grid=grid)
            rng = np.random.default_rng(n * m)
            u, r_b = rng.uniform(-1, 1, (n, m)), rng.uniform(-1, 1, (n, m))
            w = rng.uniform(-1, 1, (3, 3))
            lu = b.scatter(u if comm.rank == 0 else None)
            lr = b.scatter(r_b if comm.rank == 0 else None)
            grads = f.adjoint(b.zeros(), lu, w, n, m, r_b=lr, blocks=b)
            every = comm.gather(grads["w"], root=0)
            if comm.rank == 0:
                want = ref.filter3x3.adjoint(np.zeros((n, m)), u, w, n, m,
                                             r_b=r_b)["w"]
                report("n = %d, m = %d, grid %s" % (n, m, grid_text(b)),
                       "w_b", bits_differ(every, want))


def check_layered(dist, ref, comm, report):
    n, steps, snapshots = 9, 6, 2
    for grid in grids(comm.size, 3):
        f = dist.layered_wave
        b = f.blocks((n, n, n), comm, grid=grid)
        rng = np.random.default_rng(n + steps)
        u = rng.uniform(-1, 1, (n, n, n))
        v = rng.uniform(0.8, 1.6, n)
        d = rng.uniform(-0.1, 0.1, (steps, n, n))
        scalars = dict(dtoh=0.25, d=d, n=n, zr=2, steps=steps)
        lu = b.scatter(u if comm.rank == 0 else None)
        J, _, grads = f.value_and_grad(u0=lu, u1=lu.copy(), u2=b.zeros(), v=v,
                                       **scalars, snapshots=snapshots,
                                       blocks=b)
        every = comm.gather((float(J), grads["v"]), root=0)
        if comm.rank == 0:
            J1, _, g1 = ref.layered_wave.value_and_grad(
                u0=u.copy(), u1=u.copy(), u2=np.zeros_like(u), v=v, **scalars,
                snapshots=snapshots)
            differ = bits_differ([g for _, g in every], g1["v"])
            differ += bits_differ([np.float64(j) for j, _ in every],
                                  np.float64(J1))
            report("n = %d, grid %s" % (n, grid_text(b)), "J and v_b", differ)


def main():
    comm = MPI.COMM_WORLD
    dist = sa.compile(sys.argv[1], distribute="auto", comm=comm)
    ref = sa.compile(sys.argv[1]) if comm.rank == 0 else None
    bad = 0

    def report(what, values, differ):
        nonlocal bad
        bad += differ
        print("%s: %s" % (what, "%d values differ" % differ if differ else
                          "%s bitwise equal to one process on every process"
                          % values))

    check = {"filter": check_filter, "layered": check_layered}[sys.argv[2]]
    check(dist, ref, comm, report)
    bad = comm.bcast(bad, root=0)
    if comm.rank == 0:
        print("PASS" if bad == 0 else "FAIL")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
