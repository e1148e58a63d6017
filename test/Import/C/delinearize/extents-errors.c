// Subscripts that do not match the extents given with --extents, and
// extents that are not a layout, are refused.
// RUN: not stencil-import-c %s --extents=w:nx,ny,nz --extents=b:n,0 \
// RUN:   --extents=c:n,m '--extents=d:n,(n' --extents=e:n,n --extents=e:n,n \
// RUN:   --extents=f:n,n 2>&1 | FileCheck %s
// REQUIRES: c-importer

void mismatch(int nx, int ny, int nz, double *restrict v,
              const double *restrict w) {
  for (int i = 0; i < nx; i++)
    for (int k = 0; k < nz; k++)
      // CHECK: extents-errors.c:[[@LINE+1]]:28: error: cannot delinearize 'w[i * ny + k]': the strides (ny, 1) of this access do not match the extents of w[?][ny][nz] (strides (ny*nz, nz, 1)): ny is not one of them
      v[i*nz + k] = w[i*ny + k];
}

// CHECK: extents-errors.c:[[@LINE+1]]:55: error: --extents=b:n,0: the extent of dimension 1 is 0
void zero(int n, double *restrict v, double *restrict b) {
  for (int i = 0; i < n; i++)
    v[i] = b[i];
}

// CHECK: extents-errors.c:[[@LINE+1]]:58: error: --extents=c:n,m: in 'm': 'm' is not an integer parameter
void unknown(int n, double *restrict v, double *restrict c) {
  for (int i = 0; i < n; i++)
    v[i] = c[i];
}

// CHECK: extents-errors.c:[[@LINE+1]]:57: error: --extents=d:n,(n: in '(n': missing ')'
void syntax(int n, double *restrict v, double *restrict d) {
  for (int i = 0; i < n; i++)
    v[i] = d[i];
}

// CHECK: extents-errors.c:[[@LINE+1]]:56: error: --extents=e:n,n: 'e' has extents already
void twice(int n, double *restrict v, double *restrict e) {
  for (int i = 0; i < n; i++)
    v[i] = e[i];
}

// CHECK: extents-errors.c:[[@LINE+1]]:58: error: --extents=f:n,n: 'f' is not a pointer or a one-dimensional array
void shaped(int n, double *restrict v, double (*restrict f)[8]) {
  for (int i = 0; i < n; i++)
    v[i] = f[i][0];
}
