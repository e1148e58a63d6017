// RUN: stencil-opt %s --stencil-prepare-abi | FileCheck %s

// Public functions with a body get the C interface wrapper, and the
// positions their array data pointers will have once memrefs are expanded
// (allocated and aligned pointer, offset, sizes, strides): a rank-2 memref
// takes 7 arguments, so the second array starts at 7.
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: attributes {llvm.emit_c_interface, stencil.noalias_args = array<i32: 0, 1, 7, 8>}
func.func @kernel(%u: memref<?x?xf64>, %r: memref<?xf32>, %a: f64, %n: index) {
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

// Without arrays there is nothing to record.
// CHECK-LABEL: func.func @scalars
// CHECK-SAME: attributes {llvm.emit_c_interface} {
func.func @scalars(%a: f64) -> f64 {
  return %a : f64
}
