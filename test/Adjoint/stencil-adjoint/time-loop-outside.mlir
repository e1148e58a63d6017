// RUN: stencil-opt %s -split-input-file --stencil-adjoint | FileCheck %s

// Domains before and after a time loop (docs/TimeLoops.md, sections 1.1
// and 1.2) become private functions, differentiated like a step. The
// adjoint of those after it, which read its final state (the tail), runs
// before any step's; that of those before it (the head), after all.

// The steps' adjoints read the state: the schedule reverses T + 1 steps,
// "step T" being the tail, run on the working state as bound after the
// last step (the shadows rotated once more, or not at all when T = 0).
// CHECK-LABEL: func.func @decay_adjoint(
// CHECK-SAME: %[[SEED:[a-z0-9]+]]: f64, %{{[a-z0-9]+}}: index)
// CHECK: %[[JSEED:.*]] = arith.mulf %[[SEED]], %{{.*}} : f64
// CHECK: %[[COUNT:.*]] = arith.maxsi
// CHECK-NEXT: %[[T:.*]] = arith.select %{{.*}}, %[[COUNT]], %{{.*}} : index
// CHECK: %[[T1:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK: %[[T1I:.*]] = arith.index_cast %[[T1]] : index to i64
// CHECK: call @stencil_ckpt_start(%[[T1I]],
// CHECK: case 3 {
// CHECK: %[[STEP:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[ISTAIL:.*]] = arith.cmpi eq, %[[STEP]], %[[T]] : index
// CHECK: scf.if %[[ISTAIL]]
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[T]], %{{.*}} : index
// CHECK: %[[SH0:.*]] = arith.select %[[NONE]], %[[B0:.*]], %[[B1:.*]] : memref<?xf64>
// CHECK: func.call @decay_tail_adjoint(%{{.*}}, %{{.*}}, %{{.*}}, %[[SH0]], %[[JSEED]])
// CHECK-NEXT: scf.yield %[[B0]], %[[B1]]
// CHECK: } else {
// CHECK: func.call @decay_step_adjoint(
// CHECK: func.func private @decay_tail(%{{.*}}: memref<?xf64> {stencil.active}, %{{.*}}: memref<?xf64>, %{{.*}}: index) -> f64
// CHECK: stencil.domain
// CHECK: stencil.gather
// CHECK: func.func private @decay_tail_adjoint(
// CHECK: stencil.accumulate
func.func @decay(%a: memref<?xf64> {stencil.active},
                 %b: memref<?xf64> {stencil.active},
                 %d: memref<?xf64>, %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      %s = math.sin %v : f64
      stencil.store %s to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  %J = stencil.domain (%i) = (0) to (%n) -> f64 {
    %u = stencil.gather %r#0[0] : memref<?xf64>
    %o = stencil.gather %d[0] : memref<?xf64>
    %e = arith.subf %u, %o : f64
    %e2 = arith.mulf %e, %e : f64
    stencil.yield %e2 : f64
  }
  %two = arith.constant 2.0 : f64
  %J2 = arith.mulf %two, %J : f64
  return %J2 : f64
}

// -----

// The steps' adjoints read no state (linear, the coefficient passive), so
// no schedule advances the state; the tail reads it, so the T primal steps
// run first, then the tail's adjoint, before the schedule (T steps only).
// CHECK-LABEL: func.func @linear_final_adjoint(
// CHECK: %[[COUNT:.*]] = arith.maxsi
// CHECK-NEXT: %[[T:.*]] = arith.select %{{.*}}, %[[COUNT]], %{{.*}} : index
// CHECK: %[[TI:.*]] = arith.index_cast %[[T]] : index to i64
// CHECK: call @stencil_ckpt_start(%[[TI]],
// CHECK: %[[FINAL:.*]]:4 = scf.for %{{.*}} = %{{.*}} to %[[T]] step
// CHECK: func.call @linear_final_step(
// CHECK-NEXT: scf.yield
// CHECK: func.call @linear_final_tail_adjoint(%[[FINAL]]#0, %{{.*}}, %[[FINAL]]#2, %{{.*}})
// CHECK: scf.while
func.func @linear_final(%a: memref<?xf64> {stencil.active},
                        %b: memref<?xf64> {stencil.active},
                        %c: memref<?xf64>, %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      %k = stencil.gather %c[0] : memref<?xf64>
      %s = arith.mulf %v, %k : f64
      stencil.store %s to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  %J = stencil.domain (%i) = (0) to (%n) -> f64 {
    %u = stencil.gather %r#0[0] : memref<?xf64>
    %u2 = arith.mulf %u, %u : f64
    stencil.yield %u2 : f64
  }
  return %J : f64
}

// -----

// A tail linear in the state reads none of it: its adjoint runs first,
// on the arrays as bound after T steps, without any primal step.
// CHECK-LABEL: func.func @dot_final_adjoint(
// CHECK: %[[FINAL:.*]]:4 = scf.for
// CHECK-NOT: func.call @dot_final_step(
// CHECK: scf.yield
// CHECK: func.call @dot_final_tail_adjoint(%[[FINAL]]#1, %{{.*}}, %{{.*}}, %[[FINAL]]#3,
// CHECK: scf.while
func.func @dot_final(%a: memref<?xf64> {stencil.active},
                     %b: memref<?xf64> {stencil.active},
                     %g: memref<?xf64>, %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      %s = math.sin %v : f64
      stencil.store %s to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  %J = stencil.domain (%i) = (0) to (%n) -> f64 {
    %u = stencil.gather %r#1[0] : memref<?xf64>
    %w = stencil.gather %g[0] : memref<?xf64>
    %uw = arith.mulf %u, %w : f64
    stencil.yield %uw : f64
  }
  return %J : f64
}

// -----

// Domains before the loop (the head): a coefficient from a parameter,
// c = v * v, which the loop reads. The head runs before the schedule, on
// the caller's arrays; its adjoint after it, turning the gradient of c
// that the steps' adjoints summed into that of v.
// CHECK-LABEL: func.func @scaled_adjoint(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64>, %[[B:[a-z0-9]+]]: memref<?xf64>, %[[V:[a-z0-9]+]]: memref<?xf64>, %[[C:[a-z0-9]+]]: memref<?xf64>, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index, %[[AB:[a-z0-9]+]]: memref<?xf64>, %[[BB:[a-z0-9]+]]: memref<?xf64>, %[[VB:[a-z0-9]+]]: memref<?xf64>, %[[CB:[a-z0-9]+]]: memref<?xf64>
// CHECK: scf.if
// CHECK-NEXT: func.call @scaled_head(%[[V]], %[[C]], %{{.*}})
// CHECK: scf.while
// CHECK: call @stencil_ckpt_finish(
// CHECK-NEXT: func.call @scaled_head_adjoint(%[[V]], %[[C]], %{{.*}}, %[[VB]], %[[CB]])
// CHECK-LABEL: func.func private @scaled_head_adjoint(
// CHECK: stencil.accumulate
func.func @scaled(%a: memref<?xf64> {stencil.active},
                  %b: memref<?xf64> {stencil.active},
                  %v: memref<?xf64> {stencil.active},
                  %c: memref<?xf64> {stencil.active}, %n: index,
                  %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %v[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.store %x2 to %c : memref<?xf64>
  }
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %u = stencil.gather %x[0] : memref<?xf64>
      %k = stencil.gather %c[0] : memref<?xf64>
      %s = arith.mulf %u, %k : f64
      stencil.store %s to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

// A tail that reads nothing active (a constant term of the objective) has
// nothing to differentiate: no function is outlined for it.
// CHECK-LABEL: func.func @constant_term_adjoint(
// CHECK-NOT: constant_term_tail
// CHECK: call @stencil_ckpt_finish(
// CHECK-NOT: constant_term_tail
func.func @constant_term(%a: memref<?xf64> {stencil.active},
                         %b: memref<?xf64> {stencil.active},
                         %d: memref<?xf64>, %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %u = stencil.gather %x[0] : memref<?xf64>
      %s = math.sin %u : f64
      stencil.store %s to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  %J = stencil.domain (%i) = (0) to (%n) -> f64 {
    %u = stencil.gather %d[0] : memref<?xf64>
    %e2 = arith.mulf %u, %u : f64
    stencil.yield %e2 : f64
  }
  return %J : f64
}
