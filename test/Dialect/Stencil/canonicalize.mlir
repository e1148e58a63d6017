// RUN: stencil-opt %s --canonicalize | FileCheck %s

// Bound operands that are index constants fold into the bound maps; the
// others stay, renumbered.

// CHECK-LABEL: func.func @fold_constant_bounds(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?x?xf64>, %[[V:[a-z0-9]+]]: memref<?x?xf64>, %[[N:[a-z0-9]+]]: index)
// CHECK: stencil.domain (%{{.*}}, %{{.*}}) = (2, 1) to (%[[N]] - 2, 7) {
func.func @fold_constant_bounds(%u: memref<?x?xf64>, %v: memref<?x?xf64>,
                                %n: index) {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  stencil.domain (%i, %j) = (%c2, %c1) to (%n - %c2, %c7) {
    %x = stencil.gather %u[-1, 0] : memref<?x?xf64>
    stencil.store %x to %v : memref<?x?xf64>
  }
  return
}

// Nothing to fold: the domain is left as it is.
// CHECK-LABEL: func.func @nothing_to_fold(
// CHECK: stencil.domain (%{{.*}}) = (%{{.*}}) to (%{{.*}}) {
func.func @nothing_to_fold(%u: memref<?xf64>, %v: memref<?xf64>, %lo: index,
                           %n: index) {
  stencil.domain (%i) = (%lo) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}
