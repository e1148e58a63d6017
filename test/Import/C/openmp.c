// OpenMP loop pragmas: C written for OpenMP, parsed with -fopenmp, imports
// as without it. The pragmas (`parallel for`, `collapse`, `simd` on an
// inner loop, `private` counters declared ahead, as the paper prints its
// loops, a nest in a time loop) say how to run the loops, which the
// lowering decides anyway.
// RUN: stencil-import-c %s --function=f --active=u,v --extra-arg=-fopenmp | stencil-opt --mlir-use-nameloc-as-prefix | FileCheck %s
// RUN: stencil-import-c %s --function=f --active=u,v --extra-arg=-fopenmp -o %t.omp.mlir
// RUN: stencil-import-c %s --function=f --active=u,v -o %t.plain.mlir
// RUN: diff %t.omp.mlir %t.plain.mlir
// RUN: stencil-import-c %s --function=wave1d --active=u0,u1,u2 --extra-arg=-fopenmp | stencil-opt --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=TIME
// RUN: stencil-import-c %s --function=wave1d --active=u0,u1,u2 --extra-arg=-fopenmp -o %t.omp.mlir
// RUN: stencil-import-c %s --function=wave1d --active=u0,u1,u2 -o %t.plain.mlir
// RUN: diff %t.omp.mlir %t.plain.mlir
// REQUIRES: c-importer

// CHECK-LABEL: func.func @f(
// CHECK: stencil.domain (%{{.*}}, %{{.*}}) = (1, 1) to (%n - 1, %n - 1) {
// CHECK-DAG: stencil.gather %v[-1, 0]
// CHECK-DAG: stencil.gather %v[0, 1]
// CHECK: stencil.store %{{.*}} to %u
// CHECK: stencil.domain (%{{.*}}, %{{.*}}) = (1, 1) to (%n - 1, %n - 1) {
// CHECK: stencil.gather %v[1, 0]
// CHECK: stencil.accumulate %{{.*}} to %u[0, 0]
// CHECK: stencil.domain (%{{.*}}) = (1) to (%n - 1) {
// CHECK: stencil.gather %v[1, 0] dims [0, _]
// CHECK: stencil.accumulate %{{.*}} to %u[0, 0] dims [0, _]
void f(int n, double u[restrict n][n], const double v[restrict n][n]) {
#pragma omp parallel for collapse(2)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      u[i][j] = v[i - 1][j] + v[i][j + 1];
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++)
#pragma omp simd
    for (int j = 1; j < n - 1; j++)
      u[i][j] += v[i + 1][j];
  int i;
#pragma omp parallel for private(i)
  for (i = 1; i < n - 1; i++)
    u[i][0] += v[i + 1][0];
}

// TIME-LABEL: func.func @wave1d(
// TIME: scf.for
// TIME: stencil.domain (%{{.*}}) = (1) to (%n - 1) {
// TIME: stencil.store
void wave1d(int steps, int n, double *restrict u0, double *restrict u1,
            double *restrict u2, const double *restrict c) {
  double *prev = u0, *cur = u1, *next = u2;
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++)
      next[i] = 2.0 * cur[i] - prev[i] + c[i] * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
    double *tmp = prev;
    prev = cur;
    cur = next;
    next = tmp;
  }
}
