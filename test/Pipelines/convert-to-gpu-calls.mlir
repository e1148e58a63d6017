// RUN: stencil-opt %s --stencil-adjoint "--convert-to-gpu=format=isa" \
// RUN:   | FileCheck %s

// Calls inside domains run on the device (docs/GPU.md): kernel outlining
// copies @g and the partials the adjoint calls (@dg_da, @dg_db) into the
// kernels' module, and the device code computes them. The primal kernel
// computes g(a, b) = a * b + a; the adjoint's core kernel multiplies the
// adjoint by dg/da = b + 1 (the constant 1.0 is 0d3FF0000000000000 in PTX).
// --stencil-check-gpu refuses callees without a body, with memory effects
// or recursion (test/GPU/check.mlir).
// CHECK: gpu.binary @calls_kernel  [{{.*}}.entry calls_kernel(
// CHECK-SAME: mul.rn.f64
// CHECK-SAME: add.rn.f64
// CHECK: gpu.binary @calls_adjoint_kernel  [{{.*}}.entry calls_adjoint_kernel(
// CHECK-SAME: add.rn.f64 {{.*}}, 0d3FF0000000000000
// CHECK-NOT: call.uni
func.func private @g(%a: f64, %b: f64) -> f64 {
  %p = arith.mulf %a, %b : f64
  %s = arith.addf %p, %a : f64
  return %s : f64
}
func.func private @dg_da(%a: f64, %b: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %s = arith.addf %b, %one : f64
  return %s : f64
}
func.func private @dg_db(%a: f64, %b: f64) -> f64 {
  return %a : f64
}
func.func @calls(%u: memref<?x?xf64> {stencil.active},
                 %r: memref<?x?xf64> {stencil.active}, %n: index, %m: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n, %m) {
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %b = stencil.gather %u[0, -1] : memref<?x?xf64>
    %v = func.call @g(%a, %b) {stencil.partials = [@dg_da, @dg_db]}
        : (f64, f64) -> f64
    stencil.store %v to %r : memref<?x?xf64>
  }
  return
}
