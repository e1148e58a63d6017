// RUN: stencil-opt %s -verify-diagnostics --allow-unregistered-dialect --convert-to-omp
// RUN: stencil-opt %s -verify-diagnostics --allow-unregistered-dialect --convert-to-omp=cut-min-gain=1

// An op of no registered dialect (--allow-unregistered-dialect) is not
// lowered: the pipeline fails at it. Each pass of the pipeline that asks an
// op for its dialect (the halo exchange lowering, the libm name check, the
// GPU route's narrowing, this check, the hoisting of temporaries) used to
// crash on it, its dialect being null.

func.func @unknown(%x: f64) {
  // expected-error@+1 {{'test.unknown' op was not lowered to the LLVM dialect}}
  "test.unknown"(%x) : (f64) -> ()
  return
}
