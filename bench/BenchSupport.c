/*===- BenchSupport.c - OpenMP helpers of the benchmark suite ---*- C -*-===//
 *
 * This file implements thread control, allocation with parallel first touch
 * and the STREAM triad of stencil-bench (BenchSupport.h).
 *
 *===----------------------------------------------------------------------===*/

#include "BenchSupport.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

void bench_set_threads(int threads) { omp_set_num_threads(threads); }

int bench_parallel_for(void *context, int (*task)(void *, int, uint8_t *),
                       int min, int extent, uint8_t *closure) {
  int status = 0;
#pragma omp parallel for schedule(static)
  for (int i = min; i < min + extent; ++i) {
    int s = task(context, i, closure);
    if (s != 0) {
#pragma omp atomic write
      status = s;
    }
  }
  return status;
}

int bench_num_procs(void) { return omp_get_num_procs(); }

double *bench_alloc(size_t count) {
  const size_t align = (size_t)2 << 20;
  size_t bytes = (count * sizeof(double) + align - 1) / align * align;
  double *p = aligned_alloc(align, bytes ? bytes : align);
  if (!p) {
    fprintf(stderr, "stencil-bench: cannot allocate %zu bytes\n", bytes);
    abort();
  }
  return p;
}

void bench_free(double *p) { free(p); }

void bench_fill(double *a, int64_t outer, int64_t inner, uint64_t seed,
                double scale, double shift) {
  // A multiplicative hash of the linear index, reduced to 10 bits: cheap,
  // vectorizable, and the same bits on every run.
#pragma omp parallel for schedule(static)
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      uint64_t p = (uint64_t)(o * inner + i);
      uint64_t h = ((p + seed) * 0x9E3779B97F4A7C15ull) >> 54;
      a[o * inner + i] = shift + scale * ((double)h / 1024.0);
    }
}

void bench_copy(double *restrict dst, const double *restrict src,
                int64_t outer, int64_t inner) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < outer; ++i)
    for (int64_t j = 0; j < inner; ++j)
      dst[i * inner + j] = src[i * inner + j];
}

void bench_triad(double *restrict a, const double *restrict b,
                 const double *restrict c, double s, int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}
