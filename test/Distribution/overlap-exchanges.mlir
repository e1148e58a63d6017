// RUN: stencil-opt %s -split-input-file -mlir-print-op-on-diagnostic=false \
// RUN:   --stencil-distribute=grid=?,1 --stencil-lower-halo-exchange=overlap=1 \
// RUN:   --convert-stencil-to-affine \
// RUN:   "--stencil-overlap-exchanges=report=1 chunks=1" 2>&1 | FileCheck %s
// RUN: stencil-opt %s -split-input-file -mlir-print-op-on-diagnostic=false \
// RUN:   --stencil-distribute=grid=?,1 --stencil-lower-halo-exchange=overlap=1 \
// RUN:   --convert-stencil-to-affine "--stencil-overlap-exchanges=chunks=3" \
// RUN:   | FileCheck %s --check-prefix=CHUNKS
// RUN: stencil-opt %s -split-input-file -mlir-print-op-on-diagnostic=false \
// RUN:   --stencil-distribute=grid=1,? --stencil-lower-halo-exchange=overlap=1 \
// RUN:   --convert-stencil-to-affine --stencil-overlap-exchanges=report=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COLUMNS

// A 5-point step on a grid that splits dimension 0 (the parallel loop's):
// the interior rows [start + 1, end - 1) run before the wait, the rims
// [lb, start + 1) and [max(start + 1, end - 1), ub) after it, in two
// clones. The block's rows come from the run-time library, once, before
// the nest.
// CHECK: remark: overlap plan: {"function":"step","groups":[{"exchanges":[{"dim":0,"hi":1,"lo":1}],"nests":[{"above":1,"below":1}],"stop":"the end of the block"}]}
// CHECK-LABEL: func.func @step(
// CHECK: %[[H0:.*]] = call @stencil_dist_isendrecv(
// CHECK: %[[H1:.*]] = call @stencil_dist_isendrecv(
// CHECK: call @stencil_dist_block_start(
// CHECK: call @stencil_dist_block_count(
// CHECK: %[[START:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[END:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: affine.parallel (%{{.*}}) = (max(symbol(%[[LB:[^)]*]]), symbol(%[[START]]) + 1)) to (min(symbol(%[[UB:[^)]*]]), symbol(%[[END]]) - 1))
// CHECK: scf.execute_region {
// CHECK: func.call @stencil_dist_wait(%[[H0]])
// CHECK: func.call @stencil_dist_wait(%[[H1]])
// CHECK: } {stencil.exchange_finish
// CHECK: affine.parallel (%{{.*}}) = (symbol(%[[LB]])) to (min(symbol(%[[UB]]), symbol(%[[START]]) + 1))
// CHECK: affine.parallel (%{{.*}}) = (max(symbol(%[[LB]]), symbol(%[[START]]) + 1, symbol(%[[END]]) - 1)) to (symbol(%[[UB]]))
// CHECK-NEXT: affine.for
// CHECK: return

// In three parts, [C_k, C_k+1) with C_k = S + k (E - S) / 3 (S = start + 1,
// E = end - 1), with a call that lets MPI progress after each but the last.
// CHUNKS-LABEL: func.func @step(
// CHUNKS: affine.parallel (%{{.*}}) = (max(symbol(%[[LB:[^)]*]]), symbol(%[[S:[^)]*]]) + 1)) to (min(symbol(%[[UB:[^)]*]]), symbol(%[[E:[^)]*]]) - 1, symbol(%[[S]]) + (symbol(%[[E]]) - (symbol(%[[S]]) + 1) - 1) floordiv 3 + 1))
// CHUNKS-NEXT: affine.for
// CHUNKS: call @stencil_dist_progress()
// CHUNKS: affine.parallel (%{{.*}}) = (max(symbol(%[[LB]]), symbol(%[[S]]) + 1, symbol(%[[S]]) + (symbol(%[[E]]) - (symbol(%[[S]]) + 1) - 1) floordiv 3 + 1)) to (min(symbol(%[[UB]]), symbol(%[[E]]) - 1, symbol(%[[S]]) + ((symbol(%[[E]]) - (symbol(%[[S]]) + 1) - 1) * 2) floordiv 3 + 1))
// CHUNKS: call @stencil_dist_progress()
// CHUNKS: affine.parallel (%{{.*}}) = (max(symbol(%[[LB]]), symbol(%[[S]]) + 1, symbol(%[[S]]) + ((symbol(%[[E]]) - (symbol(%[[S]]) + 1) - 1) * 2) floordiv 3 + 1)) to (min(symbol(%[[UB]]), symbol(%[[E]]) - 1))
// CHUNKS-NOT: stencil_dist_progress()
// CHUNKS: scf.execute_region
// CHUNKS: affine.parallel (%{{.*}}) = (symbol(%[[LB]])) to (min(symbol(%[[UB]]), symbol(%[[S]]) + 1))
// CHUNKS: affine.parallel (%{{.*}}) = (max(symbol(%[[LB]]), symbol(%[[S]]) + 1, symbol(%[[E]]) - 1)) to (symbol(%[[UB]]))
// CHUNKS: return

// On a grid that splits dimension 1 only, the parallel loop runs over
// dimension 0 and nothing moves: the wait stays right after the start.
// COLUMNS: remark: overlap plan: {"function":"step","groups":[{"exchanges":[{"dim":1,"hi":1,"lo":1}],"nests":[],"stop":"a nest whose parallel loop does not run over the exchanged dimension"}]}
// COLUMNS-LABEL: func.func @step(
// COLUMNS: call @stencil_dist_isendrecv(
// COLUMNS: call @stencil_dist_isendrecv(
// COLUMNS-NOT: affine.parallel
// COLUMNS: scf.execute_region {
// COLUMNS: affine.parallel
// COLUMNS-NOT: affine.parallel
// COLUMNS: return
func.func @step(%u: memref<?x?xf64>, %v: memref<?x?xf64>, %n: index) {
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  stencil.domain (%i, %j) = (1, 1) to (%m, %m) {
    %c = stencil.gather %u[0, 0] : memref<?x?xf64>
    %w = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %e = stencil.gather %u[1, 0] : memref<?x?xf64>
    %s = stencil.gather %u[0, -1] : memref<?x?xf64>
    %t = stencil.gather %u[0, 1] : memref<?x?xf64>
    %a = arith.addf %w, %e : f64
    %b = arith.addf %s, %t : f64
    %d = arith.addf %a, %b : f64
    %r = arith.subf %d, %c : f64
    stencil.store %r to %v : memref<?x?xf64>
  }
  return
}

// -----

// Two arrays, read two rows and one row away: their exchanges start
// together and are waited for together, after the interior of the nest,
// which reads two rows below and above its own. The next nest writes an
// exchanged array: it runs after the waits, whole.
// CHECK: remark: overlap plan: {"function":"two","groups":[{"exchanges":[{"dim":0,"hi":2,"lo":2},{"dim":0,"hi":1,"lo":1}],"nests":[{"above":2,"below":2}],"stop":"a nest that writes an exchanged array"}]}
// CHECK-LABEL: func.func @two(
// CHECK-COUNT-4: call @stencil_dist_isendrecv(
// CHECK: affine.parallel (%{{.*}}) = (max(symbol(%{{.*}}), symbol(%{{.*}}) + 2)) to (min(symbol(%{{.*}}), symbol(%{{.*}}) - 2))
// CHECK: scf.execute_region {
// CHECK: scf.execute_region {
// CHECK: affine.parallel
// CHECK: affine.parallel
// CHECK: affine.parallel (%{{.*}}) = (symbol(%{{.*}})) to (symbol(%{{.*}}))
// CHECK: return
func.func @two(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %v: memref<?x?xf64>,
               %n: index) {
  %c2 = arith.constant 2 : index
  %m = arith.subi %n, %c2 : index
  stencil.domain (%i, %j) = (2, 0) to (%m, %n) {
    %x = stencil.gather %a[-2, 0] : memref<?x?xf64>
    %y = stencil.gather %a[2, 0] : memref<?x?xf64>
    %z = stencil.gather %b[1, 0] : memref<?x?xf64>
    %w = stencil.gather %b[-1, 0] : memref<?x?xf64>
    %s = arith.addf %x, %y : f64
    %t = arith.addf %z, %w : f64
    %r = arith.mulf %s, %t : f64
    stencil.store %r to %v : memref<?x?xf64>
  }
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %x = stencil.gather %v[0, 0] : memref<?x?xf64>
    stencil.store %x to %a : memref<?x?xf64>
  }
  return
}
