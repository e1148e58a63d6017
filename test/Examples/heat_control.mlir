// RUN: stencil-opt %stencil_src/examples/heat_control.mlir --stencil-adjoint | FileCheck %s

// examples/heat_control.mlir differentiates: its two domains after the
// time loop (the misfit of the final state and the roughness of k) become
// the tail, whose adjoint is "step T" of the schedule (the steps' adjoints
// read the state: dJ/dk needs the Laplacian of u).

// CHECK-LABEL: func.func @heat_control_adjoint(
// CHECK: call @stencil_ckpt_start(
// CHECK: func.call @heat_control_tail_adjoint(
// CHECK: func.call @heat_control_step_adjoint(
// CHECK-LABEL: func.func private @heat_control_tail(
// CHECK-SAME: -> (f64, f64)
// CHECK-COUNT-2: stencil.domain
// CHECK-LABEL: func.func private @heat_control_tail_adjoint(
// CHECK: stencil.accumulate
