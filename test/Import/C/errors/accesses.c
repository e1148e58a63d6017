// Accesses that are not stencil accesses are refused at the C line and
// column, with the reason.
// RUN: not stencil-import-c %s 2>&1 | FileCheck %s
// REQUIRES: c-importer

void gauss_seidel(int n, double *restrict u) {
  for (int i = 1; i < n; i++)
    // CHECK: accesses.c:[[@LINE+1]]:12: error: 'u' is read here and written in the same loop nest: an in-place update (Gauss-Seidel) is not a stencil loop, whose points may run in any order; write the result to another array (or update with '+=')
    u[i] = u[i - 1] + u[i];
}

void indirect(int n, double *restrict a, const double *restrict b,
              const double *restrict idx) {
  for (int i = 0; i < n; i++)
    // CHECK: accesses.c:[[@LINE+1]]:19: error: the index reads 'idx[i]': a data-dependent (indirect) index is not a stencil access
    a[i] = b[(int)idx[i]];
}

void data_dependent(int n, double *restrict a, const double *restrict b) {
  int k;
  for (int i = 0; i < n; i++)
    // CHECK: accesses.c:[[@LINE+1]]:14: error: the index depends on 'k', which is not a loop counter: a data-dependent index is not a stencil access
    a[i] = b[k];
}

void strided(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++)
    // CHECK: accesses.c:[[@LINE+1]]:14: error: the index '2 * i' is not a loop counter plus a constant
    a[i] = b[2 * i];
}

void scatter_assign(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++)
    // CHECK: accesses.c:[[@LINE+1]]:5: error: 'a[i + 1]' assigns at an offset from the loop counters: shift the loop bounds, or sum with '+=' into a zeroed array
    a[i + 1] = b[i];
}

void subset_assign(int n, double *restrict s, const double (*restrict b)[4]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 4; j++)
      // CHECK: accesses.c:[[@LINE+1]]:7: error: 's[j]' does not assign one element per loop iteration: an assignment writes at the loop counters (all of them); sum with '+=' into a zeroed array instead
      s[j] = b[i][j];
}

void twice(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++) {
    a[i] = b[i];
    // CHECK: accesses.c:[[@LINE+1]]:5: error: 'a' is assigned in this loop nest already: assign each array once per nest
    a[i] = 2.0 * b[i];
  }
}

void times_assign(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++)
    // CHECK: accesses.c:[[@LINE+1]]:10: error: '*=' reads and writes the array in place: a stencil loop assigns ('='), or updates with '+=' and '-='
    a[i] *= b[i];
}

void pointer_arithmetic(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++)
    // CHECK: accesses.c:[[@LINE+1]]:12: error: '*(b + i)': only the function's array parameters are subscripted in a stencil loop
    a[i] = *(b + i);
}
