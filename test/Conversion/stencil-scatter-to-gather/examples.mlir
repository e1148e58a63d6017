// Core and boundary bounds of the gather adjoints of the paper's wave and
// Burgers examples.
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint "--stencil-scatter-to-gather=fuse-reset=0 split-slabs=0 one-outer-loop=0" --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=WAVE
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint "--stencil-scatter-to-gather=fuse-reset=0 one-outer-loop=0" --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=SPLIT
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint --stencil-scatter-to-gather=fuse-reset=0 --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=ONE
// RUN: stencil-opt %stencil_src/examples/burgers1d.mlir --stencil-adjoint --stencil-scatter-to-gather=boundary=exact --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=BURGERS

// Wave, domain [1, n-1)^3, offsets {-1, 0, 1} per dimension: written points
// H = [0, n)^3, core C = [2, n-2)^3. Compact peeling: a lower i-slab over H
// in j and k; the parallel i-core, inside which each plane has a lower
// j-slab, the j-core rows (each with a lower k-slab, the vectorizable core
// row and an upper k-slab) and an upper j-slab; then the upper i-slab.
// WAVE-LABEL: func.func @wave3d_adjoint
// WAVE-SAME: %[[N:arg5]]: index
// WAVE: affine.parallel (%{{.*}}) = (0) to (min(2, symbol(%[[N]]))) {
// WAVE-NEXT: affine.for %{{.*}} = 0 to %[[N]] {
// WAVE-NEXT: affine.for %{{.*}} = 0 to %[[N]] {
// WAVE: affine.parallel (%[[I:.*]]) = (2) to (symbol(%[[N]]) - 2) {
// WAVE-NEXT: affine.for %{{.*}} = 0 to min affine_map<()[s0] -> (2, s0)>()[%[[N]]] {
// WAVE-NEXT: affine.for %{{.*}} = 0 to %[[N]] {
// WAVE: affine.for %[[J:.*]] = 2 to affine_map<()[s0] -> (s0 - 2)>()[%[[N]]] {
// WAVE-NEXT: affine.for %{{.*}} = 0 to min affine_map<()[s0] -> (2, s0)>()[%[[N]]] {
// The core row: no guard, u_1_b and u_2_b each updated once per point.
// WAVE: affine.for %[[K:.*]] = 2 to affine_map<()[s0] -> (s0 - 2)>()[%[[N]]] {
// WAVE-NOT: affine.if
// WAVE-COUNT-2: affine.store %{{.*}}[%[[I]], %[[J]], %[[K]]]
// WAVE-NEXT: }
// WAVE-NEXT: affine.for %{{.*}} = max affine_map<()[s0] -> (s0 - 2, 2)>()[%[[N]]] to %[[N]] {
// WAVE: affine.for %{{.*}} = max affine_map<()[s0] -> (s0 - 2, 2)>()[%[[N]]] to %[[N]] {
// WAVE-NEXT: affine.for %{{.*}} = 0 to %[[N]] {
// WAVE: affine.parallel (%{{.*}}) = (max(symbol(%[[N]]) - 2, 2)) to (symbol(%[[N]])) {
// WAVE: stencil.domain
// WAVE: stencil.store

// split-slabs (the default): a slab of two or more dimensions guards only
// its outer coordinate; each statement then runs over the rest clipped to
// where it is valid. In the lower i-slab (i < 2), the statement at offset
// (0, 0, -1) writes u_1_b[i][j][k] for i, j in [1, n-1) and k in [2, n), the
// one at offset (0, 0, 1) for k in [0, n-2): no guard inside.
// SPLIT-LABEL: func.func @wave3d_adjoint
// SPLIT-SAME: %[[N:arg5]]: index
// SPLIT: affine.parallel (%[[I:.*]]) = (0) to (min(2, symbol(%[[N]]))) {
// SPLIT-NEXT: affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 - 1 >= 0)>(%[[I]])[%[[N]]] {
// SPLIT-NEXT: affine.for %[[J:.*]] = 1 to affine_map<()[s0] -> (s0 - 1)>()[%[[N]]] {
// SPLIT-NEXT: affine.for %[[K:.*]] = 1 to affine_map<()[s0] -> (s0 - 1)>()[%[[N]]] {
// SPLIT-NOT: affine.if
// SPLIT: affine.store %{{.*}}[%[[I]], %[[J]], %[[K]]]
// SPLIT: affine.for %{{.*}} = 2 to %[[N]] {
// SPLIT-NOT: affine.if
// SPLIT: affine.store
// SPLIT: affine.for %{{.*}} = 0 to affine_map<()[s0] -> (s0 - 2)>()[%[[N]]] {
// SPLIT-NOT: affine.if
// SPLIT: affine.store
// SPLIT: affine.parallel (%{{.*}}) = (2) to (symbol(%[[N]]) - 2) {

// one-outer-loop (the default without a fused reset): the lower i-slab, the
// i-core and the upper i-slab are one parallel loop over [0, n), each
// iteration guarded by the range of the part its plane lies in: the lower
// slab's [0, min(2, n)), the core's [2, n-2), the upper slab's
// [max(n-2, 2), n). No other parallel loop.
// ONE-LABEL: func.func @wave3d_adjoint
// ONE-SAME: %[[N:arg5]]: index
// ONE: affine.parallel (%[[I:.*]]) = (0) to (symbol(%[[N]])) {
// ONE-NEXT: affine.if affine_set<(d0)[s0] : (d0 >= 0, -d0 + 1 >= 0, -d0 + s0 - 1 >= 0)>(%[[I]])[%[[N]]] {
// The lower slab's statements, each guarded in i as in SPLIT.
// ONE-NEXT: affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 - 1 >= 0)>(%[[I]])[%[[N]]] {
// ONE-NEXT: affine.for %[[J:.*]] = 1 to affine_map<()[s0] -> (s0 - 1)>()[%[[N]]] {
// ONE-NEXT: affine.for %[[K:.*]] = 1 to affine_map<()[s0] -> (s0 - 1)>()[%[[N]]] {
// ONE: affine.store %{{.*}}[%[[I]], %[[J]], %[[K]]]
// ONE: affine.if affine_set<(d0)[s0] : (d0 - 2 >= 0, -d0 + s0 - 2 - 1 >= 0)>(%[[I]])[%[[N]]] {
// ONE-NEXT: affine.for %{{.*}} = 0 to min affine_map<()[s0] -> (2, s0)>()[%[[N]]] {
// ONE-NOT: affine.parallel
// ONE: affine.for %[[CJ:.*]] = 2 to affine_map<()[s0] -> (s0 - 2)>()[%[[N]]] {
// ONE-NOT: affine.parallel
// ONE: affine.for %[[CK:.*]] = 2 to affine_map<()[s0] -> (s0 - 2)>()[%[[N]]] {
// ONE-NOT: affine.if
// ONE-COUNT-2: affine.store %{{.*}}[%[[I]], %[[CJ]], %[[CK]]]
// ONE-NOT: affine.parallel
// ONE: affine.if affine_set<(d0)[s0] : (d0 - (s0 - 2) >= 0, d0 - 2 >= 0, -d0 + s0 - 1 >= 0)>(%[[I]])[%[[N]]] {
// ONE-NOT: affine.parallel
// ONE: return

// Burgers, domain [1, n-1), offsets {-1, 0, 1}: guarded by n - 2 >= 2, the
// exact split writes u_1_b[0], u_1_b[1], the core [2, n-2), u_1_b[n-2] and
// u_1_b[n-1].
// BURGERS-LABEL: func.func @burgers1d_adjoint
// BURGERS-SAME: %[[N:arg4]]: index, %{{.*}}: memref<?xf64>, %[[U1B:.*]]: memref<?xf64>)
// BURGERS: affine.if affine_set<()[s0] : (s0 - 4 >= 0)>()[%[[N]]] {
// BURGERS: affine.store %{{.*}}, %[[U1B]][0]
// BURGERS: affine.store %{{.*}}, %[[U1B]][1]
// BURGERS: affine.parallel (%[[I:.*]]) = (2) to (symbol(%[[N]]) - 2) {
// BURGERS: affine.store %{{.*}}, %[[U1B]][%[[I]]]
// BURGERS: affine.store %{{.*}}, %[[U1B]][symbol(%[[N]]) - 2]
// BURGERS: affine.store %{{.*}}, %[[U1B]][symbol(%[[N]]) - 1]
// BURGERS: } else {
