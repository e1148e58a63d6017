// RUN: stencil-opt %s -split-input-file --stencil-adjoint | FileCheck %s

// Active scalars and returned reductions. The gradient of an active scalar
// used in a domain is a sum over the domain: the adjoint domain returns it as
// a domain result (a reduction in a fixed order), and the adjoint adds it to
// the scalar's rank-0 shadow. Results of the primal (reductions returned by
// func.return) get one seed argument each.

// D * u[i-1]: ub[i-1] += D rb[i]; Db += sum_i rb[i] u[i-1].

// CHECK-LABEL: func.func @coefficient_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[D:[^:]*]]: f64, %{{[^:]*}}: memref<?xf64>, %[[N:[^:]*]]: index, %[[UB:[^:]*]]: memref<?xf64>, %[[DB:[^:]*]]: memref<f64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK: %[[SUM:.*]] = stencil.domain (%{{.*}}) = (1) to (%[[N]]) -> (f64) {
// CHECK-DAG: %[[X:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[DX:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK-DAG: %[[DD:.*]] = arith.mulf %[[G]], %[[X]] : f64
// CHECK-DAG: stencil.accumulate %[[DX]] to %[[UB]][-1] : memref<?xf64>
// CHECK: stencil.yield %[[DD]] : f64
// CHECK: %[[OLD:.*]] = memref.load %[[DB]][] : memref<f64>
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[SUM]] : f64
// CHECK: memref.store %[[NEW]], %[[DB]][] : memref<f64>
// CHECK: return
func.func @coefficient(%u: memref<?xf64> {stencil.active}, %D: f64 {stencil.active},
                       %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %y = arith.mulf %x, %D : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// -----

// An f32 scalar gets a memref<f32> shadow; one used in two domains gets the
// sum of both domain results. A passive scalar gets nothing.

// CHECK-LABEL: func.func @two_domains_adjoint(
// CHECK-SAME: %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: f32, %{{[^:]*}}: f32, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf32>, %[[KB:[^:]*]]: memref<f32>, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xf32>)
// CHECK: %[[S2:.*]] = stencil.domain {{.*}} -> (f32) {
// CHECK: %[[S1:.*]] = stencil.domain {{.*}} -> (f32) {
// CHECK: %[[TOTAL:.*]] = arith.addf %[[S2]], %[[S1]] : f32
// CHECK: %[[OLD:.*]] = memref.load %[[KB]][] : memref<f32>
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[TOTAL]] : f32
// CHECK: memref.store %[[NEW]], %[[KB]][] : memref<f32>
func.func @two_domains(%u: memref<?xf32> {stencil.active}, %k: f32 {stencil.active},
                       %p: f32, %r: memref<?xf32> {stencil.active},
                       %s: memref<?xf32> {stencil.active}, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf32>
    %y = arith.mulf %x, %k : f32
    %z = arith.mulf %y, %p : f32
    stencil.store %z to %r : memref<?xf32>
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf32>
    %y = arith.addf %x, %k : f32
    stencil.store %y to %s : memref<?xf32>
  }
  return
}

// -----

// A scalar computed at the top level from an active scalar (k2 = k * k) is
// reversed at the top level: kb += 2 k k2b, with k2b summed by the domain.

// CHECK-LABEL: func.func @top_level_adjoint(
// CHECK-SAME: %{{[^:]*}}: memref<?xf64>, %[[K:[^:]*]]: f64, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf64>, %[[KB:[^:]*]]: memref<f64>, %{{[^:]*}}: memref<?xf64>)
// CHECK: %[[K2:.*]] = arith.mulf %[[K]], %[[K]] : f64
// CHECK: %[[K2B:.*]] = stencil.domain {{.*}} -> (f64) {
// CHECK: arith.mulf %{{.*}}, %[[K2]] : f64
// CHECK: stencil.yield
// CHECK-DAG: %[[P1:.*]] = arith.mulf %[[K2B]], %[[K]] : f64
// CHECK-DAG: %[[P2:.*]] = arith.mulf %[[K2B]], %[[K]] : f64
// CHECK: %[[KBAR:.*]] = arith.addf %[[P1]], %[[P2]] : f64
// CHECK: %[[OLD:.*]] = memref.load %[[KB]][] : memref<f64>
// CHECK: arith.addf %[[OLD]], %[[KBAR]] : f64
func.func @top_level(%u: memref<?xf64> {stencil.active}, %k: f64 {stencil.active},
                     %r: memref<?xf64> {stencil.active}, %n: index) {
  %k2 = arith.mulf %k, %k : f64
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = arith.mulf %x, %k2 : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// -----

// A returned reduction s = sum_i u[i]^2 gets a seed sb: ub[i] += 2 u[i] sb.
// A returned product with the active scalar (s * k) seeds both factors at
// the top level; the scalar returned directly adds its seed to kb.

// CHECK-LABEL: func.func @returned_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[K:[^:]*]]: f64, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[KB:[^:]*]]: memref<f64>, %[[SEED0:[^:]*]]: f64, %[[SEED1:[^:]*]]: f64, %[[SEED2:[^:]*]]: f64)
// The replayed reduction, needed by the top-level product.
// CHECK: %[[S:.*]] = stencil.domain {{.*}} -> (f64) {
// CHECK: stencil.yield
// Reverse of s * k: sb = seed0 + seed1 * k, kb = seed1 * s (+ seed2).
// CHECK-DAG: %[[SK:.*]] = arith.mulf %[[SEED1]], %[[K]] : f64
// CHECK-DAG: %[[KS:.*]] = arith.mulf %[[SEED1]], %[[S]] : f64
// CHECK-DAG: %[[SB:.*]] = arith.addf %[[SEED0]], %[[SK]] : f64
// CHECK-DAG: arith.addf %[[SEED2]], %[[KS]] : f64
// CHECK: stencil.domain
// CHECK-DAG: %[[X:.*]] = stencil.gather %[[U]][0] : memref<?xf64>
// CHECK-DAG: arith.mulf %[[SB]], %[[X]] : f64
// CHECK: stencil.accumulate %{{.*}} to %[[UB]][0] : memref<?xf64>
// CHECK: memref.load %[[KB]][] : memref<f64>
func.func @returned(%u: memref<?xf64> {stencil.active}, %k: f64 {stencil.active},
                    %n: index) -> (f64, f64, f64) {
  %s = stencil.domain (%i) = (0) to (%n) -> (f64) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x2 : f64
  }
  %sk = arith.mulf %s, %k : f64
  return %s, %sk, %k : f64, f64, f64
}

// -----

// An active scalar that does not influence anything: its shadow is left
// alone.

// CHECK-LABEL: func.func @unused_adjoint(
// CHECK-SAME: %[[KB:[^:]*]]: memref<f64>, %{{[^:]*}}: memref<?xf64>)
// CHECK-NOT: %[[KB]]
// CHECK: return
func.func @unused(%u: memref<?xf64> {stencil.active}, %k: f64 {stencil.active},
                  %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
  }
  return
}
