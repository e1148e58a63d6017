// A layered velocity v[k] in a 3-D wave equation (examples/python/
// layered_velocity.py; docs/Python.md, "Parameter gradients"): the model
// depends on depth k alone and is read as `stencil.gather %v[0] dims [2]`
// (v[k] at every (i, j, k)). The misfit J = 1/2 sum_t sum_(i,j) (u_t - d_t)^2
// on the receiver plane k = zr is summed over the steps of a time loop
// whose state starts from a pulse in u0 and u1. The adjoint's dJ/dv sums
// over (i, j) and over the steps, in an order that does not depend on the
// thread count.
func.func @layered_wave(%u0: memref<?x?x?xf64> {stencil.active},
                        %u1: memref<?x?x?xf64> {stencil.active},
                        %u2: memref<?x?x?xf64> {stencil.active},
                        %v: memref<?xf64> {stencil.active},
                        %dtoh: f64, %d: memref<?x?x?xf64>, %n: index,
                        %zr: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %res:4 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2, %J = %zero)
      -> (memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>, f64) {
    // The misfit of u_t on the receiver plane, before the update.
    %dt = memref.subview %d[%t, 0, 0] [1, %n, %n] [1, 1, 1]
        : memref<?x?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %zr1 = arith.addi %zr, %c1 : index
    %term = stencil.domain (%i, %j, %k) = (1, 1, %zr) to (%nm1, %nm1, %zr1)
        -> f64 {
      %half = arith.constant 0.5 : f64
      %un = stencil.gather %cur[0, 0, 0] : memref<?x?x?xf64>
      %obs = stencil.gather %dt[0, 0] dims [0, 1]
          : memref<?x?xf64, strided<[?, 1], offset: ?>>
      %e = arith.subf %un, %obs : f64
      %e2 = arith.mulf %e, %e : f64
      %h = arith.mulf %half, %e2 : f64
      stencil.yield %h : f64
    }
    // u_next = 2 u - u_prev + (v[k] dt / h)^2 lap(u) on the interior.
    stencil.domain (%i, %j, %k) = (1, 1, 1) to (%nm1, %nm1, %nm1) {
      %two = arith.constant 2.0 : f64
      %six = arith.constant 6.0 : f64
      %vk = stencil.gather %v[0] dims [2] : memref<?xf64>
      %xm = stencil.gather %cur[-1, 0, 0] : memref<?x?x?xf64>
      %xp = stencil.gather %cur[1, 0, 0] : memref<?x?x?xf64>
      %ym = stencil.gather %cur[0, -1, 0] : memref<?x?x?xf64>
      %yp = stencil.gather %cur[0, 1, 0] : memref<?x?x?xf64>
      %zm = stencil.gather %cur[0, 0, -1] : memref<?x?x?xf64>
      %zp = stencil.gather %cur[0, 0, 1] : memref<?x?x?xf64>
      %u = stencil.gather %cur[0, 0, 0] : memref<?x?x?xf64>
      %p = stencil.gather %prev[0, 0, 0] : memref<?x?x?xf64>
      %cv = arith.mulf %vk, %dtoh : f64
      %m = arith.mulf %cv, %cv : f64
      %sx = arith.addf %xm, %xp : f64
      %sy = arith.addf %ym, %yp : f64
      %sz = arith.addf %zm, %zp : f64
      %sxy = arith.addf %sx, %sy : f64
      %s6 = arith.addf %sxy, %sz : f64
      %u6 = arith.mulf %six, %u : f64
      %lap = arith.subf %s6, %u6 : f64
      %ml = arith.mulf %m, %lap : f64
      %u2x = arith.mulf %two, %u : f64
      %a = arith.subf %u2x, %p : f64
      %o = arith.addf %a, %ml : f64
      stencil.store %o to %next : memref<?x?x?xf64>
    }
    %J1 = arith.addf %J, %term : f64
    scf.yield %cur, %next, %prev, %J1
        : memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>, f64
  }
  return %res#3 : f64
}
