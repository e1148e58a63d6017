// RUN: stencil-opt %s --convert-stencil-to-affine=all-parallel | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-affine | FileCheck %s --check-prefix=OUTER

// all-parallel (the GPU form): every dimension whose extent is not the
// constant 1 is one dimension of a single affine.parallel; a unit dimension
// gets none. Without the option only the outermost is parallel.

// CHECK-LABEL: func.func @copy3d(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x?x?xf64>, %[[B:[a-z0-9]+]]: memref<?x?x?xf64>, %[[N:[a-z0-9]+]]: index)
// CHECK-NOT: affine.for
// CHECK: affine.parallel (%[[I:.+]], %[[J:.+]], %[[K:.+]]) = (1, 0, 2) to (symbol(%[[N]]) - 1, symbol(%[[N]]), symbol(%[[N]])) {
// CHECK:   %[[V:.+]] = affine.load %[[B]][%[[I]] - 1, %[[J]], %[[K]] + 1]
// CHECK:   affine.store %[[V]], %[[A]][%[[I]], %[[J]], %[[K]]]
// CHECK-NOT: affine.for
// OUTER-LABEL: func.func @copy3d(
// OUTER: affine.parallel (%{{.+}}) =
// OUTER: affine.for
// OUTER: affine.for
func.func @copy3d(%a: memref<?x?x?xf64>, %b: memref<?x?x?xf64>, %n: index) {
  stencil.domain (%i, %j, %k) = (1, 0, 2) to (%n - 1, %n, %n) {
    %v = stencil.gather %b[-1, 0, 1] : memref<?x?x?xf64>
    stencil.store %v to %a : memref<?x?x?xf64>
  }
  return
}

// The unit dimension 1 is not a loop: a 2-D affine.parallel over i and k.
// CHECK-LABEL: func.func @unit_dim(
// CHECK: affine.parallel (%{{.+}}, %{{.+}}) = (0, 0) to
// CHECK-NOT: affine.for
func.func @unit_dim(%a: memref<?x?x?xf64>, %n: index, %j: index) {
  stencil.domain (%i, %jj, %k) = (0, %j, 0) to (%n, %j + 1, %n) {
    %c = arith.constant 1.0 : f64
    stencil.store %c to %a : memref<?x?x?xf64>
  }
  return
}
