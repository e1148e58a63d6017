// wave3d (examples/wave3d.mlir) as a time loop, for stencil-bench-timeloop:
// T leapfrog steps of the 7-point wave equation through three rotated
// buffers, the coefficient c passive. Its adjoint is the gradient of the
// final state with respect to the initial one: the bandwidth bound the
// issue's store-all target is set against (a step of the gather adjoint
// moves 6 arrays where the primal moves 4).
func.func @wave3d_loop(%u0: memref<?x?x?xf64> {stencil.active},
                       %u1: memref<?x?x?xf64> {stencil.active},
                       %u2: memref<?x?x?xf64> {stencil.active},
                       %c: memref<?x?x?xf64>, %n: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %res:3 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2)
      -> (memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>) {
    stencil.domain (%i, %j, %k) = (1, 1, 1) to (%nm1, %nm1, %nm1) {
      %two = arith.constant 2.0 : f64
      %six = arith.constant 6.0 : f64
      %xm = stencil.gather %cur[-1, 0, 0] : memref<?x?x?xf64>
      %xp = stencil.gather %cur[1, 0, 0] : memref<?x?x?xf64>
      %ym = stencil.gather %cur[0, -1, 0] : memref<?x?x?xf64>
      %yp = stencil.gather %cur[0, 1, 0] : memref<?x?x?xf64>
      %zm = stencil.gather %cur[0, 0, -1] : memref<?x?x?xf64>
      %zp = stencil.gather %cur[0, 0, 1] : memref<?x?x?xf64>
      %u = stencil.gather %cur[0, 0, 0] : memref<?x?x?xf64>
      %p = stencil.gather %prev[0, 0, 0] : memref<?x?x?xf64>
      %cc = stencil.gather %c[0, 0, 0] : memref<?x?x?xf64>
      %sx2 = arith.addf %xm, %xp : f64
      %sy2 = arith.addf %ym, %yp : f64
      %sz2 = arith.addf %zm, %zp : f64
      %sxy = arith.addf %sx2, %sy2 : f64
      %s6 = arith.addf %sxy, %sz2 : f64
      %u6 = arith.mulf %six, %u : f64
      %lap = arith.subf %s6, %u6 : f64
      %cl = arith.mulf %cc, %lap : f64
      %u2x = arith.mulf %two, %u : f64
      %a = arith.subf %u2x, %p : f64
      %v = arith.addf %a, %cl : f64
      stencil.store %v to %next : memref<?x?x?xf64>
    }
    scf.yield %cur, %next, %prev
        : memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>
  }
  return
}
