"""A layered velocity's gradient from stencilad under mpirun
(python-mpi.test).

    stencil-mpirun -n R python3 python_mpi_layered.py LAYERED.mlir

examples/python/layered_velocity.mlir (a 3-D wave equation whose velocity
v[k] depends on depth alone; the misfit on a receiver plane summed over a
time loop) compiled once with distribute="auto" and once for one process.
On every grid P0 x P1 x P2 = R: the initial state scattered from process
0, v and the data passed whole on every process; J and dJ/dv from
value_and_grad (the reversed loop with checkpoints) on the blocks. dJ/dv
sums through dimensions 0 and 1 and over the steps (a reduction through
some of the dimensions across processes) and must be the single-process
library's, bitwise, on every process, like J. Process 0 prints a line per
grid and PASS or FAIL.
"""

import itertools
import sys

import numpy as np
from mpi4py import MPI

import stencilad as sa


def grids(size):
    return [g for g in itertools.product(range(1, size + 1), repeat=3)
            if g[0] * g[1] * g[2] == size]


def problem(n, steps, rng):
    u = rng.uniform(-1, 1, (n, n, n))
    v = rng.uniform(0.8, 1.6, n)
    d = rng.uniform(-0.1, 0.1, (steps, n, n))
    return u, v, d


def bits_differ(values, want):
    return sum(int(np.sum(np.atleast_1d(x).view(np.uint64) !=
                          np.atleast_1d(want).view(np.uint64)))
               for x in values)


def main():
    comm = MPI.COMM_WORLD
    dist = sa.compile(sys.argv[1], distribute="auto", comm=comm)
    ref = sa.compile(sys.argv[1]) if comm.rank == 0 else None
    n, steps, snapshots = 9, 6, 2
    bad = 0
    for grid in grids(comm.size):
        f = dist.layered_wave
        b = f.blocks((n, n, n), comm, grid=grid)
        u, v, d = problem(n, steps, np.random.default_rng(n + steps))
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
            bad += differ
            print("n = %d, grid %s: %s" % (
                n, "x".join(map(str, b.grid)),
                "%d values differ" % differ if differ else
                "J and v_b bitwise equal to one process on every process"))
    bad = comm.bcast(bad, root=0)
    if comm.rank == 0:
        print("PASS" if bad == 0 else "FAIL")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
