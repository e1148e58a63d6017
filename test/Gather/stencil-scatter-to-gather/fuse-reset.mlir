// The reset of an output adjoint fused into the gather sweep (fuse-reset).
// RUN: stencil-opt %s "--stencil-scatter-to-gather=report-nests reset-block=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: stencil-opt %s "--stencil-scatter-to-gather=reset-block=4" --canonicalize --cse --mlir-print-local-scope | FileCheck %s
// RUN: stencil-opt %s "--stencil-scatter-to-gather=reset-block=4 reset-rows=0" --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=PLANES
// RUN: stencil-opt %s "--stencil-scatter-to-gather=report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO-PLAN
// RUN: stencil-opt %s --stencil-scatter-to-gather --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=AUTO
// RUN: stencil-opt %s "--stencil-scatter-to-gather=fuse-reset=0" --canonicalize --cse | FileCheck %s --check-prefix=OFF
// RUN: stencil-opt %s "--stencil-scatter-to-gather=boundary=exact" --canonicalize --cse | FileCheck %s --check-prefix=OFF

// The paper's 1D adjoint: rb is read at the centre, then reset over [1, n).
// Offsets of dimension 0: {-1, 0, 1}, so the lag is 2; the core is
// [2, n - 1). Blocks of reset-block=4 iterations (at least 4 x lag = 8, so
// 8): the first 2 iterations of a block only gather, the others also reset
// rb[q - 1]; afterwards the last 2 points of the domain and the points
// behind each block's first 2 iterations are reset.
// Fixed blocks keep the slabs of dimension 0 in loops of their own.
// PLAN: remark: gather plan: {{.*}}"outer_in_one_loop":false,"outer_points":[],"rank":1,"reset":{"balanced":false,"block":8,"max_offset":1,"min_offset":-1,"row_offset":null}
// CHECK-LABEL: func.func @paper1d
// CHECK-SAME: %[[RB:arg1]]: memref<?xf64>, %[[UB:arg2]]: memref<?xf64>, %[[N:arg3]]: index
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: affine.parallel (%[[B:.*]]) = (0) to ((symbol(%[[N]]) - 3) ceildiv 8) {
// CHECK-NEXT: affine.for %[[Q:.*]] = affine_map<(d0) -> (d0 * 8 + 2)>(%[[B]]) to min affine_map<(d0)[s0] -> (d0 * 8 + 4, s0 - 1)>(%[[B]])[%[[N]]] {
// CHECK-NOT: affine.store %[[ZERO]]
// CHECK: affine.store %{{.*}}, %[[UB]][%[[Q]]]
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[Q2:.*]] = affine_map<(d0) -> (d0 * 8 + 4)>(%[[B]]) to min affine_map<(d0)[s0] -> (d0 * 8 + 10, s0 - 1)>(%[[B]])[%[[N]]] {
// CHECK: affine.store %{{.*}}, %[[UB]][%[[Q2]]]
// CHECK-NEXT: affine.store %[[ZERO]], %[[RB]][%[[Q2]] - 1]
// CHECK-NEXT: }
// The upper slab, then the second sweep.
// CHECK: affine.parallel (%{{.*}}) = (max(symbol(%[[N]]) - 1, 2)) to (symbol(%[[N]]) + 1)
// CHECK: affine.parallel (%[[P:.*]]) = (max(symbol(%[[N]]) - 2, 1)) to (symbol(%[[N]])) {
// CHECK-NEXT: affine.store %[[ZERO]], %[[RB]][%[[P]]]
// CHECK: affine.parallel (%[[B2:.*]]) = (0) to ((symbol(%[[N]]) - 3) ceildiv 8) {
// CHECK-NEXT: affine.for %[[P2:.*]] = affine_map<(d0) -> (d0 * 8 + 1)>(%[[B2]]) to min affine_map<(d0)[s0] -> (d0 * 8 + 3, s0 - 2)>(%[[B2]])[%[[N]]] {
// CHECK-NEXT: affine.store %[[ZERO]], %[[RB]][%[[P2]]]
// CHECK-NOT: stencil.domain
// By default (reset-block=0) the blocks are balanced at run time: one per
// thread, max(8192, ceil(core / omp_get_max_threads())) iterations each
// (8192 being the least for 1-D), computed before the nests; the block
// loops use that size and count as symbols.
// AUTO-PLAN: remark: gather plan: {{.*}}"outer_in_one_loop":true,"outer_points":[],"rank":1,"reset":{"balanced":true,"block":8192,"max_offset":1,"min_offset":-1,"row_offset":null}
// AUTO-LABEL: func.func @paper1d
// AUTO-SAME: %[[N:arg3]]: index
// AUTO: %[[T32:.*]] = call @omp_get_max_threads() : () -> i32
// AUTO-NEXT: %[[T:.*]] = arith.index_cast %[[T32]] : i32 to index
// AUTO-NEXT: %[[CORE:.*]] = affine.apply affine_map<()[s0] -> (s0 - 3)>()[%[[N]]]
// AUTO-NEXT: %[[SHARE:.*]] = arith.ceildivsi %[[CORE]], %[[T]] : index
// AUTO-NEXT: %[[SIZE:.*]] = arith.maxsi %[[SHARE]], %{{.*}} : index
// AUTO-NEXT: %[[BLOCKS:.*]] = arith.ceildivsi %[[CORE]], %[[SIZE]] : index
// At least one block, which runs the slabs when the core is empty.
// AUTO-NEXT: %[[COUNT:.*]] = arith.maxsi %[[BLOCKS]], %{{.*}} : index
// With one-outer-loop (the default) the slabs of dimension 0 are no loops
// of their own: block 0 starts with the lower slab [0, min(2, n + 1)), the
// last block ends with the upper slab [max(n - 1, 2), n + 1).
// AUTO: affine.parallel (%[[B:.*]]) = (0) to (symbol(%[[COUNT]])) {
// AUTO-NEXT: affine.if affine_set<(d0) : (d0 == 0)>(%[[B]]) {
// AUTO-NEXT: affine.for %{{.*}} = 0 to min affine_map<()[s0] -> (2, s0 + 1)>()[%[[N]]] {
// AUTO: affine.for %{{.*}} = affine_map<(d0)[s0] -> (d0 * s0 + 2)>(%[[B]])[%[[SIZE]]] to min affine_map<(d0)[s0, s1] -> (d0 * s1 + 4, s0 - 1)>(%[[B]])[%[[N]], %[[SIZE]]] {
// AUTO: affine.for %{{.*}} = affine_map<(d0)[s0] -> (d0 * s0 + 4)>(%[[B]])[%[[SIZE]]] to min affine_map<(d0)[s0, s1] -> (d0 * s1 + s1 + 2, s0 - 1)>(%[[B]])[%[[N]], %[[SIZE]]] {
// AUTO: affine.if affine_set<(d0)[s0] : (d0 - s0 + 1 >= 0)>(%[[B]])[%[[COUNT]]] {
// AUTO-NEXT: affine.for %{{.*}} = max affine_map<()[s0] -> (s0 - 1, 2)>()[%[[N]]] to affine_map<()[s0] -> (s0 + 1)>()[%[[N]]] {
// The second sweep, one parallel loop: each block resets the planes behind
// its first iterations, and the last block the domain's last two planes.
// AUTO-NOT: affine.parallel
// AUTO: affine.parallel (%[[B2:.*]]) = (0) to (symbol(%[[COUNT]])) {
// AUTO-NEXT: affine.for %{{.*}} = affine_map<(d0)[s0] -> (d0 * s0 + 1)>(%[[B2]])[%[[SIZE]]] to min affine_map<(d0)[s0, s1] -> (d0 * s1 + 3, s0 - 2)>(%[[B2]])[%[[N]], %[[SIZE]]] {
// AUTO: affine.if affine_set<(d0)[s0] : (d0 - s0 + 1 >= 0)>(%[[B2]])[%[[COUNT]]] {
// AUTO-NEXT: affine.for %[[P:.*]] = max affine_map<()[s0] -> (s0 - 2, 1)>()[%[[N]]] to %[[N]] {
// AUTO-NEXT: affine.store %{{.*}}, %{{.*}}[%[[P]]]
// AUTO: func.func private @omp_get_max_threads() -> i32
// OFF-LABEL: func.func @paper1d
// OFF: stencil.domain
// OFF-NEXT: stencil.store
func.func @paper1d(%c: memref<?xf64>, %rb: memref<?xf64>,
                   %ub: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %cc = stencil.gather %c[0] : memref<?xf64>
    %r = stencil.gather %rb[0] : memref<?xf64>
    %t = arith.mulf %cc, %r : f64
    stencil.accumulate %t to %ub[-1] : memref<?xf64>
    stencil.accumulate %t to %ub[0] : memref<?xf64>
    stencil.accumulate %t to %ub[1] : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %zero = arith.constant 0.0 : f64
    stencil.store %zero to %rb : memref<?xf64>
  }
  return
}

// 2-D: a reset plane is a row over the domain's second dimension. The
// core of dimension 0 starts at 1 + 2, the lag is 4: resets start at the
// block's fifth iteration. Fixed blocks: not outer_in_one_loop.
// PLAN: remark: gather plan: {{.*}}"outer_in_one_loop":false,"outer_points":[{"dim":0,{{.*}}"span":4}],"rank":2,"reset":{"balanced":false,"block":16,"max_offset":2,"min_offset":-2,"row_offset":1}
// PLANES-LABEL: func.func @rows
// PLANES-SAME: %[[RB:arg0]]: memref<?x?xf64>
// PLANES: affine.for %[[Q:.*]] = affine_map<(d0) -> (d0 * 16 + 7)>
// PLANES: affine.for %[[J:.*]] = 1 to affine_map<()[s0] -> (s0 - 1)>()
// PLANES-NEXT: affine.store %{{.*}}, %[[RB]][%[[Q]] - 2, %[[J]]]
// With row resets (the default), point (p, r) of rb is last read by
// iteration (p + 2, r + 1) (the write at offset (2, 1)): the core row
// j = 2 .. n-2 resets rb[q - 2, j - 1] right after its update, and the
// rows no core row covers, [1, 1) and [n - 2, n - 1), follow the plane.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: %[[RB:arg0]]: memref<?x?xf64>, %[[UB:arg1]]: memref<?x?xf64>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: affine.for %[[Q:.*]] = affine_map<(d0) -> (d0 * 16 + 7)>
// CHECK: affine.for %[[J:.*]] = 2 to affine_map<()[s0] -> (s0 - 1)>()
// CHECK: affine.store %{{.*}}, %[[UB]][%[[Q]], %[[J]]]
// CHECK-NEXT: affine.store %[[ZERO]], %[[RB]][%[[Q]] - 2, %[[J]] - 1]
// CHECK-NEXT: }
// CHECK: affine.for %[[R1:.*]] = 1 to min affine_map<()[s0] -> (1, s0 - 1)>
// CHECK-NEXT: affine.store %[[ZERO]], %[[RB]][%[[Q]] - 2, %[[R1]]]
// CHECK: affine.for %[[R2:.*]] = max affine_map<()[s0] -> (1, s0 - 2)>()[%{{.*}}] to affine_map<()[s0] -> (s0 - 1)>
// CHECK-NEXT: affine.store %[[ZERO]], %[[RB]][%[[Q]] - 2, %[[R2]]]
func.func @rows(%rb: memref<?x?xf64>, %ub: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %r = stencil.gather %rb[0, 0] : memref<?x?xf64>
    stencil.accumulate %r to %ub[-2, 0] : memref<?x?xf64>
    stencil.accumulate %r to %ub[2, 1] : memref<?x?xf64>
  }
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %zero = arith.constant 0.0 : f64
    stencil.store %zero to %rb : memref<?x?xf64>
  }
  return
}

// Not fused: the scatter domain reads rb off the centre, so the reset
// cannot follow the gather iterations.
// CHECK-LABEL: func.func @off_centre
// CHECK: stencil.domain
// CHECK-NEXT: stencil.store
func.func @off_centre(%rb: memref<?xf64>, %ub: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %r = stencil.gather %rb[1] : memref<?xf64>
    stencil.accumulate %r to %ub[-1] : memref<?xf64>
    stencil.accumulate %r to %ub[1] : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %zero = arith.constant 0.0 : f64
    stencil.store %zero to %rb : memref<?xf64>
  }
  return
}

// Not fused: the reset runs over other bounds.
// CHECK-LABEL: func.func @other_bounds
// CHECK: stencil.domain
// CHECK-NEXT: stencil.store
func.func @other_bounds(%rb: memref<?xf64>, %ub: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %r = stencil.gather %rb[0] : memref<?xf64>
    stencil.accumulate %r to %ub[-1] : memref<?xf64>
    stencil.accumulate %r to %ub[1] : memref<?xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %zero = arith.constant 0.0 : f64
    stencil.store %zero to %rb : memref<?xf64>
  }
  return
}

// Not fused: the scatter domain also writes the array it would reset.
// CHECK-LABEL: func.func @written
// CHECK: stencil.domain
// CHECK-NEXT: stencil.store
func.func @written(%c: memref<?xf64>, %rb: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %r = stencil.gather %c[0] : memref<?xf64>
    stencil.accumulate %r to %rb[1] : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %zero = arith.constant 0.0 : f64
    stencil.store %zero to %rb : memref<?xf64>
  }
  return
}
