/*===- wave3d_mpi_main.c - wave3d and its adjoint over MPI ----------------===//
 *
 *   mpirun -n R wave3d-mpi-example [n] [steps]       (R = 1, 2 or 4)
 *
 * examples/wave3d.mlir compiled with --stencil-adjoint
 * --stencil-distribute=grid=1,1,R (one shared library per R, built beside
 * this example by examples/CMakeLists.txt). Each rank allocates its block
 * of every array, with the halo the library was compiled for, from the
 * decomposition of Stencil/Runtime/Distributed.h; runs `steps` time steps
 * of the wave equation from a Gaussian pulse, rotating its three time
 * levels (the halo exchanges happen inside each call); then runs the gather
 * adjoint of one step and checks the dot-product test
 * <J v, w> = <v, J^T w> across ranks. It prints a checksum of the final
 * field that does not depend on the order of the points (the sum of their
 * bit patterns), so that runs on different numbers of ranks can be compared
 * bitwise, and the time per step.
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Runtime/Distributed.h"

#include <dlfcn.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef StencilMemRef3D_f64 M;
typedef void (*Primal)(M *, M *, M *, M *, double, int64_t, int64_t, int64_t,
                       int64_t);
typedef void (*Adjoint)(M *, M *, M *, M *, double, int64_t, M *, M *, M *,
                        int64_t, int64_t, int64_t);

enum { H = STENCIL_EXAMPLE_HALO };

/* This rank's block of the n^3 grid: [start, start + count) in dimension 2. */
typedef struct {
  int64_t n, start, count, ext[3];
} Block;

static M alloc(const Block *b) {
  size_t total = (size_t)(b->ext[0] * b->ext[1] * b->ext[2]);
  return stencil_memref3d_f64(calloc(total, sizeof(double)), b->ext[0],
                              b->ext[1], b->ext[2]);
}

/* Calls BODY for every owned point: local offset `l`, global (i, j, k). */
#define FOR_OWNED(b, BODY)                                                     \
  for (int64_t i = 0; i < (b)->n; ++i)                                         \
    for (int64_t j = 0; j < (b)->n; ++j)                                       \
      for (int64_t kk = 0; kk < (b)->count; ++kk) {                            \
        int64_t k = (b)->start + kk;                                           \
        int64_t l = ((i + H) * (b)->ext[1] + j + H) * (b)->ext[2] + kk + H;    \
        BODY;                                                                  \
      }

static double pulse(const Block *b, int64_t i, int64_t j, int64_t k) {
  double x = (double)i / (double)b->n - 0.5, y = (double)j / (double)b->n - 0.5,
         z = (double)k / (double)b->n - 0.4;
  return exp(-60.0 * (x * x + y * y + z * z));
}

static double dotOwned(const Block *b, const M *x, const M *y) {
  double local = 0, sum = 0;
  FOR_OWNED(b, { (void)i; (void)j; (void)k; local += x->aligned[l] * y->aligned[l]; });
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Block b = {argc > 1 ? atol(argv[1]) : 48, 0, 0, {0, 0, 0}};
  int steps = argc > 2 ? atoi(argv[2]) : 20;
  char lib[4096];
  snprintf(lib, sizeof lib, "%s/libwave3d_mpi_%d.so", STENCIL_EXAMPLE_LIB_DIR,
           size);
  void *handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  Primal primal = handle ? (Primal)dlsym(handle, "_mlir_ciface_wave3d") : NULL;
  Adjoint adjoint =
      handle ? (Adjoint)dlsym(handle, "_mlir_ciface_wave3d_adjoint") : NULL;
  if (!primal || !adjoint) {
    if (rank == 0)
      fprintf(stderr, "wave3d-mpi-example: no library for %d ranks (%s): run "
                      "it on 1, 2 or 4\n", size, dlerror());
    MPI_Finalize();
    return 2;
  }
  /* The decomposition: grid 1x1xR, rank r owns a slab of dimension 2. */
  b.start = stencil_dist_block_start(b.n, size, rank);
  b.count = stencil_dist_block_count(b.n, size, rank);
  b.ext[0] = b.ext[1] = b.n + 2 * H;
  b.ext[2] = b.count + 2 * H;
  const double D = 0.1;

  /* The time loop: u = step(u_1, u_2), then rotate. */
  M level[3] = {alloc(&b), alloc(&b), alloc(&b)}, c = alloc(&b);
  FOR_OWNED(&b, {
    c.aligned[l] = 1.0 + 0.5 * (double)k / (double)b.n;
    level[1].aligned[l] = level[2].aligned[l] = pulse(&b, i, j, k);
  });
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int s = 0; s < steps; ++s) {
    primal(&level[0], &level[1], &level[2], &c, D, b.n, b.n, b.n, b.n);
    M oldest = level[2];
    level[2] = level[1];
    level[1] = level[0];
    level[0] = oldest;
  }
  double seconds = MPI_Wtime() - t0;
  uint64_t local = 0, checksum = 0;
  FOR_OWNED(&b, {
    (void)i; (void)j; (void)k;
    uint64_t bits;
    memcpy(&bits, &level[1].aligned[l], sizeof bits);
    local += bits;
  });
  MPI_Allreduce(&local, &checksum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);

  /* One step's adjoint: <J v, w> = <v, J^T w>, J: (u_1, u_2) -> u. */
  M ju = alloc(&b), w = alloc(&b), v1b = alloc(&b), v2b = alloc(&b);
  FOR_OWNED(&b, { w.aligned[l] = pulse(&b, j, k, i) - 0.5; });
  primal(&ju, &level[1], &level[2], &c, D, b.n, b.n, b.n, b.n);
  double lhs = dotOwned(&b, &ju, &w);
  adjoint(&ju, &level[1], &level[2], &c, D, b.n, &w, &v1b, &v2b, b.n, b.n, b.n);
  double rhs = dotOwned(&b, &level[1], &v1b) + dotOwned(&b, &level[2], &v2b);
  double rel = fabs(lhs - rhs) / fmax(fabs(lhs), fabs(rhs));
  if (rank == 0) {
    printf("wave3d on %d ranks (grid 1x1x%d, halo %d), n = %ld, %d steps\n",
           size, size, (int)H, (long)b.n, steps);
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
