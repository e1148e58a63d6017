"""A filter's weight gradient from stencilad under mpirun
(python-mpi.test).

    stencil-mpirun -n R python3 python_mpi_filter.py FILTER.mlir

examples/filter/filter.mlir compiled once with distribute="auto" and once
for one process. On every grid P0 x P1 = R, for sizes that split
unevenly: the image and the output's seed scattered from process 0, the
weights passed whole on every process; the adjoint called on the blocks.
The weights' gradient (a sum into fixed elements across processes) must
be the single-process library's, bitwise, on every process. Process 0
prints a line per grid and PASS or FAIL.
"""

import sys

import numpy as np
from mpi4py import MPI

import stencilad as sa


def main():
    comm = MPI.COMM_WORLD
    dist = sa.compile(sys.argv[1], distribute="auto", comm=comm)
    ref = sa.compile(sys.argv[1]) if comm.rank == 0 else None
    size = comm.size
    bad = 0
    for p0 in (p for p in range(1, size + 1) if size % p == 0):
        grid = (p0, size // p0)
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
                differ = sum(int(np.sum(x.view(np.uint64) !=
                                        want.view(np.uint64)))
                             for x in every)
                bad += differ
                print("n = %d, m = %d, grid %s: %s" % (
                    n, m, "x".join(map(str, b.grid)),
                    "%d values differ" % differ if differ else
                    "w_b bitwise equal to one process on every process"))
    bad = comm.bcast(bad, root=0)
    if comm.rank == 0:
        print("PASS" if bad == 0 else "FAIL")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
