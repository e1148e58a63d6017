// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-adjoint

// A gradient flows back from a function's outputs: its results and the
// active arrays it writes. Without either, the adjoint computes 0 for every
// gradient, plausibly: --stencil-adjoint warns, at the function, and names
// the arrays it writes that are not marked stencil.active (a note at the
// first write of each). The adjoint is still built.

// expected-warning@+1 {{'smooth' returns no value and writes no argument marked stencil.active: nothing flows back into its adjoint, and every gradient it computes is 0; it writes argument #1, not marked stencil.active (mark the outputs to differentiate through)}}
func.func @smooth(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64>,
                  %n: index) {
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  stencil.domain (%i) = (1) to (%nm1) {
    %l = stencil.gather %u[-1] : memref<?xf64>
    %r = stencil.gather %u[1] : memref<?xf64>
    %s = arith.addf %l, %r : f64
    // expected-note@+1 {{argument #1 is written here}}
    stencil.store %s to %v : memref<?xf64>
  }
  return
}

// -----

// Every unmarked array written is named, once, at its first write; a
// temporary is not an output.
// expected-warning@+1 {{it writes argument #1, argument #2, not marked stencil.active}}
func.func @two(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64>,
               %w: memref<?xf64>, %n: index) {
  %t = memref.alloc(%n) : memref<?xf64>
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %t : memref<?xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %t[0] : memref<?xf64>
    // expected-note@+1 {{argument #1 is written here}}
    stencil.store %x to %v : memref<?xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %t[0] : memref<?xf64>
    // expected-note@+1 {{argument #2 is written here}}
    stencil.store %x to %w : memref<?xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.accumulate %x to %v[0] : memref<?xf64>
  }
  memref.dealloc %t : memref<?xf64>
  return
}

// -----

// Nothing written at all.
// expected-warning@+1 {{'nothing' returns no value and writes no argument marked stencil.active: nothing flows back into its adjoint, and every gradient it computes is 0}}
func.func @nothing(%u: memref<?xf64> {stencil.active}, %n: index) {
  return
}

// -----

// No warning: an active array written (also one written and read), a
// result, or a time loop's rotated arrays (active by their first values).
func.func @written(%u: memref<?xf64> {stencil.active},
                   %v: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

func.func @summed(%u: memref<?xf64> {stencil.active}, %n: index) -> f64 {
  %s = stencil.domain (%i) = (0) to (%n) -> f64 {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.yield %x : f64
  }
  return %s : f64
}

func.func @rotated(%u0: memref<?xf64> {stencil.active},
                   %u1: memref<?xf64> {stencil.active}, %n: index,
                   %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %r:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%a = %u0, %b = %u1)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%nm1) {
      %x = stencil.gather %a[-1] : memref<?xf64>
      %y = stencil.gather %a[1] : memref<?xf64>
      %p = arith.mulf %x, %y : f64
      stencil.store %p to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}
