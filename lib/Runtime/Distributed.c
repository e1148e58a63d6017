/*===- Distributed.c - Block decomposition and checks of distributed kernels -===//
 *
 * See Stencil/Runtime/Distributed.h.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 199309L
#include "Stencil/Runtime/Distributed.h"

#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int64_t stencil_dist_block_start(int64_t n, int64_t parts, int64_t coord) {
  if (n <= 0 || parts <= 0)
    return 0;
  int64_t base = n / parts, extra = n % parts;
  return coord * base + (coord < extra ? coord : extra);
}

int64_t stencil_dist_block_count(int64_t n, int64_t parts, int64_t coord) {
  if (n <= 0 || parts <= 0)
    return 0;
  return n / parts + (coord < n % parts ? 1 : 0);
}

/* Aborts every rank. mpirun forwards a rank's stderr asynchronously, and
 * MPI_Abort may take the forwarding down with it: the message gets a
 * moment to leave first. */
static void fail(void) {
  fflush(stderr);
  struct timespec pause = {1, 0};
  nanosleep(&pause, NULL);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static int worldRank(void) {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

void stencil_dist_check_grid(const char *where, int64_t processes) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    fprintf(stderr,
            "%s: error: the function is distributed over %" PRId64
            " processes, but MPI is not initialized (call MPI_Init first)\n",
            where, processes);
    fflush(stderr);
    abort();
  }
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == processes)
    return;
  if (worldRank() == 0)
    fprintf(stderr,
            "%s: error: the process grid has %" PRId64
            " processes, but MPI_COMM_WORLD has %d\n",
            where, processes, size);
  fail();
}

void stencil_dist_check_extent(const char *where, const char *argument,
                               int64_t dim, int64_t actual, int64_t expected) {
  if (actual == expected)
    return;
  fprintf(stderr,
          "%s: error: rank %d: %s has %" PRId64
          " points in dimension %" PRId64 ", but its block and halos have %" PRId64
          "\n",
          where, worldRank(), argument, actual, dim, expected);
  fail();
}

void stencil_dist_check_block(const char *where, int64_t dim, int64_t count,
                              int64_t width) {
  if (count >= width)
    return;
  fprintf(stderr,
          "%s: error: rank %d: a halo of %" PRId64
          " points is wider than this rank's block of %" PRId64
          " points in dimension %" PRId64 "; use fewer processes along it\n",
          where, worldRank(), width, count, dim);
  fail();
}

/* Gathers every rank's `count` values of `type` (each `size` bytes) in rank
 * order; returns them (malloc'd) and their number. */
static void *gatherAll(const void *values, int64_t count, MPI_Datatype type,
                       size_t size, int64_t *total) {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int mine = (int)count;
  int *counts = malloc(sizeof(int) * (size_t)ranks);
  int *offsets = malloc(sizeof(int) * (size_t)ranks);
  MPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
  *total = 0;
  for (int r = 0; r < ranks; ++r) {
    offsets[r] = (int)*total;
    *total += counts[r];
  }
  void *all = malloc(size * (size_t)(*total > 0 ? *total : 1));
  MPI_Allgatherv(values, mine, type, all, counts, offsets, type,
                 MPI_COMM_WORLD);
  free(counts);
  free(offsets);
  return all;
}

double stencil_dist_sum_f64(const double *partials, int64_t count) {
  int64_t total = 0;
  double *all = gatherAll(partials, count, MPI_DOUBLE, sizeof(double), &total);
  double sum = 0.0;
  for (int64_t i = 0; i < total; ++i)
    sum += all[i];
  free(all);
  return sum;
}

float stencil_dist_sum_f32(const float *partials, int64_t count) {
  int64_t total = 0;
  float *all = gatherAll(partials, count, MPI_FLOAT, sizeof(float), &total);
  float sum = 0.0f;
  for (int64_t i = 0; i < total; ++i)
    sum += all[i];
  free(all);
  return sum;
}
