// Time loops written in C, for test/Integration/import-c-time-loop.test.
#include <math.h>

// The leapfrog wave equation with three rotated time levels and a
// spatially varying coefficient.
void wave1d(int steps, int n, double *restrict u0, double *restrict u1,
            double *restrict u2, const double *restrict c) {
  double *prev = u0, *cur = u1, *next = u2;
  int t, i;
  for (t = 0; t < steps; t++) {
    for (i = 1; i < n - 1; i++)
      next[i] = 2.0 * cur[i] - prev[i] +
                c[i] * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
    double *tmp = prev;
    prev = cur;
    cur = next;
    next = tmp;
  }
}

// Nonlinear 2-D diffusion, two buffers swapped, with a guarded root.
void diffuse2d(int n, int steps, double alpha, double (*restrict a)[8],
               double (*restrict b)[8]) {
  double (*src)[8] = a, (*dst)[8] = b;
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < 7; j++) {
        double lap = src[i - 1][j] + src[i + 1][j] + src[i][j - 1] +
                     src[i][j + 1] - 4.0 * src[i][j];
        double s = src[i][j] > 0.0 ? sqrt(src[i][j]) : 0.0;
        dst[i][j] = src[i][j] + alpha * lap * (1.0 + 0.1 * s);
      }
    double (*swap)[8] = src;
    src = dst;
    dst = swap;
  }
}

// A point source in the step: the wavelet w[t] (a passive per-step table)
// modulated by the step, added at sx after the stencil nest.
void fwi1d(int steps, int n, int sx, double *restrict u0, double *restrict u1,
           double *restrict u2, const double *restrict c,
           const double *restrict w) {
  double *prev = u0, *cur = u1, *next = u2;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      next[i] = 2.0 * cur[i] - prev[i] +
                c[i] * c[i] * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
    double wt = w[t];
    next[sx] += 0.5 * wt * sin(0.1 * t);
    next[sx + 1] -= 0.25 * wt;
    double *tmp = prev;
    prev = cur;
    cur = next;
    next = tmp;
  }
}
