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

// A domain with results: the partial sums of the slices of dimension 0 in
// parallel (each slice serially), then, in the GPU form, their serial sum
// in a parallel loop of two iterations of which the first works (a kernel:
// the partial sums stay in device memory) into a one-element buffer that
// the host reads; without the option the host sums them.
// CHECK-LABEL: func.func @sum2d(
// CHECK:         %[[P:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:         affine.parallel (%[[I:.*]]) = (0) to
// CHECK:           affine.for
// CHECK:           affine.store %{{.*}}, %[[P]][%[[I]]]
// CHECK:         %[[C:.*]] = memref.alloc() : memref<1xf64>
// CHECK:         affine.parallel (%[[Z:.*]]) = (0) to (2) {
// CHECK-NEXT:      affine.if #{{.*}}(%[[Z]]) {
// CHECK-NEXT:        %[[T:.*]] = affine.for %[[Q:.*]] = 0 to %{{.*}} iter_args
// CHECK-NEXT:          affine.load %[[P]][%[[Q]]]
// CHECK:             affine.store %[[T]], %[[C]][0] : memref<1xf64>
// CHECK:         %[[S:.*]] = affine.load %[[C]][0] : memref<1xf64>
// CHECK:         memref.dealloc %[[C]]
// CHECK:         memref.dealloc %[[P]]
// CHECK:         scf.yield %[[S]]
// OUTER-LABEL: func.func @sum2d(
// OUTER:         affine.parallel
// OUTER-NOT:     affine.parallel
// OUTER:         affine.for %{{.*}} = 0 to %{{.*}} iter_args
// OUTER:         return
func.func @sum2d(%a: memref<?x?xf64>, %n: index) -> f64 {
  %s = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> f64 {
    %v = stencil.gather %a[0, 0] : memref<?x?xf64>
    %w = arith.mulf %v, %v : f64
    stencil.yield %w : f64
  }
  return %s : f64
}
