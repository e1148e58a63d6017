// RUN: stencil-opt %s --convert-stencil-to-affine -canonicalize -split-input-file -verify-diagnostics | FileCheck %s

// A domain marked `stencil.distributed_sum` (by --stencil-distribute) that
// reduces into arrays through some of its dimensions: every point's term
// of each reduction goes to a buffer over the rank's box, and the run-time
// library returns the partial sums of every slice (dimension 0) and kept
// coordinate, in the order of one process. A per-column cb[j] (kept: j,
// mask 2) starts from zero and every rank adds the slices' partial sums in
// order into its copy of cb[j]; a per-row db[i+1] (on the slice
// dimension, nothing kept) starts from the element and is stored back.
// The result's terms go to the library as well.
// CHECK-LABEL: func.func @sum(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?x?xf64>, %[[CB:[a-z0-9]+]]: memref<?xf64>, %[[DB:[a-z0-9]+]]: memref<?xf64>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[K0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[K2:.*]] = arith.constant 2 : i64
// CHECK: %[[TC:.*]] = memref.alloc({{.*}}) : memref<?x?xf64>
// CHECK: %[[TD:.*]] = memref.alloc({{.*}}) : memref<?x?xf64>
// CHECK: %[[TS:.*]] = memref.alloc({{.*}}) : memref<?x?xf64>
// CHECK: affine.parallel
// CHECK: %[[A:.*]] = affine.load %[[U]]
// CHECK-DAG: affine.store %[[A]], %[[TC]]
// CHECK-DAG: affine.store %[[A]], %[[TD]]
// CHECK-DAG: affine.store %[[A]], %[[TS]]
// CHECK: call @stencil_dist_terms_domain(%[[K2]], %{{.*}}, %{{.*}})
// CHECK: %[[PC:.*]] = memref.alloc(%[[S:.*]], %[[J:.*]]) : memref<?x?xf64>
// CHECK: memref.store %[[ZERO]], %[[PC]]
// CHECK: call @stencil_dist_reduce_terms_f64(%{{.*}}, %[[K2]], %[[K0]], %{{.*}}, %[[K2]], %{{.*}})
// CHECK: scf.for %[[JJ:.*]] = %{{.*}} to %[[J]]
// CHECK: %[[TOTAL:.*]] = scf.for %[[SS:.*]] = %{{.*}} to %[[S]] {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]])
// CHECK: %[[PART:.*]] = memref.load %[[PC]][%[[SS]], %[[JJ]]]
// CHECK: arith.addf %[[ACC]], %[[PART]]
// CHECK: %[[OLD:.*]] = memref.load %[[CB]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[TOTAL]]
// CHECK: memref.store %[[NEW]], %[[CB]]
// CHECK: %[[PD:.*]] = memref.alloc(%[[S]]) : memref<?xf64>
// CHECK: %[[INIT:.*]] = memref.load %[[DB]]
// CHECK: memref.store %[[INIT]], %[[PD]]
// CHECK: call @stencil_dist_reduce_terms_f64(%{{.*}}, %[[K2]], %[[K0]], %{{.*}}, %[[K0]], %{{.*}})
// CHECK: %[[SUM:.*]] = memref.load %[[PD]]
// CHECK: memref.store %[[SUM]], %[[DB]]
// CHECK: %[[R:.*]] = call @stencil_dist_sum_terms_f64(
// CHECK: return %[[R]] : f64
func.func @sum(%u: memref<?x?xf64>, %cb: memref<?xf64>, %db: memref<?xf64>,
               %n: index) -> f64 {
  %s = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> f64 {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %a to %cb[0] dims [1] : memref<?xf64>
    stencil.accumulate %a to %db[1] dims [0] : memref<?xf64>
    stencil.yield %a : f64
  } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "slices"}}
  return %s : f64
}

// -----

// Two accumulates into one array that each slice sums in place, at the
// same element: one process adds their terms point by point, in body
// order, so their terms go to one buffer with an innermost dimension of
// two positions, and the run-time library folds a domain of rank 3.
// CHECK-LABEL: func.func @two_in_place(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?x?xf64>, %[[DB:[a-z0-9]+]]: memref<?xf64>
// CHECK-DAG: %[[K3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[K0:.*]] = arith.constant 0 : i64
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?x2xf64>
// CHECK: affine.parallel
// CHECK: %[[A:.*]] = affine.load %[[U]]
// CHECK: %[[B:.*]] = arith.mulf %[[A]], %[[A]]
// CHECK: affine.store %[[A]], %[[T]][%{{.*}}, %{{.*}}, 0]
// CHECK: affine.store %[[B]], %[[T]][%{{.*}}, %{{.*}}, 1]
// CHECK: call @stencil_dist_reduce_terms_f64(%{{.*}}, %[[K3]], %[[K0]], %{{.*}}, %[[K0]], %{{.*}})
func.func @two_in_place(%u: memref<?x?xf64>, %db: memref<?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    %b = arith.mulf %a, %a : f64
    stencil.accumulate %a to %db[0] dims [0] : memref<?xf64>
    stencil.accumulate %b to %db[0] dims [0] : memref<?xf64>
  } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "boxes"}}
  return
}

// -----

// Two accumulates in place at different elements of one array (db[i][0]
// and db[i][1]) would need each term's own element: refused.
func.func @in_place_apart(%u: memref<?x?xf64>, %db: memref<?x2xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    // expected-error @below {{'stencil.accumulate' op is one of several accumulates into an array that each slice of the domain sums in place, at different elements; across ranks this is not supported yet}}
    stencil.accumulate %a to %db[0, 0] dims [0, _] : memref<?x2xf64>
    stencil.accumulate %a to %db[0, 1] dims [0, _] : memref<?x2xf64>
  } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "boxes"}}
  return
}

// -----

// Several in place into one element interleave their terms in one more
// dimension, which a domain of rank 8 (the run-time library's most) does
// not have: refused.
func.func @in_place_rank8(%u: memref<?xf64>, %db: memref<?xf64>, %n: index) {
  stencil.domain (%a, %b, %c, %d, %e, %f, %g, %h) = (0, 0, 0, 0, 0, 0, 0, 0) to (%n, %n, %n, %n, %n, %n, %n, %n) {
    %x = stencil.gather %u[0] dims [0] : memref<?xf64>
    // expected-error @below {{'stencil.accumulate' op is one of several accumulates in place into one element in a domain of rank 8; across ranks their terms need 9 dimensions, more than the 8 the run-time library supports}}
    stencil.accumulate %x to %db[0] dims [0] : memref<?xf64>
    stencil.accumulate %x to %db[0] dims [0] : memref<?xf64>
  } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "boxes"}}
  return
}

// -----

// Where each rank holds a box, every point's terms go to the run-time
// library: the result's, then each sum into a fixed element's (a rank-0
// array, a filter tap), one buffer and one call each, with the same box.
// Every rank then adds the same totals into its copies of the elements.
// CHECK-LABEL: func.func @boxes(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?x?xf64>, %[[C:[a-z0-9]+]]: memref<f64>, %[[W:[a-z0-9]+]]: memref<3xf64>
// CHECK: %[[T0:.*]] = memref.alloc({{.*}}) : memref<?x?xf64>
// CHECK: %[[T1:.*]] = memref.alloc({{.*}}) : memref<?x?xf64>
// CHECK: %[[T2:.*]] = memref.alloc({{.*}}) : memref<?x?xf64>
// CHECK: affine.parallel
// CHECK: %[[A:.*]] = affine.load %[[U]]
// CHECK: %[[B:.*]] = arith.mulf %[[A]], %[[A]]
// CHECK-DAG: affine.store %[[A]], %[[T0]]
// CHECK-DAG: affine.store %[[A]], %[[T1]]
// CHECK-DAG: affine.store %[[B]], %[[T2]]
// CHECK-NOT: affine.store {{.*}} %[[C]]
// CHECK-NOT: affine.store {{.*}} %[[W]]
// CHECK: %[[S:.*]] = call @stencil_dist_sum_terms_f64({{.*}}) :
// CHECK: %[[SC:.*]] = call @stencil_dist_sum_terms_f64({{.*}}) :
// CHECK: %[[SW:.*]] = call @stencil_dist_sum_terms_f64({{.*}}) :
// CHECK: %[[OC:.*]] = affine.load %[[C]][]
// CHECK: %[[NC:.*]] = arith.addf %[[OC]], %[[SC]]
// CHECK: affine.store %[[NC]], %[[C]][]
// CHECK: %[[OW:.*]] = affine.load %[[W]][2]
// CHECK: %[[NW:.*]] = arith.addf %[[OW]], %[[SW]]
// CHECK: affine.store %[[NW]], %[[W]][2]
// CHECK: return %[[S]] : f64
func.func @boxes(%u: memref<?x?xf64>, %c: memref<f64>, %w: memref<3xf64>,
                 %n: index) -> f64 {
  %s = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> f64 {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    %b = arith.mulf %a, %a : f64
    stencil.accumulate %a to %c[] dims [] : memref<f64>
    stencil.accumulate %b to %w[2] dims [_] : memref<3xf64>
    stencil.yield %a : f64
  } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "boxes"}}
  return %s : f64
}
