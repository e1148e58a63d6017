// RUN: stencil-opt %stencil_src/examples/burgers1d.mlir | FileCheck %s

// Parses and verifies examples/burgers1d.mlir: one 1-D domain over the
// interior 1..n-2, three reads of u_1, the upwinding max/min, one store to u.

// CHECK-LABEL: func.func @burgers1d(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64> {stencil.active}, %[[U_1:[^:]*]]: memref<?xf64> {stencil.active}, %[[CC:[^:]*]]: f64, %[[D:[^:]*]]: f64, %[[N:[^:]*]]: index)
// CHECK: stencil.domain (%{{.*}}) = (1) to (%[[N]] - 1) {
// CHECK-COUNT-3: stencil.gather %[[U_1]][{{-1|0|1}}] : memref<?xf64>
// CHECK-NOT: stencil.gather
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK-DAG: arith.mulf %[[CC]], %{{.*}} : f64
// CHECK-DAG: arith.mulf %[[D]], %{{.*}} : f64
// CHECK-NOT: stencil.gather
// CHECK: stencil.store %{{.*}} to %[[U]] : memref<?xf64>
// CHECK-NOT: stencil.
// CHECK: return
