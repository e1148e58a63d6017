// A nonlinear scatter (the product of the 25 taps of radius 2, accumulated
// to 4 neighbours) for test/Integration/mpi-cut.test: distributed, the cut
// stores the product in a temporary over the rank's bounds.
func.func @scatter(%c: memref<?x?xf64>, %ub: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (2, 2) to (%n - 2, %n - 2) {
    %x0 = stencil.gather %c[-2, -2] : memref<?x?xf64>
    %x1 = stencil.gather %c[-2, -1] : memref<?x?xf64>
    %s1 = arith.mulf %x0, %x1 : f64
    %x2 = stencil.gather %c[-2, 0] : memref<?x?xf64>
    %s2 = arith.mulf %s1, %x2 : f64
    %x3 = stencil.gather %c[-2, 1] : memref<?x?xf64>
    %s3 = arith.mulf %s2, %x3 : f64
    %x4 = stencil.gather %c[-2, 2] : memref<?x?xf64>
    %s4 = arith.mulf %s3, %x4 : f64
    %x5 = stencil.gather %c[-1, -2] : memref<?x?xf64>
    %s5 = arith.mulf %s4, %x5 : f64
    %x6 = stencil.gather %c[-1, -1] : memref<?x?xf64>
    %s6 = arith.mulf %s5, %x6 : f64
    %x7 = stencil.gather %c[-1, 0] : memref<?x?xf64>
    %s7 = arith.mulf %s6, %x7 : f64
    %x8 = stencil.gather %c[-1, 1] : memref<?x?xf64>
    %s8 = arith.mulf %s7, %x8 : f64
    %x9 = stencil.gather %c[-1, 2] : memref<?x?xf64>
    %s9 = arith.mulf %s8, %x9 : f64
    %x10 = stencil.gather %c[0, -2] : memref<?x?xf64>
    %s10 = arith.mulf %s9, %x10 : f64
    %x11 = stencil.gather %c[0, -1] : memref<?x?xf64>
    %s11 = arith.mulf %s10, %x11 : f64
    %x12 = stencil.gather %c[0, 0] : memref<?x?xf64>
    %s12 = arith.mulf %s11, %x12 : f64
    %x13 = stencil.gather %c[0, 1] : memref<?x?xf64>
    %s13 = arith.mulf %s12, %x13 : f64
    %x14 = stencil.gather %c[0, 2] : memref<?x?xf64>
    %s14 = arith.mulf %s13, %x14 : f64
    %x15 = stencil.gather %c[1, -2] : memref<?x?xf64>
    %s15 = arith.mulf %s14, %x15 : f64
    %x16 = stencil.gather %c[1, -1] : memref<?x?xf64>
    %s16 = arith.mulf %s15, %x16 : f64
    %x17 = stencil.gather %c[1, 0] : memref<?x?xf64>
    %s17 = arith.mulf %s16, %x17 : f64
    %x18 = stencil.gather %c[1, 1] : memref<?x?xf64>
    %s18 = arith.mulf %s17, %x18 : f64
    %x19 = stencil.gather %c[1, 2] : memref<?x?xf64>
    %s19 = arith.mulf %s18, %x19 : f64
    %x20 = stencil.gather %c[2, -2] : memref<?x?xf64>
    %s20 = arith.mulf %s19, %x20 : f64
    %x21 = stencil.gather %c[2, -1] : memref<?x?xf64>
    %s21 = arith.mulf %s20, %x21 : f64
    %x22 = stencil.gather %c[2, 0] : memref<?x?xf64>
    %s22 = arith.mulf %s21, %x22 : f64
    %x23 = stencil.gather %c[2, 1] : memref<?x?xf64>
    %s23 = arith.mulf %s22, %x23 : f64
    %x24 = stencil.gather %c[2, 2] : memref<?x?xf64>
    %s24 = arith.mulf %s23, %x24 : f64
    stencil.accumulate %s24 to %ub[-1, 0] : memref<?x?xf64>
    stencil.accumulate %s24 to %ub[1, 0] : memref<?x?xf64>
    stencil.accumulate %s24 to %ub[0, -1] : memref<?x?xf64>
    stencil.accumulate %s24 to %ub[0, 1] : memref<?x?xf64>
  }
  return
}
