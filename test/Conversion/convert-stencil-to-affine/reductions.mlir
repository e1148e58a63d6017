// RUN: stencil-opt %s --convert-stencil-to-affine=report=1 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: stencil-opt %s --convert-stencil-to-affine -split-input-file | FileCheck %s

// The plan of each domain's reductions, and the code it makes. The
// parallel dimension is the first, i. `v[k]` does not use it: partial sums
// per slice and k, added in slice order after the nest. `c[i]` uses it at
// one offset: in place. The fixed element `w[1]` uses no dimension: its
// sum is carried through the slice's loops like a domain result, in the
// same order (no `reassoc`: the order must be one the run-time library can
// repeat across ranks), one partial sum per slice. The second update of v (`v[k+1]`) sums
// separately from the first.

// PLAN: remark: reduction plan: {"slice_dim": 0, "entries": [{"op": 1, "direct": false, "carried": false, "used": [2]}, {"op": 2, "direct": true, "carried": false, "used": []}, {"op": 3, "direct": false, "carried": true, "used": []}, {"op": 4, "direct": false, "carried": false, "used": [2]}]}
// CHECK-LABEL: func.func @layered(
// CHECK-SAME: %[[U:[^:]*]]: memref<?x?x?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[CB:[^:]*]]: memref<?xf64>, %[[WB:[^:]*]]: memref<2xf64>, %[[N:.*]]: index)
// CHECK: %[[PV:.*]] = memref.alloc({{.*}}) : memref<?x?xf64>
// CHECK: %[[PV1:.*]] = memref.alloc({{.*}}) : memref<?x?xf64>
// CHECK: %[[PW:.*]] = memref.alloc({{.*}}) : memref<?xf64>
// CHECK: affine.parallel (%[[I:.*]]) =
// CHECK: scf.for
// CHECK: memref.store {{.*}}, %[[PV]]
// CHECK: scf.for
// CHECK: memref.store {{.*}}, %[[PV1]]
// CHECK: %[[SJ:.*]] = affine.for %[[J:.*]] = {{.*}} iter_args(%[[AJ:.*]] = %{{.*}}) -> (f64)
// CHECK: %[[SK:.*]] = affine.for %[[K:.*]] = {{.*}} iter_args(%[[AK:.*]] = %[[AJ]]) -> (f64)
// CHECK: %[[X:.*]] = affine.load %[[U]][%[[I]], %[[J]], %[[K]]]
// CHECK: affine.load %[[PV]][%[[I]], %[[K]]]
// CHECK: affine.store {{.*}}, %[[PV]][%[[I]], %[[K]]]
// CHECK: affine.load %[[CB]][%[[I]]]
// CHECK: affine.store {{.*}}, %[[CB]][%[[I]]]
// CHECK: affine.store {{.*}}, %[[PV1]][%[[I]], %[[K]]]
// CHECK: %[[NEXT:.*]] = arith.addf %[[AK]], %[[X]] : f64
// CHECK: affine.yield %[[NEXT]] : f64
// CHECK: affine.yield %[[SK]] : f64
// CHECK: affine.store %[[SJ]], %[[PW]][%[[I]]]
// The folds: v[k] over k in parallel, each the slices in order (twice);
// w[1] the slices in order.
// CHECK: affine.parallel (%[[KF:.*]]) =
// CHECK: scf.for {{.*}} iter_args
// CHECK: memref.load %[[PV]]
// CHECK: affine.load %[[VB]][%[[KF]]]
// CHECK: affine.store {{.*}}, %[[VB]][%[[KF]]]
// CHECK: memref.dealloc %[[PV]]
// CHECK: affine.parallel (%[[KF1:.*]]) =
// CHECK: memref.load %[[PV1]]
// CHECK: affine.store {{.*}}, %[[VB]][%[[KF1]] + 1]
// CHECK: memref.dealloc %[[PV1]]
// CHECK: %[[TOTAL:.*]] = affine.for {{.*}} iter_args
// CHECK: affine.load %[[PW]]
// CHECK-NOT: fastmath
// CHECK: memref.dealloc %[[PW]]
// CHECK: %[[OLD:.*]] = affine.load %[[WB]][1]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[TOTAL]] : f64
// CHECK: affine.store %[[NEW]], %[[WB]][1]
func.func @layered(%u: memref<?x?x?xf64>, %vb: memref<?xf64>, %cb: memref<?xf64>, %wb: memref<2xf64>, %n: index) {
  stencil.domain (%i, %j, %k) = (0, 0, 0) to (%n, %n, %n) {
    %x = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %x to %vb[0] dims [2] : memref<?xf64>
    stencil.accumulate %x to %cb[0] dims [0] : memref<?xf64>
    stencil.accumulate %x to %wb[1] dims [_] : memref<2xf64>
    stencil.accumulate %x to %vb[1] dims [2] : memref<?xf64>
  }
  return
}

// -----

// Two accumulates into one array at different offsets along the parallel
// dimension: neighbouring slices would share elements, so each sums into
// partial sums of its own.
// PLAN: remark: reduction plan: {"slice_dim": 0, "entries": [{"op": 1, "direct": false, "carried": false, "used": [0]}, {"op": 2, "direct": false, "carried": false, "used": [0]}]}
// CHECK-LABEL: func.func @offsets_along_slices(
// CHECK-COUNT-2: memref.alloc
// CHECK: affine.parallel
func.func @offsets_along_slices(%u: memref<?x?xf64>, %cb: memref<?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 0) to (%n - 1, %n) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %x to %cb[-1] dims [0] : memref<?xf64>
    stencil.accumulate %x to %cb[1] dims [0] : memref<?xf64>
  }
  return
}

// -----

// A domain that also scatters runs serially (scatter=serial, the
// default): every reduction in place, in the nest's order.
// PLAN: remark: reduction plan: {"slice_dim": 0, "entries": [{"op": 2, "direct": true, "carried": false, "used": []}]}
// CHECK-LABEL: func.func @serial(
// CHECK-NOT: memref.alloc
// CHECK-NOT: affine.parallel
// CHECK: affine.for
// CHECK: return
func.func @serial(%u: memref<?x?xf64>, %ub: memref<?x?xf64>, %s: memref<f64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %x to %ub[-1, 0] : memref<?x?xf64>
    stencil.accumulate %x to %s[] dims [] : memref<f64>
  }
  return
}
