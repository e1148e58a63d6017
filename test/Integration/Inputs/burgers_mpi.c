/*===- burgers_mpi.c - burgers1d and its adjoint over MPI -----------------===//
 *
 * Usage: mpirun -n P burgers_mpi DIST.so REF.so HALO n...
 *
 * DIST.so: examples/burgers1d.mlir compiled with --stencil-adjoint
 * --stencil-distribute=grid=P; REF.so: the same without it. Burgers'
 * equation is nonlinear: the adjoint reads the primal state u_1 two points
 * beyond the block (the partials of the statements it shifts) and the
 * output adjoint one point beyond. For each global size n every rank checks,
 * on its block (halos NaN on entry):
 *   - the primal and the adjoint bitwise equal to the single-process
 *     reference;
 *   - the gradient of J(u_1) = <w, u(u_1)> along a random direction v
 *     against a central finite difference of J (summed across ranks);
 *   - the adjoint's messages: per neighbour, one of 2 points (u_1) and one
 *     of 1 point (u_b), counted through PMPI.
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Runtime/Distributed.h"
#include "mpi_blocks1d.h"
#include "mpi_common.h"

#include <math.h>

typedef void (*RefPrimal)(V *, V *, double, double, int64_t);
typedef void (*RefAdjoint)(V *, V *, double, double, int64_t, V *, V *);
typedef void (*DistPrimal)(V *, V *, double, double, int64_t, int64_t);
typedef void (*DistAdjoint)(V *, V *, double, double, int64_t, V *, V *,
                            int64_t);

static const double C = 0.3, D = 0.2;

typedef struct {
  RefPrimal refPrimal;
  RefAdjoint refAdjoint;
  DistPrimal primal;
  DistAdjoint adjoint;
} Kernels;

/* J(u_1 + scale v) = <w, u> with u computed on the blocks. */
static double objective(const Kernels *K, const Block *b, double scale) {
  V u1g = globalArray(b->n, 2, 8, scale), zero = globalArray(b->n, 0, 0, 0),
    wg = globalArray(b->n, 10, 0, 0);
  V u1 = block(b, &u1g), u = block(b, &zero), w = block(b, &wg);
  K->primal(&u, &u1, C, D, b->n, b->n);
  double j = dot(b, &w, &u);
  V all[6] = {u1g, zero, wg, u1, u, w};
  for (int a = 0; a < 6; ++a)
    free(all[a].allocated);
  return j;
}

static long checkSize(const Kernels *K, Block *b, int P, int rank) {
  long n = b->n;
  b->start = stencil_dist_block_start(n, P, rank);
  b->count = stencil_dist_block_count(n, P, rank);
  /* Primal and adjoint against one process. */
  V ug = globalArray(n, 1, 0, 0), u1g = globalArray(n, 2, 0, 0),
    ubg = globalArray(n, 5, 0, 0), u1bg = globalArray(n, 6, 0, 0);
  V u = block(b, &ug), u1 = block(b, &u1g), ub = block(b, &ubg),
    u1b = block(b, &u1bg);
  K->refPrimal(&ug, &u1g, C, D, n);
  K->primal(&u, &u1, C, D, n, n);
  long bad = mismatches(b, &u, &ug);
  K->refAdjoint(&ug, &u1g, C, D, n, &ubg, &u1bg);
  sentMessages = sentBytes = 0;
  K->adjoint(&u, &u1, C, D, n, &ub, &u1b, n);
  long messages = sentMessages, bytes = sentBytes;
  bad += mismatches(b, &ub, &ubg) + mismatches(b, &u1b, &u1bg);
  long neighbours = (rank > 0) + (rank < P - 1);
  int traffic = messages == 2 * neighbours &&
                bytes == 3 * neighbours * (long)sizeof(double);
  /* The gradient along v against a central difference of J. */
  V zero = globalArray(n, 0, 0, 0), u1vg = globalArray(n, 2, 0, 0),
    vg = globalArray(n, 8, 0, 0), wg = globalArray(n, 10, 0, 0);
  V gu = block(b, &zero), gu1 = block(b, &u1vg), gw = block(b, &wg),
    gv = block(b, &vg), gu1b = block(b, &zero);
  K->adjoint(&gu, &gu1, C, D, n, &gw, &gu1b, n);
  double adjoint = dot(b, &gv, &gu1b), h = 1e-6;
  double fd = (objective(K, b, h) - objective(K, b, -h)) / (2 * h);
  double rel = fabs(fd - adjoint) / fmax(fabs(adjoint), 1e-300);
  long failures = bad + !traffic + (n >= 3 && !(rel < 1e-6));
  if (bad || !traffic)
    fprintf(stderr,
            "rank %d, n = %ld: %ld points differ; the adjoint sent %ld "
            "messages, %ld bytes\n",
            rank, n, bad, messages, bytes);
  long total = failuresOnAllRanks(failures);
  if (rank == 0)
    printf("n = %ld: %s, gradient vs central difference %.1e\n", n,
           total ? "MISMATCH"
                 : "primal and adjoint bitwise equal to one process, "
                   "messages minimal",
           rel);
  V all[13] = {ug, u1g, ubg, u1bg, u, u1, ub, u1b, zero, u1vg, vg, wg, gu};
  for (int a = 0; a < 13; ++a)
    free(all[a].allocated);
  V rest[4] = {gu1, gw, gv, gu1b};
  for (int a = 0; a < 4; ++a)
    free(rest[a].allocated);
  return failures;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 5) {
    fprintf(stderr, "usage: %s DIST.so REF.so HALO n...\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  Kernels K = {loadSymbol(argv[2], "_mlir_ciface_burgers1d"),
               loadSymbol(argv[2], "_mlir_ciface_burgers1d_adjoint"),
               loadSymbol(argv[1], "_mlir_ciface_burgers1d"),
               loadSymbol(argv[1], "_mlir_ciface_burgers1d_adjoint")};
  Block b = {0, 0, 0, atoi(argv[3])};
  if (rank == 0)
    printf("burgers1d over %d ranks, halo %ld\n", size, b.halo);
  long failures = 0;
  for (int a = 4; a < argc; ++a) {
    b.n = atol(argv[a]);
    failures += checkSize(&K, &b, size, rank);
  }
  return finish(failures);
}
