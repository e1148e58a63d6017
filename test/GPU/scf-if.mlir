// RUN: stencil-opt %s --stencil-adjoint --stencil-check-gpu \
// RUN:   --stencil-scatter-to-gather=boundary=guarded --lower-affine --canonicalize \
// RUN:   --stencil-map-to-gpu | FileCheck %s

// The adjoint of an scf.if with results (docs/Adjoint.md) on the GPU route:
// --stencil-check-gpu accepts it, and in the guarded gather form each
// thread evaluates the branch of every shift that reaches its point, then
// stores the point once: no store in an arm, no atomics.

// CHECK-LABEL: func.func @sqrt_clip_adjoint(
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK-NOT: memref.store
// CHECK: scf.if %{{.*}} -> (f64) {
// CHECK-NEXT: math.sqrt
// CHECK-NOT: memref.store
// CHECK: scf.if %{{.*}} -> (f64) {
// CHECK-NEXT: math.sqrt
// CHECK-NOT: memref.store
// CHECK: } else {
// CHECK-NOT: memref.store
// CHECK: }
// CHECK: memref.store
// CHECK-NOT: memref.atomic_rmw
// CHECK: return
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
