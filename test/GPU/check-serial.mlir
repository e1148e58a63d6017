// RUN: stencil-opt %s --stencil-check-gpu=serial-scatter -verify-diagnostics
// RUN: not stencil-opt %s --convert-to-gpu=scatter=serial -o /dev/null 2>&1 | FileCheck %s

// scatter=serial would run a scattering domain's loops on one GPU thread:
// the pipeline refuses it, at the domain.
// CHECK: error: 'stencil.domain' op scatters, and scatter=serial would run it on one GPU thread; use scatter=gather (the default) or scatter=atomic
func.func @scatter(%r: memref<?xf64>, %x: memref<?xf64>, %n: index) {
  // expected-error @+1 {{scatters, and scatter=serial would run it on one GPU thread}}
  stencil.domain (%i) = (1) to (%n) {
    %v = stencil.gather %x[0] : memref<?xf64>
    stencil.accumulate %v to %r[-1] : memref<?xf64>
  }
  return
}
