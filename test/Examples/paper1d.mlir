// RUN: stencil-opt %stencil_src/examples/paper1d.mlir | FileCheck %s

// Parses and verifies examples/paper1d.mlir: one 1-D domain over the paper's
// inclusive range 1..n-1, three reads of u, one of c, one store to r.

// CHECK-LABEL: func.func @paper1d(
// CHECK-SAME: %[[R:[^:]*]]: memref<?xf64> {stencil.active}, %[[C:[^:]*]]: memref<?xf64>, %[[U:[^:]*]]: memref<?xf64> {stencil.active}, %[[N:[^:]*]]: index)
// CHECK: stencil.domain (%{{.*}}) = (1) to (%[[N]]) {
// CHECK-COUNT-3: stencil.gather %[[U]][{{-1|0|1}}] : memref<?xf64>
// CHECK-NEXT: stencil.gather %[[C]][0] : memref<?xf64>
// CHECK-NOT: stencil.gather
// CHECK: stencil.store %{{.*}} to %[[R]] : memref<?xf64>
// CHECK-NOT: stencil.
// CHECK: return
