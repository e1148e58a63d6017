/*===- fwi_survey.h - The survey of the FWI examples ------------*- C -*-===*
 *
 * What fwi_main.c (one process) and examples/mpi/fwi_mpi_main.c (over MPI)
 * share: the source wavelet, the models and the survey's geometry.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_EXAMPLES_FWI_SURVEY_H
#define STENCIL_EXAMPLES_FWI_SURVEY_H

#include <math.h>
#include <stdint.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct {
  int64_t n, steps, sx, sy, sz, zr;
  double *w, *d;
} Survey;

/* The Ricker wavelet of peak frequency f (cycles per step), delayed by
 * 1.2 / f steps. */
static inline double ricker(double t, double f) {
  double a = M_PI * f * (t - 1.2 / f);
  return (1.0 - 2.0 * a * a) * exp(-a * a);
}

/* The model m = (v dt/h)^2 at point (i, j, k) of an n^3 grid: the
 * background, slowed down by `blob` in a Gaussian blob half way down, off
 * the source's axis (blob 0: the background). */
static inline double modelAt(int64_t i, int64_t j, int64_t k, int64_t n,
                             double blob) {
  double c = (n - 1) / 2.0, sigma = n / 8.0;
  double x = i - 0.35 * n, z = k - 0.5 * n;
  double r2 = x * x + (j - c) * (j - c) + z * z;
  return 0.09 * (1.0 - blob * exp(-r2 / (2 * sigma * sigma)));
}

/* The survey of an n^3 grid over `steps` steps: the source near the
 * bottom, the receivers near the top, so that the waves cross the model as
 * in a transmission (cross-well) survey; w and d are the caller's. */
static inline Survey makeSurvey(int64_t n, int64_t steps, double *w,
                                double *d) {
  Survey v = {n, steps, n / 2, n / 2, n - 4, 3, w, d};
  for (int64_t t = 0; t < steps; ++t)
    w[t] = ricker((double)t, 0.04);
  return v;
}

#endif /* STENCIL_EXAMPLES_FWI_SURVEY_H */
