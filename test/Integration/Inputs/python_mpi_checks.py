"""stencilad's distributed calls under mpirun (python-mpi.test).

    stencil-mpirun -n R python3 python_mpi_checks.py WAVE3D.mlir [--empty]

examples/wave3d.mlir compiled once with distribute="auto" and once for one
process. On every grid P0 x P1 x P2 = R (set through f.blocks(grid=)),
for sizes that split unevenly: the inputs scattered from process 0, the
primal and the gather adjoint called on the blocks, their results gathered
on process 0 and compared bitwise with the single-process library's; the
dot-product test across processes. Then the world split in two groups
(even and odd processes) that run different sizes at once on their own
communicators. Then the errors, each raised on every process: one
process's block of the wrong shape (naming that process and argument), a
call without blocks, a grid that does not fit the communicator. With
--empty, a grid that leaves a process no points (the library's located
error, through MPI_Abort: the launch must fail). Process 0 prints a line
per check and PASS or FAIL.
"""

import sys

import numpy as np
from mpi4py import MPI

import stencilad as sa

D = 0.1


def grids(size):
    return [(p0, p1, size // (p0 * p1)) for p0 in range(1, size + 1)
            for p1 in range(1, size // p0 + 1) if size % (p0 * p1) == 0]


def values(seed, n):
    return np.random.default_rng(seed).uniform(-1, 1, (n, n, n))


def check_size(dist, ref, comm, n, grid, label):
    """Failures of wave3d and its adjoint at size n on `grid` (rank 0 of
    `comm` compares)."""
    f = dist.wave3d
    b = f.blocks((n, n, n), comm, grid=grid)
    root = b.rank == 0
    g = [values(s, n) for s in range(1, 8)] if root else [None] * 7
    loc = [b.scatter(a) for a in g]
    f(loc[0], loc[1], loc[2], loc[3], D, n, blocks=b)
    grads = f.adjoint(loc[0], loc[1], loc[2], loc[3], D, n, u_b=loc[4],
                      u_1_b=loc[5], u_2_b=loc[6], blocks=b)
    out = [b.gather(loc[0]), b.gather(grads["u_1"]), b.gather(grads["u_2"])]
    # Dot-product test: J maps (u_1, u_2) to u.
    v1, v2, w = (b.scatter(values(s, n) if root else None)
                 for s in (8, 9, 10))
    ju = b.zeros()
    f(ju, v1, v2, loc[3], D, n, blocks=b)

    def dot(x, y):
        return comm.allreduce(float(np.sum(b.owned(x) * b.owned(y))))

    lhs = dot(ju, w)    # before the adjoint, which consumes its seed u_b
    gb = f.adjoint(ju, v1, v2, loc[3], D, n, u_b=w, blocks=b)
    rhs = dot(v1, gb["u_1"]) + dot(v2, gb["u_2"])
    rel = abs(lhs - rhs) / max(abs(lhs), abs(rhs), 1e-300)
    bad = int(rel > 1e-12)
    if root:
        ref.wave3d(g[0], g[1], g[2], g[3], D, n)
        rg = ref.wave3d.adjoint(g[0], g[1], g[2], g[3], D, n, u_b=g[4],
                                u_1_b=g[5], u_2_b=g[6])
        want = [g[0], rg["u_1"], rg["u_2"]]
        differ = sum(int(np.sum(o.view(np.uint64) != x.view(np.uint64)))
                     for o, x in zip(out, want))
        bad += differ
        print("%sn = %d, grid %s: %s, dot-product test %.1e" % (
            label, n, "x".join(map(str, b.grid)),
            "%d values differ" % differ if differ else
            "primal and adjoint bitwise equal to one process", rel))
    return comm.bcast(bad, root=0)


def expect_error(comm, what, kind, words, call):
    """1 unless `call` raises `kind` on this process with every word of
    `words` in its message."""
    try:
        call()
    except kind as e:
        ok = all(w in str(e) for w in words)
        if comm.rank == 0:
            print("%s: %s: %s" % (what, "raised" if ok else "WRONG MESSAGE",
                                str(e).splitlines()[0][:200]))
        return int(not ok)
    if comm.rank == 0:
        print("%s: NOT RAISED" % what)
    return 1


def errors(dist, comm):
    f, n, size = dist.wave3d, 7, comm.size
    b = f.blocks((n, n, n), comm)
    arrays = [b.zeros() for _ in range(4)]
    if size > 1 and comm.rank == 1:
        arrays[1] = np.zeros((b.local_shape[0] + 1,) + b.local_shape[1:])
    bad = 0
    if size > 1:
        bad += expect_error(
            comm, "wrong block", sa.DistributedError,
            ["process 1 of %d" % size, "'u_1' has shape"],
            lambda: f(*arrays, D, n, blocks=b))
    bad += expect_error(comm, "no blocks", TypeError, ["blocks="],
                        lambda: f(*[b.zeros() for _ in range(4)], D, n))
    bad += expect_error(
        comm, "grid too large", sa.DistributedError,
        ["has %d processes, but the communicator has %d" % (2 * size, size)],
        lambda: f.blocks((n, n, n), comm, grid=(2 * size, 1, 1)))
    return bad


def main():
    comm = MPI.COMM_WORLD
    source = sys.argv[1]
    dist = sa.compile(source, distribute="auto", comm=comm)
    ref = sa.compile(source, comm=comm)
    if "--empty" in sys.argv:
        n = comm.size - 1     # the last process along z owns no point
        b = dist.wave3d.blocks((n, n, n), comm, grid=(1, 1, comm.size))
        dist.wave3d(*[b.zeros() for _ in range(4)], D, n, blocks=b)
        return 0
    bad = 0
    for grid in grids(comm.size):
        for n in (comm.size + 2, 9):
            bad += check_size(dist, ref, comm, n, grid, "")
    if comm.size > 1:
        group = comm.rank % 2
        sub = comm.Split(group, comm.rank)
        for n in (5 + 3 * group, 9 + 3 * group):
            bad += check_size(dist, ref, sub, n, None, "group %d: " % group)
        bad = comm.allreduce(bad)
    bad += errors(dist, comm)
    bad = comm.allreduce(bad)
    if comm.rank == 0:
        print("PASS" if bad == 0 else "FAIL: %d" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
