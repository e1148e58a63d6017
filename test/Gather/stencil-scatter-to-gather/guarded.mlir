// RUN: stencil-opt %s "--stencil-scatter-to-gather=boundary=guarded report-nests" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAN
// RUN: stencil-opt %s "--stencil-scatter-to-gather=boundary=guarded" --canonicalize \
// RUN:   | FileCheck %s

// boundary=guarded (the GPU form): one nest over the written points
// [lo - 1, hi + 1) in which each statement is guarded by where it is valid;
// the valid contributions are summed in program order starting from the
// first valid one, and the array is updated once, only where one was valid.
// Points where every statement is valid take the unguarded core body first.
// Derived by hand: statement 0 (r[i-1] += x) is valid at q in [lo-1, hi-1),
// i.e. it reads x[q+1]; statement 1 at q in [lo+1, hi+1), reading x[q-1];
// both at q in [lo+1, hi-1), the core.

// PLAN: remark: gather form: 1 core, 0 boundary and 0 fallback nests
// PLAN: remark: gather plan: {"boundary":"guarded","boundary_nests":0,"core":1,"fallback":[],"fallback_nests":0,"innermost_points":[],"innermost_span":0,"nests":[
// PLAN-SAME: {"depth":0,"first_guarded":0,"kind":"core","ranges":[{"max_of":[{"bound":"lower","offset":-1}],"min_of":[{"bound":"upper","offset":1}]}],"split":false,"statements":[0,1]}
// PLAN-SAME: ],"outer_in_one_loop":false,"outer_points":[],"rank":1,"reset":null,"size_conditions":[],"split_slabs":false}

// CHECK-DAG: #[[$C:.+]] = affine_set<(d0)[s0, s1] : (d0 - (s0 + 1) >= 0, -d0 + s1 - 1 - 1 >= 0)>
// CHECK-DAG: #[[$TC:.+]] = affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 >= 0)>
// CHECK-DAG: #[[$S0:.+]] = affine_set<(d0)[s0, s1] : (d0 - (s0 - 1) >= 0, -d0 + s1 - 1 - 1 >= 0)>
// CHECK-DAG: #[[$S1:.+]] = affine_set<(d0)[s0, s1] : (d0 - (s0 + 1) >= 0, -d0 + s1 + 1 - 1 >= 0)>
// CHECK-DAG: #[[$T0:.+]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
// CHECK-DAG: #[[$T1:.+]] = affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 + 1 - 1 >= 0)>
// CHECK-LABEL: func.func @two_taps(
// CHECK-SAME: %[[R:[a-z0-9]+]]: memref<?xf64>, %[[X:[a-z0-9]+]]: memref<?xf64>, %[[LO:[a-z0-9]+]]: index, %[[HI:[a-z0-9]+]]: index)
// CHECK: affine.parallel (%[[Q:.+]]) = (symbol(%[[LO]]) - 1) to (symbol(%[[HI]]) + 1) {
// CHECK:   affine.if #[[$C]](%[[Q]])[%[[LO]], %[[HI]]] {
// CHECK:     %[[C0:.+]] = affine.load %[[X]][%[[Q]] + 1]
// CHECK:     %[[C1:.+]] = affine.load %[[X]][%[[Q]] - 1]
// CHECK:     %[[CS:.+]] = arith.addf %[[C0]], %[[C1]]
// CHECK:     %[[CO:.+]] = affine.load %[[R]][%[[Q]]]
// CHECK:     %[[CN:.+]] = arith.addf %[[CO]], %[[CS]]
// CHECK:     affine.store %[[CN]], %[[R]][%[[Q]]]
// CHECK:   } else {
// CHECK:   %[[A:.+]]:2 = affine.if #[[$S0]](%[[Q]])[%[[LO]], %[[HI]]] -> (f64, i1) {
// CHECK:     %[[V0:.+]] = affine.load %[[X]][%[[Q]] + 1]
// CHECK:     affine.yield %[[V0]], %true
// CHECK:   } else {
// CHECK:     affine.yield %cst, %false
// CHECK:   %[[B:.+]]:2 = affine.if #[[$S1]](%[[Q]])[%[[LO]], %[[HI]]] -> (f64, i1) {
// CHECK:     %[[V1:.+]] = affine.load %[[X]][%[[Q]] - 1]
// CHECK:     %[[SUM:.+]] = arith.addf %[[A]]#0, %[[V1]]
// CHECK:     %[[SEL:.+]] = arith.select %[[A]]#1, %[[SUM]], %[[V1]]
// CHECK:     affine.yield %[[SEL]], %true
// CHECK:   } else {
// CHECK:     affine.yield %[[A]]#0, %[[A]]#1
// CHECK:   scf.if %[[B]]#1 {
// CHECK:     %[[OLD:.+]] = affine.load %[[R]][%[[Q]]]
// CHECK:     %[[NEW:.+]] = arith.addf %[[OLD]], %[[B]]#0
// CHECK:     affine.store %[[NEW]], %[[R]][%[[Q]]]
func.func @two_taps(%r: memref<?xf64>, %x: memref<?xf64>, %lo: index, %hi: index) {
  stencil.domain (%i) = (%lo) to (%hi) {
    %v = stencil.gather %x[0] : memref<?xf64>
    stencil.accumulate %v to %r[-1] : memref<?xf64>
    stencil.accumulate %v to %r[1] : memref<?xf64>
  }
  return
}

// 3-D, offsets only in dimension 2: every dimension is one affine.parallel,
// and only dimension 2 is guarded (after canonicalization the sets take
// k alone; their CHECK-DAG lines are at the top, where the sets are
// printed): statement 0 is valid at k in [0, n), statement 1 in [1, n + 1),
// both (the core) in [1, n).
// CHECK-LABEL: func.func @inner_only(
// CHECK-SAME: %{{.+}}: memref<?x?x?xf64>, %{{.+}}: memref<?x?x?xf64>, %[[N:[a-z0-9]+]]: index)
// CHECK-NOT: affine.for
// CHECK: affine.parallel (%{{.+}}, %{{.+}}, %[[K:.+]]) = (0, 0, 0) to (symbol(%[[N]]), symbol(%[[N]]), symbol(%[[N]]) + 1) {
// CHECK: affine.if #[[$TC]](%[[K]])[%[[N]]]
// CHECK: } else {
// CHECK: affine.if #[[$T0]](%[[K]])[%[[N]]]
// CHECK: affine.if #[[$T1]](%[[K]])[%[[N]]]
// CHECK-NOT: affine.for
func.func @inner_only(%r: memref<?x?x?xf64>, %x: memref<?x?x?xf64>, %n: index) {
  stencil.domain (%i, %j, %k) = (0, 0, 0) to (%n, %n, %n) {
    %v = stencil.gather %x[0, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %v to %r[0, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %v to %r[0, 0, 1] : memref<?x?x?xf64>
  }
  return
}
