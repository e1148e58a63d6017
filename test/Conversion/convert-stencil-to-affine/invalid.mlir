// RUN: stencil-opt %s --convert-stencil-to-affine -split-input-file -verify-diagnostics
// RUN: stencil-opt %s --stencil-scatter-to-gather -split-input-file -verify-diagnostics

// Bounds become affine loop bounds, so their operands must be valid affine
// symbols where the domain stands; an scf.for induction variable is not.
func.func @bound_not_symbol(%ub: memref<?xf64>, %rb: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %n step %c1 {
    // expected-error@+1 {{has a bound operand that is not a valid affine symbol here}}
    stencil.domain (%i) = (1) to (%t) {
      %a = stencil.gather %rb[0] : memref<?xf64>
      stencil.accumulate %a to %ub[-1] : memref<?xf64>
    }
  }
  return
}
