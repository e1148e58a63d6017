// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: stencil-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD

// Nonrectangular domains: bounds over the outer coordinates, with max/min,
// round trip through the custom and the generic form.

// CHECK-LABEL: func.func @triangle(
// CHECK-SAME: %[[U:.*]]: memref<?x?xf64>, %[[R:.*]]: memref<?x?xf64>, %[[N:.*]]: index)
// GENERIC-DAG: #[[TL:.*]] = affine_map<(d0, d1)[s0] -> (1, d0)>
// GENERIC-DAG: #[[TU:.*]] = affine_map<(d0, d1)[s0] -> (s0 - 1, s0 - 1)>
// GENERIC-DAG: #[[ZL:.*]] = affine_map<(d0, d1)[s0, s1] -> (0, 0, d0 - 4)>
// GENERIC-DAG: #[[ZU:.*]] = affine_map<(d0, d1)[s0, s1] -> (s0, s1, d0 * 2 + 8)>
// GENERIC: "stencil.domain"(%{{.*}}) <{lowerBounds = #[[TL]], upperBounds = #[[TU]]}>
func.func @triangle(%u: memref<?x?xf64>, %r: memref<?x?xf64>, %n: index) {
  // CHECK: stencil.domain (%[[I:.*]], %[[J:.*]]) = (1, %[[I]]) to (%[[N]] - 1, %[[N]] - 1) {
  stencil.domain (%i, %j) = (1, %i) to (%n - 1, %n - 1) {
    %x = stencil.gather %u[0, 1] : memref<?x?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// CHECK-LABEL: func.func @trapezoid(
// CHECK-SAME: %[[N:[^:]*]]: index, %[[M:[^:]*]]: index)
// GENERIC: <{lowerBounds = #[[ZL]], lowerCounts = array<i32: 1, 2>, upperBounds = #[[ZU]], upperCounts = array<i32: 1, 2>}>
func.func @trapezoid(%u: memref<?x?xf64>, %r: memref<?x?xf64>, %n: index, %m: index) {
  // CHECK: stencil.domain (%[[I:.*]], %[[J:.*]]) = (0, max(0, %[[I]] - 4)) to (%[[N]], min(%[[M]], %[[I]] * 2 + 8)) {
  stencil.domain (%i, %j) = (0, max(0, %i - 4)) to (%n, min(%m, 2 * %i + 8)) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// A max of symbols only is nonrectangular too (it takes a max); a wedge
// whose innermost bounds use both outer coordinates, and symbol(...) ids.
// CHECK-LABEL: func.func @wedge(
// CHECK-SAME: %[[N:[^:]*]]: index)
func.func @wedge(%u: memref<?x?x?xf64>, %r: memref<?x?x?xf64>, %n: index) {
  // CHECK: stencil.domain (%[[I:.*]], %[[J:.*]], %[[K:.*]]) = (max(1, %[[N]] floordiv 4), 1, %[[I]] + %[[J]]) to (%[[N]] - 1, %[[I]], %[[N]] - 1) {
  stencil.domain (%i, %j, %k) = (max(1, symbol(%n) floordiv 4), 1, %i + %j) to (%n - 1, %i, %n - 1) {
    %x = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    stencil.store %x to %r : memref<?x?x?xf64>
  }
  return
}

// Constant bound operands fold into the maps; the coordinates stay.
// FOLD-LABEL: func.func @fold(
// FOLD: stencil.domain (%[[I:.*]], %[[J:.*]]) = (0, %[[I]] + 2) to (10, min(%[[I]] * 3, 12)) {
func.func @fold(%u: memref<?x?xf64>, %r: memref<?x?xf64>) {
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  stencil.domain (%i, %j) = (0, %i + 2) to (%c10, min(3 * %i, %c12)) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}
