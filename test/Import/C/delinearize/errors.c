// Linearized indices that are not stencil accesses are refused at the
// subscript, with the reason; through a macro, at the macro's use with a note
// at its definition.
// RUN: not stencil-import-c %s 2>&1 | FileCheck %s
// REQUIRES: c-importer

#define U(i, j, k) u[((i)*ny + (j))*nz + (k)]

void product(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      // CHECK: errors.c:[[@LINE+1]]:23: error: cannot delinearize 'u[i * j]': the index i*j is not affine in i: the term i*j multiplies i by the loop counter j; a stencil access adds a constant offset to each counter
      v[i*n + j] = u[i*j];
}

void square(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      // CHECK: errors.c:[[@LINE+1]]:28: error: cannot delinearize 'u[i * i * n + j]': the index i*i*n + j is not affine in i: the term i*i*n multiplies i by itself; a stencil access adds a constant offset to each counter
      v[i*n + j] = u[i*i*n + j];
}

void no_nest(int ny, int nz, double *restrict v, const double *restrict u) {
  for (int i = 0; i < ny; i++)
    for (int j = 0; j < nz; j++)
      // CHECK: errors.c:[[@LINE+1]]:28: error: cannot delinearize 'u[i * nz + j * ny]': the strides of i (nz) and j (ny) do not nest: nz is not a multiple of ny, so the index is not a row-major linearization of an array
      v[i*nz + j] = u[i*nz + j*ny];
}

void same_stride(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      // CHECK: errors.c:[[@LINE+1]]:26: error: cannot delinearize 'u[i * n + j * n]': i and j have the same stride n, so they index the same dimension; a stencil access indexes each dimension with its own counter
      v[i*n + j] = u[i*n + j*n];
}

void backwards(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    // CHECK: errors.c:[[@LINE+1]]:20: error: cannot delinearize 'u[n - 1 - i]': the coefficient of i, -1, is negative: the access runs backwards through the array, which is not a stencil access
    v[i] = u[n - 1 - i];
}

void scaled_stride(int ny, int nz, double *restrict v, const double *restrict u) {
  for (int j = 0; j < ny; j++)
    for (int k = 0; k < nz; k++)
      // CHECK: errors.c:[[@LINE+1]]:28: error: cannot delinearize 'u[j * nz + k]': the subscript j of dimension 1 of u[?][2][nz] may leave [0, 2) for j in [0, ny): the linearized index would reach into another row, which the multi-dimensional access does not express
      v[j*nz + k] = u[j*nz + k] + u[2*j*nz + k];
}

void conflict(int ny, int nz, double *restrict v, const double *restrict u) {
  for (int j = 0; j < ny; j++)
    for (int k = 0; k < nz; k++)
      // CHECK: errors.c:[[@LINE+1]]:42: error: cannot delinearize 'u[j * ny + k]': the strides (ny, 1) of this access do not nest with the strides (nz, 1) of the other accesses of u: ny is not a multiple of nz
      v[j*nz + k] = u[j*nz + k] + u[j*ny + k];
}

void leftover(int nx, int ny, int nz, double *restrict v,
              const double *restrict u) {
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++)
        // CHECK: errors.c:[[@LINE+1]]:52: error: cannot delinearize 'u[(i * ny + j) * nz + k + ny]': the offset ny is not a multiple of the strides (ny*nz, nz, 1) of u (ny is left over)
        v[(i*ny + j)*nz + k] = u[(i*ny + j)*nz + k + ny];
}

void symbolic(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    // CHECK: errors.c:[[@LINE+1]]:16: error: cannot delinearize 'u[i + n]': the offset n in the index of u is not an integer constant
    v[i] = u[i + n];
}

void row(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      // CHECK: errors.c:[[@LINE+1]]:30: error: cannot delinearize 'u[i * n + j + 1]': the subscript j + 1 of dimension 1 of u[?][n] may leave [0, n) for j in [0, n): the linearized index would reach into another row, which the multi-dimensional access does not express
      v[i*n + j] = u[i*n + j + 1];
}

void macro(int nx, int ny, int nz, double *restrict v,
           const double *restrict u) {
  for (int i = 1; i < nx - 1; i++)
    for (int j = 1; j < ny - 1; j++)
      for (int k = 1; k < nz - 1; k++)
        // CHECK: errors.c:[[@LINE+2]]:32: error: cannot delinearize 'u[((i) * ny + (j)) * nz + (k + 2)]': the subscript k + 2 of dimension 2 of u[?][ny][nz] may leave [0, nz) for k in [1, nz - 1): the linearized index would reach into another row, which the multi-dimensional access does not express
        // CHECK: errors.c:7:40: note: expanded from macro 'U'
        v[(i*ny + j)*nz + k] = U(i, j, k + 2);
}

void divide(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      // CHECK: errors.c:[[@LINE+1]]:29: error: 'u[i * n + j / 2]' is not a stencil access: it uses '/': a linearized index is built from loop counters and integer parameters with '+', '-' and '*'
      v[i*n + j] = u[i*n + j/2];
}

void indirect(int n, double *restrict v, const double *restrict u,
              const double *restrict c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      // CHECK: errors.c:[[@LINE+1]]:33: error: 'u[i * n + (int)c[j]]' is not a stencil access: it reads 'c[j]': a data-dependent (indirect) index is not a stencil access
      v[i*n + j] = u[i*n + (int)c[j]];
}

void overflow(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      // CHECK: errors.c:[[@LINE+1]]:30: error: cannot delinearize 'u[i * n + j + 4000000000000000000L * n * n * 4]': it overflows 64-bit integer arithmetic
      v[i*n + j] = u[i*n + j + 4000000000000000000*n*n*4];
}

void wider_loop(int n, double *restrict v, double (*restrict u)[8]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 8; j++)
      // CHECK: errors.c:[[@LINE+1]]:13: error: cannot delinearize 'v[i * n + j]': the subscript j of dimension 1 of v[?][n] may leave [0, n) for j in [0, 8): the linearized index would reach into another row, which the multi-dimensional access does not express
      v[i*n + j] = u[i][j];
}

void unsigned_constant(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      // CHECK: errors.c:[[@LINE+1]]:32: error: 'u[i * n + j + 18446744073709551615ULL]' is not a stencil access: the constant is too large
      v[i*n + j] = u[i*n + j + 18446744073709551615ULL];
}
