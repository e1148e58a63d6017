// A 2-D leapfrog through three rotated buffers, nonlinear in c, for
// mpi-time-loops.test (wave2d_mpi.c): its Revolve slots keep u_prev and u_t
// whole and only the border of u_next, the part of it a step does not
// overwrite. No objective: the adjoint's seeds are the shadows of the final
// buffers, so that the process grid may split either dimension.
func.func @wave2d(%u0: memref<?x?xf64> {stencil.active},
                  %u1: memref<?x?xf64> {stencil.active},
                  %u2: memref<?x?xf64> {stencil.active},
                  %c: memref<?x?xf64> {stencil.active},
                  %n: index, %m: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %mm1 = arith.subi %m, %c1 : index
  %res:3 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2)
      -> (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>) {
    stencil.domain (%i, %j) = (1, 1) to (%nm1, %mm1) {
      %two = arith.constant 2.0 : f64
      %four = arith.constant 4.0 : f64
      %a = stencil.gather %cur[-1, 0] : memref<?x?xf64>
      %b = stencil.gather %cur[1, 0] : memref<?x?xf64>
      %e = stencil.gather %cur[0, -1] : memref<?x?xf64>
      %f = stencil.gather %cur[0, 1] : memref<?x?xf64>
      %u = stencil.gather %cur[0, 0] : memref<?x?xf64>
      %p = stencil.gather %prev[0, 0] : memref<?x?xf64>
      %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
      %ab = arith.addf %a, %b : f64
      %ef = arith.addf %e, %f : f64
      %s4 = arith.addf %ab, %ef : f64
      %u4 = arith.mulf %four, %u : f64
      %lap = arith.subf %s4, %u4 : f64
      %c2 = arith.mulf %cc, %cc : f64
      %cl = arith.mulf %c2, %lap : f64
      %u2x = arith.mulf %two, %u : f64
      %d = arith.subf %u2x, %p : f64
      %v = arith.addf %d, %cl : f64
      stencil.store %v to %next : memref<?x?xf64>
    }
    scf.yield %cur, %next, %prev
        : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>
  }
  return
}
