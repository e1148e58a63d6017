/*===- Distributed.h - Run-time support of distributed kernels ------------===//
 *
 * The run-time support of functions distributed by --stencil-distribute
 * (docs/Distributed.md). Compiled kernels call these functions, and so do
 * their callers: the block decomposition, the process grid and the
 * communicator are defined here once.
 *
 * The communicator. A distributed function runs on the communicator of the
 * library it lives in: MPI_COMM_WORLD unless the caller sets another with
 * stencil_dist_set_comm. The setting belongs to the copy of this run-time
 * library that the kernel library links (every kernel library links one): a
 * program that links kernel libraries shares the first one's copy (ELF
 * symbol resolution); a program that dlopens them (Python's ctypes does)
 * sets each library's.
 *
 * The process grid. A library is compiled for a grid whose extents are
 * fixed or chosen at run time (0 here, `?` in `grid=?,1,1`). At run time
 * the grid is the one the caller set with stencil_dist_set_grid, or else
 * the one MPI_Dims_create chooses for the communicator's size with the
 * fixed extents kept. Process `r` of the communicator is grid point `r` in
 * row-major order (the last axis varies fastest).
 *
 * The blocks. A dimension of global extent n over `parts` processes:
 * process `coord` (0 <= coord < parts) owns [start, start + count), the
 * first n % parts processes one point more than the others. A process may
 * own no point. Each array a distributed function takes is the process's
 * block with `halo` points on every side of every dimension.
 *
 * Errors print `<file:line:col>: '<function>': error: ...` (or
 * `stencil_dist: error: ...` for the caller's helpers) on stderr and call
 * MPI_Abort on the communicator: one rank's wrong arguments would otherwise
 * leave the others waiting in an exchange.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_RUNTIME_DISTRIBUTED_H
#define STENCIL_RUNTIME_DISTRIBUTED_H

#include "Stencil/Runtime/DistributedLayout.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===-------------------------- Settings -------------------------------===*/

/* Runs this library's distributed functions on `comm` (every process of
 * `comm` calls them together); MPI_COMM_NULL goes back to MPI_COMM_WORLD. */
void stencil_dist_set_comm(MPI_Comm comm);
/* The same with the communicator's Fortran handle (MPI_Comm_c2f), which
 * does not depend on the MPI's C types: mpi4py's `comm.py2f()`. */
void stencil_dist_set_comm_f(int64_t handle);
/* The communicator this library's functions run on. */
MPI_Comm stencil_dist_comm(void);
/* Runs on a grid of this shape (`ndims` extents whose product is the
 * communicator's size, each fixed extent of the library's grid kept), not
 * the one MPI_Dims_create chooses; ndims = 0 goes back to that choice. */
void stencil_dist_set_grid(int64_t ndims, const int64_t *dims);

/*===------------------- Blocks, for the caller ------------------------===*/

/* stencil_dist_layout and stencil_dist_block: Stencil/Runtime/DistributedLayout.h. */

/* Fills `block` for `layout` and global extents `global` (layout->ndims of
 * them). Aborts, on every process, where the grid does not fit the
 * communicator. */
void stencil_dist_block_init(stencil_dist_block *block,
                             const stencil_dist_layout *layout,
                             const int64_t *global);
/* The same, but returns 0 and says why in `why` (NUL-terminated, at most
 * `why_size` bytes) instead of aborting; 1 on success. */
int stencil_dist_block_try(stencil_dist_block *block,
                           const stencil_dist_layout *layout,
                           const int64_t *global, char *why, size_t why_size);
/* The number of elements of a local array (block and halos). */
int64_t stencil_dist_block_size(const stencil_dist_block *block);
/* The offset in a local array of global point `index` (row-major), which
 * may be a halo point: -1 if it is beyond the halos. */
int64_t stencil_dist_local_offset(const stencil_dist_block *block,
                                  const int64_t *index);
/* A zeroed local array of elements of `elem_size` bytes (free() it). */
void *stencil_dist_alloc(const stencil_dist_block *block, size_t elem_size);
/* Copies the blocks of the global row-major array `global`, which process
 * 0 of the communicator holds (others pass NULL), into every process's
 * `local` array (its halos are left as they are). Collective. */
void stencil_dist_scatter(const stencil_dist_block *block, size_t elem_size,
                          const void *global, void *local);
/* The reverse: process 0 receives every block into `global`. Collective. */
void stencil_dist_gather(const stencil_dist_block *block, size_t elem_size,
                         const void *local, void *global);

/* The first global index of process `coord`'s block. */
int64_t stencil_dist_block_start(int64_t n, int64_t parts, int64_t coord);
/* The number of points of process `coord`'s block. */
int64_t stencil_dist_block_count(int64_t n, int64_t parts, int64_t coord);

/*===------------------ Called by compiled kernels ---------------------===*/

/* `spec` is the library's grid as compiled: extents separated by commas,
 * `?` where chosen at run time ("?,1,1"). */

/* Aborts unless the grid fits the communicator (and MPI is initialized). */
void stencil_dist_check_grid(const char *where, const char *spec);
/* The processes along `axis` of the resolved grid, and this process's
 * coordinate along it. */
int64_t stencil_dist_grid_extent(const char *spec, int64_t axis);
int64_t stencil_dist_grid_coord(const char *spec, int64_t axis);
/* The rank of the neighbour at `direction` (-1 or +1) along `axis`, or -1
 * where there is none. */
int64_t stencil_dist_neighbor(const char *spec, int64_t axis,
                              int64_t direction);
/* Sends `bytes` bytes of `send` to `dest` and receives as many into `recv`
 * from `source` (either -1: none), with `tag`, on the communicator. */
void stencil_dist_sendrecv(const void *send, int64_t dest, void *recv,
                           int64_t source, int64_t bytes, int64_t tag);
/* Starts the exchange of stencil_dist_sendrecv and returns at once: the
 * receive is posted and the send started. Neither buffer may be touched
 * until stencil_dist_wait(handle) returns; the handle is that call's. */
int64_t stencil_dist_isendrecv(const void *send, int64_t dest, void *recv,
                               int64_t source, int64_t bytes, int64_t tag);
/* Lets MPI move the messages of the exchanges in flight (MPI_Testall on
 * each), without waiting: called between parts of the interior. */
void stencil_dist_progress(void);
/* Waits until the exchange `handle` has received and sent. */
void stencil_dist_wait(int64_t handle);

/* Aborts unless dimension `dim` of `argument` (its name) has `expected`
 * points (the block and its halos). */
void stencil_dist_check_extent(const char *where, const char *argument,
                               int64_t dim, int64_t actual, int64_t expected);
/* Aborts if the grid splits dimension `dim` and a halo of `width` points
 * reaches past this process's block of `count` points (the neighbour
 * could not fill it). */
void stencil_dist_check_block(const char *where, const char *spec,
                              int64_t dim, int64_t count, int64_t width);

/* Sums of distributed domains, in the order of one process: each slice
 * along the summation dimension serially in row-major order from zero,
 * then the slices' partial sums in order from zero (docs/Dialect.md,
 * "Reductions"). Every rank takes part, also with nothing to add, and
 * every rank gets the same bits. (DistributedSums.c) */

/* Where the grid splits only the summation dimension: this rank's partial
 * sums of the slices it holds (`count` of them, in order), gathered from
 * every rank and added in rank order, which is slice order. */
double stencil_dist_sum_f64(const double *partials, int64_t count);
float stencil_dist_sum_f32(const float *partials, int64_t count);

/* Where the grid may split other dimensions: this rank's terms of a
 * domain of rank `rank` summed along dimension `dim`, row-major over its
 * box, whose global lower corner and extents are box[0 .. rank) and
 * box[rank .. 2 rank). Each slice is folded by one of the ranks that hold
 * part of it, from the terms of all of them. */
double stencil_dist_sum_terms_f64(const double *terms, int64_t rank,
                                  int64_t dim, const int64_t *box);
float stencil_dist_sum_terms_f32(const float *terms, int64_t rank,
                                 int64_t dim, const int64_t *box);

/* Reductions through some of the dimensions of a domain (an accumulate
 * such as `vb[k] += t` in a domain (i, j, k)), in the order of one process
 * (docs/Dialect.md, "Reductions"): each slice along dimension `dim` sums
 * its points in row-major order into one partial sum per coordinate of
 * the dimensions the access keeps.
 *
 * The domain: the union of every rank's box (`box` as above), written to
 * domain[0 .. rank) (lower corner) and domain[rank .. 2 rank) (extents,
 * all 0 if no rank has a point). */
void stencil_dist_terms_domain(int64_t rank, const int64_t *box,
                               int64_t *domain);
/* The partial sums: `terms` as for stencil_dist_sum_terms; `kept` has bit
 * k set for each kept dimension k (all after `dim`); `partials` is
 * row-major over the domain's extent of `dim`, then of each kept
 * dimension in order. On entry each partial sum holds the value it starts
 * from (zero, or the element's own for a sum in place); on return every
 * rank holds every slice's partial sums. */
void stencil_dist_reduce_terms_f64(const double *terms, int64_t rank,
                                   int64_t dim, const int64_t *box,
                                   int64_t kept, double *partials);
void stencil_dist_reduce_terms_f32(const float *terms, int64_t rank,
                                   int64_t dim, const int64_t *box,
                                   int64_t kept, float *partials);

#ifdef __cplusplus
}
#endif

#endif /* STENCIL_RUNTIME_DISTRIBUTED_H */
