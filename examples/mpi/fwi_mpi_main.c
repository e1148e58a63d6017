/*===- fwi_mpi_main.c - The gradient of a seismic misfit over MPI ---------===//
 *
 *   mpirun -n R fwi-mpi-example [--check-serial] [n [steps [snapshots
 *                               [out.png]]]]   (R = 1, 2 or 4; 32 96 8)
 *
 * The full-waveform inversion example (examples/fwi/, docs/TimeLoops.md)
 * distributed whole: examples/fwi/fwi.mlir's misfit J(m), whose time loop
 * runs every step on every rank's block with the halo exchanges inside,
 * and its adjoint, the reversed time loop under binomial checkpointing with
 * `snapshots` states per rank, compiled with --stencil-adjoint
 * --stencil-distribute=grid=R,1,1 (one library per R, built beside this
 * example by examples/CMakeLists.txt). The traces d are read through a
 * subview per step, so every rank holds them whole (docs/Distributed.md,
 * "Replicated arrays"); rank 0 records them with the single-process library
 * and broadcasts them, as a survey's data would be read from files.
 *
 * It prints J and a checksum of dJ/dm that does not depend on the order of
 * the points (the sum of their bit patterns): both are the same, bit for
 * bit, on every rank count. It checks dJ/dm against a central difference
 * of J across ranks; with --check-serial, rank 0 also computes J and dJ/dm
 * with the single-process library and every rank compares its block
 * bitwise. Rank 0 writes the gradient's central slice as a PNG image.
 * Exits 1 if a check fails.
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Runtime/Checkpoint.h"
#include "Stencil/Runtime/Distributed.h"
#include "fwi.h"
#include "fwi_survey.h"
#include "png_write.h"

#include <dlfcn.h>
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

enum { H = STENCIL_EXAMPLE_HALO };

/* This rank's block: [start, start + count) of dimension 0, all of the
 * others; ext: the local array's extents with the halos. */
typedef struct {
  I n, start, count, ext[3];
  Misfit misfit;
  Gradient gradient;
  Stats stats; /* the library's stencil_ckpt_last_stats */
} Block;

#define FOR_OWNED(b, body)                                                    \
  for (I i = (b)->start; i < (b)->start + (b)->count; ++i)                    \
    for (I j = 0; j < (b)->n; ++j)                                            \
      for (I k = 0; k < (b)->n; ++k) {                                        \
        I l = ((i - (b)->start + H) * (b)->ext[1] + j + H) * (b)->ext[2] +    \
              k + H;                                                          \
        I g = (i * (b)->n + j) * (b)->n + k;                                  \
        body;                                                                 \
      }

static M alloc(const Block *b) {
  double *data = calloc((size_t)(b->ext[0] * b->ext[1] * b->ext[2]),
                        sizeof(double));
  if (!data) {
    fprintf(stderr, "fwi-mpi-example: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return stencil_memref3d_f64(data, b->ext[0], b->ext[1], b->ext[2]);
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
  memset(mb->aligned, 0, sizeof(double) * (size_t)(b->ext[0] * b->ext[1] *
                                                   b->ext[2]));
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
 * single-process gradient (computed by rank 0, broadcast), summed over the
 * ranks; J's too. */
static long compareSerial(const Block *b, M *mb, double J, Survey *v,
                          I snapshots, int rank) {
  I n = v->n, cells = n * n * n;
  double *data = calloc((size_t)(8 * cells), sizeof(double)), serialJ = 0;
  if (rank == 0) {
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
  MPI_Bcast(data + 6 * cells, (int)cells, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  long bad = memcmp(&J, &serialJ, sizeof J) != 0, total = 0;
  FOR_OWNED(b, bad += memcmp(&mb->aligned[l], &data[6 * cells + g],
                             sizeof(double)) != 0);
  free(data);
  MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/* <dJ/dm, dm> against a central difference of J, relative. */
static double checkGradient(const Block *b, M *m0, M *mb, Survey *v,
                            int rank) {
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
  if (rank == 0)
    printf("gradient check: <dJ/dm, dm> = %.10g, finite difference = %.10g, "
           "relative difference %.2e\n",
           dot, fd, rel);
  free(mp.allocated);
  free(mm.allocated);
  return rel;
}

/* Rank 0 writes the slice y = n/2 of dJ/dm (x across, depth z down). */
static int writeSlice(const Block *b, M *mb, const char *out, int rank) {
  I n = b->n;
  double *slice = calloc((size_t)(n * n), sizeof(double)),
         *all = calloc((size_t)(n * n), sizeof(double));
  FOR_OWNED(b, {
    (void)g;
    if (j == n / 2)
      slice[k * n + i] = mb->aligned[l];
  });
  /* Each point comes from one rank, the others add zeros. */
  MPI_Reduce(slice, all, (int)(n * n), MPI_DOUBLE, MPI_SUM, 0,
             MPI_COMM_WORLD);
  int failed = rank == 0 &&
               png_write_diverging(out, all, (int)n, (int)n, 8, 0.99) != 0;
  if (rank == 0)
    printf(failed ? "cannot write %s\n"
                  : "wrote the gradient's central slice to %s\n",
           out);
  free(slice);
  free(all);
  return failed;
}

static void loadLibrary(Block *b, int size) {
  char lib[4096];
  snprintf(lib, sizeof lib, "%s/libfwi_mpi_%d.so", STENCIL_EXAMPLE_LIB_DIR,
           size);
  void *handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  b->misfit = handle ? (Misfit)dlsym(handle, "_mlir_ciface_fwi") : NULL;
  b->gradient =
      handle ? (Gradient)dlsym(handle, "_mlir_ciface_fwi_adjoint") : NULL;
  b->stats = handle ? (Stats)dlsym(handle, "stencil_ckpt_last_stats") : NULL;
  if (!b->misfit || !b->gradient || !b->stats) {
    fprintf(stderr, "fwi-mpi-example: no library for %d ranks (%s): %s\n",
            size, lib, dlerror());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int serial = argc > 1 && !strcmp(argv[1], "--check-serial");
  argv += serial;
  argc -= serial;
  I n = argc > 1 ? atoll(argv[1]) : 32, steps = argc > 2 ? atoll(argv[2]) : 96;
  I snapshots = argc > 3 ? atoll(argv[3]) : 8;
  const char *out = argc > 4 ? argv[4] : "fwi_gradient_mpi.png";
  Block b = {.n = n};
  loadLibrary(&b, size);
  b.start = stencil_dist_block_start(n, size, rank);
  b.count = stencil_dist_block_count(n, size, rank);
  b.ext[0] = b.count + 2 * H;
  b.ext[1] = b.ext[2] = n + 2 * H;
  Survey v = makeSurvey(n, steps, calloc((size_t)steps, sizeof(double)),
                        calloc((size_t)(steps * n * n), sizeof(double)));
  record(&v, rank);

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
                      (double)(b.ext[0] * b.ext[1] * b.ext[2] * 8),
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
  if (rank == 0) {
    printf("fwi on %d ranks (grid %dx1x1, halo %d), n = %lld, %lld steps, "
           "%lld snapshots\n",
           size, size, H, (long long)n, (long long)steps,
           (long long)snapshots);
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
  int ok = checkGradient(&b, &m0, &mb, &v, rank) < 1e-5;
  if (serial) {
    long differ = compareSerial(&b, &mb, J, &v, snapshots, rank);
    if (rank == 0)
      printf("against one process: %ld values differ\n", differ);
    ok = ok && differ == 0;
  }
  ok = !writeSlice(&b, &mb, out, rank) && ok;
  if (rank == 0)
    printf("%s\n", ok ? "PASS" : "FAIL");
  free(m0.allocated);
  free(mb.allocated);
  free(v.w);
  free(v.d);
  MPI_Finalize();
  return ok ? 0 : 1;
}
