// RUN: stencil-opt %s --stencil-distribute="grid=2,1" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: stencil-opt %s --stencil-distribute="grid=1,2" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=BOXES

// Reductions (accumulates whose `dims` are not a permutation) in a
// distributed function. Sums into fixed elements of an argument (a filter
// tap, a rank-0 array) are taken across ranks: the array is replicated
// (every rank holds it whole), the domain that sums covers the rank's own
// points and is marked `stencil.distributed_sum` like a domain with
// results, and the lowering adds every rank's part in the order of one
// process. Reductions through some of the iteration dimensions (a
// layered coefficient's gradient) are taken the same way; a reduction into
// a subview is refused at the accumulate.

// The gradient of a per-column coefficient c[j]: a selection. cb is
// replicated too, the domain covers the rank's points and is marked; the
// lowering takes its terms across ranks (it always uses the boxes' terms
// for such reductions, whatever the split).
// CHECK-LABEL: func.func @selection(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?x?xf64>, %[[C:[a-z0-9]+]]: memref<?xf64>, %[[CB:[a-z0-9]+]]: memref<?xf64>
// CHECK-SAME: stencil.distribution = {blocks = array<i64: 0>
// CHECK: stencil.domain
// CHECK: stencil.accumulate %{{.*}} to %[[CB]][0] dims [1] : memref<?xf64>
// CHECK: } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "slices"}}
// BOXES-LABEL: func.func @selection(
// BOXES: } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "boxes"}}
func.func @selection(%u: memref<?x?xf64>, %c: memref<?xf64>,
                     %cb: memref<?xf64>, %n: index) {
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  stencil.domain (%i, %j) = (1, 1) to (%nm1, %nm1) {
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    stencil.accumulate %a to %cb[0] dims [1] : memref<?xf64>
  }
  return
}

// -----

// A reduction into a subview of an argument is refused: the run-time
// library would need the view's place in the array.
func.func @into_view(%u: memref<?x?xf64>, %cb: memref<?x?xf64>, %n: index) {
  %row = memref.subview %cb[1, 0] [1, %n] [1, 1]
      : memref<?x?xf64> to memref<?xf64, strided<[1], offset: ?>>
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    // expected-error @below {{'stencil.accumulate' op sums into a view of an array across ranks (a reduction into a subview), which is not supported yet in a distributed function; reductions into an argument are}}
    stencil.accumulate %a to %row[0] dims [1] : memref<?xf64, strided<[1], offset: ?>>
  }
  return
}

// -----

// A rank-0 array (a global parameter held in memory). On a 2x1 grid each
// rank holds whole slices of dimension 0; on 1x2, boxes.
// CHECK-LABEL: func.func @scalar(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?x?xf64>, %[[SB:[a-z0-9]+]]: memref<f64>
// CHECK-SAME: stencil.distribution = {blocks = array<i64: 0>
// CHECK: stencil.domain
// CHECK: stencil.accumulate %{{.*}} to %[[SB]][] dims [] : memref<f64>
// CHECK: } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "slices"}}
// BOXES-LABEL: func.func @scalar(
// BOXES: } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "boxes"}}
func.func @scalar(%u: memref<?x?xf64>, %sb: memref<f64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %a to %sb[] dims [] : memref<f64>
  }
  return
}

// -----

// A filter tap: w is read at a fixed element and its gradient wb summed
// into one, both arrays of the grid's rank but replicated (not blocks, no
// view). The scatter into ub may reach beyond the rank's block; the sum
// into wb must count each point once: it moves to a domain of its own
// before, over the rank's own points (dimension 0 clipped to the block's
// rows, dimension 1 whole on a 2x1 grid).
// CHECK-LABEL: func.func @filter_tap(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?x?xf64>, %[[UB:[a-z0-9]+]]: memref<?x?xf64>, %[[W:[a-z0-9]+]]: memref<?x?xf64>, %[[WB:[a-z0-9]+]]: memref<?x?xf64>
// CHECK-SAME: stencil.distribution = {blocks = array<i64: 0, 1>
// CHECK: %[[LO:.*]] = arith.maxsi
// CHECK: %[[HI:.*]] = arith.minsi
// CHECK: stencil.domain (%{{.*}}, %{{.*}}) = (%[[LO]], 1) to (%[[HI]], %{{.*}} - 1) {
// CHECK-NEXT: %[[A:.*]] = stencil.gather %{{.*}}[-1, 0]
// CHECK-NEXT: stencil.accumulate %[[A]] to %[[WB]][1, 2] dims [_, _] : memref<?x?xf64>
// CHECK-NEXT: } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "slices"}}
// CHECK: stencil.domain
// CHECK: stencil.gather %[[W]][1, 2] dims [_, _] : memref<?x?xf64>
// CHECK-NOT: %[[WB]]
// CHECK: stencil.accumulate %{{.*}} to %{{.*}}[1, 0]
// CHECK-NOT: %[[WB]]
// CHECK: return
func.func @filter_tap(%u: memref<?x?xf64>, %ub: memref<?x?xf64>,
                      %w: memref<?x?xf64>, %wb: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %w0 = stencil.gather %w[1, 2] dims [_, _] : memref<?x?xf64>
    %t = arith.mulf %a, %w0 : f64
    stencil.accumulate %t to %ub[1, 0] : memref<?x?xf64>
    stencil.accumulate %a to %wb[1, 2] dims [_, _] : memref<?x?xf64>
  }
  return
}

// -----

// An array accessed both as a block and whole (here, summed into at a
// fixed element) cannot be both.
// expected-error @below {{argument 1 is accessed both as a block (through the identity `dims`) and whole (through a subview, a selection, a fixed element or a reduction); distributing it is not supported yet}}
func.func @both(%u: memref<?x?xf64>, %v: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %a to %v[0, 0] dims [_, _] : memref<?x?xf64>
  }
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %b = stencil.gather %v[0, 0] : memref<?x?xf64>
    stencil.store %b to %u : memref<?x?xf64>
  }
  return
}

// -----

// A diagonal read: not a permutation, so the array is replicated too (read
// whole at global indices on every rank).
// CHECK-LABEL: func.func @diagonal(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?x?xf64>
// CHECK-SAME: stencil.distribution = {blocks = array<i64: 1>
// CHECK: stencil.gather %[[U]][0, 0] dims [0, 0] : memref<?x?xf64>
func.func @diagonal(%u: memref<?x?xf64>, %v: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %a = stencil.gather %u[0, 0] dims [0, 0] : memref<?x?xf64>
    stencil.store %a to %v : memref<?x?xf64>
  }
  return
}
