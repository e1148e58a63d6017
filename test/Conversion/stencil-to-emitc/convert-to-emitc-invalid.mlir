// RUN: stencil-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect --stencil-convert-to-emitc

// What EmitC has no C99 form for stops the conversion at the op (a full
// conversion: nothing half-converted reaches the printer).

func.func @power(%x: f64, %k: i32) -> f64 {
  // expected-error@+1 {{failed to legalize operation 'math.fpowi'}}
  %y = math.fpowi %x, %k : f64, i32
  return %y : f64
}

// -----

func.func @unknown(%x: f64) {
  // expected-error@+1 {{failed to legalize operation 'test.unknown'}}
  "test.unknown"(%x) : (f64) -> ()
  return
}
