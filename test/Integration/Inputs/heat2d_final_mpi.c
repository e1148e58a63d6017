/*===- heat2d_final_mpi.c - A time loop with a tail over MPI --------------===//
 *
 * Usage: mpirun -n P heat2d_final_mpi DIST.so REF.so P0 P1 HALO T n...
 *
 * @heat2d_final of Inputs/time-loops.mlir (diffusion in place through a
 * temporary, then J = sum g u_T, a domain after the loop that reads u as
 * the loop left it) compiled with --stencil-adjoint and
 * --stencil-distribute=grid=P0,P1 (DIST.so) and without it (REF.so). For
 * each global size n x (n + 1) and T steps every rank checks on its block
 * (halos NaN on entry):
 *   - J, u and the temporary after the loop bitwise equal to one process;
 *   - the adjoint's shadows bitwise equal to one process, for store-all
 *     and Revolve with 1 and 2 snapshots;
 *   - J(v) = <v, dJ/du> (J is linear in u) across ranks.
 * Rank 0 prints a line per size and PASS, or FAIL with the failures.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_blocks2d.h"

typedef int64_t I;
typedef double (*Ref)(M *, M *, M *, double, I, I, I);
typedef double (*Dist)(M *, M *, M *, double, I, I, I, I, I);
typedef void (*AdjRef)(M *, M *, M *, double, I, I, I, M *, M *, double, I);
typedef void (*AdjDist)(M *, M *, M *, double, I, I, I, M *, M *, double, I,
                        I, I);

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
  M g[5] = {globalArray(L, 1), globalArray(L, 2), globalArray(L, 3),
            globalArray(L, 4), globalArray(L, 5)};
  M l[5];
  for (int a = 0; a < 5; ++a)
    l[a] = localArray(L, &g[a]);
  long bad = 0;
  if (adjoint) {
    f->adjRef(&g[0], &g[1], &g[2], K, n0, n1, T, &g[3], &g[4], 1.5,
              snapshots);
    f->adjDist(&l[0], &l[1], &l[2], K, n0, n1, T, &l[3], &l[4], 1.5,
               snapshots, n0, n1);
  } else {
    double Jref = f->ref(&g[0], &g[1], &g[2], K, n0, n1, T);
    double J = f->dist(&l[0], &l[1], &l[2], K, n0, n1, T, n0, n1);
    bad += memcmp(&J, &Jref, sizeof(double)) != 0;
  }
  for (int a = 0; a < 5; ++a) {
    bad += mismatches(L, &l[a], &g[a]);
    free(g[a].allocated);
    free(l[a].allocated);
  }
  return bad;
}

/* |J(v) - <v, dJ/du>| relative to J(v), distributed. */
static double linearityTest(const Functions *f, const Layout *L, long T) {
  long n0 = L->n[0], n1 = L->n[1];
  M v = globalArray(L, 6), g = globalArray(L, 7), zero = globalArray(L, 0);
  M u = localArray(L, &v), tmp = localArray(L, &zero), lg = localArray(L, &g);
  double J = f->dist(&u, &tmp, &lg, K, n0, n1, T, n0, n1);
  M x = localArray(L, &v), xt = localArray(L, &zero), ub = localArray(L, &zero),
    tb = localArray(L, &zero);
  f->adjDist(&x, &xt, &lg, K, n0, n1, T, &ub, &tb, 1.0, T, n0, n1);
  double grad = dot(L, &ub, &v);
  M all[10] = {v, g, zero, u, tmp, lg, x, xt, ub, tb};
  for (int a = 0; a < 10; ++a)
    free(all[a].allocated);
  return fabs(J - grad) / fmax(fabs(J), 1e-300);
}

int main(int argc, char **argv) {
  Run2D run = startRun2D(&argc, &argv, "heat2d_final");
  int rank = run.rank;
  long *P = run.P, T = run.T;
  Layout L = run.L;
  Functions f = {loadSymbol(argv[2], "_mlir_ciface_heat2d_final"),
                 loadSymbol(argv[2], "_mlir_ciface_heat2d_final_adjoint"),
                 loadSymbol(argv[1], "_mlir_ciface_heat2d_final"),
                 loadSymbol(argv[1], "_mlir_ciface_heat2d_final_adjoint")};
  long failures = 0;
  for (int a = 7; a < argc; ++a) {
    L.n[0] = atol(argv[a]);
    L.n[1] = L.n[0] + 1;
    layBlocks(&L, P, rank);
    long bad = checkBitwise(&f, &L, T, T, 0);
    const long snapshots[3] = {T, 1, 2};
    for (int s = 0; s < 3; ++s)
      bad += checkBitwise(&f, &L, T, snapshots[s], 1);
    double rel = linearityTest(&f, &L, T);
    bad += !(rel < 1e-13);
    long total = failuresOnAllRanks(bad);
    if (rank == 0)
      printf("n = %ldx%ld, T = %ld: %s, linearity test %.1e\n", L.n[0],
             L.n[1], T,
             total ? "MISMATCH"
                   : "J, primal and adjoint (snapshots T, 1, 2) bitwise "
                     "equal to one process on every rank",
             rel);
    failures += bad;
  }
  return finish(failures);
}
