/*===- BenchSupport.h - OpenMP helpers of the benchmark suite ---*- C -*-===//
 *
 * This file declares the C side of stencil-bench: thread control, array
 * allocation with parallel first touch, the STREAM triad and the
 * hand-written C primals of bench/reference/. All of it is compiled by
 * clang-22 -O3 -march=native -fopenmp (bench/CMakeLists.txt), so every
 * OpenMP construct in the binary runs on the same libomp as the generated
 * kernels.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_BENCH_BENCHSUPPORT_H
#define STENCIL_BENCH_BENCHSUPPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Threads and arrays
 *===----------------------------------------------------------------------===*/

/// Sets the number of OpenMP threads of the following parallel regions.
void bench_set_threads(int threads);

/// Runs `task(context, i, closure)` for i in [min, min + extent) as an
/// OpenMP parallel loop (static schedule); returns 0, or the status of a
/// task that failed. The Halide peers run their parallel loops on it
/// (Halide's custom_do_par_for), so they share the kernels' libomp threads
/// and thread count.
int bench_parallel_for(void *context, int (*task)(void *, int, uint8_t *),
                       int min, int extent, uint8_t *closure);

/// Number of processors available to OpenMP (the default thread list is
/// 1 .. this).
int bench_num_procs(void);

/// Allocates `count` doubles aligned to 2 MiB (no first touch); aborts on
/// failure. Free with bench_free.
double *bench_alloc(size_t count);

/// Frees an array of bench_alloc.
void bench_free(double *p);

/// Fills the `outer` x `inner` row-major array `a` in parallel, distributing
/// `outer` with the static schedule that the kernels use for their outermost
/// (parallel) loop, so that each page is first touched by the thread that
/// later sweeps it. Element `p` gets `shift + scale * h(p, seed)` with `h`
/// a deterministic integer hash in [0, 1).
void bench_fill(double *a, int64_t outer, int64_t inner, uint64_t seed,
                double scale, double shift);

/// Copies the `outer` x `inner` array `src` to `dst` in parallel, `outer`
/// distributed with the kernels' static schedule.
void bench_copy(double *dst, const double *src, int64_t outer, int64_t inner);

/// STREAM triad `a[i] = b[i] + s * c[i]` for 0 <= i < n, parallel (static).
void bench_triad(double *a, const double *b, const double *c, double s,
                 int64_t n);

/*===----------------------------------------------------------------------===*
 * Hand-written C primals (bench/reference/), the yardstick of the generated
 * code: same loop order, bounds and operation order as the kernel IR.
 * 3-D arrays are n x n x n, row-major.
 *===----------------------------------------------------------------------===*/

/// examples/wave3d.mlir.
void wave3d_ref(double *u, const double *u_1, const double *u_2,
                const double *c, double D, int64_t n);

/// examples/burgers1d.mlir.
void burgers1d_ref(double *u, const double *u_1, double C, double D, int64_t n);

/// examples/paper1d.mlir (u has n + 1 elements).
void paper1d_ref(double *r, const double *c, const double *u, int64_t n);

/// bench/kernels/dense27.mlir.
void dense27_ref(double *r, const double *u, int64_t n);

/// The core of the wave3d gather adjoint, untiled and in tiles of J rows
/// (bench/reference/wave3d_gather_core.c): yardsticks, not whole adjoints.
void wave3d_gather_core_ref(double *u_1b, double *u_2b, const double *u_b,
                            const double *c, double D, int64_t n);
void wave3d_gather_core_tiled_ref(double *u_1b, double *u_2b,
                                  const double *u_b, const double *c,
                                  double D, int64_t n, int64_t J);
/// The same core from a per-thread ring of three planes of the partials.
void wave3d_gather_core_ring_ref(double *u_1b, double *u_2b,
                                 const double *u_b, const double *c,
                                 double D, int64_t n);

/// bench/kernels/sin125.mlir.
void sin125_ref(double *r, const double *u, int64_t n);

/// bench/kernels/filter3d.mlir (w holds the 27 taps).
void filter3d_ref(double *r, const double *u, const double *w, int64_t n);

/// bench/kernels/wave3d_layered.mlir (v has n elements).
void wave3d_layered_ref(double *u, const double *u_1, const double *u_2,
                        const double *v, double D, int64_t n);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STENCIL_BENCH_BENCHSUPPORT_H */
