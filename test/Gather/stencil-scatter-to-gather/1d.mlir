// RUN: stencil-opt %s --stencil-scatter-to-gather=boundary=exact --canonicalize --cse | FileCheck %s --check-prefix=EXACT
// RUN: stencil-opt %s --stencil-scatter-to-gather --canonicalize --cse | FileCheck %s --check-prefix=COMPACT

// The scatter adjoint of the paper's 1D example (section 3.1), written by
// hand: r[i] = c[i] * (2 u[i-1] - 3 u[i] + 4 u[i+1]) for i in [1, n).
func.func @paper1d_scatter(%c: memref<?xf64>, %rb: memref<?xf64>,
                           %ub: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %two = arith.constant 2.0 : f64
    %mthree = arith.constant -3.0 : f64
    %four = arith.constant 4.0 : f64
    %cc = stencil.gather %c[0] : memref<?xf64>
    %r = stencil.gather %rb[0] : memref<?xf64>
    %t = arith.mulf %cc, %r : f64
    %a = arith.mulf %t, %two : f64
    %b = arith.mulf %t, %mthree : f64
    %d = arith.mulf %t, %four : f64
    stencil.accumulate %a to %ub[-1] : memref<?xf64>
    stencil.accumulate %b to %ub[0] : memref<?xf64>
    stencil.accumulate %d to %ub[1] : memref<?xf64>
  }
  return
}

// The exact split reproduces the paper's listing: four single-point
// statements and the core loop j in [2, n-2] (here [2, n-1) exclusive).
// The split is only ordered when the domain [1, n) has at least
// max o - min o = 2 points, so it is guarded by n - 1 >= 2; smaller domains
// take the compact nests in the else branch.
// EXACT-DAG: #[[$SIZE:.*]] = affine_set<()[s0] : (s0 - 3 >= 0)>
// EXACT-LABEL: func.func @paper1d_scatter
// EXACT-SAME: (%[[C:.*]]: memref<?xf64>, %[[RB:.*]]: memref<?xf64>, %[[UB:.*]]: memref<?xf64>, %[[N:.*]]: index)
// EXACT: affine.if #[[$SIZE]]()[%[[N]]] {
// ub[0] += 2 c[1] rb[1]
// EXACT: affine.load %[[C]][1]
// EXACT: affine.store %{{.*}}, %[[UB]][0]
// ub[1] += 2 c[2] rb[2] - 3 c[1] rb[1]
// EXACT: affine.load %[[C]][2]
// EXACT: affine.load %[[C]][1]
// EXACT: affine.store %{{.*}}, %[[UB]][1]
// The core: three contributions, one load and one store of ub[j].
// EXACT: affine.parallel (%[[J:.*]]) = (2) to (symbol(%[[N]]) - 1) {
// EXACT: affine.load %[[C]][%[[J]] + 1]
// EXACT: affine.load %[[C]][%[[J]]]
// EXACT: affine.load %[[C]][%[[J]] - 1]
// EXACT: %[[S1:.*]] = arith.addf
// EXACT: %[[S2:.*]] = arith.addf %[[S1]]
// EXACT: %[[OLD:.*]] = affine.load %[[UB]][%[[J]]]
// EXACT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[S2]]
// EXACT: affine.store %[[NEW]], %[[UB]][%[[J]]]
// EXACT-NOT: affine.store
// EXACT: }
// ub[n-1] += -3 c[n-1] rb[n-1] + 4 c[n-2] rb[n-2]; ub[n] += 4 c[n-1] rb[n-1]
// EXACT: affine.store %{{.*}}, %[[UB]][symbol(%[[N]]) - 1]
// EXACT: affine.store %{{.*}}, %[[UB]][symbol(%[[N]])]
// EXACT: } else {
// EXACT-COUNT-3: affine.parallel
// EXACT: return

// Compact: a guarded lower slab, the core and a guarded upper slab.
// COMPACT-LABEL: func.func @paper1d_scatter
// COMPACT-SAME: (%{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf64>, %[[UB:.*]]: memref<?xf64>, %[[N:.*]]: index)
// COMPACT-NOT: affine.if #{{.*}}()
// COMPACT: affine.parallel (%[[I:.*]]) = (0) to (min(2, symbol(%[[N]]) + 1)) {
// COMPACT-COUNT-3: affine.if
// COMPACT: affine.parallel (%[[J:.*]]) = (2) to (symbol(%[[N]]) - 1) {
// COMPACT-NOT: affine.if
// COMPACT: affine.store %{{.*}}, %[[UB]][%[[J]]]
// COMPACT: affine.parallel (%{{.*}}) = (max(symbol(%[[N]]) - 1, 2)) to (symbol(%[[N]]) + 1) {
// COMPACT-COUNT-3: affine.if
// COMPACT-NOT: affine.parallel
// COMPACT: return
