// RUN: stencil-opt %stencil_src/examples/wave3d.mlir | FileCheck %s

// Parses and verifies examples/wave3d.mlir: one 3-D domain over the interior
// 1..n-2 of each dimension, the 7-point star of u_1, centre reads of u_2 and
// c, one store to u.

// CHECK-LABEL: func.func @wave3d(
// CHECK-SAME: %[[U:[^:]*]]: memref<?x?x?xf64> {stencil.active}, %[[U_1:[^:]*]]: memref<?x?x?xf64> {stencil.active}, %[[U_2:[^:]*]]: memref<?x?x?xf64> {stencil.active}, %[[C:[^:]*]]: memref<?x?x?xf64>, %[[D:[^:]*]]: f64, %[[N:[^:]*]]: index)
// CHECK: stencil.domain (%{{.*}}, %{{.*}}, %{{.*}}) = (1, 1, 1) to (%[[N]] - 1, %[[N]] - 1, %[[N]] - 1) {
// CHECK-COUNT-7: stencil.gather %[[U_1]][{{-?[01]}}, {{-?[01]}}, {{-?[01]}}] : memref<?x?x?xf64>
// CHECK-NEXT: stencil.gather %[[U_2]][0, 0, 0] : memref<?x?x?xf64>
// CHECK-NEXT: stencil.gather %[[C]][0, 0, 0] : memref<?x?x?xf64>
// CHECK-NOT: stencil.gather
// CHECK: arith.mulf %{{.*}}, %[[D]] : f64
// CHECK-NOT: stencil.gather
// CHECK: stencil.store %{{.*}} to %[[U]] : memref<?x?x?xf64>
// CHECK-NOT: stencil.
// CHECK: return
