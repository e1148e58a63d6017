// The reset of an output adjoint read only by statements at offset zero (as
// after a cut): each point resets its own element after its last read, a
// statement like the others, in every nest and every boundary strategy; no
// blocks, no second sweep.
// RUN: stencil-opt %s "--stencil-scatter-to-gather=report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: stencil-opt %s --stencil-scatter-to-gather --canonicalize --cse --mlir-print-local-scope | FileCheck %s
// RUN: stencil-opt %s "--stencil-scatter-to-gather=boundary=exact" --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=EXACT
// RUN: stencil-opt %s "--stencil-scatter-to-gather=boundary=guarded" --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=GUARDED
// RUN: stencil-opt %s "--stencil-scatter-to-gather=fuse-reset=0" --canonicalize --cse | FileCheck %s --check-prefix=OFF

// The cut form of the paper's 1D adjoint: t = c * rb filled before, the
// scatter reads t (its shifts) and rb at the centre only.
// PLAN: remark: gather plan: {{.*}}"rank":1,"reset":null
// CHECK-LABEL: func.func @cut1d
// CHECK-SAME: %[[T:arg0]]: memref<?xf64>, %[[RB:arg1]]: memref<?xf64>, %[[UB:arg2]]: memref<?xf64>, %[[VB:arg3]]: memref<?xf64>
// CHECK-NOT: omp_get_max_threads
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// The lower slab: the reset under its statement's guard, after the others.
// CHECK: affine.parallel
// CHECK: affine.load %[[RB]]
// CHECK: affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 >= 0)>
// CHECK-NEXT: affine.store %[[ZERO]], %[[RB]]
// The core [2, n - 1): every statement, then the reset of rb at the point.
// CHECK: affine.parallel (%[[Q:.*]]) = (2) to (symbol(%{{.*}}) - 1) {
// CHECK: affine.load %[[RB]][%[[Q]]]
// CHECK: affine.store %{{.*}}, %[[UB]][%[[Q]]]
// CHECK: affine.store %{{.*}}, %[[VB]][%[[Q]]]
// CHECK-NEXT: affine.store %[[ZERO]], %[[RB]][%[[Q]]]
// CHECK-NEXT: }
// CHECK-NOT: stencil.domain
// EXACT-LABEL: func.func @cut1d
// EXACT-NOT: stencil.domain
// EXACT: affine.store %{{.*}}, %arg1[%{{.*}}]
// GUARDED-LABEL: func.func @cut1d
// GUARDED-NOT: stencil.domain
// GUARDED: affine.store %{{.*}}, %arg1[%{{.*}}]
// OFF-LABEL: func.func @cut1d
// OFF: stencil.domain
// OFF-NEXT: stencil.store
func.func @cut1d(%t: memref<?xf64>, %rb: memref<?xf64>, %ub: memref<?xf64>,
                 %vb: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %s = stencil.gather %t[0] : memref<?xf64>
    stencil.accumulate %s to %ub[-1] : memref<?xf64>
    stencil.accumulate %s to %ub[1] : memref<?xf64>
    %r = stencil.gather %rb[0] : memref<?xf64>
    stencil.accumulate %r to %vb[0] : memref<?xf64>
  }
  %zero = arith.constant 0.0 : f64
  stencil.domain (%i) = (1) to (%n) {
    stencil.store %zero to %rb : memref<?xf64>
  }
  return
}

// Blocked as before where a shifted statement reads the array.
// PLAN: remark: gather plan: {{.*}}"reset":{"balanced":true
// CHECK-LABEL: func.func @shifted_reader
// CHECK: call @omp_get_max_threads()
func.func @shifted_reader(%t: memref<?xf64>, %rb: memref<?xf64>,
                          %ub: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %s = stencil.gather %t[0] : memref<?xf64>
    %r = stencil.gather %rb[0] : memref<?xf64>
    %p = arith.mulf %s, %r : f64
    stencil.accumulate %p to %ub[-1] : memref<?xf64>
    stencil.accumulate %r to %ub[0] : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %zero = arith.constant 0.0 : f64
    stencil.store %zero to %rb : memref<?xf64>
  }
  return
}
