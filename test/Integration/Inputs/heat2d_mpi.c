/*===- heat2d_mpi.c - 2-D time loops and their adjoints over MPI ----------===//
 *
 * Usage: mpirun -n P heat2d_mpi KERNEL DIST.so REF.so P0 P1 HALO T n...
 *
 * A kernel of Inputs/time-loops.mlir compiled with --stencil-adjoint and
 * --stencil-distribute=grid=P0,P1 (DIST.so) and without it (REF.so):
 *   heat2d        explicit diffusion in place through a temporary (linear
 *                 in u);
 *   heat2d_final  the same, then J = sum g u_T: a domain after the loop
 *                 that reads u as the loop left it.
 * For each global size n x (n + 1) and T steps every rank checks on its
 * block (halos NaN on entry):
 *   - J (heat2d_final), u and the temporary after the loop bitwise equal to
 *     one process;
 *   - the adjoint's shadows bitwise equal to one process, for store-all
 *     and Revolve with 1 and 2 snapshots;
 *   - across ranks, heat2d: the dot-product test <J v, w> = <v, J^T w>;
 *     heat2d_final: J(v) = <v, dJ/du> (J is linear in u).
 * Rank 0 prints a line per size and PASS, or FAIL with the failures.
 *
 *===----------------------------------------------------------------------===*/

#include "mpi_blocks2d.h"

typedef int64_t I;
typedef void (*Ref)(M *, M *, double, I, I, I);
typedef void (*Dist)(M *, M *, double, I, I, I, I, I);
typedef void (*AdjRef)(M *, M *, double, I, I, I, M *, M *, I);
typedef void (*AdjDist)(M *, M *, double, I, I, I, M *, M *, I, I, I);
typedef double (*FinalRef)(M *, M *, M *, double, I, I, I);
typedef double (*FinalDist)(M *, M *, M *, double, I, I, I, I, I);
typedef void (*FinalAdjRef)(M *, M *, M *, double, I, I, I, M *, M *, double,
                            I);
typedef void (*FinalAdjDist)(M *, M *, M *, double, I, I, I, M *, M *, double,
                             I, I, I);

static const double K = 0.2;

/* `final`: the kernel takes g and returns J; `agree` and `test` name its
 * checks in rank 0's lines. */
typedef struct {
  const char *name;
  int final;
  const char *agree, *test;
} Kernel;

static const Kernel kernels[] = {
    {"heat2d", 0,
     "primal and adjoint (snapshots T, 1, 2) bitwise equal to one process on "
     "every rank",
     "dot-product test"},
    {"heat2d_final", 1,
     "J, primal and adjoint (snapshots T, 1, 2) bitwise equal to one process "
     "on every rank",
     "linearity test"},
};

typedef struct {
  const Kernel *kernel;
  void *ref, *adjRef, *dist, *adjDist;
} Functions;

/* The arrays of a call: u, tmp, their shadows u_b and tmp_b, and g (read
 * by heat2d_final only). */
enum { U, Tmp, UB, TmpB, G, Arrays };

/* The loop on `a`, on one process or distributed; J (0 for heat2d). */
static double primal(const Functions *f, const Layout *L, long T, M *a,
                     int dist) {
  long n0 = L->n[0], n1 = L->n[1];
  if (!f->kernel->final) {
    if (dist)
      ((Dist)f->dist)(&a[U], &a[Tmp], K, n0, n1, T, n0, n1);
    else
      ((Ref)f->ref)(&a[U], &a[Tmp], K, n0, n1, T);
    return 0;
  }
  if (dist)
    return ((FinalDist)f->dist)(&a[U], &a[Tmp], &a[G], K, n0, n1, T, n0, n1);
  return ((FinalRef)f->ref)(&a[U], &a[Tmp], &a[G], K, n0, n1, T);
}

/* The adjoint on `a` (heat2d_final with the seed of J). */
static void adjoint(const Functions *f, const Layout *L, long T, M *a,
                    double seed, long snapshots, int dist) {
  long n0 = L->n[0], n1 = L->n[1];
  if (!f->kernel->final) {
    if (dist)
      ((AdjDist)f->adjDist)(&a[U], &a[Tmp], K, n0, n1, T, &a[UB], &a[TmpB],
                            snapshots, n0, n1);
    else
      ((AdjRef)f->adjRef)(&a[U], &a[Tmp], K, n0, n1, T, &a[UB], &a[TmpB],
                          snapshots);
  } else if (dist) {
    ((FinalAdjDist)f->adjDist)(&a[U], &a[Tmp], &a[G], K, n0, n1, T, &a[UB],
                               &a[TmpB], seed, snapshots, n0, n1);
  } else {
    ((FinalAdjRef)f->adjRef)(&a[U], &a[Tmp], &a[G], K, n0, n1, T, &a[UB],
                             &a[TmpB], seed, snapshots);
  }
}

/* The loop (or its adjoint with `snapshots`) on one process and on the
 * blocks, from the same inputs; their results bitwise. */
static long checkBitwise(const Functions *f, const Layout *L, long T,
                         long snapshots, int isAdjoint) {
  M g[Arrays], l[Arrays];
  for (int a = 0; a < Arrays; ++a) {
    g[a] = globalArray(L, a + 1);
    l[a] = localArray(L, &g[a]);
  }
  long bad = 0;
  if (isAdjoint) {
    adjoint(f, L, T, g, 1.5, snapshots, 0);
    adjoint(f, L, T, l, 1.5, snapshots, 1);
  } else {
    double Jref = primal(f, L, T, g, 0), J = primal(f, L, T, l, 1);
    bad += memcmp(&J, &Jref, sizeof(double)) != 0;
  }
  for (int a = 0; a < Arrays; ++a) {
    bad += mismatches(L, &l[a], &g[a]);
    free(g[a].allocated);
    free(l[a].allocated);
  }
  return bad;
}

/* <J v, w> - <v, J^T w> relative to the first, distributed: J v is J plus
 * <u after the loop from v, w>. heat2d_final takes w = 0 and the seed 1,
 * which makes it J(v) - <v, dJ/du>. */
static double linearTest(const Functions *f, const Layout *L, long T) {
  int final = f->kernel->final;
  M v = globalArray(L, final ? 6 : 5), zero = globalArray(L, 0),
    w = globalArray(L, final ? 0 : 6), g = globalArray(L, 7);
  M run[Arrays] = {localArray(L, &v), localArray(L, &zero),
                   localArray(L, &zero), localArray(L, &zero),
                   localArray(L, &g)};
  double Jv_w = primal(f, L, T, run, 1) + dot(L, &run[U], &w);
  M back[Arrays] = {localArray(L, &v), localArray(L, &zero),
                    localArray(L, &w), localArray(L, &zero),
                    localArray(L, &g)};
  adjoint(f, L, T, back, 1.0, T, 1);
  double v_JTw = dot(L, &back[UB], &v);
  M all[4] = {v, zero, w, g};
  for (int a = 0; a < 4; ++a)
    free(all[a].allocated);
  for (int a = 0; a < Arrays; ++a) {
    free(run[a].allocated);
    free(back[a].allocated);
  }
  return fabs(Jv_w - v_JTw) / fmax(fabs(Jv_w), 1e-300);
}

int main(int argc, char **argv) {
  const Kernel *kernel = NULL;
  for (unsigned k = 0; argc > 1 && k < sizeof kernels / sizeof *kernels; ++k)
    if (!strcmp(argv[1], kernels[k].name))
      kernel = &kernels[k];
  if (!kernel) {
    fprintf(stderr, "usage: %s heat2d|heat2d_final DIST.so REF.so P0 P1 "
                    "HALO T n...\n", argv[0]);
    return 2;
  }
  /* The arguments after KERNEL are those of every 2-D driver. */
  int args = argc - 1;
  char **arg = argv + 1;
  Run2D run = startRun2D(&args, &arg, kernel->name);
  int rank = run.rank;
  long *P = run.P, T = run.T;
  Layout L = run.L;
  char primalName[64], adjointName[64];
  snprintf(primalName, sizeof primalName, "_mlir_ciface_%s", kernel->name);
  snprintf(adjointName, sizeof adjointName, "_mlir_ciface_%s_adjoint",
           kernel->name);
  Functions f = {kernel, loadSymbol(arg[2], primalName),
                 loadSymbol(arg[2], adjointName), loadSymbol(arg[1], primalName),
                 loadSymbol(arg[1], adjointName)};
  long failures = 0;
  for (int a = 7; a < args; ++a) {
    L.n[0] = atol(arg[a]);
    L.n[1] = L.n[0] + 1;
    layBlocks(&L, P, rank);
    long bad = 0;
    const long snapshots[3] = {T, 1, 2};
    bad += checkBitwise(&f, &L, T, T, 0);
    for (int s = 0; s < 3; ++s)
      bad += checkBitwise(&f, &L, T, snapshots[s], 1);
    double rel = linearTest(&f, &L, T);
    bad += !(rel < 1e-13);
    long total = failuresOnAllRanks(bad);
    if (rank == 0)
      printf("n = %ldx%ld, T = %ld: %s, %s %.1e\n", L.n[0], L.n[1], T,
             total ? "MISMATCH" : kernel->agree, kernel->test, rel);
    failures += bad;
  }
  return finish(failures);
}
