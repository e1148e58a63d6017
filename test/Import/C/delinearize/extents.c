// --extents gives a flat array its layout: w is 3-D although its subscripts
// show only two dimensions, and its outermost extent is known.
// RUN: stencil-import-c %s --extents=w:nx,ny,nz --extents=c:n+2 | FileCheck %s
// RUN: stencil-import-c %s --extents=w:nx,ny,nz --print-plan | FileCheck %s --check-prefix=PLAN
// REQUIRES: c-importer

// CHECK-LABEL: func.func @plane(
// CHECK-SAME:    %v: memref<?x?xf64>
// CHECK-SAME:    %w: memref<?x?x?xf64>
// CHECK:       stencil.gather %w[0, 0, -1] dims [_, 0, 1] :
// CHECK-NEXT:  stencil.gather %w[0, 0, 1] dims [_, 0, 1] :
void plane(int nx, int ny, int nz, double *restrict v, const double *restrict w) {
  for (int j = 0; j < ny; j++)
    for (int k = 1; k < nz - 1; k++)
      v[j*nz + k] = w[j*nz + k - 1] + w[j*nz + k + 1];
}

// A one-dimensional extent only names the extent.
// CHECK-LABEL: func.func @line(
// CHECK-SAME:    %c: memref<?xf64>
void line(int n, double *restrict v, const double *restrict c) {
  for (int i = 1; i < n + 1; i++)
    v[i] = c[i - 1] + c[i + 1];
}

// PLAN:      "extents": [
// PLAN-NEXT:   "?",
// PLAN-NEXT:   "nz"
// PLAN:      "extents": [
// PLAN-NEXT:   "nx",
// PLAN-NEXT:   "ny",
// PLAN-NEXT:   "nz"
// PLAN-NEXT: ],
// PLAN-NEXT: "kind": "array",
// PLAN-NEXT: "linearized": true,
// PLAN-NEXT: "name": "w",
// PLAN-NEXT: "restrict": true,
// PLAN-NEXT: "strides": [
// PLAN-NEXT:   "ny*nz",
// PLAN-NEXT:   "nz",
// PLAN-NEXT:   "1"
// PLAN-NEXT: ],
