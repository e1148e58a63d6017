/*===- fwi_mpi_main.c - The gradient of a seismic misfit over MPI ---------===//
 *
 *   mpirun -n R fwi-mpi-example [--check-serial] [--grid=AxBxC]
 *                               [n [steps [snapshots [out.png]]]]
 *                               (any R; 32 96 8)
 *
 * The full-waveform inversion example (examples/fwi/, docs/TimeLoops.md)
 * distributed whole: examples/fwi/fwi.mlir's misfit J(m), whose time loop
 * runs every step on every rank's block with the halo exchanges inside,
 * and its adjoint, the reversed time loop under binomial checkpointing with
 * `snapshots` states per rank, compiled once with --stencil-adjoint
 * --stencil-distribute=grid=?,?,? into libfwi_mpi.so (built beside this
 * example by examples/CMakeLists.txt): any number of ranks, on the grid
 * MPI_Dims_create chooses or the one --grid=AxBxC gives (R = A B C). The
 * receivers' misfit is summed in the order of one process on every grid.
 * The traces d are read through a subview per step, so every
 * rank holds them whole (docs/DistributedSums.md); rank 0
 * records them with the single-process library and broadcasts them, as a
 * survey's data would be read from files.
 *
 * It prints J and a checksum of dJ/dm that does not depend on the order of
 * the points (the sum of their bit patterns): both are the same, bit for
 * bit, on every rank count. It checks dJ/dm against a central difference
 * of J across ranks; with --check-serial, rank 0 also computes J and dJ/dm
 * with the single-process library, scatters that gradient, and every rank
 * compares its block bitwise. Rank 0 gathers the gradient and writes its
 * central slice as a PNG image. Exits 1 if a check fails.
 *
 * The library is loaded with dlopen because its entry points share their
 * names with the single-process library's (fwi.h); the block helpers of
 * Stencil/Runtime/Distributed.h are this program's own copy, which resolves
 * the same grid as the library's on MPI_COMM_WORLD.
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Runtime/Checkpoint.h"
#include "Stencil/Runtime/Distributed.h"
#include "fwi.h"
#include "fwi_survey.h"
#include "png_write.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef StencilMemRef3D_f64 M;
typedef StencilMemRef1D_f64 V;
typedef int64_t I;
typedef double (*Misfit)(M *, M *, M *, M *, V *, M *, I, I, I, I, I, I, I, I,
                         I);
typedef void (*Gradient)(M *, M *, M *, M *, V *, M *, I, I, I, I, I, I, M *,
                         M *, M *, M *, double, I, I, I, I);
typedef stencil_ckpt_stats (*Stats)(void);

/* This rank's block and the distributed library's entry points. */
typedef struct {
  stencil_dist_block b;
  Misfit misfit;
  Gradient gradient;
  Stats stats; /* the library's stencil_ckpt_last_stats */
  void (*setGrid)(I, const I *); /* the library's stencil_dist_set_grid */
} Block;

/* Runs BODY for every owned point: local offset l, global (i, j, k) and
 * global offset g. */
#define FOR_OWNED(blk, BODY)                                                  \
  for (I i = (blk)->b.start[0]; i < (blk)->b.start[0] + (blk)->b.count[0];    \
       ++i)                                                                   \
    for (I j = (blk)->b.start[1]; j < (blk)->b.start[1] + (blk)->b.count[1];  \
         ++j)                                                                 \
      for (I k = (blk)->b.start[2];                                           \
           k < (blk)->b.start[2] + (blk)->b.count[2]; ++k) {                  \
        I l = stencil_dist_local_offset(&(blk)->b, (I[]){i, j, k});           \
        I g = (i * (blk)->b.global[1] + j) * (blk)->b.global[2] + k;          \
        BODY;                                                                 \
      }

static M alloc(const Block *b) {
  return stencil_memref3d_f64(stencil_dist_alloc(&b->b, sizeof(double)),
                              b->b.local[0], b->b.local[1], b->b.local[2]);
}

/* J at model block m, from zero initial states. */
static double misfit(const Block *b, M *m, Survey *v) {
  M s[3] = {alloc(b), alloc(b), alloc(b)};
  V w = stencil_memref1d_f64(v->w, v->steps);
  M d = stencil_memref3d_f64(v->d, v->steps, v->n, v->n);
  double J = b->misfit(&s[0], &s[1], &s[2], m, &w, &d, v->n, v->sx, v->sy,
                       v->sz, v->zr, v->steps, v->n, v->n, v->n);
  for (int a = 0; a < 3; ++a)
    free(s[a].allocated);
  return J;
}

/* dJ/dm at model block m into mb (zeroed first). */
static void gradient(const Block *b, M *m, M *mb, Survey *v, I snapshots) {
  M s[3] = {alloc(b), alloc(b), alloc(b)}, sb[3] = {alloc(b), alloc(b),
                                                    alloc(b)};
  V w = stencil_memref1d_f64(v->w, v->steps);
  M d = stencil_memref3d_f64(v->d, v->steps, v->n, v->n);
  memset(mb->aligned, 0,
         sizeof(double) * (size_t)stencil_dist_block_size(&b->b));
  b->gradient(&s[0], &s[1], &s[2], m, &w, &d, v->n, v->sx, v->sy, v->sz,
              v->zr, v->steps, &sb[0], &sb[1], &sb[2], mb, 1.0, snapshots,
              v->n, v->n, v->n);
  for (int a = 0; a < 3; ++a) {
    free(s[a].allocated);
    free(sb[a].allocated);
  }
}

/* The traces of the true model, recorded by rank 0 with the
 * single-process library and broadcast. */
static void record(Survey *v, int rank) {
  I n = v->n, cells = n * n * n;
  if (rank == 0) {
    double *data = calloc((size_t)(4 * cells), sizeof(double));
    M s[3], m = stencil_memref3d_f64(data + 3 * cells, n, n, n);
    for (int a = 0; a < 3; ++a)
      s[a] = stencil_memref3d_f64(data + a * cells, n, n, n);
    for (I g = 0; g < cells; ++g)
      data[3 * cells + g] = modelAt(g / (n * n), g / n % n, g % n, n, 0.2);
    V w = stencil_memref1d_f64(v->w, v->steps);
    M d = stencil_memref3d_f64(v->d, v->steps, n, n);
    _mlir_ciface_record(&s[0], &s[1], &s[2], &m, &w, &d, n, v->sx, v->sy,
                        v->sz, v->zr, v->steps);
    free(data);
  }
  MPI_Bcast(v->d, (int)(v->steps * n * n), MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* The number of points of this rank's block of dJ/dm that differ from the
 * single-process gradient (computed by rank 0, scattered), summed over the
 * ranks; J's too. */
static long compareSerial(const Block *b, M *mb, double J, Survey *v,
                          I snapshots) {
  I n = v->n, cells = n * n * n;
  double *data = NULL, serialJ = 0;
  if (b->b.rank == 0) {
    data = calloc((size_t)(8 * cells), sizeof(double));
    M s[7], m = stencil_memref3d_f64(data + 7 * cells, n, n, n);
    for (int a = 0; a < 7; ++a)
      s[a] = stencil_memref3d_f64(data + a * cells, n, n, n);
    for (I g = 0; g < cells; ++g)
      data[7 * cells + g] = modelAt(g / (n * n), g / n % n, g % n, n, 0.0);
    V w = stencil_memref1d_f64(v->w, v->steps);
    M d = stencil_memref3d_f64(v->d, v->steps, n, n);
    serialJ = _mlir_ciface_fwi(&s[0], &s[1], &s[2], &m, &w, &d, n, v->sx,
                               v->sy, v->sz, v->zr, v->steps);
    memset(data, 0, sizeof(double) * (size_t)(7 * cells));
    _mlir_ciface_fwi_adjoint(&s[0], &s[1], &s[2], &m, &w, &d, n, v->sx, v->sy,
                             v->sz, v->zr, v->steps, &s[3], &s[4], &s[5],
                             &s[6], 1.0, snapshots);
  }
  MPI_Bcast(&serialJ, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  M serial = alloc(b);
  stencil_dist_scatter(&b->b, sizeof(double), data ? data + 6 * cells : NULL,
                       serial.aligned);
  long bad = memcmp(&J, &serialJ, sizeof J) != 0, total = 0;
  FOR_OWNED(b, (void)g; bad += memcmp(&mb->aligned[l], &serial.aligned[l],
                             sizeof(double)) != 0);
  free(data);
  free(serial.allocated);
  MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/* <dJ/dm, dm> against a central difference of J, relative. */
static double checkGradient(const Block *b, M *m0, M *mb, Survey *v) {
  M mp = alloc(b), mm = alloc(b);
  double local = 0, dot = 0, h = 1e-7;
  FOR_OWNED(b, {
    /* dm: a pseudo-random direction of the global index. */
    uint64_t x = (uint64_t)g * 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    double dm = (double)(x % 65536) / 32768.0 - 1.0;
    local += mb->aligned[l] * dm;
    mp.aligned[l] = m0->aligned[l] + h * dm;
    mm.aligned[l] = m0->aligned[l] - h * dm;
  });
  MPI_Allreduce(&local, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double fd = (misfit(b, &mp, v) - misfit(b, &mm, v)) / (2 * h);
  double rel = fd == dot ? 0 : fabs(fd - dot) / fmax(fabs(fd), 1e-300);
  if (b->b.rank == 0)
    printf("gradient check: <dJ/dm, dm> = %.10g, finite difference = %.10g, "
           "relative difference %.2e\n",
           dot, fd, rel);
  free(mp.allocated);
  free(mm.allocated);
  return rel;
}

/* Rank 0 gathers dJ/dm and writes its slice y = n/2 (x across, depth z
 * down). */
static int writeSlice(const Block *b, M *mb, const char *out) {
  I n = b->b.global[0];
  double *all = NULL, *slice = NULL;
  if (b->b.rank == 0) {
    all = malloc(sizeof(double) * (size_t)(n * n * n));
    slice = malloc(sizeof(double) * (size_t)(n * n));
  }
  stencil_dist_gather(&b->b, sizeof(double), mb->aligned, all);
  int failed = 0;
  if (b->b.rank == 0) {
    for (I i = 0; i < n; ++i)
      for (I k = 0; k < n; ++k)
        slice[k * n + i] = all[(i * n + n / 2) * n + k];
    failed = png_write_diverging(out, slice, (int)n, (int)n, 8, 0.99) != 0;
    printf(failed ? "cannot write %s\n"
                  : "wrote the gradient's central slice to %s\n",
           out);
  }
  free(slice);
  free(all);
  return failed;
}

static void loadLibrary(Block *b) {
  const char *lib = STENCIL_EXAMPLE_LIB_DIR "/libfwi_mpi.so";
  void *handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  b->misfit = handle ? (Misfit)dlsym(handle, "_mlir_ciface_fwi") : NULL;
  b->gradient =
      handle ? (Gradient)dlsym(handle, "_mlir_ciface_fwi_adjoint") : NULL;
  b->stats = handle ? (Stats)dlsym(handle, "stencil_ckpt_last_stats") : NULL;
  b->setGrid = handle ? (void (*)(I, const I *))dlsym(
                            handle, "stencil_dist_set_grid")
                      : NULL;
  if (!b->misfit || !b->gradient || !b->stats || !b->setGrid) {
    fprintf(stderr, "fwi-mpi-example: cannot load %s: %s\n", lib, dlerror());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int serial = argc > 1 && !strcmp(argv[1], "--check-serial");
  argv += serial;
  argc -= serial;
  I shape[3] = {0, 0, 0};
  int gridGiven = argc > 1 && !strncmp(argv[1], "--grid=", 7);
  if (gridGiven &&
      sscanf(argv[1] + 7, "%" SCNd64 "x%" SCNd64 "x%" SCNd64, &shape[0],
             &shape[1], &shape[2]) != 3) {
    fprintf(stderr, "fwi-mpi-example: --grid=AxBxC, not %s\n", argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  argv += gridGiven;
  argc -= gridGiven;
  I n = argc > 1 ? atoll(argv[1]) : 32, steps = argc > 2 ? atoll(argv[2]) : 96;
  I snapshots = argc > 3 ? atoll(argv[3]) : 8;
  const char *out = argc > 4 ? argv[4] : "fwi_gradient_mpi.png";
  /* The library's grid and halo, as examples/CMakeLists.txt compiled it
   * (and its header would describe them): every extent chosen at run
   * time, or the shape --grid gives, set in both copies of the run-time
   * library (this program's and the kernel library's). */
  stencil_dist_layout layout = {3, STENCIL_EXAMPLE_HALO, {STENCIL_EXAMPLE_GRID}};
  Block b;
  loadLibrary(&b);
  if (gridGiven) {
    stencil_dist_set_grid(3, shape);
    b.setGrid(3, shape);
  }
  stencil_dist_block_init(&b.b, &layout, (I[]){n, n, n});
  Survey v = makeSurvey(n, steps, calloc((size_t)steps, sizeof(double)),
                        calloc((size_t)(steps * n * n), sizeof(double)));
  record(&v, b.b.rank);

  M m0 = alloc(&b), mb = alloc(&b);
  FOR_OWNED(&b, { (void)g; m0.aligned[l] = modelAt(i, j, k, n, 0.0); });
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  double J = misfit(&b, &m0, &v);
  double t1 = MPI_Wtime();
  gradient(&b, &m0, &mb, &v, snapshots);
  double t2 = MPI_Wtime();
  stencil_ckpt_stats stats = b.stats();
  double slotBlocks = (double)stats.slot_bytes /
                      (double)(stencil_dist_block_size(&b.b) * 8),
         largest = 0;
  MPI_Reduce(&slotBlocks, &largest, 1, MPI_DOUBLE, MPI_MAX, 0,
             MPI_COMM_WORLD);
  uint64_t local = 0, checksum = 0;
  FOR_OWNED(&b, {
    (void)g;
    uint64_t bits;
    memcpy(&bits, &mb.aligned[l], sizeof bits);
    local += bits;
  });
  MPI_Allreduce(&local, &checksum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (b.b.rank == 0) {
    printf("fwi on %lld ranks (grid %lldx%lldx%lld, halo %lld), n = %lld, %lld "
           "steps, %lld snapshots\n",
           (long long)b.b.size, (long long)b.b.grid[0], (long long)b.b.grid[1],
           (long long)b.b.grid[2], (long long)b.b.halo, (long long)n,
           (long long)steps, (long long)snapshots);
    printf("misfit J = %a\ngradient checksum: %016llx\n", J,
           (unsigned long long)checksum);
    printf("primal %.3f s, gradient %.3f s (%.2f x)\n", t1 - t0, t2 - t1,
           (t2 - t1) / (t1 - t0));
    /* u_prev and u_t whole, the border of u_next's block (TimeLoops.md,
     * section 3; Distributed.md, "Time loops"). */
    printf("a snapshot slot holds at most %.3f blocks of the rank's state "
           "(u_prev, u_t and the border of u_next)\n",
           largest);
  }
  int ok = checkGradient(&b, &m0, &mb, &v) < 1e-5;
  if (serial) {
    long differ = compareSerial(&b, &mb, J, &v, snapshots);
    if (b.b.rank == 0)
      printf("against one process: %ld values differ\n", differ);
    ok = ok && differ == 0;
  }
  ok = !writeSlice(&b, &mb, out) && ok;
  if (b.b.rank == 0)
    printf("%s\n", ok ? "PASS" : "FAIL");
  free(m0.allocated);
  free(mb.allocated);
  free(v.w);
  free(v.d);
  MPI_Finalize();
  return ok ? 0 : 1;
}
