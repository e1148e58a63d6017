// The innermost dimension's slabs as straight-line points (peel-innermost):
// where that dimension's extent is at least the span of the offsets, the
// lower and upper slabs are disjoint and the statements valid at each of
// their points follow from its offset to the bound, so each point runs
// like the core (one update per array) without guards; smaller extents
// keep the guarded slabs.
// RUN: stencil-opt %s "--stencil-scatter-to-gather=report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-PLAN
// RUN: stencil-opt %s "--stencil-scatter-to-gather=peel-outer=0" --canonicalize --cse --mlir-print-local-scope | FileCheck %s
// RUN: stencil-opt %s "--stencil-scatter-to-gather=peel-innermost=0 report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-OFF
// RUN: stencil-opt %s "--stencil-scatter-to-gather=boundary=exact report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-OFF

// Offsets in j: -1 (statement 0), +1 (1), 0 (2); span 2. Lower points
// j = 1 + c for c in {-1, 0} run the statements with offset <= c; upper
// points j = m + c those with offset > c.
// CHECK-PLAN: remark: gather plan: {{.*}}"innermost_points":[{"bound":"lower","offset":-1,"statements":[0]},{"bound":"lower","offset":0,"statements":[0,2]},{"bound":"upper","offset":-1,"statements":[1,2]},{"bound":"upper","offset":0,"statements":[1]}],"innermost_span":2
// CHECK-OFF: remark: gather plan: {{.*}}"innermost_points":[],"innermost_span":0

// CHECK-LABEL: func.func @lap2d
// CHECK-SAME: %[[UB:arg0]]: memref<?x?xf64>, %[[VB:arg1]]: memref<?x?xf64>, %[[N:arg2]]: index, %[[M:arg3]]: index
// In each plane i the extent test (around the whole plane), then in a
// core row i: j = 0 and j = 1 unguarded.
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (symbol(%[[N]])) {
// CHECK-NEXT: affine.if affine_set<()[s0] : (s0 - 3 >= 0)>()[%[[M]]] {
// CHECK: affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 - 1 >= 0)>(%[[I]])[%[[N]]] {
// CHECK-NEXT: %[[A:.*]] = affine.load %[[VB]][%[[I]], 1]
// CHECK-NEXT: %[[U0:.*]] = affine.load %[[UB]][%[[I]], 0]
// CHECK-NEXT: %[[S0:.*]] = arith.addf %[[U0]], %[[A]]
// CHECK-NEXT: affine.store %[[S0]], %[[UB]][%[[I]], 0]
// CHECK-NEXT: %[[B:.*]] = affine.load %[[VB]][%[[I]], 2]
// CHECK-NEXT: %[[C:.*]] = affine.load %[[VB]][%[[I]] + 1, 1]
// CHECK-NEXT: %[[BC:.*]] = arith.addf %[[B]], %[[C]]
// CHECK-NEXT: %[[U1:.*]] = affine.load %[[UB]][%[[I]], 1]
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[U1]], %[[BC]]
// CHECK-NEXT: affine.store %[[S1]], %[[UB]][%[[I]], 1]
// The core, then j = m - 1 and j = m.
// CHECK-NEXT: affine.for %{{.*}} = 2 to affine_map<()[s0] -> (s0 - 1)>()[%[[M]]] {
// CHECK: affine.store %{{.*}}, %[[UB]][%[[I]], symbol(%[[M]]) - 1]
// CHECK-NOT: affine.if
// CHECK: affine.store %{{.*}}, %[[UB]][%[[I]], symbol(%[[M]])]
// Otherwise the guarded slabs around the same core.
// CHECK: } else {
// CHECK: affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 - 1 >= 0)>(%[[I]])[%[[N]]] {
// CHECK-NEXT: affine.for %{{.*}} = 0 to min affine_map<()[s0] -> (2, s0 + 1)>()[%[[M]]] {
// CHECK-NEXT: affine.if
func.func @lap2d(%ub: memref<?x?xf64>, %vb: memref<?x?xf64>, %n: index,
                 %m: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n, %m) {
    %b = stencil.gather %vb[0, 0] : memref<?x?xf64>
    stencil.accumulate %b to %ub[0, -1] : memref<?x?xf64>
    stencil.accumulate %b to %ub[0, 1] : memref<?x?xf64>
    stencil.accumulate %b to %ub[-1, 0] : memref<?x?xf64>
  }
  return
}
