/*===- wave2d_mpi.c - Border snapshots of a 2-D time loop over MPI -------===//
 *
 * Usage: mpirun -n P wave2d_mpi DIST.so REF.so P0 P1 HALO T n...
 *
 * @wave2d of Inputs/wave2d-borders.mlir (a leapfrog through three rotated
 * buffers, nonlinear in c; the adjoint seeded with the final buffers'
 * shadows) compiled with --stencil-adjoint and --stencil-distribute=grid=P0,P1 (DIST.so) and
 * without it (REF.so). Its Revolve slots keep u_prev and u_t whole and only
 * the border of u_next: what the step does not overwrite. Every buffer
 * starts with other values on its faces, so a restore that puts back a
 * wrong border changes the gradient. For each global size n x (n + 2) and
 * T steps every rank checks on its block (halos NaN on entry):
 *   - the buffers after the loop bitwise equal to one process;
 *   - the gradients of Revolve with 1, 2 and 3 snapshots and of store-all
 *     bitwise equal to the one-process store-all gradient (which copies no
 *     border: it never restores a slot);
 *   - the bytes of a Revolve slot on this rank: two blocks with their halos
 *     and the rest of a third outside the points of the global interior
 *     that the rank owns, each part rounded up to 64 bytes.
 * Rank 0 prints a line per size and PASS, or FAIL with the failures.
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/Runtime/Checkpoint.h"
#include "mpi_blocks2d.h"

typedef int64_t I;
typedef void (*Ref)(M *, M *, M *, M *, I, I, I);
typedef void (*Dist)(M *, M *, M *, M *, I, I, I, I, I);
typedef void (*AdjRef)(M *, M *, M *, M *, I, I, I, M *, M *, M *, M *, I);
typedef void (*AdjDist)(M *, M *, M *, M *, I, I, I, M *, M *, M *, M *, I,
                        I, I);
typedef stencil_ckpt_stats (*Stats)(void);

typedef struct {
  Ref ref;
  AdjRef adjRef;
  Dist dist;
  AdjDist adjDist;
  Stats distStats;
} Functions;

enum { Arrays = 8 };

/* u0, u1, u2 (test values), c in [0.2, 0.5], the four shadows. */
static void globalArrays(const Layout *L, M g[Arrays]) {
  for (int a = 0; a < Arrays; ++a)
    g[a] = globalArray(L, a + 1);
  for (long p = 0; p < L->n[0] * L->n[1]; ++p)
    g[3].aligned[p] = 0.35 + 0.15 * g[3].aligned[p];
}

static void freeArrays(M a[Arrays]) {
  for (int k = 0; k < Arrays; ++k)
    free(a[k].allocated);
}

static void primal(const Functions *f, M *a, const Layout *L, long T,
                   int dist) {
  I n0 = L->n[0], n1 = L->n[1];
  if (dist)
    f->dist(&a[0], &a[1], &a[2], &a[3], n0, n1, T, n0, n1);
  else
    f->ref(&a[0], &a[1], &a[2], &a[3], n0, n1, T);
}

static void adjoint(const Functions *f, M *a, const Layout *L, long T,
                    long snapshots, int dist) {
  I n0 = L->n[0], n1 = L->n[1];
  if (dist)
    f->adjDist(&a[0], &a[1], &a[2], &a[3], n0, n1, T, &a[4], &a[5], &a[6],
               &a[7], snapshots, n0, n1);
  else
    f->adjRef(&a[0], &a[1], &a[2], &a[3], n0, n1, T, &a[4], &a[5], &a[6],
              &a[7], snapshots);
}

/* The primal on one process and on the blocks: the buffers after it. */
static long checkPrimal(const Functions *f, const Layout *L, long T) {
  M g[Arrays], l[Arrays];
  globalArrays(L, g);
  for (int a = 0; a < Arrays; ++a)
    l[a] = localArray(L, &g[a]);
  primal(f, g, L, T, 0);
  primal(f, l, L, T, 1);
  long bad = 0;
  for (int a = 0; a < 4; ++a)
    bad += mismatches(L, &l[a], &g[a]);
  freeArrays(g);
  freeArrays(l);
  return bad;
}

static long roundToLine(long bytes) { return (bytes + 63) / 64 * 64; }

/* What a Revolve slot should take on this rank (see the header). */
static long expectedSlotBytes(const Layout *L) {
  long h = L->halo, block = 1, owned = 1;
  for (int k = 0; k < 2; ++k) {
    block *= L->count[k] + 2 * h;
    long lo = L->start[k] > 1 ? L->start[k] : 1;
    long end = L->start[k] + L->count[k];
    long hi = end < L->n[k] - 1 ? end : L->n[k] - 1;
    owned *= hi > lo ? hi - lo : 0;
  }
  long bytes = (long)sizeof(double);
  return 2 * roundToLine(block * bytes) + roundToLine((block - owned) * bytes);
}

/* The gradients with `snapshots` on the blocks against the one-process
 * store-all gradient, bitwise; with `slot`, the slot's bytes too. */
static long checkAdjoint(const Functions *f, const Layout *L, long T,
                         long snapshots, long *slot) {
  M g[Arrays], l[Arrays];
  globalArrays(L, g);
  for (int a = 0; a < Arrays; ++a)
    l[a] = localArray(L, &g[a]);
  adjoint(f, g, L, T, T, 0);
  adjoint(f, l, L, T, snapshots, 1);
  long bad = 0;
  for (int a = 4; a < Arrays; ++a)
    bad += mismatches(L, &l[a], &g[a]);
  if (slot) {
    *slot = f->distStats().slot_bytes;
    bad += *slot != expectedSlotBytes(L);
  }
  freeArrays(g);
  freeArrays(l);
  return bad;
}

int main(int argc, char **argv) {
  Run2D run = startRun2D(&argc, &argv, "wave2d");
  int rank = run.rank;
  long *P = run.P, T = run.T;
  Layout L = run.L;
  Functions f = {loadSymbol(argv[2], "_mlir_ciface_wave2d"),
                 loadSymbol(argv[2], "_mlir_ciface_wave2d_adjoint"),
                 loadSymbol(argv[1], "_mlir_ciface_wave2d"),
                 loadSymbol(argv[1], "_mlir_ciface_wave2d_adjoint"),
                 loadSymbol(argv[1], "stencil_ckpt_last_stats")};
  long failures = 0;
  for (int a = 7; a < argc; ++a) {
    L.n[0] = atol(argv[a]);
    L.n[1] = L.n[0] + 2;
    layBlocks(&L, P, rank);
    long slot = 0, bad = checkPrimal(&f, &L, T);
    bad += checkAdjoint(&f, &L, T, T, NULL);
    bad += checkAdjoint(&f, &L, T, 1, NULL);
    bad += checkAdjoint(&f, &L, T, 3, NULL);
    bad += checkAdjoint(&f, &L, T, 2, &slot);
    long total = failuresOnAllRanks(bad);
    if (bad)
      printf("rank %d: %ld failures; a slot takes %ld bytes, expected %ld\n",
             rank, bad, slot, expectedSlotBytes(&L));
    if (rank == 0)
      printf("n = %ldx%ld, T = %ld: %s\n", L.n[0], L.n[1], T,
             total ? "MISMATCH"
                   : "primal bitwise equal to one process, Revolve (1, 2, 3 "
                     "snapshots) and store-all bitwise equal to its "
                     "store-all, slots of 2 blocks and a border, on every "
                     "rank");
    failures += bad;
  }
  return finish(failures);
}
