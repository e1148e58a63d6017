// RUN: stencil-opt %s -split-input-file --stencil-adjoint | FileCheck %s
// RUN: stencil-opt %s -split-input-file --stencil-adjoint=reset-output-adjoints=false | FileCheck %s --check-prefix=NORESET

// Domains: resets of assigned outputs, accumulated outputs, several domains
// reversed in reverse order with the forward replays the reverse sweep needs,
// temporaries (array arguments and memref.alloc).

// An assigned output: its shadow is consumed by the adjoint domain and then
// reset to zero on the domain (same bounds, same `dims`).

// CHECK-LABEL: func.func @store_adjoint(
// CHECK-SAME: %{{[^:]*}}: memref<?x?xf64>, %{{[^:]*}}: memref<?x?xf64>, %[[N:[^:]*]]: index, %[[M:[^:]*]]: index, %[[UB:[^:]*]]: memref<?x?xf64>, %[[RB:[^:]*]]: memref<?x?xf64>)
// CHECK: stencil.domain (%{{.*}}, %{{.*}}) = (1, 2) to (%[[N]] - 1, %[[M]]) {
// CHECK: %[[G:.*]] = stencil.gather %[[RB]][0, 0] dims [1, 0]
// CHECK: stencil.accumulate %{{.*}} to %[[UB]][-1, 0]
// CHECK: }
// CHECK-NEXT: stencil.domain (%{{.*}}, %{{.*}}) = (1, 2) to (%[[N]] - 1, %[[M]]) {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: stencil.store %[[ZERO]] to %[[RB]] dims [1, 0] : memref<?x?xf64>
// CHECK-NEXT: }
// CHECK-NEXT: return

// NORESET-LABEL: func.func @store_adjoint(
// NORESET: stencil.accumulate
// NORESET-NOT: stencil.store
// NORESET: return
func.func @store(%u: memref<?x?xf64> {stencil.active}, %r: memref<?x?xf64> {stencil.active},
                 %n: index, %m: index) {
  stencil.domain (%i, %j) = (1, 2) to (%n - 1, %m) {
    %x = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %y = math.sin %x : f64
    stencil.store %y to %r dims [1, 0] : memref<?x?xf64>
  }
  return
}

// -----

// An accumulated output: its shadow is only read, never reset.

// CHECK-LABEL: func.func @accumulate_adjoint(
// CHECK-SAME: %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK: %[[G:.*]] = stencil.gather %[[RB]][2] : memref<?xf64>
// CHECK: stencil.accumulate %{{.*}} to %[[UB]][0]
// CHECK-NOT: stencil.store
// CHECK: return

// NORESET-LABEL: func.func @accumulate_adjoint(
// NORESET-NOT: stencil.store
// NORESET: return
func.func @accumulate(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                      %n: index) {
  stencil.domain (%i) = (0) to (%n - 2) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = math.exp %x : f64
    stencil.accumulate %y to %r[2] : memref<?xf64>
  }
  return
}

// -----

// Two domains chained through a temporary array argument t (active, so it
// has a shadow). The forward sweep replays the first domain, because the
// second reads what it writes; the second is not replayed. The reverse sweep
// reverses the second domain (tb += ..., then rb is reset), then the first
// (ub += ... from tb, then tb is reset).

// CHECK-LABEL: func.func @chain_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[T:[^:]*]]: memref<?xf64>, %[[R:[^:]*]]: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[TB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// Replay of the first domain.
// CHECK: stencil.domain (%{{.*}}) = (1) to
// CHECK: stencil.store %{{.*}} to %[[T]] : memref<?xf64>
// CHECK-NOT: stencil.store %{{.*}} to %[[R]]
// Reverse of the second domain, and the reset of rb.
// CHECK: stencil.domain (%{{.*}}) = (2) to
// CHECK-DAG: stencil.gather %[[T]][-1]
// CHECK-DAG: stencil.gather %[[RB]][0]
// CHECK-DAG: stencil.accumulate %{{.*}} to %[[TB]][-1]
// CHECK-DAG: stencil.accumulate %{{.*}} to %[[TB]][0]
// CHECK: stencil.domain (%{{.*}}) = (2) to
// CHECK-NEXT: arith.constant 0.0
// CHECK-NEXT: stencil.store %{{.*}} to %[[RB]]
// Reverse of the first domain, and the reset of tb.
// CHECK: stencil.domain (%{{.*}}) = (1) to
// CHECK-DAG: stencil.gather %[[TB]][0]
// CHECK-DAG: stencil.accumulate %{{.*}} to %[[UB]][-1]
// CHECK: stencil.domain (%{{.*}}) = (1) to
// CHECK-NEXT: arith.constant 0.0
// CHECK-NEXT: stencil.store %{{.*}} to %[[TB]]
// CHECK-NEXT: }
// CHECK-NEXT: return

// Without resets the reverse sweep is the same, minus the two reset domains.
// NORESET-LABEL: func.func @chain_adjoint(
// NORESET-COUNT-3: stencil.domain
// NORESET-NOT: stencil.domain
// NORESET: return
func.func @chain(%u: memref<?xf64> {stencil.active}, %t: memref<?xf64> {stencil.active},
                 %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %y = math.sin %x : f64
    stencil.store %y to %t : memref<?xf64>
  }
  stencil.domain (%i) = (2) to (%n) {
    %a = stencil.gather %t[-1] : memref<?xf64>
    %b = stencil.gather %t[0] : memref<?xf64>
    %y = arith.mulf %a, %b : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// -----

// Domains that do not feed each other are not replayed: the adjoint
// recomputes what it needs inside each reversed domain.

// CHECK-LABEL: func.func @independent_adjoint(
// CHECK-SAME: %{{[^:]*}}: memref<?xf64>, %[[R:[^:]*]]: memref<?xf64>, %[[S:[^:]*]]: memref<?xf64>,
// CHECK-NOT: stencil.store %{{.*}} to %[[R]]
// CHECK-NOT: stencil.store %{{.*}} to %[[S]]
// CHECK: return
func.func @independent(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                       %s: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = math.sin %x : f64
    stencil.store %y to %r : memref<?xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = math.cos %x : f64
    stencil.store %y to %s : memref<?xf64>
  }
  return
}

// -----

// A memref.alloc temporary: the forward sweep allocates it again and replays
// the domain that fills it; its shadow is a second allocation, zeroed on the
// whole array before the reverse sweep; both are deallocated at the end (the
// primal's dealloc is deferred to the end of the adjoint).

// CHECK-LABEL: func.func @alloc_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %[[N:[^:]*]]: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK: %[[T:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: %[[TB:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: %[[DIM:.*]] = memref.dim %[[TB]], %{{.*}} : memref<?xf64>
// CHECK: stencil.domain (%{{.*}}) = (0) to (%[[DIM]]) {
// CHECK-NEXT: stencil.store %{{.*}} to %[[TB]] : memref<?xf64>
// CHECK: stencil.domain (%{{.*}}) = (1) to (%[[N]]) {
// CHECK: stencil.store %{{.*}} to %[[T]] : memref<?xf64>
// CHECK: stencil.domain (%{{.*}}) = (2) to (%[[N]]) {
// CHECK: stencil.accumulate %{{.*}} to %[[TB]][-1]
// CHECK: stencil.domain (%{{.*}}) = (1) to (%[[N]]) {
// CHECK: stencil.gather %[[TB]][0]
// CHECK: stencil.accumulate %{{.*}} to %[[UB]][-1]
// CHECK: memref.dealloc %[[T]] : memref<?xf64>
// CHECK-NEXT: memref.dealloc %[[TB]] : memref<?xf64>
// CHECK-NEXT: return
func.func @alloc(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                 %n: index) {
  %t = memref.alloc(%n) : memref<?xf64>
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %y = math.sin %x : f64
    stencil.store %y to %t : memref<?xf64>
  }
  stencil.domain (%i) = (2) to (%n) {
    %a = stencil.gather %t[-1] : memref<?xf64>
    %y = arith.mulf %a, %a : f64
    stencil.accumulate %y to %r[0] : memref<?xf64>
  }
  memref.dealloc %t : memref<?xf64>
  return
}

// -----

// A domain whose result a later domain uses is replayed, and the later
// domain's adjoint sums the gradient of that result, which seeds the
// reversal of the first domain.

// CHECK-LABEL: func.func @result_used_later_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK: %[[S:.*]] = stencil.domain {{.*}} -> (f64) {
// CHECK: %[[SB:.*]] = stencil.domain {{.*}} -> (f64) {
// CHECK: stencil.gather %[[RB]][0]
// CHECK: arith.divf %{{.*}}, %[[S]] : f64
// CHECK: stencil.yield
// CHECK: stencil.domain
// CHECK: stencil.store %{{.*}} to %[[RB]]
// The reversal of the reduction: every point gets the summed seed.
// CHECK: stencil.domain
// CHECK: %[[X:.*]] = stencil.gather %[[U]][0]
// CHECK: arith.mulf %[[SB]], %[[X]] : f64
// CHECK: stencil.accumulate %{{.*}} to %[[UB]][0]
func.func @result_used_later(%u: memref<?xf64> {stencil.active},
                             %r: memref<?xf64> {stencil.active}, %n: index) {
  %s = stencil.domain (%i) = (0) to (%n) -> (f64) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x2 : f64
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = arith.divf %x, %s : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// -----

// A domain through which no gradient flows (it stores a constant) has no
// adjoint domain, but the shadow of what it stores is still reset: r is
// overwritten, so no gradient flows back through it. (The adjoint domain
// used to be erased and then read: a use after free.)

// CHECK-LABEL: func.func @constant_store_adjoint(
// CHECK-SAME: %{{[^:]*}}: memref<?xf64>, %[[N:[^:]*]]: index, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK: stencil.domain (%{{.*}}) = (0) to (%[[N]]) {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: stencil.store %[[ZERO]] to %[[RB]]
// CHECK-NOT: stencil.domain
// CHECK: return
// NORESET-LABEL: func.func @constant_store_adjoint(
// NORESET-NOT: stencil.domain
// NORESET: return
func.func @constant_store(%r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %c = arith.constant 1.0 : f64
    stencil.store %c to %r : memref<?xf64>
  }
  return
}
