/*===- DistributedInternal.h - Shared by the distributed run-time's files -===//
 *
 * Not installed: what Distributed.c, DistributedBlocks.c and
 * DistributedSums.c share.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_LIB_RUNTIME_DISTRIBUTEDINTERNAL_H
#define STENCIL_LIB_RUNTIME_DISTRIBUTEDINTERNAL_H

#include "Stencil/Runtime/Distributed.h"

/* A process grid resolved on the communicator: its extents, and this
 * process's rank and coordinates. */
typedef struct {
  int ndims, rank;
  int64_t dims[STENCIL_DIST_MAX_DIMS];
  int64_t coords[STENCIL_DIST_MAX_DIMS];
} stencil_dist_grid;

/* Parses a kernel's grid ("?,1,1") into `fixed` (0 for `?`); returns the
 * number of extents, or -1 if it does not parse. */
int stencil_dist_parse_spec(const char *spec, int64_t *fixed);
/* Resolves the grid of `ndims` extents `fixed` (0: chosen at run time) on
 * the communicator, or says why it cannot in `why`; `spec`, if not NULL,
 * names the request for the cache. Returns 1 on success. */
int stencil_dist_resolve(int ndims, const int64_t *fixed, const char *spec,
                         stencil_dist_grid *grid, char *why, size_t whySize);
/* The coordinates of process `rank` in a grid of `ndims` extents `dims`:
 * row-major, the last axis varying fastest (as the compiled code numbers
 * the grid). */
void stencil_dist_coords_of(int64_t ndims, const int64_t *dims, int64_t rank,
                            int64_t *coords);
/* This process's rank in the communicator. */
int stencil_dist_rank(void);
/* Flushes stderr and aborts every process of the communicator. */
void stencil_dist_fail(void);

#endif /* STENCIL_LIB_RUNTIME_DISTRIBUTEDINTERNAL_H */
