#!/usr/bin/env python3
"""Full-waveform inversion's gradient on MPI processes, from Python with
mpi4py (docs/Python.md, "Distributed functions"; docs/Distributed.md): the
kernel of examples/python/fwi_gradient.py compiled once with
distribute="auto" (any number of processes, on the grid MPI_Dims_create
chooses; the receivers' misfit is summed in the order of one process on
any grid, so that it is the single process's, bit for bit) and called on
each process's block.

Process 0 records the traces of a true model with NumPy and broadcasts them
(every process holds them whole); the starting model is scattered from
process 0; the misfit J and dJ/dm come from the distributed time loop and
its reversal with binomial checkpointing; dJ/dm is gathered on process 0,
which prints J and a checksum of the gradient (the sum of its bit
patterns) that are the same on any number of processes, and checks the
gradient against a central difference of J. With --check-serial, process 0
also computes both with the single-process library and counts the values
that differ (0 expected). Exits 1 if a check fails.

    stencil-mpirun -n 4 /usr/bin/python3 examples/python/fwi_mpi.py \\
        [--check-serial] [n [steps [snapshots]]]      (default 24 60 6)
"""

import os
import sys

import numpy as np
from mpi4py import MPI

import stencilad as sa

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fwi_gradient import fwi_kernel, model, record, ricker  # noqa: E402


def checksum(array):
    """The sum of the bit patterns of `array`'s values (order-free)."""
    return int(np.sum(array.view(np.uint64), dtype=np.uint64))


def main():
    comm = MPI.COMM_WORLD
    args = sys.argv[1:]
    serial = "--check-serial" in args
    args = [a for a in args if a != "--check-serial"]
    n = int(args[0]) if len(args) > 0 else 24
    steps = int(args[1]) if len(args) > 1 else 60
    snapshots = int(args[2]) if len(args) > 2 else 6

    fwi = fwi_kernel().compile(distribute="auto", comm=comm)
    b = fwi.blocks((n, n, n), comm)
    survey = dict(n=n, sx=n // 2, sy=n // 2, sz=n - 4, zr=3, steps=steps)
    w = ricker(np.arange(steps, dtype=np.float64), 0.04)
    d = record(model(n, 0.2), w, **survey) if b.rank == 0 else None
    d = comm.bcast(d, root=0)
    m0 = b.scatter(model(n, 0.0) if b.rank == 0 else None)

    def state():
        return dict(u0=b.zeros(), u1=b.zeros(), u2=b.zeros())

    def misfit(m):
        return fwi(**state(), m=m, w=w, d=d, **survey, blocks=b)

    J, _, grads = fwi.value_and_grad(**state(), m=m0, w=w, d=d, **survey,
                                     snapshots=snapshots, blocks=b)
    gradient = b.gather(grads["m"])

    # <dJ/dm, dm> against a central difference of J, dm a fixed field.
    rng = np.random.default_rng(7)
    dm_global = rng.standard_normal((n, n, n)) if b.rank == 0 else None
    dm = b.scatter(dm_global)
    h = 1e-7
    dot = comm.allreduce(float(np.sum(b.owned(grads["m"]) * b.owned(dm))))
    fd = (misfit(m0 + h * dm) - misfit(m0 - h * dm)) / (2 * h)
    rel = abs(fd - dot) / max(abs(fd), 1e-300)
    ok = rel < 1e-5
    if b.rank == 0:
        print("fwi on %d processes (grid %s, halo %d), n = %d, %d steps, %d "
              "snapshots" % (b.size, "x".join(map(str, b.grid)), b.halo, n,
                             steps, snapshots))
        print("misfit J = %s" % float(J).hex())
        print("gradient checksum: %016x" % checksum(gradient))
        print("gradient check: <dJ/dm, dm> = %.10g, finite difference = "
              "%.10g, relative difference %.2e" % (dot, fd, rel))
    if serial and b.rank == 0:
        one = fwi_kernel().compile()
        zeros = dict(u0=np.zeros((n,) * 3), u1=np.zeros((n,) * 3),
                     u2=np.zeros((n,) * 3))
        J1, _, g1 = one.value_and_grad(**zeros, m=model(n, 0.0), w=w, d=d,
                                       **survey, snapshots=snapshots)
        differ = int(np.sum(gradient.view(np.uint64) !=
                            g1["m"].view(np.uint64)))
        differ += float(J1).hex() != float(J).hex()
        print("against one process: %d values differ" % differ)
        ok = ok and differ == 0
    ok = comm.allreduce(ok, op=MPI.LAND)
    if b.rank == 0:
        print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
