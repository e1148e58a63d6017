// Branches: arms that are safe to evaluate at every point fold into
// arith.select (fmax/fmin are arith.maxnumf/minnumf); an arm that may divide
// by zero or take the root of a negative number stays an scf.if, so that its
// adjoint never evaluates it where it was not taken. Reads are hoisted out
// of the arms.
// RUN: stencil-import-c %s | stencil-opt --mlir-use-nameloc-as-prefix | FileCheck %s
// REQUIRES: c-importer
#include <math.h>

// CHECK-LABEL: func.func @upwind(
// CHECK: %[[V:.*]] = stencil.gather %v[0] : memref<?xf64>
// CHECK: %[[C:.*]] = arith.cmpf ogt, %[[V]], %{{.*}} : f64
// CHECK-NOT: scf.if
// CHECK: %[[S:.*]] = arith.select %[[C]], %{{.*}}, %{{.*}} : f64
// CHECK: %[[M:.*]] = arith.maxnumf %[[S]], %{{.*}} : f64
// CHECK: stencil.store %[[M]] to %f : memref<?xf64>
void upwind(int n, double *restrict f, const double *restrict u,
            const double *restrict v) {
  for (int i = 1; i < n - 1; i++) {
    double flux;
    if (v[i] > 0.0)
      flux = v[i] * (u[i] - u[i - 1]);
    else
      flux = v[i] * (u[i + 1] - u[i]);
    f[i] = fmax(flux, 0.0);
  }
}

// CHECK-LABEL: func.func @guarded(
// CHECK-DAG: %[[X:.*]] = stencil.gather %x[0] : memref<?xf64>
// CHECK-DAG: %[[Y:.*]] = stencil.gather %y[0] : memref<?xf64>
// CHECK: %[[R:.*]]:2 = scf.if %{{.*}} -> (f64, f64) {
// CHECK: math.sqrt %[[X]] : f64
// CHECK: arith.divf %{{.*}}, %[[Y]] : f64
// CHECK: } else {
// CHECK: stencil.store %[[R]]#0 to %a : memref<?xf64>
// CHECK: stencil.accumulate %[[R]]#1 to %b[0] : memref<?xf64>
void guarded(int n, double *restrict a, double *restrict b,
             const double *restrict x, const double *restrict y) {
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.0 && y[i] != 0.0) {
      a[i] = sqrt(x[i]);
      b[i] += 1.0 / y[i];
    } else {
      a[i] = 0.0;
    }
  }
}

// CHECK-LABEL: func.func @ternary(
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK: math.log
// CHECK: stencil.store %{{.*}} to %a : memref<?xf32>
void ternary(int n, float *restrict a, const float *restrict x) {
  for (int i = 0; i < n; i++)
    a[i] = x[i] > 0.0f ? logf(x[i]) : 0.0f;
}
