/*===- wave3d_mpi.c - wave3d and its adjoint over MPI, against one process -===//
 *
 * Usage: mpirun -n P wave3d_mpi DIST.so REF.so P0 P1 P2 HALO [--run-time]
 *                        [--split] [--all-grids] [--bad-extent] n...
 *
 * DIST.so: examples/wave3d.mlir compiled with --stencil-adjoint
 * --stencil-distribute=grid=P0,P1,P2; REF.so: the same without
 * --stencil-distribute. With --run-time, DIST.so was compiled with
 * grid=auto: P0 P1 P2 is the grid this driver sets (stencil_dist_set_grid,
 * of the run-time library the driver links, which the library's calls bind
 * to: -rdynamic), or 0 0 0 to leave the choice to MPI_Dims_create. The
 * blocks come from stencil_dist_block_init. --split (with --run-time)
 * splits MPI_COMM_WORLD into two groups (even and odd ranks) that run at
 * once on their own communicators (stencil_dist_set_comm), group g on sizes
 * n + 3g. --all-grids (with --run-time) runs every size on every grid
 * P0 x P1 x P2 of the communicator's size, set in turn. For each global
 * size n, every rank runs the
 * single-process reference on the whole grid and the distributed functions
 * on its block (halos filled with NaN: only exchanges may fill them), and
 * checks:
 *   - the primal and the adjoint on its block equal the reference bitwise;
 *   - the dot-product test <J v, w> = <v, J^T w> across ranks (sums over
 *     the blocks, reduced with MPI_Allreduce);
 *   - the messages and bytes it sent (counted by mpi_common.h's MPI_Sendrecv,
 *     which wraps PMPI_Sendrecv) equal the minimum for halos of width 1 per
 *     side: one message per neighbour, per exchanged array and split
 *     dimension, of the face of the block (halos of the dimensions
 *     exchanged before it included, for the corners).
 * Rank 0 prints a line per n and PASS, or FAIL with the number of failures.
 * --bad-extent passes rank 0 a block one point too long (the library must
 * refuse it).
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Runtime/Distributed.h"
#include "mpi_common.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef StencilMemRef3D_f64 M;
typedef void (*RefPrimal)(M *, M *, M *, M *, double, int64_t);
typedef void (*RefAdjoint)(M *, M *, M *, M *, double, int64_t, M *, M *, M *);
typedef void (*DistPrimal)(M *, M *, M *, M *, double, int64_t, int64_t,
                           int64_t, int64_t);
typedef void (*DistAdjoint)(M *, M *, M *, M *, double, int64_t, M *, M *, M *,
                            int64_t, int64_t, int64_t);

typedef struct {
  int n, halo;
  int P[3], c[3];
  long start[3], count[3], ext[3];
} Layout;

static long globalIndex(const Layout *L, long i, long j, long k) {
  return (i * L->n + j) * L->n + k;
}

/* A global n^3 array of values `seed` (zero if seed is 0). */
static M globalArray(const Layout *L, int seed) {
  long n = L->n, total = n * n * n;
  double *data = malloc(sizeof(double) * (size_t)total);
  for (long g = 0; g < total; ++g)
    data[g] = seed ? testValue(seed, g) : 0.0;
  return stencil_memref3d_f64(data, n, n, n);
}

/* This rank's block of a global array, halos NaN; `extra` points longer in
 * dimension 0 for --bad-extent. */
static M localArray(const Layout *L, const M *global, int extra) {
  long e0 = L->ext[0] + extra, e1 = L->ext[1], e2 = L->ext[2];
  double *data = malloc(sizeof(double) * (size_t)(e0 * e1 * e2));
  for (long i = 0; i < e0; ++i)
    for (long j = 0; j < e1; ++j)
      for (long k = 0; k < e2; ++k) {
        long gi = L->start[0] + i - L->halo, gj = L->start[1] + j - L->halo,
             gk = L->start[2] + k - L->halo;
        int owned = i >= L->halo && i < L->halo + L->count[0] &&
                    j >= L->halo && j < L->halo + L->count[1] &&
                    k >= L->halo && k < L->halo + L->count[2];
        data[(i * e1 + j) * e2 + k] =
            owned ? global->aligned[globalIndex(L, gi, gj, gk)] : NAN;
      }
  return stencil_memref3d_f64(data, e0, e1, e2);
}

/* Calls f(local index, global index) on every owned point. */
#define FOR_OWNED(L, LOCAL, GLOBAL, BODY)                                      \
  for (long i = 0; i < (L)->count[0]; ++i)                                     \
    for (long j = 0; j < (L)->count[1]; ++j)                                   \
      for (long k = 0; k < (L)->count[2]; ++k) {                               \
        long LOCAL = ((i + (L)->halo) * (L)->ext[1] + j + (L)->halo) *         \
                         (L)->ext[2] +                                         \
                     k + (L)->halo;                                            \
        long GLOBAL = globalIndex(L, (L)->start[0] + i, (L)->start[1] + j,     \
                                  (L)->start[2] + k);                          \
        BODY;                                                                  \
      }

/* Owned points of `local` that differ bitwise from `global`. */
static long mismatches(const Layout *L, const M *local, const M *global) {
  long bad = 0;
  FOR_OWNED(L, l, g, {
    if (memcmp(&local->aligned[l], &global->aligned[g], sizeof(double)))
      ++bad;
  });
  return bad;
}

static double dotOwned(const Layout *L, const M *a, const M *b) {
  double s = 0;
  FOR_OWNED(L, l, g, { (void)g; s += a->aligned[l] * b->aligned[l]; });
  return s;
}

/* The messages and bytes one exchange of one array with halos of width 1
 * sends from this rank. */
static void expectedTraffic(const Layout *L, long *messages, long *bytes) {
  *messages = *bytes = 0;
  for (int t = 0; t < 3; ++t) {
    if (L->P[t] == 1)
      continue;
    long neighbours = (L->c[t] > 0) + (L->c[t] < L->P[t] - 1);
    long face = 1;
    for (int j = 0; j < 3; ++j)
      if (j != t)
        face *= L->count[j] + (L->P[j] > 1 ? 2 : 0);
    *messages += neighbours;
    *bytes += neighbours * face * (long)sizeof(double);
  }
}

typedef struct {
  RefPrimal refPrimal;
  RefAdjoint refAdjoint;
  DistPrimal primal;
  DistAdjoint adjoint;
} Kernels;

static void freeAll(M *arrays, int count) {
  for (int a = 0; a < count; ++a)
    free(arrays[a].allocated);
}

/* Runs every check for one global size; returns this rank's failures. */
static long checkSize(const Kernels *K, Layout *L, int badExtent, int rank,
                      const char *label) {
  long n = L->n, failures = 0;
  for (int d = 0; d < 3; ++d) {
    L->start[d] = stencil_dist_block_start(n, L->P[d], L->c[d]);
    L->count[d] = stencil_dist_block_count(n, L->P[d], L->c[d]);
    L->ext[d] = L->count[d] + 2 * L->halo;
  }
  const double D = 0.1;
  /* Primal: u, u_1, u_2, c. */
  M g[4] = {globalArray(L, 1), globalArray(L, 2), globalArray(L, 3),
            globalArray(L, 4)};
  M l[4];
  for (int a = 0; a < 4; ++a)
    l[a] = localArray(L, &g[a], badExtent && rank == 0 && a == 1);
  K->refPrimal(&g[0], &g[1], &g[2], &g[3], D, n);
  sentMessages = sentBytes = 0;
  K->primal(&l[0], &l[1], &l[2], &l[3], D, n, n, n, n);
  long messages, bytes;
  expectedTraffic(L, &messages, &bytes);
  long primalBad = mismatches(L, &l[0], &g[0]);
  int primalTraffic = sentMessages == messages && sentBytes == bytes;
  /* Adjoint: seeds u_b, accumulated u_1_b and u_2_b. */
  M gb[3] = {globalArray(L, 5), globalArray(L, 6), globalArray(L, 7)};
  M lb[3];
  for (int a = 0; a < 3; ++a)
    lb[a] = localArray(L, &gb[a], 0);
  K->refAdjoint(&g[0], &g[1], &g[2], &g[3], D, n, &gb[0], &gb[1], &gb[2]);
  sentMessages = sentBytes = 0;
  K->adjoint(&l[0], &l[1], &l[2], &l[3], D, n, &lb[0], &lb[1], &lb[2], n, n,
             n);
  long adjointBad = 0;
  for (int a = 0; a < 3; ++a)
    adjointBad += mismatches(L, &lb[a], &gb[a]);
  long adjointMessages = sentMessages, adjointBytes = sentBytes;
  int adjointTraffic =
      adjointMessages == 2 * messages && adjointBytes == 2 * bytes;
  /* Dot-product test: J maps (u_1, u_2) to u. */
  M zero = globalArray(L, 0), v1g = globalArray(L, 8), v2g = globalArray(L, 9),
    wg = globalArray(L, 10);
  M ju = localArray(L, &zero, 0), v1 = localArray(L, &v1g, 0),
    v2 = localArray(L, &v2g, 0), w = localArray(L, &wg, 0),
    v1b = localArray(L, &zero, 0), v2b = localArray(L, &zero, 0);
  K->primal(&ju, &v1, &v2, &l[3], D, n, n, n, n);
  double local[2] = {dotOwned(L, &ju, &w), 0};
  K->adjoint(&ju, &v1, &v2, &l[3], D, n, &w, &v1b, &v2b, n, n, n);
  local[1] = dotOwned(L, &v1, &v1b) + dotOwned(L, &v2, &v2b);
  double sums[2];
  MPI_Allreduce(local, sums, 2, MPI_DOUBLE, MPI_SUM, stencil_dist_comm());
  double scale = fmax(fabs(sums[0]), fabs(sums[1]));
  double rel = scale > 0 ? fabs(sums[0] - sums[1]) / scale : 0;
  failures += primalBad + adjointBad + !primalTraffic + !adjointTraffic +
              (rel > 1e-12 || (scale == 0 && n >= 3));
  if (primalBad || adjointBad || !primalTraffic || !adjointTraffic)
    fprintf(stderr,
            "rank %d, n = %ld: %ld primal and %ld adjoint points differ; "
            "sent %ld messages, %ld bytes in the adjoint (expected %ld, %ld)\n",
            rank, n, primalBad, adjointBad, adjointMessages, adjointBytes,
            2 * messages, 2 * bytes);
  long total = failuresOnAllRanks(failures);
  if (rank == 0)
    printf("%sn = %ld: %s, dot-product test %.1e (<Jv,w> = %.6e)\n", label, n,
           total ? "MISMATCH" : "primal and adjoint bitwise equal to one "
                                "process, messages and bytes minimal",
           rel, sums[0]);
  freeAll(g, 4);
  freeAll(l, 4);
  freeAll(gb, 3);
  freeAll(lb, 3);
  M rest[10] = {zero, v1g, v2g, wg, ju, v1, v2, w, v1b, v2b};
  freeAll(rest, 10);
  return failures;
}

/* Runs every size on one grid: `grid` set with stencil_dist_set_grid (its
 * first extent 0: chosen by the library), or the library's fixed grid
 * `L->P` if NULL. */
static long runGrid(const Kernels *K, Layout *L, stencil_dist_layout *layout,
                    int64_t *grid, const char *label, char **sizes,
                    int count, int offset, int badExtent, int rank, int size) {
  if (grid) {
    stencil_dist_set_grid(grid[0] > 0 ? 3 : 0, grid);
    /* The grid and this rank's coordinates, as the library resolves them. */
    stencil_dist_block block;
    stencil_dist_block_init(&block, layout, (int64_t[]){1, 1, 1});
    for (int d = 0; d < 3; ++d) {
      L->P[d] = (int)block.grid[d];
      L->c[d] = (int)block.coord[d];
    }
  } else {
    /* Row-major, as the compiled code numbers the grid (not checked here:
     * the library must refuse a grid that does not fit). */
    L->c[0] = rank / (L->P[1] * L->P[2]);
    L->c[1] = rank / L->P[2] % L->P[1];
    L->c[2] = rank % L->P[2];
  }
  if (rank == 0)
    printf("%swave3d over %d ranks, grid %dx%dx%d, halo %d\n", label, size,
           L->P[0], L->P[1], L->P[2], L->halo);
  long failures = 0;
  for (int a = 0; a < count; ++a) {
    L->n = atoi(sizes[a]) + offset;
    failures += checkSize(K, L, badExtent, rank, label);
  }
  return failures;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 8) {
    fprintf(stderr, "usage: %s DIST.so REF.so P0 P1 P2 HALO [--run-time] "
                    "[--split] [--all-grids] [--bad-extent] n...\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  Kernels K = {loadSymbol(argv[2], "_mlir_ciface_wave3d"),
               loadSymbol(argv[2], "_mlir_ciface_wave3d_adjoint"),
               loadSymbol(argv[1], "_mlir_ciface_wave3d"),
               loadSymbol(argv[1], "_mlir_ciface_wave3d_adjoint")};
  Layout L;
  stencil_dist_layout layout = {3, atoi(argv[6]), {0, 0, 0}};
  int64_t shape[3];
  for (int d = 0; d < 3; ++d)
    L.P[d] = (int)(shape[d] = atoi(argv[3 + d]));
  L.halo = (int)layout.halo;
  int first = 7, badExtent = 0, runTime = 0;
  if (!strcmp(argv[first], "--run-time"))
    runTime = 1, ++first;
  int split = 0, allGrids = 0;
  if (!strcmp(argv[first], "--split"))
    split = 1, ++first;
  if (!strcmp(argv[first], "--all-grids"))
    allGrids = 1, ++first;
  if (!strcmp(argv[first], "--bad-extent"))
    badExtent = 1, ++first;
  int group = rank % 2, offset = 0;
  char label[32] = "";
  if (split) {
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, group, rank, &sub);
    stencil_dist_set_comm(sub);
    MPI_Comm_rank(sub, &rank);
    MPI_Comm_size(sub, &size);
    offset = 3 * group;
    snprintf(label, sizeof label, "group %d: ", group);
  }
  long failures = 0;
  if (allGrids) {
    /* Every grid P0 x P1 x P2 = size, in order. */
    for (int64_t p0 = 1; p0 <= size; ++p0)
      for (int64_t p1 = 1; p0 * p1 <= size; ++p1)
        if (size % (p0 * p1) == 0) {
          int64_t grid[3] = {p0, p1, size / (p0 * p1)};
          failures += runGrid(&K, &L, &layout, grid, label, argv + first,
                              argc - first, offset, badExtent, rank, size);
        }
  } else {
    failures += runGrid(&K, &L, &layout, runTime ? shape : NULL, label,
                        argv + first, argc - first, offset, badExtent, rank,
                        size);
  }
  return finish(failures);
}
