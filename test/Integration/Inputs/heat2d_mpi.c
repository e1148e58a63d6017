/*===- heat2d_mpi.c - A 2-D time loop and its adjoint over MPI -----------===//
 *
 * Usage: mpirun -n P heat2d_mpi DIST.so REF.so P0 P1 HALO T n...
 *
 * @heat2d of Inputs/time-loops.mlir (explicit diffusion in place through a
 * temporary: linear in u) compiled with --stencil-adjoint and
 * --stencil-distribute=grid=P0,P1 (DIST.so) and without it (REF.so). For
 * each global size n x (n + 1) and T steps every rank checks on its block
 * (halos NaN on entry):
 *   - u and the temporary after the loop bitwise equal to one process;
 *   - the adjoint's shadows bitwise equal to one process, for store-all
 *     and Revolve with 1 and 2 snapshots;
 *   - the dot-product test <J v, w> = <v, J^T w> across ranks.
 * Rank 0 prints a line per size and PASS, or FAIL with the failures.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_blocks2d.h"

typedef int64_t I;
typedef void (*Ref)(M *, M *, double, I, I, I);
typedef void (*Dist)(M *, M *, double, I, I, I, I, I);
typedef void (*AdjRef)(M *, M *, double, I, I, I, M *, M *, I);
typedef void (*AdjDist)(M *, M *, double, I, I, I, M *, M *, I, I, I);

static const double K = 0.2;

typedef struct {
  Ref ref;
  AdjRef adjRef;
  Dist dist;
  AdjDist adjDist;
} Functions;

/* The loop (or its adjoint with `snapshots`) on one process and on the
 * blocks, from the same inputs; their results bitwise. */
static long checkBitwise(const Functions *f, const Layout *L, long T,
                         long snapshots, int adjoint) {
  long n0 = L->n[0], n1 = L->n[1];
  M g[4] = {globalArray(L, 1), globalArray(L, 2), globalArray(L, 3),
            globalArray(L, 4)};
  M l[4];
  for (int a = 0; a < 4; ++a)
    l[a] = localArray(L, &g[a]);
  if (adjoint) {
    f->adjRef(&g[0], &g[1], K, n0, n1, T, &g[2], &g[3], snapshots);
    f->adjDist(&l[0], &l[1], K, n0, n1, T, &l[2], &l[3], snapshots, n0, n1);
  } else {
    f->ref(&g[0], &g[1], K, n0, n1, T);
    f->dist(&l[0], &l[1], K, n0, n1, T, n0, n1);
  }
  long bad = 0;
  for (int a = 0; a < 4; ++a) {
    bad += mismatches(L, &l[a], &g[a]);
    free(g[a].allocated);
    free(l[a].allocated);
  }
  return bad;
}

/* <J v, w> - <v, J^T w> relative to the first, distributed. */
static double dotTest(const Functions *f, const Layout *L, long T) {
  long n0 = L->n[0], n1 = L->n[1];
  M v = globalArray(L, 5), w = globalArray(L, 6), zero = globalArray(L, 0);
  M u = localArray(L, &v), tmp = localArray(L, &zero);
  f->dist(&u, &tmp, K, n0, n1, T, n0, n1);
  double Jv_w = dot(L, &u, &w);
  M x = localArray(L, &v), xt = localArray(L, &zero), ub = localArray(L, &w),
    tb = localArray(L, &zero);
  f->adjDist(&x, &xt, K, n0, n1, T, &ub, &tb, T, n0, n1);
  double v_JTw = dot(L, &ub, &v);
  M all[9] = {v, w, zero, u, tmp, x, xt, ub, tb};
  for (int a = 0; a < 9; ++a)
    free(all[a].allocated);
  return fabs(Jv_w - v_JTw) / fmax(fabs(Jv_w), 1e-300);
}

int main(int argc, char **argv) {
  Run2D run = startRun2D(&argc, &argv, "heat2d");
  int rank = run.rank;
  long *P = run.P, T = run.T;
  Layout L = run.L;
  Functions f = {loadSymbol(argv[2], "_mlir_ciface_heat2d"),
                 loadSymbol(argv[2], "_mlir_ciface_heat2d_adjoint"),
                 loadSymbol(argv[1], "_mlir_ciface_heat2d"),
                 loadSymbol(argv[1], "_mlir_ciface_heat2d_adjoint")};
  long failures = 0;
  for (int a = 7; a < argc; ++a) {
    L.n[0] = atol(argv[a]);
    L.n[1] = L.n[0] + 1;
    layBlocks(&L, P, rank);
    long bad = 0;
    const long snapshots[3] = {T, 1, 2};
    bad += checkBitwise(&f, &L, T, T, 0);
    for (int s = 0; s < 3; ++s)
      bad += checkBitwise(&f, &L, T, snapshots[s], 1);
    double rel = dotTest(&f, &L, T);
    bad += !(rel < 1e-13);
    long total = failuresOnAllRanks(bad);
    if (rank == 0)
      printf("n = %ldx%ld, T = %ld: %s, dot-product test %.1e\n", L.n[0],
             L.n[1], T,
             total ? "MISMATCH"
                   : "primal and adjoint (snapshots T, 1, 2) bitwise equal "
                     "to one process on every rank",
             rel);
    failures += bad;
  }
  return finish(failures);
}
