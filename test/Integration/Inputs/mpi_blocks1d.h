/*===- mpi_blocks1d.h - 1-D blocks of the mpirun test drivers -------------===//
 *
 * Global arrays of test values, a rank's block of them (halos NaN: only the
 * exchanges may fill them), bitwise comparison and dot products across
 * ranks. Include after mpi_common.h's dependencies (mpi.h, StencilABI.h).
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_TEST_MPI_BLOCKS1D_H
#define STENCIL_TEST_MPI_BLOCKS1D_H

#include "Stencil/ABI/StencilABI.h"
#include "mpi_common.h"

#include <math.h>
#include <string.h>

typedef StencilMemRef1D_f64 V;

typedef struct {
  long n, start, count, halo;
} Block;

/* The global array `seed` (0: zeros), plus `scale` times array `dir`. */
static inline V globalArray(long n, int seed, int dir, double scale) {
  double *data = malloc(sizeof(double) * (size_t)n);
  for (long g = 0; g < n; ++g)
    data[g] = (seed ? testValue(seed, g) : 0.0) +
              (dir ? scale * testValue(dir, g) : 0.0);
  return stencil_memref1d_f64(data, n);
}

/* This rank's block of `global`, halos NaN. */
static inline V block(const Block *b, const V *global) {
  long e = b->count + 2 * b->halo;
  double *data = malloc(sizeof(double) * (size_t)e);
  for (long i = 0; i < e; ++i) {
    long l = i - b->halo;
    data[i] = l >= 0 && l < b->count ? global->aligned[b->start + l] : NAN;
  }
  return stencil_memref1d_f64(data, e);
}

static inline long mismatches(const Block *b, const V *local, const V *global) {
  long bad = 0;
  for (long l = 0; l < b->count; ++l)
    bad += memcmp(&local->aligned[b->halo + l], &global->aligned[b->start + l],
                  sizeof(double)) != 0;
  return bad;
}

/* sum over all ranks of <x, y> on the blocks */
static inline double dot(const Block *b, const V *x, const V *y) {
  double local = 0, sum = 0;
  for (long l = 0; l < b->count; ++l)
    local += x->aligned[b->halo + l] * y->aligned[b->halo + l];
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

#endif /* STENCIL_TEST_MPI_BLOCKS1D_H */
