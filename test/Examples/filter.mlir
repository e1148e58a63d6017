// RUN: stencil-opt %stencil_src/examples/filter/filter.mlir --stencil-adjoint | FileCheck %s
// RUN: stencil-opt %stencil_src/examples/python/layered_velocity.mlir --stencil-adjoint | FileCheck %s --check-prefix=LAYERED

// The parameter examples differentiate: each tap of the filter (a fixed
// element of w) gives an accumulate into w's 3x3 shadow at that element,
// a reduction over the image; the layered velocity v[k] of the time loop's
// step gives one into v's shadow along k.

// CHECK-LABEL: func.func @filter3x3_adjoint(
// CHECK-SAME: %[[WB:[^:]*]]: memref<3x3xf64>) attributes
// CHECK: stencil.domain
// CHECK-COUNT-9: stencil.accumulate %{{.*}} to %[[WB]][{{[0-2]}}, {{[0-2]}}] dims [_, _] : memref<3x3xf64>
// CHECK: stencil.domain

// LAYERED-LABEL: func.func private @layered_wave_step_adjoint(
// LAYERED-SAME: %[[VB:arg10]]: memref<?xf64>,
// LAYERED: stencil.accumulate %{{.*}} to %[[VB]][0] dims [2] : memref<?xf64>
