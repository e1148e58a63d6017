// RUN: stencil-opt %s --split-input-file --stencil-check-abi-bounds -verify-diagnostics

// The checks report through the C library's dprintf and abort: a module
// symbol of either name would capture the call.
// expected-error@+1 {{the symbol 'abort' is the C library function that the bounds checks of the C entry points call; rename it, or turn the checks off (check-bounds=0)}}
func.func @abort(%x: f64) -> f64 {
  return %x : f64
}
func.func @f(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// -----

// expected-error@+1 {{the symbol 'dprintf' is the C library function that the bounds checks}}
func.func private @dprintf(i32) -> i32
func.func @f(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}
