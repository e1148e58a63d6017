/*===- Distributed.h - Block decomposition and checks of distributed kernels -===//
 *
 * The run-time support of functions distributed by --stencil-distribute
 * (docs/Distributed.md). The block decomposition is defined here once:
 * compiled kernels call these functions, and so do callers that allocate
 * the blocks.
 *
 * A dimension of global extent n over `parts` processes: process `coord`
 * (0 <= coord < parts) owns [start, start + count), the first n % parts
 * processes one point more than the others. A process may own no point.
 *
 * The checks print `<file:line:col>: '<function>': error: ...` on stderr
 * and call MPI_Abort: one rank's wrong arguments would otherwise leave the
 * others waiting in an exchange.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_RUNTIME_DISTRIBUTED_H
#define STENCIL_RUNTIME_DISTRIBUTED_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The first global index of process `coord`'s block. */
int64_t stencil_dist_block_start(int64_t n, int64_t parts, int64_t coord);
/* The number of points of process `coord`'s block. */
int64_t stencil_dist_block_count(int64_t n, int64_t parts, int64_t coord);

/* Aborts unless MPI_COMM_WORLD has `processes` processes. */
void stencil_dist_check_grid(const char *where, int64_t processes);
/* Aborts unless dimension `dim` of `argument` (its name) has `expected`
 * points (the block and its halos). */
void stencil_dist_check_extent(const char *where, const char *argument,
                               int64_t dim, int64_t actual, int64_t expected);
/* Aborts if a halo of `width` points reaches past this process's block of
 * `count` points in dimension `dim` (the neighbour could not fill it). */
void stencil_dist_check_block(const char *where, int64_t dim, int64_t count,
                              int64_t width);

/* The sum of a distributed domain: this rank's partial sums of the slices
 * it owns (`count` of them, in order), gathered from every rank and added
 * in global order, starting from zero: the order of one process
 * (docs/Dialect.md, "Reductions"), given that rank order is slice order
 * (--stencil-distribute splits only the summation dimension). Every rank
 * gets the same bits. */
double stencil_dist_sum_f64(const double *partials, int64_t count);
float stencil_dist_sum_f32(const float *partials, int64_t count);

#ifdef __cplusplus
}
#endif

#endif /* STENCIL_RUNTIME_DISTRIBUTED_H */
