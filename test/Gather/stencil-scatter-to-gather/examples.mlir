// Core and boundary bounds of the gather adjoints of the paper's wave and
// Burgers examples.
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint "--stencil-scatter-to-gather=fuse-reset=0 split-slabs=0 one-outer-loop=0 peel-innermost=0" --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=CHECK-WAVE
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint "--stencil-scatter-to-gather=fuse-reset=0 one-outer-loop=0 peel-outer=0" --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=CHECK-SPLIT
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint "--stencil-scatter-to-gather=fuse-reset=0 peel-outer=0" --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=CHECK-ONE
// RUN: stencil-opt %stencil_src/examples/burgers1d.mlir --stencil-adjoint --stencil-scatter-to-gather=boundary=exact --canonicalize --cse --mlir-print-local-scope | FileCheck %s --check-prefix=CHECK-BURGERS

// Wave, domain [1, n-1)^3, offsets {-1, 0, 1} per dimension: written points
// H = [0, n)^3, core C = [2, n-2)^3. Compact peeling: a lower i-slab over H
// in j and k; the parallel i-core, inside which each plane has a lower
// j-slab, the j-core rows (each with a lower k-slab, the vectorizable core
// row and an upper k-slab) and an upper j-slab; then the upper i-slab.
// CHECK-WAVE-LABEL: func.func @wave3d_adjoint
// CHECK-WAVE-SAME: %[[N:arg5]]: index
// CHECK-WAVE: affine.parallel (%{{.*}}) = (0) to (min(2, symbol(%[[N]]))) {
// CHECK-WAVE-NEXT: affine.for %{{.*}} = 0 to %[[N]] {
// CHECK-WAVE-NEXT: affine.for %{{.*}} = 0 to %[[N]] {
// CHECK-WAVE: affine.parallel (%[[I:.*]]) = (2) to (symbol(%[[N]]) - 2) {
// CHECK-WAVE-NEXT: affine.for %{{.*}} = 0 to min affine_map<()[s0] -> (2, s0)>()[%[[N]]] {
// CHECK-WAVE-NEXT: affine.for %{{.*}} = 0 to %[[N]] {
// CHECK-WAVE: affine.for %[[J:.*]] = 2 to affine_map<()[s0] -> (s0 - 2)>()[%[[N]]] {
// CHECK-WAVE-NEXT: affine.for %{{.*}} = 0 to min affine_map<()[s0] -> (2, s0)>()[%[[N]]] {
// The core row: no guard, u_1_b and u_2_b each updated once per point.
// CHECK-WAVE: affine.for %[[K:.*]] = 2 to affine_map<()[s0] -> (s0 - 2)>()[%[[N]]] {
// CHECK-WAVE-NOT: affine.if
// CHECK-WAVE-COUNT-2: affine.store %{{.*}}[%[[I]], %[[J]], %[[K]]]
// CHECK-WAVE-NEXT: }
// CHECK-WAVE-NEXT: affine.for %{{.*}} = max affine_map<()[s0] -> (s0 - 2, 2)>()[%[[N]]] to %[[N]] {
// CHECK-WAVE: affine.for %{{.*}} = max affine_map<()[s0] -> (s0 - 2, 2)>()[%[[N]]] to %[[N]] {
// CHECK-WAVE-NEXT: affine.for %{{.*}} = 0 to %[[N]] {
// CHECK-WAVE: affine.parallel (%{{.*}}) = (max(symbol(%[[N]]) - 2, 2)) to (symbol(%[[N]])) {
// CHECK-WAVE: stencil.domain
// CHECK-WAVE: stencil.store

// split-slabs (the default): a slab of two or more dimensions guards only
// its outer coordinate; each statement then runs over the rest clipped to
// where it is valid. In the lower i-slab (i < 2), the statement at offset
// (0, 0, -1) writes u_1_b[i][j][k] for i, j in [1, n-1) and k in [2, n), the
// one at offset (0, 0, 1) for k in [0, n-2): no guard inside.
// CHECK-SPLIT-LABEL: func.func @wave3d_adjoint
// CHECK-SPLIT-SAME: %[[N:arg5]]: index
// CHECK-SPLIT: affine.parallel (%[[I:.*]]) = (0) to (min(2, symbol(%[[N]]))) {
// CHECK-SPLIT-NEXT: affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 - 1 >= 0)>(%[[I]])[%[[N]]] {
// CHECK-SPLIT-NEXT: affine.for %[[J:.*]] = 1 to affine_map<()[s0] -> (s0 - 1)>()[%[[N]]] {
// CHECK-SPLIT-NEXT: affine.for %[[K:.*]] = 1 to affine_map<()[s0] -> (s0 - 1)>()[%[[N]]] {
// CHECK-SPLIT-NOT: affine.if
// CHECK-SPLIT: affine.store %{{.*}}[%[[I]], %[[J]], %[[K]]]
// CHECK-SPLIT: affine.for %{{.*}} = 2 to %[[N]] {
// CHECK-SPLIT-NOT: affine.if
// CHECK-SPLIT: affine.store
// CHECK-SPLIT: affine.for %{{.*}} = 0 to affine_map<()[s0] -> (s0 - 2)>()[%[[N]]] {
// CHECK-SPLIT-NOT: affine.if
// CHECK-SPLIT: affine.store
// CHECK-SPLIT: affine.parallel (%{{.*}}) = (2) to (symbol(%[[N]]) - 2) {

// one-outer-loop (the default without a fused reset): the lower i-slab, the
// i-core and the upper i-slab are one parallel loop over [0, n), each
// iteration guarded by the range of the part its plane lies in: the lower
// slab's [0, min(2, n)), the core's [2, n-2), the upper slab's
// [max(n-2, 2), n). No other parallel loop.
// CHECK-ONE-LABEL: func.func @wave3d_adjoint
// CHECK-ONE-SAME: %[[N:arg5]]: index
// CHECK-ONE: affine.parallel (%[[I:.*]]) = (0) to (symbol(%[[N]])) {
// Each plane first tests the innermost extent for its points (peel-innermost).
// CHECK-ONE-NEXT: affine.if affine_set<()[s0] : (s0 - 4 >= 0)>()[%[[N]]] {
// CHECK-ONE-NEXT: affine.if affine_set<(d0)[s0] : (d0 >= 0, -d0 + 1 >= 0, -d0 + s0 - 1 >= 0)>(%[[I]])[%[[N]]] {
// The lower slab's statements, each guarded in i as in SPLIT.
// CHECK-ONE-NEXT: affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 - 1 >= 0)>(%[[I]])[%[[N]]] {
// CHECK-ONE-NEXT: affine.for %[[J:.*]] = 1 to affine_map<()[s0] -> (s0 - 1)>()[%[[N]]] {
// CHECK-ONE-NEXT: affine.for %[[K:.*]] = 1 to affine_map<()[s0] -> (s0 - 1)>()[%[[N]]] {
// CHECK-ONE: affine.store %{{.*}}[%[[I]], %[[J]], %[[K]]]
// CHECK-ONE: affine.if affine_set<(d0)[s0] : (d0 - 2 >= 0, -d0 + s0 - 2 - 1 >= 0)>(%[[I]])[%[[N]]] {
// CHECK-ONE-NEXT: affine.for %{{.*}} = 0 to min affine_map<()[s0] -> (2, s0)>()[%[[N]]] {
// CHECK-ONE-NOT: affine.parallel
// CHECK-ONE: affine.for %[[CJ:.*]] = 2 to affine_map<()[s0] -> (s0 - 2)>()[%[[N]]] {
// CHECK-ONE-NOT: affine.parallel
// CHECK-ONE: affine.for %[[CK:.*]] = 2 to affine_map<()[s0] -> (s0 - 2)>()[%[[N]]] {
// CHECK-ONE-NOT: affine.if
// CHECK-ONE-COUNT-2: affine.store %{{.*}}[%[[I]], %[[CJ]], %[[CK]]]
// CHECK-ONE-NOT: affine.parallel
// CHECK-ONE: affine.if affine_set<(d0)[s0] : (d0 - (s0 - 2) >= 0, d0 - 2 >= 0, -d0 + s0 - 1 >= 0)>(%[[I]])[%[[N]]] {
// CHECK-ONE-NOT: affine.parallel
// CHECK-ONE: return

// Burgers, domain [1, n-1), offsets {-1, 0, 1}: guarded by n - 2 >= 2, the
// exact split writes u_1_b[0], u_1_b[1], the core [2, n-2), u_1_b[n-2] and
// u_1_b[n-1].
// CHECK-BURGERS-LABEL: func.func @burgers1d_adjoint
// CHECK-BURGERS-SAME: %[[N:arg4]]: index, %{{.*}}: memref<?xf64>, %[[U1B:.*]]: memref<?xf64>)
// CHECK-BURGERS: affine.if affine_set<()[s0] : (s0 - 4 >= 0)>()[%[[N]]] {
// CHECK-BURGERS: affine.store %{{.*}}, %[[U1B]][0]
// CHECK-BURGERS: affine.store %{{.*}}, %[[U1B]][1]
// CHECK-BURGERS: affine.parallel (%[[I:.*]]) = (2) to (symbol(%[[N]]) - 2) {
// CHECK-BURGERS: affine.store %{{.*}}, %[[U1B]][%[[I]]]
// CHECK-BURGERS: affine.store %{{.*}}, %[[U1B]][symbol(%[[N]]) - 2]
// CHECK-BURGERS: affine.store %{{.*}}, %[[U1B]][symbol(%[[N]]) - 1]
// CHECK-BURGERS: } else {
