// A 3-D heat step on flat arrays, indexed by hand and through a macro: both
// are delinearized into accesses of 3-D arrays [?][ny][nz].
// RUN: stencil-import-c %s | FileCheck %s
// RUN: stencil-import-c %s --print-plan | FileCheck %s --check-prefix=PLAN
// REQUIRES: c-importer

#define U(i, j, k) u[((i)*ny + (j))*nz + (k)]

// CHECK-LABEL: func.func @heat(
// CHECK-SAME:    %v: memref<?x?x?xf64>
// CHECK-SAME:    %u: memref<?x?x?xf64>
// CHECK:       stencil.domain (%i, %j, %k) = (1, 1, 1) to (%nx - 1, %ny - 1, %nz - 1)
// CHECK-NEXT:    stencil.gather %u[0, 0, 1] :
// CHECK-NEXT:    stencil.gather %u[0, 0, -1] :
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    stencil.gather %u[0, 1, 0] :
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    stencil.gather %u[0, -1, 1] :
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    stencil.gather %u[1, 0, 0] :
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    stencil.store %{{.*}} to %v :
void heat(int nx, int ny, int nz, double *restrict v, const double *restrict u) {
  for (int i = 1; i < nx - 1; i++)
    for (int j = 1; j < ny - 1; j++)
      for (int k = 1; k < nz - 1; k++)
        v[(i*ny + j)*nz + k] = U(i, j, k + 1) + U(i, j, k - 1) + U(i, j + 1, k)
                               + u[(i*ny + j)*nz + k + 1 - nz]
                               + u[((i + 1)*ny + j)*nz + k];
}

// The macro's accesses are located at its uses.
// PLAN:      "array": "u",
// PLAN-NEXT: "dims": [
// PLAN-NEXT:   0,
// PLAN-NEXT:   1,
// PLAN-NEXT:   2
// PLAN-NEXT: ],
// PLAN-NEXT: "kind": "read",
// PLAN-NEXT: "loc": "{{.*}}heat3d.c:27:32",
// PLAN-NEXT: "offsets": [
// PLAN-NEXT:   0,
// PLAN-NEXT:   0,
// PLAN-NEXT:   1
// PLAN-NEXT: ]

// PLAN:      "extents": [
// PLAN-NEXT:   "?",
// PLAN-NEXT:   "ny",
// PLAN-NEXT:   "nz"
// PLAN-NEXT: ],
// PLAN-NEXT: "kind": "array",
// PLAN-NEXT: "linearized": true,
// PLAN-NEXT: "name": "v",
// PLAN-NEXT: "restrict": true,
// PLAN-NEXT: "strides": [
// PLAN-NEXT:   "ny*nz",
// PLAN-NEXT:   "nz",
// PLAN-NEXT:   "1"
// PLAN-NEXT: ],
// PLAN:      "extents": [
// PLAN-NEXT:   "?",
// PLAN-NEXT:   "ny",
// PLAN-NEXT:   "nz"
// PLAN-NEXT: ],
// PLAN-NEXT: "kind": "array",
// PLAN-NEXT: "linearized": true,
// PLAN-NEXT: "name": "u",
