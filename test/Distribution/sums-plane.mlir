// RUN: stencil-opt %s --stencil-distribute="grid=1,2" | FileCheck %s
// RUN: stencil-opt %s --stencil-distribute="grid=2,1" | FileCheck %s --check-prefix=BOXES
// RUN: stencil-opt %s --stencil-distribute="grid=2,1" --convert-stencil-to-affine | FileCheck %s --check-prefix=LOWER

// A plane (one point thick in dimension 0): one process takes its slices
// along dimension 1. A 1x2 grid splits only that dimension, so each rank
// holds whole slices; a 2x1 grid splits dimension 0, so each rank holds a
// box (the plane or nothing), whose terms the run-time library folds in
// the order of one process, slices along dimension 1.
// The terms go to a buffer over the rank's box (its extents clipped at
// zero), indexed from the box's lower corner; the box is passed as i64
// lower corners then extents, with the rank 2 and the summation dimension 1.
// CHECK-LABEL: func.func @plane(
// CHECK: stencil.domain
// CHECK: } attributes {stencil.distributed_sum = {dim = 1 : i64, split = "slices"}}

// BOXES-LABEL: func.func @plane(
// BOXES: stencil.domain
// BOXES: } attributes {stencil.distributed_sum = {dim = 1 : i64, split = "boxes"}}

// LOWER-LABEL: func.func @plane(
// LOWER: %[[E0:.*]] = affine.max
// LOWER: %[[E1:.*]] = affine.max
// LOWER: %[[T:.*]] = memref.alloc(%[[E0]], %[[E1]]) : memref<?x?xf64>
// LOWER: affine.parallel
// LOWER: affine.store %{{.*}}, %[[T]][%{{.*}} - symbol(%{{.*}}), %{{.*}}]
// LOWER: %[[BOX:.*]] = memref.alloc() : memref<4xi64>
// LOWER-COUNT-4: memref.store %{{.*}}, %[[BOX]][%{{.*}}] : memref<4xi64>
// LOWER: %[[RANK:.*]] = arith.constant 2 : i64
// LOWER: %[[DIM:.*]] = arith.constant 1 : i64
// LOWER: %[[SUM:.*]] = call @stencil_dist_sum_terms_f64(%{{.*}}, %[[RANK]], %[[DIM]], %{{.*}}) : (!llvm.ptr, i64, i64, !llvm.ptr) -> f64
// LOWER: memref.dealloc %[[T]]
// LOWER: memref.dealloc %[[BOX]]
// LOWER: return %[[SUM]]
// LOWER: func.func private @stencil_dist_sum_terms_f64(!llvm.ptr, i64, i64, !llvm.ptr) -> f64
func.func @plane(%u: memref<?x?xf64>, %n: index) -> f64 {
  %s = stencil.domain (%i, %j) = (3, 0) to (4, %n) -> (f64) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.yield %x : f64
  }
  return %s : f64
}

// The same plane with its bounds given as constant operands, and a
// reduction into a per-column cb[j]: the constants are folded into the
// bounds before the summation dimension is chosen, as the lowering folds
// them for one process, so that both take slices along dimension 1 (and
// cb[j], on the summation dimension, is summed in place by both).
// CHECK-LABEL: func.func @plane_constants(
// CHECK: stencil.domain (%{{.*}}, %{{.*}}) = (3, %{{.*}}) to (4, %{{.*}})
// CHECK: } attributes {stencil.distributed_sum = {dim = 1 : i64, split = "slices"}}
// BOXES-LABEL: func.func @plane_constants(
// BOXES: } attributes {stencil.distributed_sum = {dim = 1 : i64, split = "boxes"}}
func.func @plane_constants(%u: memref<?x?xf64>, %cb: memref<?xf64>, %n: index) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  stencil.domain (%i, %j) = (%c3, 0) to (%c4, %n) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %x to %cb[0] dims [1] : memref<?xf64>
  }
  return
}
