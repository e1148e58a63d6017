// Time loops over nonrectangular domains for gen/check_adjoint.py
// (time-loops-nonrect.test): whole-loop gradients against finite
// differences, the dot-product test of linear loops, every snapshot count
// against the first, 1 against 2 threads. The elements outside a step's
// domain are never written by the step, so they travel with the rotated
// buffers unchanged: their adjoints must travel back the same way.

// 2-D leapfrog wave on the triangle i in [1, n-1), j in [i, m-1) through
// three rotated buffers; J = sum_t cur[r][s]^2 at a receiver that may lie
// outside the triangle (its value then only rotates).
func.func @wave2d_tri(%u0: memref<?x?xf64> {stencil.active},
                      %u1: memref<?x?xf64> {stencil.active},
                      %u2: memref<?x?xf64> {stencil.active},
                      %c: memref<?x?xf64> {stencil.active},
                      %n: index, %m: index, %r: index, %s: index,
                      %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %mm1 = arith.subi %m, %c1 : index
  %r1 = arith.addi %r, %c1 : index
  %s1 = arith.addi %s, %c1 : index
  %res:4 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2, %J = %zero)
      -> (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64) {
    %term = stencil.domain (%i, %j) = (%r, %s) to (%r1, %s1) -> f64 {
      %x = stencil.gather %cur[0, 0] : memref<?x?xf64>
      %x2 = arith.mulf %x, %x : f64
      stencil.yield %x2 : f64
    }
    stencil.domain (%i, %j) = (1, %i) to (%nm1, %mm1) {
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
    %J1 = arith.addf %J, %term : f64
    scf.yield %cur, %next, %prev, %J1
        : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
  }
  return %res#3 : f64
}

// Linear 2-D diffusion on a trapezoid whose sides slope outwards, clipped
// by the box: i in [1, n-1), j in [max(1, i-2), min(m-1, i+3)), through a
// temporary copied back on the same trapezoid.
func.func @heat2d_trap(%u: memref<?x?xf64> {stencil.active},
                       %tmp: memref<?x?xf64> {stencil.active},
                       %k: f64, %n: index, %m: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %mm1 = arith.subi %m, %c1 : index
  scf.for %t = %c0 to %steps step %c1 {
    stencil.domain (%i, %j) = (1, max(1, %i - 2))
                           to (%nm1, min(%mm1, %i + 3)) {
      %four = arith.constant 4.0 : f64
      %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
      %b = stencil.gather %u[1, 0] : memref<?x?xf64>
      %c = stencil.gather %u[0, -1] : memref<?x?xf64>
      %d = stencil.gather %u[0, 1] : memref<?x?xf64>
      %x = stencil.gather %u[0, 0] : memref<?x?xf64>
      %ab = arith.addf %a, %b : f64
      %cd = arith.addf %c, %d : f64
      %s = arith.addf %ab, %cd : f64
      %x4 = arith.mulf %four, %x : f64
      %lap = arith.subf %s, %x4 : f64
      %kl = arith.mulf %k, %lap : f64
      %v = arith.addf %x, %kl : f64
      stencil.store %v to %tmp : memref<?x?xf64>
    }
    stencil.domain (%i, %j) = (1, max(1, %i - 2))
                           to (%nm1, min(%mm1, %i + 3)) {
      %v = stencil.gather %tmp[0, 0] : memref<?x?xf64>
      stencil.store %v to %u : memref<?x?xf64>
    }
  }
  return
}

// Nonlinear 3-D decay on a wedge through two rotated buffers with an
// active scalar: b = a - k a^2 lap(a) on i, j in [1, n-1),
// k in [max(1, i-j), min(n-1, i+j)); then the objective of the final
// state summed over the same wedge, sum b^2.
func.func @decay3d_wedge(%a0: memref<?x?x?xf64> {stencil.active},
                         %a1: memref<?x?x?xf64> {stencil.active},
                         %k: f64 {stencil.active}, %n: index,
                         %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %res:2 = scf.for %t = %c0 to %steps step %c1
      iter_args(%a = %a0, %b = %a1)
      -> (memref<?x?x?xf64>, memref<?x?x?xf64>) {
    stencil.domain (%i, %j, %l) = (1, 1, max(1, %i - %j))
                               to (%nm1, %nm1, min(%nm1, %i + %j)) {
      %six = arith.constant 6.0 : f64
      %x = stencil.gather %a[0, 0, 0] : memref<?x?x?xf64>
      %im = stencil.gather %a[-1, 0, 0] : memref<?x?x?xf64>
      %ip = stencil.gather %a[1, 0, 0] : memref<?x?x?xf64>
      %jm = stencil.gather %a[0, -1, 0] : memref<?x?x?xf64>
      %jp = stencil.gather %a[0, 1, 0] : memref<?x?x?xf64>
      %lm = stencil.gather %a[0, 0, -1] : memref<?x?x?xf64>
      %lp = stencil.gather %a[0, 0, 1] : memref<?x?x?xf64>
      %s1 = arith.addf %im, %ip : f64
      %s2 = arith.addf %s1, %jm : f64
      %s3 = arith.addf %s2, %jp : f64
      %s4 = arith.addf %s3, %lm : f64
      %s5 = arith.addf %s4, %lp : f64
      %x6 = arith.mulf %six, %x : f64
      %lap = arith.subf %s5, %x6 : f64
      %x2 = arith.mulf %x, %x : f64
      %kx = arith.mulf %k, %x2 : f64
      %d = arith.mulf %kx, %lap : f64
      %v = arith.subf %x, %d : f64
      stencil.store %v to %b : memref<?x?x?xf64>
    }
    scf.yield %b, %a : memref<?x?x?xf64>, memref<?x?x?xf64>
  }
  %J = stencil.domain (%i, %j, %l) = (1, 1, max(1, %i - %j))
                                  to (%nm1, %nm1, min(%nm1, %i + %j)) -> f64 {
    %x = stencil.gather %res#0[0, 0, 0] : memref<?x?x?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x2 : f64
  }
  return %J : f64
}
