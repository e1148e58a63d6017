// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-check-libm-names
// RUN: stencil-opt %s -split-input-file -verify-diagnostics --convert-to-omp

// A module function named like the libm function that convert-math-to-libm
// would call must not capture the call: with another signature the
// conversion used to produce invalid IR, with libm's signature it silently
// called the user's function instead of libm.

func.func @cbrt(%r: memref<?xf64>, %u: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %a = stencil.gather %u[0] : memref<?xf64>
    // expected-error@+1 {{'math.cbrt' op would call libm's 'cbrt', but the module defines a symbol of that name; rename the module's '@cbrt'}}
    %z = math.cbrt %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// -----

// Same signature as libm's, but with a body: still the user's function.
func.func private @cbrt(%x: f64) -> f64 {
  %two = arith.constant 2.0 : f64
  %y = arith.mulf %two, %x : f64
  return %y : f64
}
func.func @kernel(%r: memref<?xf64>, %u: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %a = stencil.gather %u[0] : memref<?xf64>
    // expected-error@+1 {{'math.cbrt' op would call libm's 'cbrt'}}
    %z = math.cbrt %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// -----

// f32 ops call the f-suffixed function.
func.func @erff(%x: f32) -> f32 {
  // expected-error@+1 {{'math.erf' op would call libm's 'erff'}}
  %y = math.erf %x : f32
  return %y : f32
}

// -----

// A bodiless declaration with libm's signature is libm's function itself,
// and a function named like a libm function that no op calls is harmless:
// no diagnostic.
func.func private @cbrt(f64) -> f64
func.func @erf(%x: f64) -> f64 {
  %y = math.cbrt %x : f64
  return %y : f64
}
