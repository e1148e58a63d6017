// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-c-arrays

// What the C source route does not take is refused where it stands.

// expected-error@+1 {{the C source route takes contiguous row-major arrays only (identity layout), not 'memref<?xf64, strided<[2]>>'}}
func.func @strided(%a: memref<?xf64, strided<[2]>>) {
  return
}

// -----

// expected-error@+1 {{the C source route has no C type for the elements of 'memref<?xf16>' (f32, f64 and i8-i64 are supported)}}
func.func @half(%a: memref<?xf16>) {
  return
}

// -----

// expected-error@+1 {{'func.func' op has a name that is no C identifier, which the C source route needs}}
func.func @"not.c"(%x: f64) {
  return
}

// -----

// Names that C reserves or that the included headers declare.
// expected-error@+1 {{'func.func' op is named 'double', which C reserves or its headers declare (a keyword, a <math.h> function, ...); rename it for the C source route}}
func.func @double(%x: f64) {
  return
}

// -----

// expected-error@+1 {{'func.func' op is named 'sqrtf', which C reserves}}
func.func @sqrtf(%x: f32) {
  return
}

// -----

// expected-error@+1 {{'func.func' op is named 'int64_t', which C reserves}}
func.func @int64_t(%x: f32) {
  return
}

// -----

// expected-error@+1 {{'func.func' op returns an array, which the C source route does not support yet}}
func.func @returns(%a: memref<?xf64>) -> memref<?xf64> {
  return %a : memref<?xf64>
}

// -----

// expected-error@+1 {{'func.func' op returns 2 values, and a C function returns at most one; the C source route does not support this yet}}
func.func @two(%x: f64) -> (f64, f64) {
  return %x, %x : f64, f64
}

// -----

// expected-error@+1 {{'func.func' op is a declaration; the C source route emits only the functions the module defines}}
func.func private @external(%x: f64)

// -----

func.func @view(%a: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'memref.subview' op uses arrays in a way the C source route does not support yet (it takes loads, stores, memref.dim, memref.alloc and memref.dealloc)}}
  %v = memref.subview %a[%c0] [%n] [%c1] : memref<?xf64> to memref<?xf64, strided<[?], offset: ?>>
  return
}

// -----

func.func private @callee(%a: memref<?xf64>) {
  return
}

func.func @caller(%a: memref<?xf64>) {
  // expected-error@+1 {{'func.call' op uses arrays in a way the C source route does not support yet}}
  func.call @callee(%a) : (memref<?xf64>) -> ()
  return
}

// -----

func.func @dim(%a: memref<?x?xf64>, %d: index) -> index {
  // expected-error@+1 {{'memref.dim' op takes a dimension that is not a constant, which the C source route does not support}}
  %n = memref.dim %a, %d : memref<?x?xf64>
  return %n : index
}

// -----

func.func @atomic(%a: memref<?xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.atomic_rmw' op uses arrays in a way the C source route does not support yet}}
  %old = memref.atomic_rmw addf %x, %a[%c0] : (f64, memref<?xf64>) -> f64
  return
}

// -----

func.func @stack(%x: f64) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.alloca' op uses arrays in a way the C source route does not support yet}}
  %t = memref.alloca() : memref<4xf64>
  memref.store %x, %t[%c0] : memref<4xf64>
  return
}
