// The layout of a flat array: strides with a halo (n + 2), constant strides
// from a macro, dimensions shown by one access and fixed in another, and a
// transposed read.
// RUN: stencil-import-c %s | FileCheck %s
// RUN: stencil-import-c %s --print-plan | FileCheck %s --check-prefix=PLAN
// REQUIRES: c-importer

#define N 64

// A halo of one: rows of n + 2 elements.
// CHECK-LABEL: func.func @halo(
// CHECK-SAME:    %v: memref<?x?xf64>
// CHECK:       stencil.gather %u[-1, 0] :
// CHECK-NEXT:  stencil.gather %u[0, 1] :
// The third read is the first one written out (the plan below).
void halo(int n, double *restrict v, const double *restrict u) {
  for (int i = 1; i < n + 1; i++)
    for (int j = 1; j < n + 1; j++)
      v[i*(n + 2) + j] = u[(i - 1)*(n + 2) + j] + u[i*(n + 2) + j + 1]
                         + u[i*n + 2*i + j - n - 2];
}

// Constant strides give static extents; -63 is a row back and one on.
// CHECK-LABEL: func.func @fixed(
// CHECK-SAME:    %v: memref<?x64xf64>
// CHECK:       stencil.gather %u[-1, 1] :
// CHECK-NEXT:  stencil.gather %u[-1, 0] :
// CHECK-NEXT:  arith.addf
// CHECK-NEXT:  stencil.gather %u[0, 32] dims [0, _] :
void fixed(int m, double *restrict v, const double *restrict u) {
  for (int i = 1; i < m; i++)
    for (int j = 0; j < N - 1; j++)
      v[i*N + j] = u[(i - 1)*N + j + 1] + u[i*N + j - 65 + 1] + u[i*N + N/2];
}

// w[i*ny*nz + k] has no j: the access that shows j makes w 3-D, and the
// others read at j = 0 and i = 0.
// CHECK-LABEL: func.func @refine(
// CHECK-SAME:    %w: memref<?x?x?xf64>
// CHECK:       stencil.gather %w[0, 0, 0] dims [0, _, 2] :
// CHECK-NEXT:  stencil.gather %w[0, 0, 0] dims [_, 1, 2] :
// CHECK-NEXT:  arith.addf
// CHECK-NEXT:  stencil.gather %w[0, 0, 0] :
void refine(int nx, int ny, int nz, double *restrict v,
            const double *restrict w) {
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++)
        v[(i*ny + j)*nz + k] = w[i*ny*nz + k] + w[j*nz + k] + w[(i*ny + j)*nz + k];
}

// CHECK-LABEL: func.func @transpose(
// CHECK:       stencil.gather %b[0, 0] dims [1, 0] :
void transpose(int n, double *restrict a, const double *restrict b) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i*n + j] = b[j*n + i];
}

// A pointer indexed by one counter stays one-dimensional.
// CHECK-LABEL: func.func @flat(
// CHECK-SAME:    %a: memref<?xf64>
// CHECK:       stencil.gather %b[-1] :
// CHECK-NEXT:  stencil.gather %b[1] :
void flat(int n, double *restrict a, const double *restrict b) {
  for (int i = 1; i < n - 1; i++)
    a[i] = b[i - 1] + b[i + 1];
}

// PLAN-LABEL: "name": "halo",
// PLAN:      "kind": "read",
// PLAN-NEXT: "loc": "{{.*}}layouts.c:[[#HALO:]]:26",
// PLAN-NEXT: "offsets": [
// PLAN-NEXT:   -1,
// PLAN-NEXT:   0
// PLAN:      "kind": "read",
// PLAN-NEXT: "loc": "{{.*}}layouts.c:[[#HALO]]:51",
// PLAN-NEXT: "offsets": [
// PLAN-NEXT:   0,
// PLAN-NEXT:   1
// PLAN:      "kind": "read",
// PLAN-NEXT: "loc": "{{.*}}layouts.c:[[#HALO+1]]:28",
// PLAN-NEXT: "offsets": [
// PLAN-NEXT:   -1,
// PLAN-NEXT:   0
// PLAN:      "extents": [
// PLAN-NEXT:   "?",
// PLAN-NEXT:   "n + 2"
// PLAN-NEXT: ],
// PLAN-NEXT: "kind": "array",
// PLAN-NEXT: "linearized": true,
// PLAN-NEXT: "name": "v",
// PLAN-NEXT: "restrict": true,
// PLAN-NEXT: "strides": [
// PLAN-NEXT:   "n + 2",
// PLAN-NEXT:   "1"
// PLAN-NEXT: ],
// PLAN-LABEL: "name": "fixed",
// PLAN:      "extents": [
// PLAN-NEXT:   "?",
// PLAN-NEXT:   "64"
// PLAN-NEXT: ],
// PLAN-LABEL: "name": "flat",
// PLAN:      "extents": [
// PLAN-NEXT:   "?"
// PLAN-NEXT: ],
// PLAN-NEXT: "kind": "array",
// PLAN-NEXT: "linearized": false,
// PLAN-NEXT: "name": "a",
