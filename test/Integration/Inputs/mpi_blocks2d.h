/*===- mpi_blocks2d.h - 2-D blocks of the mpirun test drivers -------------===//
 *
 * A rank's block of an n0 x n1 grid over a P0 x P1 process grid, global
 * arrays of test values, a rank's block of them (halos NaN: only the
 * exchanges may fill them), bitwise comparison and dot products across
 * ranks.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_TEST_MPI_BLOCKS2D_H
#define STENCIL_TEST_MPI_BLOCKS2D_H

#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Runtime/Distributed.h"
#include "mpi_common.h"

#include <math.h>
#include <string.h>

typedef StencilMemRef2D_f64 M;

typedef struct {
  long n[2], start[2], count[2], halo;
} Layout;

/* The block of rank `rank` (row-major over P0 x P1) of an n0 x n1 grid. */
static inline void layBlocks(Layout *L, const long P[2], int rank) {
  long c[2] = {rank / P[1], rank % P[1]};
  for (int k = 0; k < 2; ++k) {
    L->start[k] = stencil_dist_block_start(L->n[k], P[k], c[k]);
    L->count[k] = stencil_dist_block_count(L->n[k], P[k], c[k]);
  }
}

/* The global n0 x n1 array of test values `seed` (zeros for 0). */
static inline M globalArray(const Layout *L, int seed) {
  long total = L->n[0] * L->n[1];
  double *data = malloc(sizeof(double) * (size_t)total);
  for (long g = 0; g < total; ++g)
    data[g] = seed ? testValue(seed, g) : 0.0;
  return stencil_memref2d_f64(data, L->n[0], L->n[1]);
}

/* This rank's block of `global`, halos NaN. */
static inline M localArray(const Layout *L, const M *global) {
  long h = L->halo, e0 = L->count[0] + 2 * h, e1 = L->count[1] + 2 * h;
  double *data = malloc(sizeof(double) * (size_t)(e0 * e1));
  for (long i = 0; i < e0; ++i)
    for (long j = 0; j < e1; ++j) {
      int owned = i >= h && i < h + L->count[0] && j >= h &&
                  j < h + L->count[1];
      long g = (L->start[0] + i - h) * L->n[1] + L->start[1] + j - h;
      data[i * e1 + j] = owned ? global->aligned[g] : NAN;
    }
  return stencil_memref2d_f64(data, e0, e1);
}

/* Runs `body` with each owned point's local (x) and global (y) value. */
#define FOR_OWNED(L, local, global, body)                                     \
  for (long i = 0; i < (L)->count[0]; ++i)                                   \
    for (long j = 0; j < (L)->count[1]; ++j) {                               \
      double x = (local)->aligned[(i + (L)->halo) * (local)->sizes[1] + j +  \
                                  (L)->halo];                                \
      double y = (global)->aligned[((L)->start[0] + i) * (L)->n[1] +         \
                                   (L)->start[1] + j];                       \
      body;                                                                  \
    }

static inline long mismatches(const Layout *L, const M *local, const M *global) {
  long bad = 0;
  FOR_OWNED(L, local, global, bad += memcmp(&x, &y, sizeof(double)) != 0);
  return bad;
}

/* sum over all ranks of <local, global> on the blocks */
static inline double dot(const Layout *L, const M *local, const M *global) {
  double part = 0, sum = 0;
  FOR_OWNED(L, local, global, part += x * y);
  MPI_Allreduce(&part, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

/* A 2-D driver's run: its rank, the process grid P0 x P1, the step count
 * and the layout (the halo set, the sizes to come). */
typedef struct {
  int rank;
  long P[2], T;
  Layout L;
} Run2D;

/* Starts MPI and reads the arguments every 2-D driver takes, DIST.so REF.so
 * P0 P1 HALO T n... (the sizes from argv[7]); rank 0 names `kernel`. */
static inline Run2D startRun2D(int *argc, char ***argv, const char *kernel) {
  MPI_Init(argc, argv);
  Run2D run = {0, {0, 0}, 0, {.halo = 0}};
  MPI_Comm_rank(MPI_COMM_WORLD, &run.rank);
  char **args = *argv;
  if (*argc < 8) {
    fprintf(stderr, "usage: %s DIST.so REF.so P0 P1 HALO T n...\n", args[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  run.P[0] = atol(args[3]);
  run.P[1] = atol(args[4]);
  run.L.halo = atol(args[5]);
  run.T = atol(args[6]);
  if (run.rank == 0)
    printf("%s over %ldx%ld ranks, halo %ld, T = %ld\n", kernel, run.P[0],
           run.P[1], run.L.halo, run.T);
  return run;
}

#endif /* STENCIL_TEST_MPI_BLOCKS2D_H */
