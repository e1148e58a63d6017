// RUN: stencil-opt %s -split-input-file -verify-diagnostics --convert-to-omp
// RUN: stencil-opt %s -split-input-file -verify-diagnostics --convert-to-omp --verify-each=0
// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-verify-lowered

// The conversions to LLVM are partial: a function whose signature has no
// LLVM type (tf32) stays a func.func. The pipeline used to exit 0 on it
// (mlir-translate failed later); it now fails at the op, also without the
// verifier between passes.

// expected-error@+1 {{'func.func' op was not lowered to the LLVM dialect; it has no lowering to LLVM here (e.g. a type without an LLVM equivalent)}}
func.func @g(%a: memref<?xtf32>, %n: index) {
  return
}

// -----

// Fully lowered input passes unchanged.
llvm.func @ok(%x: f64) -> f64 {
  llvm.return %x : f64
}
