/*===- wave3d_mpi_main.c - wave3d and its adjoint over MPI ----------------===//
 *
 *   mpirun -n R wave3d-mpi-example [n] [steps]         (any R)
 *
 * examples/wave3d.mlir compiled once with --stencil-adjoint
 * --stencil-distribute=grid=auto: the process grid is chosen at run time
 * from the number of ranks, as MPI_Dims_create does (2 ranks: 2x1x1, 4:
 * 2x2x1, 6: 3x2x1). Rank 0 builds the initial field (a Gaussian pulse) and
 * scatters it; every rank runs `steps` time steps on its block, rotating
 * the three time levels (the halo exchanges happen inside each call); rank
 * 0 gathers the final field and prints a checksum that does not depend on
 * the order of the points (the sum of their bit patterns), so that runs on
 * different numbers of ranks can be compared bitwise. Then the gather
 * adjoint of one step passes the dot-product test <J v, w> = <v, J^T w>
 * across ranks.
 *
 *===----------------------------------------------------------------------===*/

#include "wave3d_mpi.h"
#include "Stencil/Runtime/Distributed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef StencilMemRef3D_f64 M;

/* A local array of the block (zeroed), as a descriptor. */
static M alloc(const stencil_dist_block *b) {
  return stencil_memref3d_f64(stencil_dist_alloc(b, sizeof(double)),
                              b->local[0], b->local[1], b->local[2]);
}

/* <x, y> over every rank's owned points. */
static double dot(const stencil_dist_block *b, const M *x, const M *y) {
  double local = 0, sum = 0;
  int64_t h = b->halo;
  for (int64_t i = h; i < h + b->count[0]; ++i)
    for (int64_t j = h; j < h + b->count[1]; ++j)
      for (int64_t k = h; k < h + b->count[2]; ++k) {
        int64_t l = (i * b->local[1] + j) * b->local[2] + k;
        local += x->aligned[l] * y->aligned[l];
      }
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, stencil_dist_comm());
  return sum;
}

/* A field of n^3 points on rank 0 (NULL elsewhere): f(x, y, z) at each. */
static double *globalField(const stencil_dist_block *b,
                           double (*f)(double, double, double)) {
  if (b->rank != 0)
    return NULL;
  int64_t n = b->global[0];
  double *field = malloc(sizeof(double) * (size_t)(n * n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k)
        field[(i * n + j) * n + k] =
            f((double)i / n - 0.5, (double)j / n - 0.5, (double)k / n - 0.4);
  return field;
}

static double pulse(double x, double y, double z) {
  return exp(-60.0 * (x * x + y * y + z * z));
}
static double velocity(double x, double y, double z) {
  (void)x, (void)y;
  return 1.0 + 0.5 * (z + 0.4);
}
static double direction(double x, double y, double z) {
  return pulse(y, z, x) - 0.5;
}

/* Scatters rank 0's f into a new local array. */
static M scattered(const stencil_dist_block *b,
                   double (*f)(double, double, double)) {
  M local = alloc(b);
  double *field = globalField(b, f);
  stencil_dist_scatter(b, sizeof(double), field, local.aligned);
  free(field);
  return local;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int64_t n = argc > 1 ? atol(argv[1]) : 48;
  int steps = argc > 2 ? atoi(argv[2]) : 20;
  const double D = 0.1;
  stencil_dist_layout layout = stencil_dist_layout_wave3d();
  stencil_dist_block b;
  stencil_dist_block_init(&b, &layout, (int64_t[]){n, n, n});

  /* The time loop: u = step(u_1, u_2), then rotate. */
  M level[3] = {alloc(&b), scattered(&b, pulse), scattered(&b, pulse)};
  M c = scattered(&b, velocity);
  MPI_Barrier(stencil_dist_comm());
  double t0 = MPI_Wtime();
  for (int s = 0; s < steps; ++s) {
    _mlir_ciface_wave3d(&level[0], &level[1], &level[2], &c, D, n, n, n, n);
    M oldest = level[2];
    level[2] = level[1];
    level[1] = level[0];
    level[0] = oldest;
  }
  double seconds = MPI_Wtime() - t0;
  double *field = b.rank == 0 ? malloc(sizeof(double) * (size_t)(n * n * n))
                              : NULL;
  stencil_dist_gather(&b, sizeof(double), level[1].aligned, field);
  uint64_t checksum = 0;
  for (int64_t p = 0; field && p < n * n * n; ++p) {
    uint64_t bits;
    memcpy(&bits, &field[p], sizeof bits);
    checksum += bits;
  }
  free(field);

  /* One step's adjoint: <J v, w> = <v, J^T w>, J: (u_1, u_2) -> u. */
  M ju = alloc(&b), w = scattered(&b, direction), v1b = alloc(&b),
    v2b = alloc(&b);
  _mlir_ciface_wave3d(&ju, &level[1], &level[2], &c, D, n, n, n, n);
  double lhs = dot(&b, &ju, &w);
  _mlir_ciface_wave3d_adjoint(&ju, &level[1], &level[2], &c, D, n, &w, &v1b,
                              &v2b, n, n, n);
  double rhs = dot(&b, &level[1], &v1b) + dot(&b, &level[2], &v2b);
  double rel = fabs(lhs - rhs) / fmax(fabs(lhs), fabs(rhs));
  if (b.rank == 0) {
    printf("wave3d on %ld ranks (grid %ldx%ldx%ld, halo %ld), n = %ld, %d "
           "steps\n",
           (long)b.size, (long)b.grid[0], (long)b.grid[1], (long)b.grid[2],
           (long)b.halo, (long)n, steps);
    printf("field checksum: %016llx\n", (unsigned long long)checksum);
    printf("time per step: %.3f ms\n", 1e3 * seconds / steps);
    printf("dot-product test: <Jv,w> = %.15e, <v,J^T w> = %.15e, rel %.1e: %s\n",
           lhs, rhs, rel, rel < 1e-12 ? "PASS" : "FAIL");
  }
  M all[8] = {level[0], level[1], level[2], c, ju, w, v1b, v2b};
  for (int a = 0; a < 8; ++a)
    free(all[a].allocated);
  MPI_Finalize();
  return rel < 1e-12 ? 0 : 1;
}
