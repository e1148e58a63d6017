// The 1-D example of the paper, in C as printed there, imports to the
// function of examples/paper1d.mlir: one domain (1) to (n) (the inclusive
// bound n - 1 made exclusive), three reads of u, one of c, one store.
// RUN: stencil-import-c %s --active=r,u | stencil-opt --mlir-use-nameloc-as-prefix | FileCheck %s
// RUN: stencil-import-c %s --active=r,u | stencil-opt --stencil-adjoint --stencil-scatter-to-gather | FileCheck %s --check-prefix=ADJ
// REQUIRES: c-importer

// CHECK-LABEL: func.func @paper1d(
// CHECK-SAME: %r: memref<?xf64> {stencil.active}, %c: memref<?xf64>,
// CHECK-SAME: %u: memref<?xf64> {stencil.active}, %n: index)
// CHECK: stencil.domain (%{{.*}}) = (1) to (%n) {
// CHECK-DAG: %[[C:.*]] = stencil.gather %c[0] : memref<?xf64>
// CHECK-DAG: %[[W:.*]] = stencil.gather %u[-1] : memref<?xf64>
// CHECK-DAG: %[[M:.*]] = stencil.gather %u[0] : memref<?xf64>
// CHECK-DAG: %[[E:.*]] = stencil.gather %u[1] : memref<?xf64>
// CHECK: %[[R:.*]] = arith.mulf %[[C]], %{{.*}} : f64
// CHECK-NEXT: stencil.store %[[R]] to %r : memref<?xf64>
// CHECK-NEXT: }
// CHECK-NEXT: return

// The adjoint is a gather again (no accumulate at an offset is left).
// ADJ-LABEL: func.func @paper1d_adjoint(
// ADJ-NOT: stencil.accumulate %{{.*}}[{{-?[1-9]}}]
// ADJ: return
void paper1d(double *restrict r, const double *restrict c,
             const double *restrict u, int n) {
  int i;
  for ( i=1; i<=n - 1; i++ ) {
    r[i] = c[i]*(2.0*u[i-1]-3.0*u[i]+4*u[i+1]);
  }
}
