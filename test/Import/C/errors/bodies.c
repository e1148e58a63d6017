// Loop bodies the importer refuses: calls without an adjoint rule, writes in
// one branch only, recurrences through scalars, statements with no effect.
// RUN: not stencil-import-c %s 2>&1 | FileCheck %s
// REQUIRES: c-importer

double helper(double x);

void unknown_call(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++)
    // CHECK: bodies.c:[[@LINE+1]]:12: error: the call 'helper(b[i])' has no adjoint rule: a stencil loop calls the math.h functions listed in docs/ImportC.md; write other functions as expressions or macros
    a[i] = helper(b[i]);
}

void one_branch(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++)
    if (b[i] > 0.0)
      // CHECK: bodies.c:[[@LINE+1]]:7: error: 'a' is assigned in one branch only: the other would keep its old value, which a stencil loop does not read; assign it in both branches, or write 'u[i] = c ? a : b'
      a[i] = b[i];
}

void recurrence(int n, double *restrict a, const double *restrict b) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    // CHECK: bodies.c:[[@LINE+1]]:5: error: 's' is declared outside the loop nest: a scalar carried from one iteration to the next is a recurrence, not a stencil; declare it in the loop body, or sum into an array element ('s[0] += ...')
    s = s + b[i];
    a[i] = s;
  }
}

void no_effect(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++) {
    a[i] = b[i];
    // CHECK: bodies.c:[[@LINE+1]]:10: error: the statement 'b[i] + 1.' has no effect a stencil loop can keep: a body assigns arrays and scalar locals
    b[i] + 1.0;
  }
}

void int_local(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++) {
    // CHECK: bodies.c:[[@LINE+1]]:9: error: the local 'k' is not a float: a loop body declares double and float scalars only
    int k = i + 1;
    a[i] = b[i];
  }
}

void modulo(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++)
    // CHECK: bodies.c:[[@LINE+1]]:22: error: the integer expression 'i % 2' is not imported: integers in a stencil loop are sums, differences and products of counters, sizes and constants
    a[i] = b[i] * (i % 2);
}
