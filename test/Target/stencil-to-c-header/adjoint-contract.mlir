// RUN: stencil-opt %s --stencil-adjoint --stencil-prepare-abi | stencil-translate --stencil-to-c-header | FileCheck %s

// An adjoint's prototype says how to call it: with its primal's arguments
// as they were before the primal ran (a call of the primal overwrites what
// it writes; a time loop advances its states). The primal's does not.

// CHECK: /// @heat(
// CHECK-NOT: Adjoint of
// CHECK: void _mlir_ciface_heat(
// CHECK: /// @heat_adjoint(
// CHECK-NEXT: /// Adjoint of @heat: pass @heat's arguments as they were before @heat ran (the adjoint recomputes what it needs from them).
// CHECK-NEXT: /// A call of @heat overwrites the arrays it writes (a time loop advances its
// CHECK-NEXT: /// states): keep copies from before it. This call may overwrite them too.
// CHECK-NEXT: void _mlir_ciface_heat_adjoint(
func.func @heat(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
                %n: index) {
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  stencil.domain (%i) = (1) to (%m) {
    %l = stencil.gather %u[-1] : memref<?xf64>
    %r = stencil.gather %u[1] : memref<?xf64>
    %s = arith.mulf %l, %r : f64
    stencil.store %s to %v : memref<?xf64>
  }
  return
}
