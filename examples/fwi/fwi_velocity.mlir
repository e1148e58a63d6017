// Full-waveform inversion's misfit (examples/fwi/fwi.mlir, @fwi) as a
// function of the velocity %vel rather than of the model m: the model
// m = (vel dt / h)^2 (dtoh = dt / h) is computed before the time loop, in a
// domain that --stencil-adjoint differentiates after it (docs/TimeLoops.md,
// section 1.2), so the adjoint gives dJ/dvel. %m is work space the model
// is written into; its shadow holds zero on return (the adjoint of an
// array the function assigns).
func.func @fwi_velocity(%u0: memref<?x?x?xf64> {stencil.active},
                        %u1: memref<?x?x?xf64> {stencil.active},
                        %u2: memref<?x?x?xf64> {stencil.active},
                        %vel: memref<?x?x?xf64> {stencil.active},
                        %m: memref<?x?x?xf64> {stencil.active},
                        %dtoh: f64, %w: memref<?xf64>,
                        %d: memref<?x?x?xf64>, %n: index, %sx: index,
                        %sy: index, %sz: index, %zr: index,
                        %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  // The model from the velocity (docs/TimeLoops.md, section 1.2): a domain
  // before the loop, differentiated after it.
  stencil.domain (%i, %j, %k) = (0, 0, 0) to (%n, %n, %n) {
    %vv = stencil.gather %vel[0, 0, 0] : memref<?x?x?xf64>
    %x = arith.mulf %vv, %dtoh : f64
    %x2 = arith.mulf %x, %x : f64
    stencil.store %x2 to %m : memref<?x?x?xf64>
  }
  %res:4 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2, %J = %zero)
      -> (memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>, f64) {
    // The misfit of u_t on the receiver plane (a domain one point thick),
    // before the update: the step's adjoint then replays nothing.
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
    // The wave equation on the interior.
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
      %mm = stencil.gather %m[0, 0, 0] : memref<?x?x?xf64>
      %sx2 = arith.addf %xm, %xp : f64
      %sy2 = arith.addf %ym, %yp : f64
      %sz2 = arith.addf %zm, %zp : f64
      %sxy = arith.addf %sx2, %sy2 : f64
      %s6 = arith.addf %sxy, %sz2 : f64
      %u6 = arith.mulf %six, %u : f64
      %lap = arith.subf %s6, %u6 : f64
      %ml = arith.mulf %mm, %lap : f64
      %u2x = arith.mulf %two, %u : f64
      %a = arith.subf %u2x, %p : f64
      %v = arith.addf %a, %ml : f64
      stencil.store %v to %next : memref<?x?x?xf64>
    }
    // The point source.
    %wt = memref.load %w[%t] : memref<?xf64>
    %sx1 = arith.addi %sx, %c1 : index
    %sy1 = arith.addi %sy, %c1 : index
    %sz1 = arith.addi %sz, %c1 : index
    stencil.domain (%i, %j, %k) = (%sx, %sy, %sz) to (%sx1, %sy1, %sz1) {
      stencil.accumulate %wt to %next[0, 0, 0] : memref<?x?x?xf64>
    }
    %J1 = arith.addf %J, %term : f64
    scf.yield %cur, %next, %prev, %J1
        : memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>, f64
  }
  return %res#3 : f64
}
