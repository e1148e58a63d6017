// A 3x3 filter (docs/Python.md, "Parameter gradients"; README.md here):
//   r[i][j] = sum_{a,b} w[a][b] * u[i+a-1][j+b-1]
// on the interior of an n x m image. The taps are fixed elements of w
// (`dims [_, _]`: the same element at every point), so the adjoint sums
// each tap's gradient over the image, a reduction, in an order that does
// not depend on the thread count. w and r are active; the image u is data.
func.func @filter3x3(%r: memref<?x?xf64> {stencil.active},
                     %u: memref<?x?xf64>,
                     %w: memref<3x3xf64> {stencil.active},
                     %n: index, %m: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %m - 1) {
    %w00 = stencil.gather %w[0, 0] dims [_, _] : memref<3x3xf64>
    %w01 = stencil.gather %w[0, 1] dims [_, _] : memref<3x3xf64>
    %w02 = stencil.gather %w[0, 2] dims [_, _] : memref<3x3xf64>
    %w10 = stencil.gather %w[1, 0] dims [_, _] : memref<3x3xf64>
    %w11 = stencil.gather %w[1, 1] dims [_, _] : memref<3x3xf64>
    %w12 = stencil.gather %w[1, 2] dims [_, _] : memref<3x3xf64>
    %w20 = stencil.gather %w[2, 0] dims [_, _] : memref<3x3xf64>
    %w21 = stencil.gather %w[2, 1] dims [_, _] : memref<3x3xf64>
    %w22 = stencil.gather %w[2, 2] dims [_, _] : memref<3x3xf64>
    %u00 = stencil.gather %u[-1, -1] : memref<?x?xf64>
    %u01 = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %u02 = stencil.gather %u[-1, 1] : memref<?x?xf64>
    %u10 = stencil.gather %u[0, -1] : memref<?x?xf64>
    %u11 = stencil.gather %u[0, 0] : memref<?x?xf64>
    %u12 = stencil.gather %u[0, 1] : memref<?x?xf64>
    %u20 = stencil.gather %u[1, -1] : memref<?x?xf64>
    %u21 = stencil.gather %u[1, 0] : memref<?x?xf64>
    %u22 = stencil.gather %u[1, 1] : memref<?x?xf64>
    %p00 = arith.mulf %w00, %u00 : f64
    %p01 = arith.mulf %w01, %u01 : f64
    %p02 = arith.mulf %w02, %u02 : f64
    %p10 = arith.mulf %w10, %u10 : f64
    %p11 = arith.mulf %w11, %u11 : f64
    %p12 = arith.mulf %w12, %u12 : f64
    %p20 = arith.mulf %w20, %u20 : f64
    %p21 = arith.mulf %w21, %u21 : f64
    %p22 = arith.mulf %w22, %u22 : f64
    %s0 = arith.addf %p00, %p01 : f64
    %s1 = arith.addf %s0, %p02 : f64
    %s2 = arith.addf %s1, %p10 : f64
    %s3 = arith.addf %s2, %p11 : f64
    %s4 = arith.addf %s3, %p12 : f64
    %s5 = arith.addf %s4, %p20 : f64
    %s6 = arith.addf %s5, %p21 : f64
    %s7 = arith.addf %s6, %p22 : f64
    stencil.store %s7 to %r : memref<?x?xf64>
  }
  return
}
