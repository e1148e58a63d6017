/*===- sum_terms_mpi.c - Sums from boxes of terms, in one process's order
 *--===//
 *
 * Usage: mpirun -n P sum_terms_mpi CASES SEED
 *
 * stencil_dist_sum_terms_f64/f32 (Stencil/Runtime/Distributed.h) against
 * the sum of one process written out here: per slice along the summation
 * dimension, the terms in row-major order from zero, then the slices'
 * partial sums in order from zero. Each case draws, from SEED (the same on
 * every rank), a domain of rank 1-3 with a lower corner and extents of 0-9
 * points, a summation dimension (the dimensions before it one point
 * thick), a grid of P processes over its dimensions, and terms of mixed
 * magnitudes (so that another order changes the bits). Every rank passes
 * its box of the block decomposition (empty where the grid has more
 * processes along a dimension than points) and must get the reference's
 * bits, in double and in float.
 *
 * Each case also draws a set of kept dimensions (after the summation one)
 * and partial sums that start from zero or from drawn values (as in
 * place), and checks stencil_dist_terms_domain (the domain, or extents 0
 * if it has no point) and stencil_dist_reduce_terms_f64/f32 against one
 * process's partial sums: per slice, the terms in row-major order into the
 * partial sum of their kept coordinates.
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/Runtime/Distributed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int rank, dim, inPlace;
  int64_t kept;
  int64_t lower[3], extent[3], grid[3];
} Case;

static uint64_t state;
static uint64_t next(void) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return state >> 33;
}

/* Term at global point p: mixed magnitudes and signs. */
static double term(const int64_t *p) {
  uint64_t h = (uint64_t)(p[0] * 73856093) ^ (uint64_t)(p[1] * 19349663) ^
               (uint64_t)(p[2] * 83492791);
  h = h * 2654435761u % 1000003;
  return ((double)h - 500000.0) * ldexp(1.0, (int)(h % 41) - 20) / 3.0;
}

/* A grid of `size` processes over `rank` dimensions, drawn from the
 * factorizations. */
static void drawGrid(Case *c, int size) {
  int64_t left = size;
  for (int k = 0; k < 3; ++k) {
    int64_t g = k + 1 >= c->rank ? left : 1 + (int64_t)(next() % size);
    if (k >= c->rank)
      g = 1;
    c->grid[k] = left % g ? 1 : g;
    left /= c->grid[k];
  }
}

static Case drawCase(int size) {
  Case c;
  c.rank = 1 + (int)(next() % 3);
  c.dim = (int)(next() % c.rank);
  for (int k = 0; k < 3; ++k) {
    c.lower[k] = k < c.rank ? (int64_t)(next() % 5) : 0;
    c.extent[k] = k < c.rank ? (int64_t)(next() % 10) : 1;
    if (k < c.dim)
      c.extent[k] = 1;
  }
  drawGrid(&c, size);
  c.kept = 0;
  for (int k = c.dim + 1; k < c.rank; ++k)
    c.kept |= (int64_t)(next() % 2) << k;
  c.inPlace = (int)(next() % 2);
  return c;
}

/* The number of points of the whole domain. */
static int64_t caseVolume(const Case *c) {
  int64_t volume = 1;
  for (int k = 0; k < c->rank; ++k)
    volume *= c->extent[k];
  return volume;
}

/* The global point of slice s's q-th point in row-major order. */
static void slicePoint(const Case *c, int64_t s, int64_t q, int64_t *p) {
  for (int k = c->rank - 1; k >= 0; --k) {
    if (k < c->dim) {
      p[k] = c->lower[k];
    } else if (k == c->dim) {
      p[k] = c->lower[k] + s;
    } else {
      p[k] = c->lower[k] + q % c->extent[k];
      q /= c->extent[k];
    }
  }
}

/* One process's sum. */
static double reference(const Case *c, int isFloat) {
  double total = 0.0;
  float totalF = 0.0f;
  int64_t p[3] = {0, 0, 0};
  int64_t inner = 1;
  for (int k = c->dim + 1; k < c->rank; ++k)
    inner *= c->extent[k];
  for (int64_t s = 0; s < c->extent[c->dim]; ++s) {
    double slice = 0.0;
    float sliceF = 0.0f;
    for (int64_t q = 0; q < inner; ++q) {
      slicePoint(c, s, q, p);
      slice += term(p);
      sliceF += (float)term(p);
    }
    total += slice;
    totalF += sliceF;
  }
  return isFloat ? (double)totalF : total;
}

/* The partial sums' count: the slices times the kept extents. */
static int64_t partialCount(const Case *c) {
  int64_t count = c->extent[c->dim];
  for (int k = c->dim + 1; k < c->rank; ++k)
    if (c->kept >> k & 1)
      count *= c->extent[k];
  return count;
}

/* Where each partial sum starts. */
static void initialPartials(const Case *c, double *partials, float *partialsF,
                            int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    int64_t p[3] = {i, 7 * i + 1, 3};
    partials[i] = c->inPlace ? term(p) : 0.0;
    partialsF[i] = (float)partials[i];
  }
}

/* One process's partial sums, from their initial values. */
static void referenceReduce(const Case *c, double *partials,
                            float *partialsF) {
  int64_t inner = 1, width = partialCount(c) / c->extent[c->dim];
  for (int k = c->dim + 1; k < c->rank; ++k)
    inner *= c->extent[k];
  for (int64_t s = 0; s < c->extent[c->dim]; ++s)
    for (int64_t q = 0; q < inner; ++q) {
      int64_t p[3] = {0, 0, 0}, at = 0;
      slicePoint(c, s, q, p);
      for (int k = c->dim + 1; k < c->rank; ++k)
        if (c->kept >> k & 1)
          at = at * c->extent[k] + p[k] - c->lower[k];
      partials[s * width + at] += term(p);
      partialsF[s * width + at] += (float)term(p);
    }
}

/* stencil_dist_terms_domain and stencil_dist_reduce_terms_f64/f32 on this
 * rank's box; returns whether every rank got the reference's bits. */
static int runReduce(const Case *c, int me, const int64_t *box,
                     const double *terms, const float *termsF,
                     int64_t volume) {
  int64_t domain[6];
  stencil_dist_terms_domain(c->rank, box, domain);
  int ok = 1;
  for (int k = 0; k < c->rank; ++k)
    ok &= volume ? domain[k] == c->lower[k] &&
                       domain[c->rank + k] == c->extent[k]
                 : domain[c->rank + k] == 0;
  int64_t count = volume ? partialCount(c) : 0;
  double *got = malloc(sizeof(double) * (size_t)(2 * count + 1));
  float *gotF = malloc(sizeof(float) * (size_t)(2 * count + 1));
  double *want = got + count;
  float *wantF = gotF + count;
  initialPartials(c, got, gotF, count);
  initialPartials(c, want, wantF, count);
  stencil_dist_reduce_terms_f64(terms, c->rank, c->dim, box, c->kept, got);
  stencil_dist_reduce_terms_f32(termsF, c->rank, c->dim, box, c->kept, gotF);
  if (count)
    referenceReduce(c, want, wantF);
  ok &= !memcmp(got, want, sizeof(double) * (size_t)count) &&
        !memcmp(gotF, wantF, sizeof(float) * (size_t)count);
  if (!ok)
    printf("MISMATCH on rank %d: partial sums of rank %d, dim %d, kept %lld, "
           "extents %lldx%lldx%lld, grid %lldx%lldx%lld\n",
           me, c->rank, c->dim, (long long)c->kept, (long long)c->extent[0],
           (long long)c->extent[1], (long long)c->extent[2],
           (long long)c->grid[0], (long long)c->grid[1],
           (long long)c->grid[2]);
  free(got);
  free(gotF);
  return ok;
}

/* This rank's box and terms (row-major over the box). */
static int64_t myBox(const Case *c, int me, int64_t *box) {
  int64_t coords[3], rest = me, volume = 1;
  for (int k = c->rank - 1; k >= 0; --k) {
    coords[k] = rest % c->grid[k];
    rest /= c->grid[k];
  }
  for (int k = 0; k < c->rank; ++k) {
    box[k] = c->lower[k] +
             stencil_dist_block_start(c->extent[k], c->grid[k], coords[k]);
    box[c->rank + k] =
        stencil_dist_block_count(c->extent[k], c->grid[k], coords[k]);
    volume *= box[c->rank + k];
  }
  return volume;
}

static int runCase(const Case *c, int me) {
  int64_t box[6];
  int64_t volume = myBox(c, me, box);
  double *terms = malloc(sizeof(double) * (size_t)(volume + 1));
  float *termsF = malloc(sizeof(float) * (size_t)(volume + 1));
  for (int64_t q = 0; q < volume; ++q) {
    int64_t p[3] = {0, 0, 0}, rest = q;
    for (int k = c->rank - 1; k >= 0; --k) {
      p[k] = box[k] + rest % box[c->rank + k];
      rest /= box[c->rank + k];
    }
    terms[q] = term(p);
    termsF[q] = (float)term(p);
  }
  double sum = stencil_dist_sum_terms_f64(terms, c->rank, c->dim, box);
  float sumF = stencil_dist_sum_terms_f32(termsF, c->rank, c->dim, box);
  int reduced = runReduce(c, me, box, terms, termsF, caseVolume(c));
  free(terms);
  free(termsF);
  double want = reference(c, 0);
  float wantF = (float)reference(c, 1);
  int ok =
      !memcmp(&sum, &want, sizeof sum) && !memcmp(&sumF, &wantF, sizeof sumF);
  if (!ok)
    printf("MISMATCH on rank %d: rank %d, dim %d, extents %lldx%lldx%lld, "
           "grid %lldx%lldx%lld: %a (want %a), %a (want %a)\n",
           me, c->rank, c->dim, (long long)c->extent[0],
           (long long)c->extent[1], (long long)c->extent[2],
           (long long)c->grid[0], (long long)c->grid[1], (long long)c->grid[2],
           sum, want, (double)sumF, (double)wantF);
  return ok && reduced;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int cases = argc > 1 ? atoi(argv[1]) : 100;
  state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  int failed = 0, split = 0, empty = 0;
  for (int i = 0; i < cases; ++i) {
    Case c = drawCase(size);
    int64_t box[6];
    int hasEmpty = myBox(&c, me, box) == 0, anyEmpty = 0;
    MPI_Allreduce(&hasEmpty, &anyEmpty, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    int splits = 0;
    for (int k = 0; k < c.rank; ++k)
      splits |= k != c.dim && c.grid[k] > 1;
    split += splits;
    empty += anyEmpty;
    failed += !runCase(&c, me);
  }
  int all = 0;
  MPI_Allreduce(&failed, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0)
    printf("%d ranks: %d cases (%d split another dimension than the sum's, "
           "%d with empty boxes), %d failed\n%s\n",
           size, cases, split, empty, all, all ? "FAIL" : "PASS");
  MPI_Finalize();
  return all != 0;
}
