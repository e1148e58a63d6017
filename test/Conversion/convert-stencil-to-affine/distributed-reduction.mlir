// RUN: stencil-opt %s --convert-stencil-to-affine -split-input-file -verify-diagnostics | FileCheck %s

// A domain marked `stencil.distributed_sum` (by --stencil-distribute, which
// refuses such reductions itself: test/Distribution/reductions.mlir) that
// also reduces into an array through a selection is refused by the
// lowering: each rank would only add its own points into its copy of the
// array. (Fully reduced ones, fixed elements and rank-0 arrays, are summed
// across ranks like the results.)
func.func @sum(%u: memref<?x?xf64>, %cb: memref<?xf64>, %n: index) -> f64 {
  // expected-error @below {{sums into an array across ranks through a subset of the iteration dimensions (a reduction), which is not supported yet; fixed elements and rank-0 arrays are}}
  %s = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> f64 {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %a to %cb[0] dims [1] : memref<?xf64>
    stencil.yield %a : f64
  } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "slices"}}
  return %s : f64
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
