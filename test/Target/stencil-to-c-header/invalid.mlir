// RUN: stencil-translate %s --stencil-to-c-header -split-input-file -verify-diagnostics

// Signatures the C interface cannot describe: a located error each, and no
// header.

// expected-error@+1 {{'func.func' op argument #0 of type 'memref<?xi32>' is not supported yet at the C interface (f32/f64 memrefs of identity layout and rank <= 6, f32, f64, index, i1-i64)}}
func.func @int_array(%a: memref<?xi32>) attributes {llvm.emit_c_interface} {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #0 of type 'memref<?xf64, strided<[2]>>' is not supported yet at the C interface}}
func.func @strided(%a: memref<?xf64, strided<[2]>>) attributes {llvm.emit_c_interface} {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #0 of type 'memref<1x1x1x1x1x1x1xf64>' is not supported yet at the C interface}}
func.func @rank7(%a: memref<1x1x1x1x1x1x1xf64>) attributes {llvm.emit_c_interface} {
  return
}

// -----

// expected-error@+1 {{'func.func' op result #0 of type 'i128' is not supported yet at the C interface}}
func.func @wide_result(%a: f64) -> i128 attributes {llvm.emit_c_interface} {
  %c = arith.constant 0 : i128
  return %c : i128
}

// -----

// expected-error@+1 {{'func.func' op has a C interface but its name is not a C identifier}}
func.func @"not.c"(%a: f64) attributes {llvm.emit_c_interface} {
  return
}
