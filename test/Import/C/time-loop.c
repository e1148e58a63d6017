// A time loop: nests and a rotation of pointer locals become an scf.for
// whose iteration arguments are the rotated pointers (the time-loop form of
// docs/TimeLoops.md); the plan names its states.
// RUN: stencil-import-c %s --active=u0,u1,u2 | stencil-opt --mlir-use-nameloc-as-prefix | FileCheck %s
// RUN: stencil-import-c %s --print-plan | FileCheck %s --check-prefix=PLAN
// REQUIRES: c-importer

// CHECK-LABEL: func.func @wave1d(
// CHECK-SAME: %steps: index, %n: index, %u0: memref<?xf64> {stencil.active},
// CHECK: %[[R:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %steps step %{{.*}} iter_args(%[[P:.*]] = %u0, %[[C:.*]] = %u1, %[[N:.*]] = %u2)
// CHECK: stencil.domain (%{{.*}}) = (1) to (%n - 1) {
// CHECK-DAG: stencil.gather %[[P]][0]
// CHECK-DAG: stencil.gather %[[C]][-1]
// CHECK: stencil.store %{{.*}} to %[[N]] : memref<?xf64>
// CHECK: scf.yield %[[C]], %[[N]], %[[P]] : memref<?xf64>, memref<?xf64>, memref<?xf64>

// PLAN: "kind": "pointer",
// PLAN-NEXT: "linearized": false,
// PLAN-NEXT: "name": "prev",
// PLAN: "starts": "u0",
// PLAN: "time_loops": [
// PLAN: "counter": "t",
// PLAN: "nests": [
// PLAN-NEXT: 0,
// PLAN-NEXT: 1
// PLAN: "states": [
// PLAN-NEXT: "prev",
// PLAN-NEXT: "cur",
// PLAN-NEXT: "next"
// PLAN: "upper": [
// PLAN-NEXT: "steps"
void wave1d(int steps, int n, double *restrict u0, double *restrict u1,
            double *restrict u2, const double *restrict c) {
  double *prev = u0, *cur = u1, *next = u2;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      next[i] = 2.0 * cur[i] - prev[i] +
                c[i] * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
    double *tmp = prev;
    prev = cur;
    cur = next;
    next = tmp;
  }
}
