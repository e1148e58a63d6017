// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-scatter-to-gather
// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-cut-shared

// The gather form and the cut shift writes that each point owns; a domain
// that also reduces must be split first (convert-to-omp does).
func.func @unsplit(%u: memref<?xf64>, %ub: memref<?xf64>, %sb: memref<f64>, %n: index) {
  // expected-error@+1 {{reduces (an accumulate through a `dims` that is not a permutation) as well as scattering; run --stencil-split-reductions first, as convert-to-omp does}}
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.accumulate %x to %ub[-1] : memref<?xf64>
    stencil.accumulate %x to %sb[] dims [] : memref<f64>
  }
  return
}
