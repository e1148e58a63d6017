// RUN: stencil-opt %s --stencil-prepare-abi | FileCheck %s

// Public functions with a body get the C interface wrapper, and those with
// arrays the promise that the arrays do not overlap, whatever else they take.
// Differentiation markers are dropped.
// CHECK-LABEL: func.func @kernel
// CHECK-NOT: stencil.active
// CHECK-SAME: attributes {llvm.emit_c_interface, stencil.noalias}
func.func @kernel(%u: memref<?x?xf64> {stencil.active}, %r: memref<?xf32>, %a: f64 {stencil.active}, %n: index) {
  return
}
// CHECK-LABEL: func.func @vector_argument
// CHECK-SAME: attributes {llvm.emit_c_interface, stencil.noalias}
func.func @vector_argument(%v: vector<4xf64>, %r: memref<?xf64>) {
  return
}

// Private functions and declarations are left alone.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: attributes
// CHECK-LABEL: func.func private @decl
// CHECK-NOT: attributes
func.func private @helper(%u: memref<?xf64>) {
  return
}
func.func private @decl(%u: memref<?xf64>)

// Without arrays there is nothing to promise.
// CHECK-LABEL: func.func @scalars
// CHECK-SAME: attributes {llvm.emit_c_interface} {
func.func @scalars(%a: f64) -> f64 {
  return %a : f64
}
