// The outer dimensions' slabs as straight-line points (peel-outer): where
// every peeled dimension's extent is at least the span of its offsets (one
// test per plane), each point of dimension k runs the dimensions inside it
// (their points and cores) over the statements valid at that point, fused
// like the core, where split-slabs ran one sweep over the slab per
// statement. Dimension 0's points run in its slab loops (the one loop of
// one-outer-loop, the first and last block of a fused reset, or loops of
// their own); at most 125 bodies per plane.
// RUN: stencil-opt %s "--stencil-scatter-to-gather=report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-PLAN
// RUN: stencil-opt %s --stencil-scatter-to-gather --canonicalize --cse --mlir-print-local-scope | FileCheck %s
// RUN: stencil-opt %s "--stencil-scatter-to-gather=peel-outer=0 report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-OFF
// RUN: stencil-opt %s "--stencil-scatter-to-gather=one-outer-loop=0 report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-APART

// 2-D 5-point star: statements 0..4 at offsets (0,-1), (0,1), (-1,0),
// (1,0), (0,0); span 2 in both dimensions. Plane lower - 1 runs statement
// 2 (offset -1 in dimension 0), plane lower statements 0, 1, 2, 4, plane
// upper - 1 statements 0, 1, 3, 4, plane upper statement 3.
// CHECK-PLAN: remark: gather plan: {{.*}}"outer_points":[{"dim":0,"points":[{"bound":"lower","offset":-1,"statements":[2]},{"bound":"lower","offset":0,"statements":[0,1,2,4]},{"bound":"upper","offset":-1,"statements":[0,1,3,4]},{"bound":"upper","offset":0,"statements":[3]}],"span":2}],"rank":2
// CHECK-OFF: remark: gather plan: {{.*}}"innermost_span":2,{{.*}}"outer_points":[],"rank":2
// Without the one loop, dimension 0's slabs are loops of their own, over
// the same points.
// CHECK-APART: remark: gather plan: {{.*}}"outer_points":[{"dim":0,{{.*}}"span":2}],"rank":2

// CHECK-LABEL: func.func @star2d
// CHECK-SAME: %[[UB:arg0]]: memref<?x?xf64>, %[[VB:arg1]]: memref<?x?xf64>, %[[N:arg2]]: index, %[[M:arg3]]: index
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (symbol(%[[N]]) + 1) {
// CHECK-NEXT: affine.if affine_set<()[s0, s1] : (s0 - 3 >= 0, s1 - 3 >= 0)>()[%[[N]], %[[M]]] {
// Plane i = 0: statement 2 alone, at j = 1, over the core of j and at
// j = m - 1, unguarded.
// CHECK-NEXT: affine.if affine_set<(d0) : (d0 >= 0, -d0 >= 0)>(%[[I]]) {
// CHECK-NEXT: affine.load %[[VB]][%[[I]] + 1, 1]
// CHECK-NEXT: affine.load %[[UB]][%[[I]], 1]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: affine.store %{{.*}}, %[[UB]][%[[I]], 1]
// CHECK-NEXT: affine.for %[[J0:.*]] = 2 to affine_map<()[s0] -> (s0 - 1)>()[%[[M]]] {
// CHECK-NEXT: affine.load %[[VB]][%[[I]] + 1, %[[J0]]]
// CHECK-NEXT: affine.load %[[UB]][%[[I]], %[[J0]]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: affine.store
// CHECK-NEXT: }
// CHECK-NEXT: affine.load %[[VB]][%[[I]] + 1, symbol(%[[M]]) - 1]
// CHECK-NEXT: affine.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: affine.store %{{.*}}, %[[UB]][%[[I]], symbol(%[[M]]) - 1]
// CHECK-NEXT: }
// Plane i = 1: four statements, none reading vb at i - 1; its row core sums
// them and updates once.
// CHECK-NEXT: affine.if affine_set<(d0) : (d0 - 1 >= 0, -d0 + 1 >= 0)>(%[[I]]) {
// CHECK-NOT: affine.if
// CHECK: affine.for %[[J1:.*]] = 2 to affine_map<()[s0] -> (s0 - 1)>()[%[[M]]] {
// CHECK-NEXT: affine.load %[[VB]][%[[I]], %[[J1]] + 1]
// CHECK-NEXT: affine.load %[[VB]][%[[I]], %[[J1]] - 1]
// CHECK-NEXT: affine.load %[[VB]][%[[I]] + 1, %[[J1]]]
// CHECK-NEXT: affine.load %[[VB]][%[[I]], %[[J1]]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: affine.load %[[UB]][%[[I]], %[[J1]]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: affine.store
// CHECK-NEXT: }
// CHECK-NOT: affine.if
// CHECK: affine.store %{{.*}}, %[[UB]][%[[I]], symbol(%[[M]])]
// CHECK-NEXT: }
// The core planes, then planes n - 1 and n.
// CHECK-NEXT: affine.if affine_set<(d0)[s0] : (d0 - 2 >= 0, -d0 + s0 - 1 - 1 >= 0)>(%[[I]])[%[[N]]] {
// CHECK: affine.if affine_set<(d0)[s0] : (d0 - (s0 - 1) >= 0, -d0 + s0 - 1 >= 0)>(%[[I]])[%[[N]]] {
// CHECK: affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0, -d0 + s0 + 1 - 1 >= 0)>(%[[I]])[%[[N]]] {
// CHECK-NOT: %[[I]] + 1
// CHECK: affine.store %{{.*}}, %[[UB]][%[[I]], symbol(%[[M]]) - 1]
// CHECK-NEXT: }
// Smaller extents: the slabs as nests, guarded per statement with the
// valid statements summed and one update per point, as the points do (not
// split per statement), so that the result does not depend on the branch.
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.if affine_set<(d0)[s0] : (d0 >= 0, -d0 + 1 >= 0, -d0 + s0 + 1 - 1 >= 0)>(%[[I]])[%[[N]]] {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to affine_map<()[s0] -> (s0 + 1)>()[%[[M]]] {
// CHECK-NEXT: %[[T0:.*]]:2 = affine.if {{.*}}(%[[I]], %[[J]])[%[[N]], %[[M]]] -> (f64, i1) {
// CHECK: %[[T1:.*]]:2 = affine.if {{.*}} -> (f64, i1) {
// CHECK: arith.addf %[[T0]]#0
// CHECK-NOT: affine.store
// CHECK: scf.if
// CHECK: affine.store
func.func @star2d(%ub: memref<?x?xf64>, %vb: memref<?x?xf64>, %n: index,
                  %m: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n, %m) {
    %b = stencil.gather %vb[0, 0] : memref<?x?xf64>
    stencil.accumulate %b to %ub[0, -1] : memref<?x?xf64>
    stencil.accumulate %b to %ub[0, 1] : memref<?x?xf64>
    stencil.accumulate %b to %ub[-1, 0] : memref<?x?xf64>
    stencil.accumulate %b to %ub[1, 0] : memref<?x?xf64>
    stencil.accumulate %b to %ub[0, 0] : memref<?x?xf64>
  }
  return
}

// 3-D 7-point star: dimensions 0 and 1 peeled (5 x 5 x 5 = 125 bodies);
// in dimension 1, row lower - 1 runs statement 2 (offset -1 there), row
// upper statement 3.
// CHECK-PLAN: remark: gather plan: {{.*}}"outer_points":[{"dim":0,{{.*}}"span":2},{"dim":1,"points":[{"bound":"lower","offset":-1,"statements":[2]},{"bound":"lower","offset":0,"statements":[0,1,2,4,5,6]},{"bound":"upper","offset":-1,"statements":[0,1,3,4,5,6]},{"bound":"upper","offset":0,"statements":[3]}],"span":2}],"rank":3
// CHECK-APART: remark: gather plan: {{.*}}"outer_points":[{"dim":0,{{.*}}"span":2},{"dim":1,{{.*}}"span":2}],"rank":3
func.func @star3d(%ub: memref<?x?x?xf64>, %vb: memref<?x?x?xf64>,
                  %n: index) {
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n, %n, %n) {
    %b = stencil.gather %vb[0, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, 0, -1] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, 0, 1] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, -1, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, 1, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[-1, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[1, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, 0, 0] : memref<?x?x?xf64>
  }
  return
}

// The same star with the reset of vb fused into the sweep: dimension 0's
// points run in the reset's first and last block.
// CHECK-PLAN: remark: gather plan: {{.*}}"outer_points":[{"dim":0,{{.*}}"span":2},{"dim":1,{{.*}}"span":2}],"rank":3,"reset":{"balanced":true
// CHECK-LABEL: func.func @star3d_reset
// CHECK-SAME: %[[N3:arg2]]: index
// The first block runs the lower slab's planes 0 and 1 as points (plane 0:
// statement 4 alone, over j and k as points and cores, unguarded).
// CHECK: affine.parallel (%[[B:.*]]) = (0) to
// CHECK-NEXT: affine.if affine_set<(d0) : (d0 == 0)>(%[[B]]) {
// CHECK-NEXT: affine.for %[[P:.*]] = 0 to min affine_map<()[s0] -> (2, s0 + 1)>()[%[[N3]]] {
// CHECK-NEXT: affine.if affine_set<()[s0] : (s0 - 3 >= 0, s0 - 3 >= 0, s0 - 3 >= 0)>()[%[[N3]]] {
// CHECK-NEXT: affine.if affine_set<(d0) : (d0 >= 0, -d0 >= 0)>(%[[P]]) {
// CHECK-NOT: affine.if
// CHECK: affine.for %{{.*}} = 2 to affine_map<()[s0] -> (s0 - 1)>()[%[[N3]]] {
// CHECK-NOT: affine.if
// CHECK: affine.if affine_set<(d0) : (d0 - 1 >= 0, -d0 + 1 >= 0)>(%[[P]]) {
func.func @star3d_reset(%ub: memref<?x?x?xf64>, %vb: memref<?x?x?xf64>,
                        %n: index) {
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n, %n, %n) {
    %b = stencil.gather %vb[0, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, 0, -1] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, 0, 1] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, -1, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, 1, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[-1, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[1, 0, 0] : memref<?x?x?xf64>
  }
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n, %n, %n) {
    %zero = arith.constant 0.0 : f64
    stencil.store %zero to %vb : memref<?x?x?xf64>
  }
  return
}

// Radius 2 (span 4, 9 bodies per dimension): the innermost dimension and
// dimension 1 (81 bodies); dimension 0 would make 729, above 125.
// CHECK-PLAN: remark: gather plan: {{.*}}"innermost_span":4,{{.*}}"outer_points":[{"dim":1,{{.*}}"span":4}],"rank":3
func.func @star3d_r2(%ub: memref<?x?x?xf64>, %vb: memref<?x?x?xf64>,
                     %n: index) {
  stencil.domain (%i, %j, %k) = (2, 2, 2) to (%n, %n, %n) {
    %b = stencil.gather %vb[0, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, 0, -2] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, 0, 2] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, -2, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[0, 2, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[-2, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %b to %ub[2, 0, 0] : memref<?x?x?xf64>
  }
  return
}
