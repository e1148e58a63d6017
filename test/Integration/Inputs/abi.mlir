//===- abi.mlir - Signatures for the stencil-compile header generator -----===//
//
// Input of stencil-compile.test: the argument and result types the header
// generator handles (dynamic and static memrefs, f32, f64, index), a private
// function (no entry point) and a scalar result.
//
//===----------------------------------------------------------------------===//

func.func @scale2d(%out: memref<?x?xf32>, %in: memref<4x4xf32>, %a: f32, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %x = stencil.gather %in[0, 0] : memref<4x4xf32>
    %y = arith.mulf %x, %a : f32
    stencil.store %y to %out : memref<?x?xf32>
  }
  return
}
func.func private @helper(%x: f64) -> f64 {
  %y = arith.addf %x, %x : f64
  return %y : f64
}
func.func @twice(%x: f64) -> f64 {
  %y = func.call @helper(%x) : (f64) -> f64
  return %y : f64
}
