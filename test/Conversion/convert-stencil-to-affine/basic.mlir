// RUN: stencil-opt %s --convert-stencil-to-affine --split-input-file | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-affine="scatter=atomic" --split-input-file | FileCheck %s --check-prefix=ATOMIC

// Gathers and centre stores become affine loads and stores with the offsets
// folded into the maps; the only dimension is parallel.
// CHECK-LABEL: func.func @gather_1d
// CHECK-SAME: (%[[U:.*]]: memref<?xf64>, %[[R:.*]]: memref<?xf64>, %[[N:.*]]: index)
// CHECK: scf.if
// CHECK-NEXT: affine.parallel (%[[I:.*]]) = (1) to (symbol(%[[N]]) - 1) {
// CHECK-DAG: %[[A:.*]] = affine.load %[[U]][%[[I]] - 1]
// CHECK-DAG: %[[B:.*]] = affine.load %[[U]][%[[I]] + 1]
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f64
// CHECK: affine.store %[[S]], %[[R]][%[[I]]]
// CHECK-NOT: stencil.
func.func @gather_1d(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    stencil.store %s to %r : memref<?xf64>
  }
  return
}

// -----

// Only the outermost dimension is parallel; inner dimensions are affine.for
// so that the innermost loop stays a plain counted loop. dims permutes.
// CHECK-LABEL: func.func @nest_3d
// CHECK: affine.parallel (%[[I:.*]]) = (1) to (symbol(%{{.*}}) - 1) {
// CHECK-NEXT: affine.for %[[J:.*]] = 2 to
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to
// CHECK: affine.load %{{.*}}[%[[K]], %[[J]], %[[I]] - 1] : memref<?x?x?xf64>
// CHECK: affine.load %{{.*}}[%[[J]]] : memref<?xf64>
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]], %[[K]]]
func.func @nest_3d(%u: memref<?x?x?xf64>, %c: memref<?xf64>, %r: memref<?x?x?xf64>, %n: index, %m: index) {
  stencil.domain (%i, %j, %k) = (1, 2, 0) to (%n - 1, %m, %n) {
    %a = stencil.gather %u[0, 0, -1] dims [2, 1, 0] : memref<?x?x?xf64>
    %b = stencil.gather %c[0] dims [1] : memref<?xf64>
    %s = arith.mulf %a, %b : f64
    stencil.store %s to %r : memref<?x?x?xf64>
  }
  return
}

// -----

// Dimensions of constant extent one get no loop.
// CHECK-LABEL: func.func @unit_dims
// CHECK-NOT: affine.parallel
// CHECK-NOT: affine.for
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[V:.*]] = affine.load %{{.*}}[%[[C3]]]
// CHECK: affine.store %[[V]], %{{.*}}[%[[C3]]]
func.func @unit_dims(%u: memref<?xf64>, %r: memref<?xf64>) {
  stencil.domain (%i) = (3) to (4) {
    %a = stencil.gather %u[0] : memref<?xf64>
    stencil.store %a to %r : memref<?xf64>
  }
  return
}

// -----

// A centre accumulate is a load, an add and a store. A scatter runs in
// serial loops by default, or in parallel with atomic updates.
// CHECK-LABEL: func.func @scatter
// CHECK-NOT: affine.parallel
// CHECK: affine.for %[[I:.*]] =
// CHECK: %[[OLD:.*]] = affine.load %[[UB:.*]][%[[I]] + 1]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f64
// CHECK: affine.store %[[NEW]], %[[UB]][%[[I]] + 1]
// ATOMIC-LABEL: func.func @scatter
// ATOMIC: affine.parallel (%[[I:.*]]) =
// ATOMIC: %[[IDX:.*]] = affine.apply #{{.*}}(%[[I]])
// ATOMIC: memref.atomic_rmw addf %{{.*}}, %{{.*}}[%[[IDX]]] : (f64, memref<?xf64>) -> f64
func.func @scatter(%rb: memref<?xf64>, %ub: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %rb[0] : memref<?xf64>
    stencil.accumulate %a to %ub[1] : memref<?xf64>
  }
  return
}

// -----

// Reductions: the parallel dimension sums its slice serially into a buffer,
// which is then summed serially, so the order does not depend on threads.
// An empty domain (tested in 128 bits, so that no bound wraps) sums to 0.
// CHECK-LABEL: func.func @reduction
// CHECK-SAME: (%{{.*}}: memref<?x4xf64>, %[[N:.*]]: index)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i128
// CHECK-DAG: %[[WIDE:.*]] = arith.index_cast %[[N]] : index to i128
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi slt, %[[ONE]], %[[WIDE]] : i128
// CHECK: %[[RESULT:.*]] = scf.if %[[NONEMPTY]] -> (f64) {
// CHECK: %[[SIZE:.*]] = affine.max
// CHECK: %[[BUF:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf64>
// CHECK: affine.parallel (%[[I:.*]]) =
// CHECK: %[[ROW:.*]] = affine.for %{{.*}} = 0 to 4 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64)
// CHECK: affine.store %[[ROW]], %[[BUF]][%[[I]] - 1]
// CHECK: %[[SUM:.*]] = affine.for %{{.*}} = 0 to %[[SIZE]] iter_args
// CHECK: memref.dealloc %[[BUF]]
// CHECK: scf.yield %[[SUM]] : f64
// CHECK: } else {
// CHECK: scf.yield %[[ZERO]] : f64
// CHECK: return %[[RESULT]] : f64
func.func @reduction(%u: memref<?x4xf64>, %n: index) -> f64 {
  %s = stencil.domain (%i, %j) = (1, 0) to (%n, 4) -> (f64) {
    %a = stencil.gather %u[0, 0] : memref<?x4xf64>
    stencil.yield %a : f64
  }
  return %s : f64
}

// -----

// The emptiness test evaluates every bound exactly, in 128 bits: with
// %n = INT64_MIN, `%n - 1` wraps to INT64_MAX in 64 bits, but the domain is
// empty and runs nothing. floordiv, ceildiv and mod by positive constants.
// CHECK-LABEL: func.func @guard
// CHECK-SAME: (%{{.*}}: memref<?x?xf64>, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[C1:.*]] = arith.constant 1 : i128
// CHECK: %[[WN:.*]] = arith.index_cast %[[N]] : index to i128
// CHECK: %[[CM1:.*]] = arith.constant -1 : i128
// CHECK: %[[UP0:.*]] = arith.addi %[[WN]], %[[CM1]] : i128
// CHECK: %[[NE0:.*]] = arith.cmpi slt, %[[C1]], %[[UP0]] : i128
// CHECK: %[[WM:.*]] = arith.index_cast %[[M]] : index to i128
// CHECK: %[[C3:.*]] = arith.constant 3 : i128
// CHECK: %[[Q:.*]] = arith.floordivsi %[[WM]], %[[C3]] : i128
// CHECK: arith.floordivsi %{{.*}}, %{{.*}} : i128
// CHECK: arith.ceildivsi %{{.*}}, %{{.*}} : i128
// CHECK: %[[UP1:.*]] = arith.addi %{{.*}}, %{{.*}} : i128
// CHECK: %[[NE1:.*]] = arith.cmpi slt, %[[Q]], %[[UP1]] : i128
// CHECK: %[[ALL:.*]] = arith.andi %[[NE0]], %[[NE1]] : i1
// CHECK: scf.if %[[ALL]] {
// CHECK-NEXT: affine.parallel
func.func @guard(%r: memref<?x?xf64>, %n: index, %m: index) {
  stencil.domain (%i, %j) = (1, %m floordiv 3) to (%n - 1, %m mod 5 + %m ceildiv 7) {
    %c = arith.constant 1.0 : f64
    stencil.store %c to %r : memref<?x?xf64>
  }
  return
}

// -----

// Constant bounds need no guard.
// CHECK-LABEL: func.func @constant_bounds
// CHECK-NOT: scf.if
// CHECK: affine.parallel
func.func @constant_bounds(%r: memref<?xf64>) {
  stencil.domain (%i) = (0) to (8) {
    %c = arith.constant 1.0 : f64
    stencil.store %c to %r : memref<?xf64>
  }
  return
}
