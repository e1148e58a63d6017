// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s

// A time loop whose state is written in place (no iter_args, so no rotated
// array and no shadow to rotate) followed by a nonlinear objective of the
// final state (the tail, docs/TimeLoops.md, section 1.1): the steps'
// adjoints and the tail's read the state, so the schedule reverses T + 1
// steps, "step T" being the tail, on the caller's arrays. The branch that
// picks the tail yields no values, and each of its blocks ends in exactly
// one terminator (it used to get two: invalid IR).
// (Found by the random generator test/Integration/gen/timeloopgen.py.)

// CHECK-LABEL: func.func @f_adjoint(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?xf64>, %[[TMP:[a-z0-9]+]]: memref<?xf64>, %[[N:[a-z0-9]+]]: index, %{{[a-z0-9]+}}: index,
// CHECK-SAME: %[[DU:[a-z0-9]+]]: memref<?xf64>, %[[DTMP:[a-z0-9]+]]: memref<?xf64>, %[[SEED:[a-z0-9]+]]: f64, %{{[a-z0-9]+}}: index)
// CHECK: %[[COUNT:.*]] = arith.maxsi
// CHECK-NEXT: %[[T:.*]] = arith.select %{{.*}}, %[[COUNT]], %{{.*}} : index
// CHECK: %[[T1:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK: %[[T1I:.*]] = arith.index_cast %[[T1]] : index to i64
// CHECK: call @stencil_ckpt_start(%[[T1I]],
// CHECK: case 2 {
// CHECK: func.call @f_step(%[[U]], %[[TMP]], %[[N]],
// CHECK: case 3 {
// CHECK: %[[STEP:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[ISTAIL:.*]] = arith.cmpi eq, %[[STEP]], %[[T]] : index
// CHECK-NEXT: scf.if %[[ISTAIL]] {
// CHECK-NEXT: func.call @f_tail_adjoint(%[[U]], %[[N]], %[[DU]], %[[SEED]])
// CHECK-NEXT: } else {
// CHECK: func.call @f_step_adjoint(%{{.*}}, %{{.*}}, %[[N]], %{{.*}}, %[[DU]], %[[DTMP]])
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK: func.func private @f_tail(%{{.*}}: memref<?xf64> {stencil.active}, %{{.*}}: index) -> f64
// CHECK: func.func private @f_tail_adjoint(
// CHECK: stencil.accumulate
func.func @f(%u: memref<?xf64> {stencil.active}, %t: memref<?xf64> {stencil.active}, %n: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %it = %c0 to %steps step %c1 {
    stencil.domain (%i) = (1) to (%n - 1) {
      %a = stencil.gather %u[-1] : memref<?xf64>
      %b = stencil.gather %u[1] : memref<?xf64>
      %s = arith.mulf %a, %b : f64
      stencil.store %s to %t : memref<?xf64>
    }
    stencil.domain (%i) = (1) to (%n - 1) {
      %a = stencil.gather %t[0] : memref<?xf64>
      stencil.store %a to %u : memref<?xf64>
    }
  }
  %J = stencil.domain (%i) = (0) to (%n) -> (f64) {
    %a = stencil.gather %u[0] : memref<?xf64>
    %s = arith.mulf %a, %a : f64
    stencil.yield %s : f64
  }
  return %J : f64
}
