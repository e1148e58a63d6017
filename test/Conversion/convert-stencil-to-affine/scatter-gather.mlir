// RUN: stencil-opt %s -split-input-file -verify-diagnostics \
// RUN:   --convert-stencil-to-affine=scatter=gather | FileCheck %s

// scatter=gather: --stencil-scatter-to-gather has run, so gathers lower as
// usual (in parallel) and a scatter left over is an error, not silently
// serialised.

// CHECK-LABEL: func.func @gather_only
// CHECK: affine.parallel
func.func @gather_only(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// -----

func.func @left_over_scatter(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  // expected-error@+1 {{'stencil.domain' op scatters, but scatter=gather expects --stencil-scatter-to-gather to have turned every scatter into gather nests}}
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.accumulate %x to %r[-1] : memref<?xf64>
  }
  return
}
