// RUN: stencil-opt %s --stencil-split-reductions | FileCheck %s

// A domain that scatters and reduces becomes two: the reductions with what
// they need, then the permutation writes with what they need (next to the
// reset that follows, which the gather form fuses).
// CHECK-LABEL: func.func @scatter_and_reduce(
// CHECK-SAME: %[[U:[^:]*]]: memref<?x?xf64>, %[[W:[^:]*]]: memref<3x3xf64>, %[[UB:[^:]*]]: memref<?x?xf64>, %[[WB:[^:]*]]: memref<3x3xf64>, %[[CB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?x?xf64>, %[[N:.*]]: index)
func.func @scatter_and_reduce(%u: memref<?x?xf64>, %w: memref<3x3xf64>, %ub: memref<?x?xf64>, %wb: memref<3x3xf64>, %cb: memref<?xf64>, %rb: memref<?x?xf64>, %n: index) {
  // CHECK: stencil.domain
  // CHECK-NEXT: %[[A2:.*]] = stencil.gather %[[U]][0, 1] : memref<?x?xf64>
  // CHECK-NEXT: %[[S2:.*]] = stencil.gather %[[RB]][0, 0] : memref<?x?xf64>
  // CHECK-NEXT: %[[T2:.*]] = arith.mulf %[[S2]], %[[A2]] : f64
  // CHECK-NEXT: stencil.accumulate %[[T2]] to %[[WB]][1, 2] dims [_, _] : memref<3x3xf64>
  // CHECK-NEXT: stencil.accumulate %[[S2]] to %[[CB]][0] dims [1] : memref<?xf64>
  // CHECK-NEXT: }
  // CHECK-NEXT: stencil.domain
  // CHECK-NEXT: %[[W1:.*]] = stencil.gather %[[W]][1, 2] dims [_, _] : memref<3x3xf64>
  // CHECK-NEXT: %[[S1:.*]] = stencil.gather %[[RB]][0, 0] : memref<?x?xf64>
  // CHECK-NEXT: %[[T1:.*]] = arith.mulf %[[S1]], %[[W1]] : f64
  // CHECK-NEXT: stencil.accumulate %[[T1]] to %[[UB]][0, 1] : memref<?x?xf64>
  // CHECK-NEXT: }
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %w12 = stencil.gather %w[1, 2] dims [_, _] : memref<3x3xf64>
    %a = stencil.gather %u[0, 1] : memref<?x?xf64>
    %s = stencil.gather %rb[0, 0] : memref<?x?xf64>
    %tu = arith.mulf %s, %w12 : f64
    %tw = arith.mulf %s, %a : f64
    stencil.accumulate %tu to %ub[0, 1] : memref<?x?xf64>
    stencil.accumulate %tw to %wb[1, 2] dims [_, _] : memref<3x3xf64>
    stencil.accumulate %s to %cb[0] dims [1] : memref<?xf64>
  }
  return
}

// A domain that only reduces is left as it is, and so is one that only
// writes through permutations.
// CHECK-LABEL: func.func @only_reduces(
// CHECK: stencil.domain
// CHECK-NEXT: stencil.gather
// CHECK-NEXT: stencil.accumulate {{.*}} dims [_]
// CHECK-NEXT: }
// CHECK-NEXT: stencil.domain
// CHECK-NEXT: stencil.gather
// CHECK-NEXT: stencil.store
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @only_reduces(%u: memref<?xf64>, %s: memref<1xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %a = stencil.gather %u[0] : memref<?xf64>
    stencil.accumulate %a to %s[0] dims [_] : memref<1xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %a = stencil.gather %u[0] : memref<?xf64>
    stencil.store %a to %r : memref<?xf64>
  }
  return
}

// A domain with results keeps them; its reductions move.
// CHECK-LABEL: func.func @results_and_reduce(
// CHECK: stencil.domain
// CHECK-NEXT: %[[B:.*]] = stencil.gather
// CHECK-NEXT: stencil.accumulate %[[B]] to {{.*}} dims [] : memref<f64>
// CHECK-NEXT: }
// CHECK-NEXT: %[[SUM:.*]] = stencil.domain {{.*}} -> (f64) {
// CHECK-NEXT: %[[A:.*]] = stencil.gather
// CHECK-NEXT: stencil.yield %[[A]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: return %[[SUM]]
func.func @results_and_reduce(%u: memref<?xf64>, %s: memref<f64>, %n: index) -> f64 {
  %sum = stencil.domain (%i) = (0) to (%n) -> (f64) {
    %a = stencil.gather %u[0] : memref<?xf64>
    stencil.accumulate %a to %s[] dims [] : memref<f64>
    stencil.yield %a : f64
  }
  return %sum : f64
}

// The reductions also move above an independent domain before (a first
// contribution, which the gather form fuses), but not above one that
// writes what they read.
// CHECK-LABEL: func.func @hoist(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[T:[^:]*]]: memref<?xf64>, %[[UB:[^:]*]]: memref<?xf64>, %[[SB:[^:]*]]: memref<f64>
// CHECK: stencil.domain
// CHECK: stencil.accumulate {{.*}} to %[[SB]][] dims []
// CHECK: stencil.domain
// CHECK: stencil.store {{.*}} to %[[UB]]
// CHECK: stencil.domain
// CHECK: stencil.accumulate {{.*}} to %[[UB]][-1]
// CHECK: stencil.domain
// CHECK: stencil.store {{.*}} to %[[T]]
// CHECK: stencil.domain
// CHECK: stencil.accumulate {{.*}} to %[[SB]][] dims []
// CHECK: stencil.domain
// CHECK: stencil.accumulate {{.*}} to %[[UB]][1]
func.func @hoist(%u: memref<?xf64>, %t: memref<?xf64>, %ub: memref<?xf64>, %sb: memref<f64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %ub : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.accumulate %x to %ub[-1] : memref<?xf64>
    stencil.accumulate %x to %sb[] dims [] : memref<f64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %t : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %y = stencil.gather %t[0] : memref<?xf64>
    stencil.accumulate %y to %ub[1] : memref<?xf64>
    stencil.accumulate %y to %sb[] dims [] : memref<f64>
  }
  return
}
