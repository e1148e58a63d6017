/*===- Distributed.c - Grid, communicator and checks of distributed kernels ===//
 *
 * See Stencil/Runtime/Distributed.h. The caller's block helpers are in
 * DistributedBlocks.c and the sums in DistributedSums.c; they share
 * DistributedInternal.h.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 199309L
#include "DistributedInternal.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*===----------------------- Settings -----------------------------------===*/

static MPI_Comm userComm = MPI_COMM_NULL;
static int userGridDims = 0;
static int64_t userGrid[STENCIL_DIST_MAX_DIMS];

void stencil_dist_set_comm(MPI_Comm comm) { userComm = comm; }

void stencil_dist_set_comm_f(int64_t handle) {
  userComm = MPI_Comm_f2c((MPI_Fint)handle);
}

MPI_Comm stencil_dist_comm(void) {
  return userComm == MPI_COMM_NULL ? MPI_COMM_WORLD : userComm;
}

void stencil_dist_set_grid(int64_t ndims, const int64_t *dims) {
  if (ndims < 0 || ndims > STENCIL_DIST_MAX_DIMS) {
    fprintf(stderr,
            "stencil_dist_set_grid: error: %" PRId64
            " dimensions; a grid has 0 (the default) to %d\n",
            ndims, STENCIL_DIST_MAX_DIMS);
    stencil_dist_fail();
  }
  userGridDims = (int)ndims;
  for (int k = 0; k < userGridDims; ++k)
    userGrid[k] = dims[k];
}

/*===----------------------- Failing -------------------------------------===*/

/* mpirun forwards a rank's stderr asynchronously, and MPI_Abort may take
 * the forwarding down with it: the message gets a moment to leave first. */
void stencil_dist_fail(void) {
  fflush(stderr);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    abort();
  struct timespec pause = {1, 0};
  nanosleep(&pause, NULL);
  MPI_Abort(stencil_dist_comm(), 1);
  abort();
}

int stencil_dist_rank(void) {
  int rank = -1;
  MPI_Comm_rank(stencil_dist_comm(), &rank);
  return rank;
}

/*===----------------------- The grid ------------------------------------===*/

/* Writes "2x?x1" for `ndims` extents (0: `?`). */
static void printShape(char *out, size_t size, int ndims,
                       const int64_t *dims) {
  size_t used = 0;
  out[0] = '\0';
  for (int k = 0; k < ndims && used < size; ++k) {
    int n = dims[k] ? snprintf(out + used, size - used, "%s%" PRId64,
                               k ? "x" : "", dims[k])
                    : snprintf(out + used, size - used, "%s?", k ? "x" : "");
    used += n > 0 ? (size_t)n : 0;
  }
}

int stencil_dist_parse_spec(const char *spec, int64_t *fixed) {
  int ndims = 0;
  for (const char *p = spec; *p;) {
    if (ndims == STENCIL_DIST_MAX_DIMS)
      return -1;
    if (*p == '?') {
      fixed[ndims++] = 0;
      ++p;
    } else {
      char *end = NULL;
      long long value = strtoll(p, &end, 10);
      if (end == p || value < 1)
        return -1;
      fixed[ndims++] = value;
      p = end;
    }
    if (*p == ',')
      ++p;
    else if (*p)
      return -1;
  }
  return ndims;
}

/* The grid for `fixed` on the communicator, or an error in `why`. */
static int chooseGrid(int ndims, const int64_t *fixed, int size,
                      stencil_dist_grid *grid, char *why, size_t whySize) {
  char shape[160], wanted[160];
  printShape(shape, sizeof shape, ndims, fixed);
  int64_t product = 1;
  int free = 0;
  for (int k = 0; k < ndims; ++k) {
    product *= fixed[k] ? fixed[k] : 1;
    free += fixed[k] == 0;
  }
  grid->ndims = ndims;
  if (userGridDims) {
    printShape(wanted, sizeof wanted, userGridDims, userGrid);
    int64_t total = 1;
    int fits = userGridDims == ndims;
    for (int k = 0; k < userGridDims; ++k) {
      total *= userGrid[k] > 0 ? userGrid[k] : 0;
      fits &= k >= ndims || fixed[k] == 0 || fixed[k] == userGrid[k];
    }
    if (!fits) {
      snprintf(why, whySize,
               "the grid %s set by stencil_dist_set_grid does not fit the "
               "library's grid %s",
               wanted, shape);
      return 0;
    }
    if (total != size) {
      snprintf(why, whySize,
               "the grid %s set by stencil_dist_set_grid has %" PRId64
               " processes, but the communicator has %d",
               wanted, total, size);
      return 0;
    }
    for (int k = 0; k < ndims; ++k)
      grid->dims[k] = userGrid[k];
    return 1;
  }
  if (free == 0 ? product != size : size % product != 0) {
    snprintf(why, whySize,
             free == 0 ? "the process grid %s has %" PRId64
                         " processes, but the communicator has %d"
                       : "the process grid %s needs a multiple of %" PRId64
                         " processes, but the communicator has %d",
             shape, product, size);
    return 0;
  }
  int dims[STENCIL_DIST_MAX_DIMS];
  for (int k = 0; k < ndims; ++k)
    dims[k] = (int)fixed[k];
  if (ndims > 0)
    MPI_Dims_create(size, ndims, dims);
  for (int k = 0; k < ndims; ++k)
    grid->dims[k] = dims[k];
  return 1;
}

void stencil_dist_coords_of(int64_t ndims, const int64_t *dims, int64_t rank,
                            int64_t *coords) {
  for (int64_t k = ndims - 1; k >= 0; --k) {
    coords[k] = rank % dims[k];
    rank /= dims[k];
  }
}

/* The last grid resolved, and what it was resolved for. */
static struct {
  int valid;
  char spec[64];
  MPI_Comm comm;
  int size, userDims;
  int64_t user[STENCIL_DIST_MAX_DIMS];
  stencil_dist_grid grid;
} cache;

static int cacheHolds(const char *spec, MPI_Comm comm, int size) {
  if (!cache.valid || cache.comm != comm || cache.size != size ||
      cache.userDims != userGridDims || strcmp(cache.spec, spec) != 0)
    return 0;
  for (int k = 0; k < userGridDims; ++k)
    if (cache.user[k] != userGrid[k])
      return 0;
  return 1;
}

int stencil_dist_resolve(int ndims, const int64_t *fixed, const char *spec,
                         stencil_dist_grid *grid, char *why, size_t whySize) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    snprintf(why, whySize,
             "the function is distributed, but MPI is not initialized (call "
             "MPI_Init first)");
    return 0;
  }
  MPI_Comm comm = stencil_dist_comm();
  int size = 0, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  int cacheable = spec && strlen(spec) < sizeof cache.spec;
  if (cacheable && cacheHolds(spec, comm, size)) {
    *grid = cache.grid;
    return 1;
  }
  if (!chooseGrid(ndims, fixed, size, grid, why, whySize))
    return 0;
  grid->rank = rank;
  stencil_dist_coords_of(ndims, grid->dims, rank, grid->coords);
  if (cacheable) {
    cache.valid = 1;
    strcpy(cache.spec, spec);
    cache.comm = comm;
    cache.size = size;
    cache.userDims = userGridDims;
    memcpy(cache.user, userGrid, sizeof userGrid);
    cache.grid = *grid;
  }
  return 1;
}

/* The grid of a kernel's `spec`; aborts if it does not fit (the kernel's
 * stencil_dist_check_grid has said why before any of these calls). */
static stencil_dist_grid kernelGrid(const char *where, const char *spec) {
  int64_t fixed[STENCIL_DIST_MAX_DIMS];
  stencil_dist_grid grid;
  char why[512];
  int ndims = stencil_dist_parse_spec(spec, fixed);
  if (ndims < 0) {
    fprintf(stderr, "%s: error: the process grid '%s' does not parse\n",
            where, spec);
    stencil_dist_fail();
  }
  if (!stencil_dist_resolve(ndims, fixed, spec, &grid, why, sizeof why)) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized || stencil_dist_rank() == 0)
      fprintf(stderr, "%s: error: %s\n", where, why);
    stencil_dist_fail();
  }
  return grid;
}

void stencil_dist_check_grid(const char *where, const char *spec) {
  (void)kernelGrid(where, spec);
}

int64_t stencil_dist_grid_extent(const char *spec, int64_t axis) {
  return kernelGrid("stencil_dist", spec).dims[axis];
}

int64_t stencil_dist_grid_coord(const char *spec, int64_t axis) {
  return kernelGrid("stencil_dist", spec).coords[axis];
}

int64_t stencil_dist_neighbor(const char *spec, int64_t axis,
                              int64_t direction) {
  stencil_dist_grid grid = kernelGrid("stencil_dist", spec);
  int64_t coord = grid.coords[axis] + direction;
  if (coord < 0 || coord >= grid.dims[axis])
    return -1;
  int64_t stride = 1;
  for (int k = grid.ndims - 1; k > axis; --k)
    stride *= grid.dims[k];
  return grid.rank + direction * stride;
}

/* The message size as MPI counts it; aborts past an `int`. */
static int messageCount(int64_t bytes) {
  if (bytes > INT_MAX) {
    fprintf(stderr,
            "stencil_dist: error: rank %d: a halo message of %" PRId64
            " bytes is over MPI's count of 2^31 - 1; use more processes\n",
            stencil_dist_rank(), bytes);
    stencil_dist_fail();
  }
  return (int)bytes;
}

static int peer(int64_t rank) { return rank < 0 ? MPI_PROC_NULL : (int)rank; }

void stencil_dist_sendrecv(const void *send, int64_t dest, void *recv,
                           int64_t source, int64_t bytes, int64_t tag) {
  int count = messageCount(bytes);
  MPI_Sendrecv(send, count, MPI_BYTE, peer(dest), (int)tag, recv, count,
               MPI_BYTE, peer(source), (int)tag, stencil_dist_comm(),
               MPI_STATUS_IGNORE);
}

/* Exchanges in flight: a receive and a send each, in slots that
 * stencil_dist_wait frees. Kernels start and wait on the calling thread,
 * a few at a time. */
typedef struct {
  MPI_Request requests[2];
  int used;
} pendingExchange;
static pendingExchange *pending = NULL;
static int64_t pendingSlots = 0;

static int64_t freeSlot(void) {
  for (int64_t k = 0; k < pendingSlots; ++k)
    if (!pending[k].used)
      return k;
  int64_t grown = pendingSlots ? 2 * pendingSlots : 8;
  pendingExchange *slots = realloc(pending, (size_t)grown * sizeof *slots);
  if (!slots) {
    fprintf(stderr, "stencil_dist: error: rank %d: out of memory\n",
            stencil_dist_rank());
    stencil_dist_fail();
  }
  memset(slots + pendingSlots, 0,
         (size_t)(grown - pendingSlots) * sizeof *slots);
  pending = slots;
  int64_t slot = pendingSlots;
  pendingSlots = grown;
  return slot;
}

int64_t stencil_dist_isendrecv(const void *send, int64_t dest, void *recv,
                               int64_t source, int64_t bytes, int64_t tag) {
  int count = messageCount(bytes);
  int64_t slot = freeSlot();
  pendingExchange *exchange = &pending[slot];
  exchange->used = 1;
  MPI_Irecv(recv, count, MPI_BYTE, peer(source), (int)tag,
            stencil_dist_comm(), &exchange->requests[0]);
  MPI_Isend(send, count, MPI_BYTE, peer(dest), (int)tag, stencil_dist_comm(),
            &exchange->requests[1]);
  return slot;
}

void stencil_dist_progress(void) {
  for (int64_t k = 0; k < pendingSlots; ++k)
    if (pending[k].used) {
      int done = 0;
      MPI_Testall(2, pending[k].requests, &done, MPI_STATUSES_IGNORE);
    }
}

void stencil_dist_wait(int64_t handle) {
  if (handle < 0 || handle >= pendingSlots || !pending[handle].used) {
    fprintf(stderr,
            "stencil_dist: error: rank %d: no exchange %" PRId64
            " is in flight\n",
            stencil_dist_rank(), handle);
    stencil_dist_fail();
  }
  MPI_Waitall(2, pending[handle].requests, MPI_STATUSES_IGNORE);
  pending[handle].used = 0;
}

/*===----------------------- Checks --------------------------------------===*/

void stencil_dist_check_extent(const char *where, const char *argument,
                               int64_t dim, int64_t actual, int64_t expected) {
  if (actual == expected)
    return;
  fprintf(stderr,
          "%s: error: rank %d: %s has %" PRId64
          " points in dimension %" PRId64 ", but its block and halos have %" PRId64
          "\n",
          where, stencil_dist_rank(), argument, actual, dim, expected);
  stencil_dist_fail();
}

void stencil_dist_check_block(const char *where, const char *spec,
                              int64_t dim, int64_t count, int64_t width) {
  if (count >= width || kernelGrid(where, spec).dims[dim] == 1)
    return;
  fprintf(stderr,
          "%s: error: rank %d: a halo of %" PRId64
          " points is wider than this rank's block of %" PRId64
          " points in dimension %" PRId64 "; use fewer processes along it\n",
          where, stencil_dist_rank(), width, count, dim);
  stencil_dist_fail();
}
