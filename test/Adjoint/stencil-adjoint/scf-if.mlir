// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s
// RUN: stencil-opt %s --stencil-adjoint --stencil-scatter-to-gather \
// RUN:   | FileCheck %s --check-prefix=GATHER

// The rule of scf.if with results (lib/Adjoint/Rules/SCFRules.cpp): the
// adjoint is an scf.if on the recomputed condition whose arms recompute
// what their derivatives need, reverse their own ops and yield the
// cotangents of the active values they use from above; the accumulates
// stay outside the branch. Only the taken arm's derivative is evaluated,
// so sqrt' = 0.5 / sqrt(t) never runs where t <= 0.

// r[i] = t > 0 ? sqrt(t) : 0, t = u[i-1] - u[i+1].
// CHECK-LABEL: func.func @sqrt_clip_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK: stencil.domain
// CHECK: %[[A:.*]] = stencil.gather %[[U]][-1]
// CHECK: %[[B:.*]] = stencil.gather %[[U]][1]
// CHECK: %[[T:.*]] = arith.subf %[[A]], %[[B]] : f64
// CHECK: %[[C:.*]] = arith.cmpf ogt, %[[T]]
// CHECK: %[[RBV:.*]] = stencil.gather %[[RB]][0]
// CHECK: %[[TB:.*]] = scf.if %[[C]] -> (f64) {
// CHECK-NEXT: %[[S:.*]] = math.sqrt %[[T]] : f64
// CHECK-NEXT: %[[HALF:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-NEXT: %[[D:.*]] = arith.divf %[[HALF]], %[[S]] : f64
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[RBV]], %[[D]] : f64
// CHECK-NEXT: scf.yield %[[P]] : f64
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: scf.yield %[[Z]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: %[[NEG:.*]] = arith.negf %[[TB]] : f64
// CHECK-NEXT: stencil.accumulate %[[NEG]] to %[[UB]][1]
// CHECK-NEXT: stencil.accumulate %[[TB]] to %[[UB]][-1]
// CHECK-NEXT: }

// In gather form the branch is recomputed at each shift and every update
// of ub is one load and one store after it.
// GATHER-LABEL: func.func @sqrt_clip_adjoint(
// GATHER: affine.parallel
// GATHER: scf.if %{{.*}} -> (f64) {
// GATHER: math.sqrt
// GATHER-NOT: affine.store
// GATHER: } else {
// GATHER-NOT: affine.store
// GATHER: }
// GATHER: affine.store
func.func @sqrt_clip(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %t = arith.subf %a, %b : f64
    %zero = arith.constant 0.0 : f64
    %c = arith.cmpf ogt, %t, %zero : f64
    %x = scf.if %c -> (f64) {
      %s = math.sqrt %t : f64
      scf.yield %s : f64
    } else {
      scf.yield %zero : f64
    }
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// Two results, a nested scf.if, an active scalar used in an arm, and an
// arm that yields a value from above: the cotangents of t, w, k and b (in
// the order of their first use in the arms) come out of one branch.
// x = t > 0 ? log(t) * w : w * b, y = t > 0 ? (w != 0 ? k / t / w : 0) : w.
// CHECK-LABEL: func.func @two_results_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[C:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %[[K:[^:]*]]: f64, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[CB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>, %[[KB:[^:]*]]: memref<f64>)
// CHECK: %[[SUM:.*]] = stencil.domain {{.*}} -> (f64) {
// CHECK: %[[B:.*]] = stencil.gather %[[U]][1]
// CHECK: %[[W:.*]] = stencil.gather %[[C]][0]
// CHECK: %[[T:.*]] = arith.subf
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[T]]
// CHECK: %[[G:.*]] = stencil.gather %[[RB]][0]
// CHECK: %[[CT:.*]]:4 = scf.if %[[POS]] -> (f64, f64, f64, f64) {
// CHECK: %[[LOG:.*]] = math.log %[[T]] : f64
// CHECK: %[[DQ:.*]] = arith.divf %[[K]], %[[T]] : f64
// CHECK: %[[NE:.*]] = arith.cmpf one, %[[W]]
// CHECK: %[[IN:.*]]:2 = scf.if %[[NE]] -> (f64, f64) {
// CHECK: %[[DB:.*]] = arith.divf %[[G]], %[[W]] : f64
// CHECK: scf.yield %[[DB]], %{{.*}} : f64, f64
// CHECK: } else {
// CHECK: scf.yield
// CHECK: }
// CHECK: %[[KBV:.*]] = arith.divf %[[IN]]#0, %[[T]] : f64
// CHECK: %[[WLOG:.*]] = arith.mulf %[[G]], %[[LOG]] : f64
// CHECK: %[[WB:.*]] = arith.addf %[[IN]]#1, %[[WLOG]] : f64
// CHECK: scf.yield %{{.*}}, %[[WB]], %[[KBV]], %{{.*}} : f64, f64, f64, f64
// CHECK: } else {
// CHECK: %[[GB:.*]] = arith.mulf %[[G]], %[[B]] : f64
// CHECK: %[[WB2:.*]] = arith.addf %[[G]], %[[GB]] : f64
// CHECK: %[[BB:.*]] = arith.mulf %[[G]], %[[W]] : f64
// CHECK: %[[ZT:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[ZK:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: scf.yield %[[ZT]], %[[WB2]], %[[ZK]], %[[BB]] : f64, f64, f64, f64
// CHECK: }
// CHECK: %[[NT:.*]] = arith.negf %[[CT]]#0 : f64
// CHECK: %[[BT:.*]] = arith.addf %[[CT]]#3, %[[NT]] : f64
// CHECK: stencil.accumulate %[[CT]]#1 to %[[CB]][0]
// CHECK: stencil.accumulate %[[BT]] to %[[UB]][1]
// CHECK: stencil.accumulate %[[CT]]#0 to %[[UB]][-1]
// CHECK: stencil.yield %[[CT]]#2 : f64
// CHECK: memref.load %[[KB]][]
// CHECK: arith.addf %{{.*}}, %[[SUM]] : f64
func.func @two_results(%u: memref<?xf64> {stencil.active}, %c: memref<?xf64> {stencil.active},
                       %r: memref<?xf64> {stencil.active}, %k: f64 {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %w = stencil.gather %c[0] : memref<?xf64>
    %t = arith.subf %a, %b : f64
    %zero = arith.constant 0.0 : f64
    %pos = arith.cmpf ogt, %t, %zero : f64
    %x, %y = scf.if %pos -> (f64, f64) {
      %s = math.log %t : f64
      %q = arith.mulf %s, %w : f64
      %d = arith.divf %k, %t : f64
      %ne = arith.cmpf one, %w, %zero : f64
      %z = scf.if %ne -> (f64) {
        %inv = arith.divf %d, %w : f64
        scf.yield %inv : f64
      } else {
        scf.yield %zero : f64
      }
      scf.yield %q, %z : f64, f64
    } else {
      %m = arith.mulf %w, %b : f64
      scf.yield %m, %w : f64, f64
    }
    %sum = arith.addf %x, %y : f64
    stencil.store %sum to %r : memref<?xf64>
  }
  return
}

// A branch on passive values only carries no derivative: the adjoint
// recomputes it as a factor and has no branch of its own.
// CHECK-LABEL: func.func @passive_branch_adjoint(
// CHECK: %[[F:.*]] = scf.if
// CHECK: math.sqrt
// CHECK-NOT: scf.if
// CHECK: arith.mulf %{{.*}}, %[[F]] : f64
// CHECK-NOT: scf.if
// CHECK: return
func.func @passive_branch(%u: memref<?xf64> {stencil.active}, %c: memref<?xf64>,
                          %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %w = stencil.gather %c[0] : memref<?xf64>
    %zero = arith.constant 0.0 : f64
    %pos = arith.cmpf ogt, %w, %zero : f64
    %f = scf.if %pos -> (f64) {
      %s = math.sqrt %w : f64
      scf.yield %s : f64
    } else {
      scf.yield %zero : f64
    }
    %y = arith.mulf %x, %f : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// At the top level, a choice between scalars: its adjoint comes after the
// domains' (the reverse order), on the forward sweep's condition.
// CHECK-LABEL: func.func @top_level_adjoint(
// CHECK-SAME: %[[S:[^:]*]]: f64, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[SB:[^:]*]]: memref<f64>,
// CHECK: %[[COND:.*]] = arith.cmpf ogt, %[[S]]
// CHECK: %[[E:.*]] = scf.if %[[COND]] -> (f64) {
// CHECK: math.log %[[S]]
// CHECK: %[[SUM:.*]] = stencil.domain
// CHECK: arith.mulf %{{.*}}, %[[E]] : f64
// CHECK: %[[EB:.*]] = scf.if %[[COND]] -> (f64) {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[INV:.*]] = arith.divf %[[ONE]], %[[S]] : f64
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[SUM]], %[[INV]] : f64
// CHECK-NEXT: scf.yield %[[P]] : f64
// CHECK: memref.load %[[SB]][]
// CHECK: arith.addf %{{.*}}, %[[EB]] : f64
func.func @top_level(%s: f64 {stencil.active}, %u: memref<?xf64> {stencil.active},
                     %r: memref<?xf64> {stencil.active}, %n: index) {
  %zero = arith.constant 0.0 : f64
  %c = arith.cmpf ogt, %s, %zero : f64
  %e = scf.if %c -> f64 {
    %l = math.log %s : f64
    scf.yield %l : f64
  } else {
    scf.yield %zero : f64
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = arith.mulf %x, %e : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// A call in an arm (allowed in a body as elsewhere) with its partial: the
// adjoint's arm calls the partial only, and the recomputed primal branch,
// now unused, goes.
// CHECK-LABEL: func.func @call_in_arm_adjoint(
// CHECK-NOT: call @log_of
// CHECK: %[[G:.*]] = scf.if %{{.*}} -> (f64) {
// CHECK-NEXT: %[[D:.*]] = func.call @dlog_of(%{{.*}}) : (f64) -> f64
// CHECK-NEXT: %[[P:.*]] = arith.mulf %{{.*}}, %[[D]] : f64
// CHECK-NEXT: scf.yield %[[P]] : f64
// CHECK: stencil.accumulate %[[G]]
// CHECK-NOT: call @log_of
// CHECK: return
func.func private @log_of(%x: f64) -> f64 {
  %l = math.log %x : f64
  return %l : f64
}
func.func private @dlog_of(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = arith.divf %one, %x : f64
  return %d : f64
}
func.func @call_in_arm(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %zero = arith.constant 0.0 : f64
    %c = arith.cmpf ogt, %a, %zero : f64
    %x = scf.if %c -> (f64) {
      %s = func.call @log_of(%a) {stencil.partials = [@dlog_of]} : (f64) -> f64
      scf.yield %s : f64
    } else {
      scf.yield %zero : f64
    }
    stencil.store %x to %r : memref<?xf64>
  }
  return
}
