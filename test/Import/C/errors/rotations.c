// A time step must end with its pointers permuted among the arrays they
// held at its start. Two pointers left at one array made the next step an
// in-place update that the importer accepted, and only the adjoint's
// verifier refused, with an op dump; a pointer reset to a parameter starts
// every step from that array.
// RUN: not stencil-import-c %s --active=u0,u1,u2 2>&1 | FileCheck %s --implicit-check-not=error:
// REQUIRES: c-importer

void aliased(int steps, int n, double *restrict u0, double *restrict u1,
             double *restrict u2, const double *restrict c) {
  double *prev = u0, *cur = u1, *next = u2;
  // CHECK: rotations.c:[[@LINE+1]]:3: error: after a step of this time loop, 'next' does not point at an array of its own among those the step started with: a time step rotates its pointers (a permutation, 'tmp = prev; prev = cur; cur = next; next = tmp;')
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      next[i] = 2.0 * cur[i] - prev[i] + c[i] * cur[i + 1];
    next = prev;
    prev = cur;
    cur = next;
  }
}

void reset(int steps, int n, double *restrict u0, double *restrict u1,
           double *restrict u2, const double *restrict c) {
  double *prev = u0, *cur = u1, *next = u2;
  // CHECK: rotations.c:[[@LINE+1]]:3: error: after a step of this time loop, 'prev' does not point at an array of its own
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      next[i] = 2.0 * cur[i] - prev[i] + c[i] * cur[i + 1];
    double *tmp = prev;
    prev = u0;
    cur = next;
    next = tmp;
  }
}

// The identity and a plain rotation import.
void rotated(int steps, int n, double *restrict u0, double *restrict u1,
             double *restrict u2, const double *restrict c) {
  double *prev = u0, *cur = u1, *next = u2;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      next[i] = 2.0 * cur[i] - prev[i] + c[i] * cur[i + 1];
    double *tmp = prev;
    prev = cur;
    cur = next;
    next = tmp;
  }
}
