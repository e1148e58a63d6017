/*===- fwi_main.c - The gradient of a seismic misfit, end to end ----*- C -*-===*
 *
 * The full-waveform inversion example of docs/TimeLoops.md: a 3-D acoustic
 * wave equation (examples/fwi/fwi.mlir) with a Ricker point source at
 * depth and a plane of receivers near the surface. "Observed" data come from
 * a true model with a slow-down blob between them; the misfit J of a smooth
 * starting model and its gradient dJ/dm come from the compiled primal and
 * its reversed time loop, with binomial checkpointing in `snapshots` states.
 * The gradient is checked against a central finite difference of J and its
 * central slice is written as a PNG image.
 *
 *   fwi-example [n [steps [snapshots [out.png]]]]   (default 40 160 12)
 *
 * Exits 1 if the gradient check fails.
 *
 *===----------------------------------------------------------------------===*/

#include "fwi.h"
#include "fwi_survey.h"

#include "Stencil/Runtime/Checkpoint.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "png_write.h"

/* The peak resident memory of the process so far, in bytes. */
static double peakResident(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss * 1024.0;
}

static double *zeros(size_t count) {
  double *p = calloc(count ? count : 1, sizeof(double));
  if (!p) {
    fprintf(stderr, "fwi-example: out of memory\n");
    exit(2);
  }
  return p;
}

/* The model of fwi_survey.h on the whole grid. */
static void makeModel(double *m, int64_t n, double blob) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k)
        m[(i * n + j) * n + k] = modelAt(i, j, k, n, blob);
}

/* Descriptors of the three state arrays, zeroed (the initial state). */
typedef struct {
  double *data[3];
  StencilMemRef3D_f64 desc[3];
} State;

static void resetState(State *s, int64_t n) {
  for (int k = 0; k < 3; ++k) {
    memset(s->data[k], 0, sizeof(double) * n * n * n);
    s->desc[k] = stencil_memref3d_f64(s->data[k], n, n, n);
  }
}

static double misfit(State *s, double *m, Survey *v) {
  int64_t n = v->n;
  resetState(s, n);
  StencilMemRef3D_f64 md = stencil_memref3d_f64(m, n, n, n);
  StencilMemRef1D_f64 wd = stencil_memref1d_f64(v->w, v->steps);
  StencilMemRef3D_f64 dd = stencil_memref3d_f64(v->d, v->steps, n, n);
  return _mlir_ciface_fwi(&s->desc[0], &s->desc[1], &s->desc[2], &md, &wd,
                          &dd, n, v->sx, v->sy, v->sz, v->zr, v->steps);
}

static void gradient(State *s, State *sb, double *m, double *mb, Survey *v,
                     int64_t snapshots) {
  int64_t n = v->n;
  resetState(s, n);
  resetState(sb, n);
  memset(mb, 0, sizeof(double) * n * n * n);
  StencilMemRef3D_f64 md = stencil_memref3d_f64(m, n, n, n);
  StencilMemRef3D_f64 mbd = stencil_memref3d_f64(mb, n, n, n);
  StencilMemRef1D_f64 wd = stencil_memref1d_f64(v->w, v->steps);
  StencilMemRef3D_f64 dd = stencil_memref3d_f64(v->d, v->steps, n, n);
  _mlir_ciface_fwi_adjoint(&s->desc[0], &s->desc[1], &s->desc[2], &md, &wd,
                           &dd, n, v->sx, v->sy, v->sz, v->zr, v->steps,
                           &sb->desc[0], &sb->desc[1], &sb->desc[2], &mbd,
                           1.0, snapshots);
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 40;
  int64_t steps = argc > 2 ? atoll(argv[2]) : 160;
  int64_t snapshots = argc > 3 ? atoll(argv[3]) : 12;
  const char *out = argc > 4 ? argv[4] : "fwi_gradient.png";
  if (n < 8 || steps < 1) {
    fprintf(stderr, "usage: fwi-example [n >= 8 [steps >= 1 [snapshots "
                    "[out.png]]]]\n");
    return 2;
  }
  size_t cells = (size_t)(n * n * n);
  double baseline = peakResident();
  Survey v = makeSurvey(n, steps, zeros(steps), zeros(steps * n * n));
  State s, sb;
  for (int k = 0; k < 3; ++k) {
    s.data[k] = zeros(cells);
    sb.data[k] = zeros(cells);
  }
  double *mtrue = zeros(cells), *m0 = zeros(cells), *mb = zeros(cells);
  makeModel(mtrue, n, 0.2);
  makeModel(m0, n, 0.0);

  /* The observed data: the true model's traces. */
  resetState(&s, n);
  StencilMemRef3D_f64 mt = stencil_memref3d_f64(mtrue, n, n, n);
  StencilMemRef1D_f64 wd = stencil_memref1d_f64(v.w, steps);
  StencilMemRef3D_f64 dd = stencil_memref3d_f64(v.d, steps, n, n);
  _mlir_ciface_record(&s.desc[0], &s.desc[1], &s.desc[2], &mt, &wd, &dd, n,
                      v.sx, v.sy, v.sz, v.zr, steps);

  double t0 = omp_get_wtime();
  double J = misfit(&s, m0, &v);
  double t1 = omp_get_wtime();
  gradient(&s, &sb, m0, mb, &v, snapshots);
  double t2 = omp_get_wtime();
  stencil_ckpt_stats stats = stencil_ckpt_last_stats();
  /* What the gradient needs: 10 grids (3 states, 3 shadows, the two
   * models, the gradient, and the traces' T x n^2) and a snapshot per slot
   * the schedule stored in: where it restarts the forward from slots
   * (Revolve), u_prev and u_t whole and the faces of u_next (the step
   * overwrites its interior before reading it); under store-all, which
   * only reverses steps from them and whose step adjoint reads u_t alone
   * (m_b gets lambda * lap(u_t), the misfit's adjoint u_t - d_t), u_t
   * alone. The rest of the process (code, libraries, threads) is in the
   * baseline taken before any allocation. */
  double grid = 8.0 * (double)cells;
  double inner = (double)(n - 2) * (double)(n - 2) * (double)(n - 2);
  double faces = 1.0 - inner / (double)cells;
  double used = stats.slots < steps - 1 ? stats.slots : steps - 1;
  double perSlot = snapshots >= steps ? 1 : 2 + faces;
  double expected = 9 * grid + 8.0 * steps * n * n + used * perSlot * grid;
  double measured = peakResident() - baseline;
  printf("fwi: n = %lld, %lld steps, %lld snapshots, %d threads\n",
         (long long)n, (long long)steps, (long long)snapshots,
         omp_get_max_threads());
  printf("misfit J = %.10g  (primal %.3f s, gradient %.3f s = %.2f x; "
         "%lld forward steps recomputed in %lld slots)\n",
         J, t1 - t0, t2 - t1, (t2 - t1) / (t1 - t0),
         (long long)stats.forward_steps, (long long)stats.slots);

  printf("peak memory: %.1f MB above the baseline; arrays and %g snapshots: "
         "%.1f MB (%.3f)\n",
         measured / 1e6, used, expected / 1e6, measured / expected);

  /* A checksum of the gradient, exact (hex float): schedules and thread
   * counts must not change a bit of it. */
  double sum = 0;
  for (size_t i = 0; i < cells; ++i)
    sum += mb[i] * (double)(i % 7 + 1);
  printf("gradient checksum: %a\n", sum);

  /* <dJ/dm, dm> against (J(m + h dm) - J(m - h dm)) / 2h. */
  double *dm = zeros(cells), *mp = zeros(cells), *mm = zeros(cells);
  unsigned seed = 12345;
  double dot = 0;
  for (size_t i = 0; i < cells; ++i) {
    seed = seed * 1103515245u + 12345u;
    dm[i] = ((seed >> 8) & 0xffff) / 32768.0 - 1.0;
    dot += mb[i] * dm[i];
  }
  double h = 1e-7;
  for (size_t i = 0; i < cells; ++i) {
    mp[i] = m0[i] + h * dm[i];
    mm[i] = m0[i] - h * dm[i];
  }
  double fd = (misfit(&s, mp, &v) - misfit(&s, mm, &v)) / (2 * h);
  double rel = fd == dot ? 0 : fabs(fd - dot) / fmax(fabs(fd), 1e-300);
  printf("gradient check: <dJ/dm, dm> = %.10g, finite difference = %.10g, "
         "relative difference %.2e\n",
         dot, fd, rel);

  /* The slice y = n/2 of the gradient: x across, depth z down. */
  double *slice = zeros((size_t)(n * n));
  for (int64_t z = 0; z < n; ++z)
    for (int64_t x = 0; x < n; ++x)
      slice[z * n + x] = mb[(x * n + n / 2) * n + z];
  /* The source point dwarfs the rest: the colours saturate at the 99th
   * percentile of the magnitude. */
  if (png_write_diverging(out, slice, (int)n, (int)n, 8, 0.99) != 0) {
    fprintf(stderr, "fwi-example: cannot write %s\n", out);
    return 2;
  }
  printf("wrote the gradient's central slice to %s\n", out);
  /* (Before the waves reach the receivers J and its gradient are zero, and
   * so is the difference.) */
  int ok = rel < 1e-5 && isfinite(J);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
