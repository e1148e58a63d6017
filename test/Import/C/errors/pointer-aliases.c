// Pointers that may hold the array a nest writes: a nest after the time
// loop copying the final state back into a parameter the loop rotates
// through, a local pointer to the array it writes, and a nest halfway
// through a rotation, where two pointers hold one array.
// The last case is found where the IR is built, which happens only when
// every function planned, hence its own run.
// RUN: not stencil-import-c %s --function=copy_back,local_alias 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: not stencil-import-c %s --function=halfway 2>&1 | FileCheck %s --check-prefix=EMIT
// REQUIRES: c-importer

void copy_back(int steps, int n, double *restrict u0, double *restrict u1) {
  double *cur = u0, *next = u1;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      next[i] = 0.5 * (cur[i - 1] + cur[i + 1]);
    double *tmp = cur;
    cur = next;
    next = tmp;
  }
  for (int i = 0; i < n; i++)
    // PLAN: pointer-aliases.c:[[@LINE+1]]:13: error: 'cur' and 'u0' may be the same array here (a pointer starts as, or is rotated through, the other), and this loop nest writes 'u0': a stencil loop keeps the arrays it reads apart from those it writes
    u0[i] = cur[i];
}

void local_alias(int n, double *restrict u) {
  double *p = u;
  for (int i = 1; i < n; i++)
    // PLAN: pointer-aliases.c:[[@LINE+1]]:12: error: 'p' and 'u' may be the same array here (a pointer starts as, or is rotated through, the other), and this loop nest writes 'u': a stencil loop keeps the arrays it reads apart from those it writes
    u[i] = p[i - 1];
}

void halfway(int steps, int n, double *restrict u0, double *restrict u1) {
  double *cur = u0, *next = u1;
  for (int t = 0; t < steps; t++) {
    double *tmp = cur;
    cur = next;
    for (int i = 1; i < n - 1; i++)
      // EMIT: pointer-aliases.c:[[@LINE+1]]:24: error: 'cur' and 'next' hold the same array here, and this loop nest writes it: a stencil loop keeps the arrays it reads apart from those it writes
      next[i] = 0.5 * (cur[i - 1] + cur[i + 1]);
    next = tmp;
  }
}
