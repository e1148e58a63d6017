// RUN: stencil-opt %s --stencil-map-to-gpu -verify-diagnostics -o /dev/null

// scf::tileParallelLoop does not keep the results of a nest with
// reductions; the pass refuses it with a located error instead of
// crashing (in the pipeline, --stencil-check-gpu refuses the domains with
// results that lower to such nests before this pass runs).
func.func @sum(%a: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot be mapped to the GPU: nests with reductions are not supported yet}}
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
    %v = memref.load %a[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}
