// A first store fused into the gather sweep after it (fuse-init): a domain
// that only stores a value at the centre into an array that the next
// scatter domain, over the same points, only adds to. A reversed time
// loop's receiving step adjoint has this form (cur_b = -prev_b, then the
// step's gather into cur_b; docs/TimeLoops.md, section 3).
// RUN: stencil-opt %s --stencil-scatter-to-gather --canonicalize --cse --mlir-print-local-scope | FileCheck %s
// RUN: stencil-opt %s "--stencil-scatter-to-gather=boundary=guarded" --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=CHECK-GUARDED
// RUN: stencil-opt %s "--stencil-scatter-to-gather=fuse-init=0" | FileCheck %s --check-prefix=CHECK-OFF
// RUN: stencil-opt %s --convert-to-omp | FileCheck %s --check-prefix=CHECK-PIPE
// RUN: stencil-opt %s "--convert-to-omp=fuse-init=0" | FileCheck %s --check-prefix=CHECK-PIPE-OFF

// ub = -p over [1, n), then ub[q + o] += ... for o in {-1, 0, 1}.
// CHECK-LABEL: func.func @leap
// CHECK-SAME: %[[P:arg0]]: memref<?xf64>, %[[NB:arg1]]: memref<?xf64>, %[[C:arg2]]: memref<?xf64>, %[[UB:arg3]]: memref<?xf64>, %[[N:arg4]]: index
// CHECK-NOT: stencil.domain
// The lower slab [0, 2): the store where it is valid (q >= 1), first.
// CHECK: affine.parallel (%[[Q:.*]]) = (0) to (min(2, symbol(%[[N]]) + 1)) {
// CHECK-NEXT: affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 >= 0)>(%[[Q]])[%[[N]]] {
// CHECK-NEXT: %[[X:.*]] = affine.load %[[P]][%[[Q]]]
// CHECK-NEXT: %[[NEG:.*]] = arith.negf %[[X]]
// CHECK-NEXT: affine.store %[[NEG]], %[[UB]][%[[Q]]]
// CHECK: affine.load %[[UB]][%[[Q]]]
// The core [2, n - 1): -p plus the gathered sum (summed first, as the
// update after a separate store would add it), stored; ub is not read.
// CHECK: affine.parallel (%[[I:.*]]) = (2) to (symbol(%[[N]]) - 1) {
// CHECK-NEXT: %[[X2:.*]] = affine.load %[[P]][%[[I]]]
// CHECK-NEXT: %[[NEG2:.*]] = arith.negf %[[X2]]
// CHECK-NOT: affine.load %[[UB]]
// CHECK: %[[S1:.*]] = arith.addf %{{.*}}, %{{.*}} : f64
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S1]], %{{.*}} : f64
// CHECK-NEXT: %[[S3:.*]] = arith.addf %[[NEG2]], %[[S2]] : f64
// CHECK-NEXT: affine.store %[[S3]], %[[UB]][%[[I]]]
// CHECK-NEXT: }
// CHECK: return

// The guarded form: at each point the valid contributions summed, then a
// store where the first store is valid, an add elsewhere.
// CHECK-GUARDED-LABEL: func.func @leap
// CHECK-GUARDED: %[[FIRST:.*]]:2 = affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 >= 0)>
// CHECK-GUARDED: scf.if %[[FIRST]]#1 {
// CHECK-GUARDED-NEXT: %[[TOTAL:.*]] = arith.addf %[[FIRST]]#0, %[[SUM:.*]]#0 : f64
// CHECK-GUARDED-NEXT: %[[VALUE:.*]] = arith.select %[[SUM]]#1, %[[TOTAL]], %[[FIRST]]#0 : f64
// CHECK-GUARDED-NEXT: affine.store %[[VALUE]], %arg3
// CHECK-GUARDED-NEXT: } else {
// CHECK-GUARDED-NEXT: scf.if %[[SUM]]#1 {
// CHECK-GUARDED-NEXT: affine.load %arg3
// CHECK-GUARDED-NEXT: arith.addf
// CHECK-GUARDED-NEXT: affine.store

// Off, the first store stays a domain of its own (left for
// --convert-stencil-to-affine), in the pass and in the pipeline.
// CHECK-OFF-LABEL: func.func @leap
// CHECK-OFF: stencil.domain
// CHECK-OFF: stencil.store
// CHECK-OFF-NOT: stencil.domain
// CHECK-OFF: return
// CHECK-PIPE-OFF-LABEL: llvm.func @leap(
// CHECK-PIPE-OFF-COUNT-4: omp.wsloop
// CHECK-PIPE-OFF-NOT: omp.wsloop
// CHECK-PIPE-OFF: return
// The pipeline fuses it by default: the lower slab, core and upper slab.
// CHECK-PIPE-LABEL: llvm.func @leap(
// CHECK-PIPE-COUNT-3: omp.wsloop
// CHECK-PIPE-NOT: omp.wsloop
// CHECK-PIPE: return
func.func @leap(%p: memref<?xf64>, %nb: memref<?xf64>, %c: memref<?xf64>,
                %ub: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %p[0] : memref<?xf64>
    %v = arith.negf %x : f64
    stencil.store %v to %ub : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %b = stencil.gather %nb[0] : memref<?xf64>
    %k = stencil.gather %c[0] : memref<?xf64>
    %bk = arith.mulf %b, %k : f64
    stencil.accumulate %b to %ub[0] : memref<?xf64>
    stencil.accumulate %bk to %ub[-1] : memref<?xf64>
    stencil.accumulate %bk to %ub[1] : memref<?xf64>
  }
  return
}

// Not fused: the first store reads an array the scatter writes (%nb's
// value would be read after the scatter reset it).
// CHECK-LABEL: func.func @reads_written
// CHECK: stencil.domain
// CHECK-NEXT: stencil.gather %arg0[0]
// CHECK-NEXT: stencil.store %{{.*}} to %arg2
// CHECK: affine.parallel (%[[I:.*]]) = (2) to
// CHECK: affine.load %arg2[%[[I]]]
func.func @reads_written(%nb: memref<?xf64>, %rb: memref<?xf64>,
                         %ub: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %nb[0] : memref<?xf64>
    stencil.store %x to %ub : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %b = stencil.gather %rb[0] : memref<?xf64>
    stencil.accumulate %b to %ub[-1] : memref<?xf64>
    stencil.accumulate %b to %ub[1] : memref<?xf64>
    stencil.accumulate %b to %nb[0] : memref<?xf64>
  }
  return
}

// Not fused: other bounds.
// CHECK-LABEL: func.func @other_bounds
// CHECK: stencil.domain (%{{.*}}) = (2) to (%arg3)
// CHECK-NEXT: stencil.gather %arg0[0]
// CHECK-NEXT: stencil.store %{{.*}} to %arg2
func.func @other_bounds(%p: memref<?xf64>, %rb: memref<?xf64>,
                        %ub: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (2) to (%n) {
    %x = stencil.gather %p[0] : memref<?xf64>
    stencil.store %x to %ub : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %b = stencil.gather %rb[0] : memref<?xf64>
    stencil.accumulate %b to %ub[-1] : memref<?xf64>
    stencil.accumulate %b to %ub[1] : memref<?xf64>
  }
  return
}
