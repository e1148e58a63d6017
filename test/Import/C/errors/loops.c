// Loops that are not stencil nests are refused at the C line and column.
// RUN: not stencil-import-c %s 2>&1 | FileCheck %s
// REQUIRES: c-importer

void step2(int n, double *restrict a, const double *restrict b) {
  // CHECK: loops.c:[[@LINE+1]]:26: error: a stencil loop steps its counter by one ('i++'): other steps are not supported
  for (int i = 0; i < n; i += 2)
    a[i] = b[i];
}

void down(int n, double *restrict a, const double *restrict b) {
  // CHECK: loops.c:[[@LINE+1]]:19: error: the condition of a stencil loop is 'i < hi' or 'i <= hi' on its counter 'i'
  for (int i = n; i != 0; i--)
    a[i] = b[i];
}

void product(int n, int m, double *restrict a, const double *restrict b) {
  // CHECK: loops.c:[[@LINE+1]]:25: error: the bound 'n * m' is a product of parameters or counters: loop bounds must be affine in the integer parameters and the enclosing counters
  for (int i = 0; i < n * m; i++)
    a[i] = b[i];
}

void parabola(int n, double (*restrict a)[8], const double (*restrict b)[8]) {
  for (int i = 0; i < n; i++)
    // CHECK: loops.c:[[@LINE+1]]:27: error: the bound 'i * i' is a product of parameters or counters: loop bounds must be affine in the integer parameters and the enclosing counters
    for (int j = 0; j < i * i; j++)
      a[i][j] = b[i][j];
}

int m;
void global_bound(int n, double *restrict a, const double *restrict b) {
  // CHECK: loops.c:[[@LINE+1]]:23: error: the bound uses 'm', which is not an integer parameter of the function
  for (int i = 0; i < m; i++)
    a[i] = b[i];
}

void imperfect(int n, double (*restrict a)[8], const double (*restrict b)[8],
               double *restrict c) {
  for (int i = 0; i < n; i++) {
    // CHECK: loops.c:[[@LINE+1]]:5: error: this statement is outside the innermost loop: a stencil nest has statements only in its innermost loop, and a time step only loop nests and pointer rotations
    c[i] = 1.0;
    for (int j = 0; j < 8; j++)
      a[i][j] = b[i][j];
  }
}

void time_loop_source(int steps, int n, double *restrict u,
                      double *restrict v, const double *restrict w) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i - 1] + u[i + 1];
    // CHECK: loops.c:[[@LINE+1]]:5: error: this statement is outside the innermost loop: a stencil nest has statements only in its innermost loop, and a time step only loop nests and pointer rotations
    u[0] = w[0];
  }
}

void time_loop_rotation(int steps, int n, double *restrict u0,
                        double *restrict u1, double *restrict w) {
  double *cur = u0, *next = u1;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      next[i] = cur[i - 1] + cur[i + 1];
    // CHECK: loops.c:[[@LINE+1]]:8: error: a time step rotates pointer locals among its arrays ('tmp = prev; prev = cur;'): 'u0 = next' is not such a rotation
    u0 = next;
    cur = next;
  }
}

void while_loop(int n, double *restrict a) {
  int i;
  // CHECK: loops.c:[[@LINE+1]]:3: error: a 'while' loop is not a stencil nest: write 'for (int i = lo; i < hi; i++)'
  while (i < n)
    a[i] = 0.0;
}

void outside(int n, double *restrict a) {
  // CHECK: loops.c:[[@LINE+1]]:3: error: a stencil function is a sequence of loop nests: this statement is outside any loop
  a[0] = 1.0;
}

// CHECK: loops.c:[[@LINE+1]]:8: error: 'sum' returns a value: an imported stencil function returns void and writes its results to arrays (a sum: 's[0] += ...')
double sum(int n, const double *restrict a) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

void half(int n, double *restrict a, const double *restrict b) {
  // CHECK: loops.c:[[@LINE+1]]:25: error: the bound 'n / 2' is not affine in the integer parameters and the enclosing counters (sums, differences and multiples of them and of constants)
  for (int i = 0; i < n / 2; i++)
    a[i] = b[i];
}
