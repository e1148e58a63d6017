/*===- DistributedBlocks.c - A process's blocks, for the caller -----------===//
 *
 * See Stencil/Runtime/Distributed.h: the block decomposition, and the
 * helpers that allocate a process's local arrays and scatter and gather
 * global ones.
 *
 *===----------------------------------------------------------------------===*/

#include "DistributedInternal.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void failWith(const char *what) {
  fprintf(stderr, "stencil_dist: error: %s\n", what);
  stencil_dist_fail();
}

/* The block of the process at `coords` of `grid` (dims and counts). */
static void blockAt(const stencil_dist_block *block, const int64_t *coords,
                    int64_t *start, int64_t *count) {
  for (int64_t k = 0; k < block->ndims; ++k) {
    start[k] = stencil_dist_block_start(block->global[k], block->grid[k],
                                        coords[k]);
    count[k] = stencil_dist_block_count(block->global[k], block->grid[k],
                                        coords[k]);
  }
}

int stencil_dist_block_try(stencil_dist_block *block,
                           const stencil_dist_layout *layout,
                           const int64_t *global, char *why,
                           size_t why_size) {
  if (layout->ndims < 1 || layout->ndims > STENCIL_DIST_MAX_DIMS ||
      layout->halo < 0) {
    snprintf(why, why_size,
             "the layout has no dimensions, more than %d, or a negative halo",
             STENCIL_DIST_MAX_DIMS);
    return 0;
  }
  for (int64_t k = 0; k < layout->ndims; ++k)
    if (global[k] < 0) {
      snprintf(why, why_size, "global extent %" PRId64 " is negative (%" PRId64
               ")", k, global[k]);
      return 0;
    }
  stencil_dist_grid grid;
  if (!stencil_dist_resolve((int)layout->ndims, layout->grid, NULL, &grid,
                            why, why_size))
    return 0;
  memset(block, 0, sizeof *block);
  block->ndims = layout->ndims;
  block->halo = layout->halo;
  block->rank = grid.rank;
  int size = 0;
  MPI_Comm_size(stencil_dist_comm(), &size);
  block->size = size;
  for (int64_t k = 0; k < block->ndims; ++k) {
    block->global[k] = global[k];
    block->grid[k] = grid.dims[k];
    block->coord[k] = grid.coords[k];
  }
  blockAt(block, block->coord, block->start, block->count);
  for (int64_t k = 0; k < block->ndims; ++k)
    block->local[k] = block->count[k] + 2 * block->halo;
  return 1;
}

void stencil_dist_block_init(stencil_dist_block *block,
                             const stencil_dist_layout *layout,
                             const int64_t *global) {
  char why[512];
  if (stencil_dist_block_try(block, layout, global, why, sizeof why))
    return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized || stencil_dist_rank() == 0)
    fprintf(stderr, "stencil_dist: error: %s\n", why);
  stencil_dist_fail();
}

int64_t stencil_dist_block_size(const stencil_dist_block *block) {
  int64_t size = 1;
  for (int64_t k = 0; k < block->ndims; ++k)
    size *= block->local[k];
  return size;
}

int64_t stencil_dist_local_offset(const stencil_dist_block *block,
                                  const int64_t *index) {
  int64_t offset = 0;
  for (int64_t k = 0; k < block->ndims; ++k) {
    int64_t local = index[k] - block->start[k] + block->halo;
    if (local < 0 || local >= block->local[k])
      return -1;
    offset = offset * block->local[k] + local;
  }
  return offset;
}

void *stencil_dist_alloc(const stencil_dist_block *block, size_t elem_size) {
  int64_t size = stencil_dist_block_size(block);
  void *data = calloc(size > 0 ? (size_t)size : 1, elem_size);
  if (!data)
    failWith("stencil_dist_alloc: out of memory");
  return data;
}

/* Copies the box of extents `count` at `from` in the row-major array `src`
 * of extents `srcExt` to `to` in `dst` of extents `dstExt`. */
static void copyBox(int64_t ndims, const int64_t *count, size_t elem,
                    const char *src, const int64_t *srcExt,
                    const int64_t *from, char *dst, const int64_t *dstExt,
                    const int64_t *to) {
  int64_t points = 1;
  for (int64_t k = 0; k < ndims; ++k)
    points *= count[k];
  if (points == 0)
    return;
  int64_t index[STENCIL_DIST_MAX_DIMS] = {0};
  int64_t last = ndims - 1;
  for (;;) {
    int64_t s = 0, d = 0;
    for (int64_t k = 0; k < ndims; ++k) {
      s = s * srcExt[k] + from[k] + index[k];
      d = d * dstExt[k] + to[k] + index[k];
    }
    memcpy(dst + (size_t)d * elem, src + (size_t)s * elem,
           (size_t)count[last] * elem);
    int64_t k = last - 1;
    while (k >= 0 && ++index[k] == count[k])
      index[k--] = 0;
    if (k < 0)
      return;
  }
}

/* The bytes of a packed block of `count`, checked against MPI's int. */
static int packedBytes(const stencil_dist_block *block, const int64_t *count,
                       size_t elem) {
  int64_t bytes = (int64_t)elem;
  for (int64_t k = 0; k < block->ndims; ++k)
    bytes *= count[k];
  if (bytes > INT_MAX)
    failWith("stencil_dist_scatter/gather: a block is over 2^31 - 1 bytes; "
             "use more processes");
  return (int)bytes;
}

enum { kScatterTag = 0x5200, kGatherTag = 0x5201 };

/* Moves every block between process 0's global array and the processes'
 * local arrays: scatter if `toLocal`, gather otherwise. */
static void moveBlocks(const stencil_dist_block *block, size_t elem,
                       char *global, char *local, int toLocal) {
  MPI_Comm comm = stencil_dist_comm();
  int64_t zeros[STENCIL_DIST_MAX_DIMS] = {0}, inner[STENCIL_DIST_MAX_DIMS];
  for (int64_t k = 0; k < block->ndims; ++k)
    inner[k] = block->halo;
  int tag = toLocal ? kScatterTag : kGatherTag;
  if (block->rank != 0) {
    int bytes = packedBytes(block, block->count, elem);
    char *packed = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (toLocal) {
      MPI_Recv(packed, bytes, MPI_BYTE, 0, tag, comm, MPI_STATUS_IGNORE);
      copyBox(block->ndims, block->count, elem, packed, block->count, zeros,
              local, block->local, inner);
    } else {
      copyBox(block->ndims, block->count, elem, local, block->local, inner,
              packed, block->count, zeros);
      MPI_Send(packed, bytes, MPI_BYTE, 0, tag, comm);
    }
    free(packed);
    return;
  }
  for (int64_t r = 0; r < block->size; ++r) {
    int64_t coords[STENCIL_DIST_MAX_DIMS], start[STENCIL_DIST_MAX_DIMS],
        count[STENCIL_DIST_MAX_DIMS];
    stencil_dist_coords_of(block->ndims, block->grid, r, coords);
    blockAt(block, coords, start, count);
    if (r == 0) {
      if (toLocal)
        copyBox(block->ndims, count, elem, global, block->global, start,
                local, block->local, inner);
      else
        copyBox(block->ndims, count, elem, local, block->local, inner,
                global, block->global, start);
      continue;
    }
    int bytes = packedBytes(block, count, elem);
    char *packed = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (toLocal) {
      copyBox(block->ndims, count, elem, global, block->global, start, packed,
              count, zeros);
      MPI_Send(packed, bytes, MPI_BYTE, (int)r, tag, comm);
    } else {
      MPI_Recv(packed, bytes, MPI_BYTE, (int)r, tag, comm, MPI_STATUS_IGNORE);
      copyBox(block->ndims, count, elem, packed, count, zeros, global,
              block->global, start);
    }
    free(packed);
  }
}

void stencil_dist_scatter(const stencil_dist_block *block, size_t elem_size,
                          const void *global, void *local) {
  if (block->rank == 0 && !global)
    failWith("stencil_dist_scatter: process 0 passed no global array");
  /* Read only: moveBlocks writes `global` only when gathering. */
  moveBlocks(block, elem_size, (char *)(uintptr_t)global, local, 1);
}

void stencil_dist_gather(const stencil_dist_block *block, size_t elem_size,
                         const void *local, void *global) {
  if (block->rank == 0 && !global)
    failWith("stencil_dist_gather: process 0 passed no global array");
  moveBlocks(block, elem_size, global, (char *)(uintptr_t)local, 0);
}
