/*===- burgers_energy_mpi.c - Sums across ranks, bitwise -------------------===//
 *
 * Usage: mpirun -n P burgers_energy_mpi DIST.so REF.so HALO n...
 *
 * Inputs/burgers_energy.mlir: a Burgers step with the coefficient C active,
 * returning the energy of the new state (a sum over the domain); its
 * adjoint adds dE/dC to a scalar shadow (another sum). DIST.so is compiled
 * with --stencil-adjoint --stencil-distribute=grid=P, REF.so without. For
 * each global size n every rank checks, on its block (halos NaN on entry):
 *   - the energy, and dE/dC, bitwise equal to one process on every rank
 *     (the partial sums of each rank's slices are added in global order);
 *   - the state and the array gradients bitwise equal to one process;
 *   - dE/dC against a central difference of the energy in C.
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Runtime/Distributed.h"
#include "mpi_blocks1d.h"

typedef StencilMemRef0D_f64 S;
typedef double (*RefPrimal)(V *, V *, double, double, int64_t);
typedef void (*RefAdjoint)(V *, V *, double, double, int64_t, V *, V *, S *,
                           double);
typedef double (*DistPrimal)(V *, V *, double, double, int64_t, int64_t);
typedef void (*DistAdjoint)(V *, V *, double, double, int64_t, V *, V *, S *,
                            double, int64_t);

static const double D = 0.2;

typedef struct {
  RefPrimal refPrimal;
  RefAdjoint refAdjoint;
  DistPrimal primal;
  DistAdjoint adjoint;
} Kernels;

/* The energy for coefficient c, on the blocks. */
static double energy(const Kernels *K, const Block *b, double c) {
  V zero = globalArray(b->n, 0, 0, 0), u1g = globalArray(b->n, 2, 0, 0);
  V u = block(b, &zero), u1 = block(b, &u1g);
  double e = K->primal(&u, &u1, c, D, b->n, b->n);
  V all[4] = {zero, u1g, u, u1};
  for (int a = 0; a < 4; ++a)
    free(all[a].allocated);
  return e;
}

static long checkSize(const Kernels *K, Block *b, int P, int rank) {
  long n = b->n;
  const double C = 0.3;
  b->start = stencil_dist_block_start(n, P, rank);
  b->count = stencil_dist_block_count(n, P, rank);
  V ug = globalArray(n, 1, 0, 0), u1g = globalArray(n, 2, 0, 0),
    ubg = globalArray(n, 5, 0, 0), u1bg = globalArray(n, 6, 0, 0);
  V u = block(b, &ug), u1 = block(b, &u1g), ub = block(b, &ubg),
    u1b = block(b, &u1bg);
  double refEnergy = K->refPrimal(&ug, &u1g, C, D, n);
  double distEnergy = K->primal(&u, &u1, C, D, n, n);
  long bad = mismatches(b, &u, &ug) +
             (memcmp(&refEnergy, &distEnergy, sizeof(double)) != 0);
  double refCb = 0.25, distCb = 0.25;
  S refS = {&refCb, &refCb, 0}, distS = {&distCb, &distCb, 0};
  K->refAdjoint(&ug, &u1g, C, D, n, &ubg, &u1bg, &refS, 1.5);
  K->adjoint(&u, &u1, C, D, n, &ub, &u1b, &distS, 1.5, n);
  bad += mismatches(b, &ub, &ubg) + mismatches(b, &u1b, &u1bg) +
         (memcmp(&refCb, &distCb, sizeof(double)) != 0);
  /* dE/dC alone (seed 1, zero shadows) against a central difference. */
  V zero = globalArray(n, 0, 0, 0);
  V gu = block(b, &zero), gu1 = block(b, &u1g), gub = block(b, &zero),
    gu1b = block(b, &zero);
  double cb = 0;
  S cbS = {&cb, &cb, 0};
  K->adjoint(&gu, &gu1, C, D, n, &gub, &gu1b, &cbS, 1.0, n);
  double h = 1e-6;
  double fd = (energy(K, b, C + h) - energy(K, b, C - h)) / (2 * h);
  double rel = fabs(fd - cb) / fmax(fabs(cb), 1e-300);
  long failures = bad + (n >= 3 && !(rel < 1e-7));
  if (bad)
    fprintf(stderr, "rank %d, n = %ld: %ld values differ (energy %a vs %a, "
                    "dE/dC %a vs %a)\n",
            rank, n, bad, distEnergy, refEnergy, distCb, refCb);
  long total = failuresOnAllRanks(failures);
  if (rank == 0)
    printf("n = %ld: %s, dE/dC = %.6e vs central difference %.1e\n", n,
           total ? "MISMATCH"
                 : "energy, dE/dC and arrays bitwise equal to one process "
                   "on every rank",
           cb, rel);
  V all[12] = {ug, u1g, ubg, u1bg, u, u1, ub, u1b, zero, gu, gu1, gub};
  for (int a = 0; a < 12; ++a)
    free(all[a].allocated);
  free(gu1b.allocated);
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
  Kernels K = {loadSymbol(argv[2], "_mlir_ciface_burgers_energy"),
               loadSymbol(argv[2], "_mlir_ciface_burgers_energy_adjoint"),
               loadSymbol(argv[1], "_mlir_ciface_burgers_energy"),
               loadSymbol(argv[1], "_mlir_ciface_burgers_energy_adjoint")};
  Block b = {0, 0, 0, atoi(argv[3])};
  if (rank == 0)
    printf("burgers_energy over %d ranks, halo %ld\n", size, b.halo);
  long failures = 0;
  for (int a = 4; a < argc; ++a) {
    b.n = atol(argv[a]);
    failures += checkSize(&K, &b, size, rank);
  }
  return finish(failures);
}
