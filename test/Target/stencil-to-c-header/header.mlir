// RUN: stencil-translate %s --stencil-to-c-header | FileCheck %s
// RUN: stencil-translate %s --stencil-to-c-header > %t.h
// RUN: echo '#include "%t.h"' > %t.c
// RUN: %clang -fsyntax-only -std=c99 -Wall -Wextra -Werror -I%stencil_src/include -x c %t.c
// RUN: %clang -fsyntax-only -Wall -Wextra -Werror -I%stencil_src/include -x c++ %t.c

// The header of a module's C interface (lib/Target/CInterface.cpp): one
// prototype per public function with a body and llvm.emit_c_interface,
// parameters named after NameLoc locations (else arg<i>), descriptors by
// pointer, results as docs/ABI.md says.

// CHECK: /* Generated from {{.*}}header.mlir by the stencil compiler. Do not edit. */
// CHECK: #ifndef STENCIL_GENERATED_HEADER_MLIR_H
// CHECK: #include "Stencil/ABI/StencilABI.h"
// CHECK: extern "C" {

// CHECK: /// @named(%u: memref<?x?x?xf64>, %r: memref<?x?x?xf64>, %D: f64, %n: index)
// CHECK-NEXT: void _mlir_ciface_named(StencilMemRef3D_f64 *u, StencilMemRef3D_f64 *r, double D, int64_t n);
func.func @named(%u: memref<?x?x?xf64> loc("u"), %r: memref<?x?x?xf64> loc("r"),
                 %D: f64 loc("D"), %n: index loc("n")) attributes {llvm.emit_c_interface} {
  return
}

// Without names, arg<i>; names that are C keywords or repeated are changed.
// CHECK: void _mlir_ciface_unnamed(StencilMemRef0D_f32 *arg0, float int_, int32_t x, int8_t x_, bool arg4, int16_t arg5);
func.func @unnamed(%a: memref<f32>, %b: f32 loc("int"), %c: i32 loc("x"), %d: i8 loc("x"),
                   %e: i1, %f: i16) attributes {llvm.emit_c_interface} {
  return
}

// One scalar result is the return value.
// CHECK: float _mlir_ciface_scalar_result(float arg0);
func.func @scalar_result(%a: f32) -> f32 attributes {llvm.emit_c_interface} {
  return %a : f32
}

// One memref result comes back through a first pointer parameter, several
// results through a struct.
// CHECK: void _mlir_ciface_memref_result(StencilMemRef1D_f64 *result, StencilMemRef1D_f64 *arg0);
func.func @memref_result(%a: memref<?xf64>) -> memref<?xf64> attributes {llvm.emit_c_interface} {
  return %a : memref<?xf64>
}
// CHECK: /// Results of @two_results, in order.
// CHECK-NEXT: typedef struct { double r0; StencilMemRef2D_f32 r1; } two_results_results;
// CHECK: void _mlir_ciface_two_results(two_results_results *results, double arg0, StencilMemRef2D_f32 *arg1);
func.func @two_results(%a: f64, %b: memref<4x4xf32>) -> (f64, memref<4x4xf32>)
    attributes {llvm.emit_c_interface} {
  return %a, %b : f64, memref<4x4xf32>
}

// No entry point: private, external, or not marked.
// CHECK-NOT: private_fn
// CHECK-NOT: declared
// CHECK-NOT: unmarked
func.func private @private_fn(%a: f64) attributes {llvm.emit_c_interface} {
  return
}
func.func private @declared(f64) attributes {llvm.emit_c_interface}
func.func @unmarked(%a: f64) {
  return
}
// CHECK: } /* extern "C" */
// CHECK: #endif /* STENCIL_GENERATED_HEADER_MLIR_H */
