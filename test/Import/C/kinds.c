// Parameter kinds and access forms: VLA parameters, fixed-size arrays,
// pointers to arrays, float, coefficient arrays of fewer dimensions, a sum
// into *s (a reduction), '-=', the annotation that marks a parameter active,
// and a function-level scalar.
// RUN: stencil-import-c %s | stencil-opt --mlir-use-nameloc-as-prefix | FileCheck %s
// REQUIRES: c-importer

#define ACTIVE __attribute__((annotate("stencil_active")))

// CHECK-LABEL: func.func @vla(
// CHECK-SAME: %n: index, %m: index, %out: memref<?x?xf64> {stencil.active},
// CHECK-SAME: %in: memref<?x?xf64> {stencil.active}, %coef: memref<?xf64>, %D: f64)
// CHECK: %[[D2:.*]] = arith.mulf %D, %D : f64
// CHECK: stencil.domain (%{{.*}}, %{{.*}}) = (1, 0) to (%n - 1, %m) {
// CHECK-DAG: stencil.gather %in[-1, 0] : memref<?x?xf64>
// CHECK-DAG: stencil.gather %in[1, 0] : memref<?x?xf64>
// CHECK-DAG: stencil.gather %coef[0] dims [1] : memref<?xf64>
// CHECK-DAG: arith.mulf %[[D2]], %{{.*}} : f64
// CHECK: stencil.store %{{.*}} to %out : memref<?x?xf64>
void vla(int n, int m, ACTIVE double out[restrict n][m],
         ACTIVE const double in[restrict n][m], const double *restrict coef,
         double D) {
  double D2 = D * D;
  for (int i = 1; i < n - 1; i++)
    for (int j = 0; j < m; j++)
      out[i][j] = D2 * coef[j] * (in[i - 1][j] + in[i + 1][j]);
}

// CHECK-LABEL: func.func @fixed(
// CHECK-SAME: %n: index, %a: memref<?x8xf32>, %b: memref<?x8xf32>, %s: memref<?xf32>)
// CHECK: stencil.domain (%[[I:.*]], %[[J:.*]]) = (0, 1) to (%n, 7) {
// CHECK: %[[B:.*]] = stencil.gather %b[0, 1] : memref<?x8xf32>
// CHECK: %[[NEG:.*]] = arith.negf %[[B]] : f32
// CHECK: stencil.accumulate %[[NEG]] to %a[0, 0] : memref<?x8xf32>
// CHECK: stencil.accumulate %{{.*}} to %s[0] dims [_] : memref<?xf32>
void fixed(int n, float (*restrict a)[8], const float b[restrict][8],
           float *restrict s) {
  for (int i = 0; i < n; i++)
    for (int j = 1; j < 7; j++) {
      a[i][j] -= b[i][j + 1];
      *s += b[i][j] * b[i][j];
    }
}

// Transposed assignment, a fixed element, two nests in order.
// CHECK-LABEL: func.func @transpose(
// CHECK: stencil.domain
// CHECK: stencil.gather %w[2, 0] dims [_, _] : memref<?x4xf64>
// CHECK: stencil.store %{{.*}} to %t dims [1, 0] : memref<?x?xf64>
// CHECK: stencil.domain
// CHECK: stencil.gather %t[0, 0] : memref<?x?xf64>
// CHECK: stencil.store %{{.*}} to %u : memref<?x?xf64>
void transpose(int n, double t[restrict n][n], const double u0[restrict n][n],
               double u[restrict n][n], const double (*restrict w)[4]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      t[j][i] = w[2][0] * u0[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      u[i][j] = t[i][j];
}
