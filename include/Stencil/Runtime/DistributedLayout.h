/*===- DistributedLayout.h - The block structs of distributed kernels -----===//
 *
 * The structs through which callers of distributed functions learn their
 * blocks (Stencil/Runtime/Distributed.h declares the functions that fill
 * them). The fields, as tables like STENCIL_ABI_DESCRIPTOR_FIELDS, are also
 * what `stencil-compile --abi-json` describes ("runtime_structs"), so that
 * callers without a C compiler (Python's ctypes) read them. No MPI here.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_RUNTIME_DISTRIBUTEDLAYOUT_H
#define STENCIL_RUNTIME_DISTRIBUTEDLAYOUT_H

#include "Stencil/ABI/StencilABI.h"

#include <stdint.h>

/* The most dimensions a process grid has; the tables' count 8. */
#define STENCIL_DIST_MAX_DIMS 8
#define STENCIL_ABI_MEMBER_i64_8(name, T, R) int64_t name[8];

/* What a library's header says about its distributed functions (one
 * `stencil_dist_layout_<function>()` each): the grid's rank, the halo, and
 * per dimension the processes along it, 0 where chosen at run time. */
#define STENCIL_DIST_LAYOUT_FIELDS(X, T, R)                                    \
  X(ndims, i64, 1, T, R)                                                       \
  X(halo, i64, 1, T, R)                                                        \
  X(grid, i64, 8, T, R)
typedef struct stencil_dist_layout {
  STENCIL_DIST_LAYOUT_FIELDS(STENCIL_ABI_MEMBER, void, 0)
} stencil_dist_layout;

/* This process's block of global arrays of shape `global`: the grid as the
 * library resolves it on its communicator, this process's coordinates in
 * it, and per dimension the first global index it owns, the number it
 * owns, and the extent of its local array (count + 2 halo); its rank in
 * the communicator and the communicator's size. */
#define STENCIL_DIST_BLOCK_FIELDS(X, T, R)                                     \
  X(ndims, i64, 1, T, R)                                                       \
  X(halo, i64, 1, T, R)                                                        \
  X(global, i64, 8, T, R)                                                      \
  X(grid, i64, 8, T, R)                                                        \
  X(coord, i64, 8, T, R)                                                       \
  X(start, i64, 8, T, R)                                                       \
  X(count, i64, 8, T, R)                                                       \
  X(local, i64, 8, T, R)                                                       \
  X(rank, i64, 1, T, R)                                                        \
  X(size, i64, 1, T, R)
typedef struct stencil_dist_block {
  STENCIL_DIST_BLOCK_FIELDS(STENCIL_ABI_MEMBER, void, 0)
} stencil_dist_block;

#endif /* STENCIL_RUNTIME_DISTRIBUTEDLAYOUT_H */
