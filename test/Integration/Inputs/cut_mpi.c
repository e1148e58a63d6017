/*===- cut_mpi.c - A cut scatter over MPI ---------------------------------===//
 *
 * Usage: mpirun -n P cut_mpi DIST.so REF.so P0 P1 HALO T n...
 *
 * Inputs/cut_scatter.mlir compiled with --stencil-distribute=grid=P0,P1
 * (DIST.so, where --stencil-cut-shared stores the product over the rank's
 * bounds, through a view) and without it (REF.so). For each global size
 * n x (n + 1) every rank checks that the accumulated array on its block
 * (halos NaN on entry) is bitwise equal to one process. T is unused.
 * Rank 0 prints a line per size and PASS, or FAIL with the failures.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_blocks2d.h"

typedef int64_t I;
typedef void (*Ref)(M *, M *, I);
typedef void (*Dist)(M *, M *, I, I, I);

int main(int argc, char **argv) {
  Run2D run = startRun2D(&argc, &argv, "scatter");
  Layout L = run.L;
  Ref ref = (Ref)loadSymbol(argv[2], "_mlir_ciface_scatter");
  Dist dist = (Dist)loadSymbol(argv[1], "_mlir_ciface_scatter");
  long failures = 0;
  for (int a = 7; a < argc; ++a) {
    L.n[0] = atol(argv[a]);
    L.n[1] = L.n[0] + 1;
    layBlocks(&L, run.P, run.rank);
    M c = globalArray(&L, 1), ub = globalArray(&L, 2);
    M lc = localArray(&L, &c), lub = localArray(&L, &ub);
    ref(&c, &ub, L.n[0]);
    dist(&lc, &lub, L.n[0], L.n[0], L.n[1]);
    long bad = mismatches(&L, &lub, &ub), all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (run.rank == 0)
      printf("n=%ld: accumulated array bitwise equal to one process on every "
             "rank: %s\n",
             L.n[0], all ? "FAIL" : "ok");
    failures += all;
    M arrays[4] = {c, ub, lc, lub};
    for (int k = 0; k < 4; ++k)
      free(arrays[k].allocated);
  }
  if (run.rank == 0)
    printf(failures ? "FAIL\n" : "PASS\n");
  MPI_Finalize();
  return failures != 0;
}
