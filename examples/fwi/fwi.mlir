// Full-waveform inversion's forward model and misfit, for --stencil-adjoint
// (docs/TimeLoops.md; driver: fwi_main.c).
//
// A 3-D acoustic wave equation on an n^3 grid, leapfrog in time and second
// order in space, with zero values on the faces:
//
//   u_next = 2 u - u_prev + m * (sum of the 6 neighbours of u - 6 u)
//
// where m = (v dt / h)^2 is the model (the squared velocity in grid units,
// m <= 1/3 for stability). A Ricker point source w[t] is added at
// (sx, sy, sz), and the receivers are the plane z = zr (every interior
// (x, y)); d[t][x][y] are the observed traces.

// J(m) = 1/2 sum_t sum_(x,y) (u_t(x, y, zr) - d[t][x][y])^2 over the
// states u_0 .. u_{steps-1} that the steps start from (u_t is `cur` in step
// t); its adjoint gives dJ/dm (and dJ/d of the initial states).
func.func @fwi(%u0: memref<?x?x?xf64> {stencil.active},
               %u1: memref<?x?x?xf64> {stencil.active},
               %u2: memref<?x?x?xf64> {stencil.active},
               %m: memref<?x?x?xf64> {stencil.active},
               %w: memref<?xf64>, %d: memref<?x?x?xf64>, %n: index,
               %sx: index, %sy: index, %sz: index, %zr: index,
               %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
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

// The same simulation, recording the traces d[t][x][y] = u_t(x, y, zr)
// (the observed data of a model). Not differentiated.
func.func @record(%u0: memref<?x?x?xf64>, %u1: memref<?x?x?xf64>,
                  %u2: memref<?x?x?xf64>, %m: memref<?x?x?xf64>,
                  %w: memref<?xf64>, %d: memref<?x?x?xf64>, %n: index,
                  %sx: index, %sy: index, %sz: index, %zr: index,
                  %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %res:3 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2)
      -> (memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>) {
    %dt = memref.subview %d[%t, 0, 0] [1, %n, %n] [1, 1, 1]
        : memref<?x?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %plane = memref.subview %cur[0, 0, %zr] [%n, %n, 1] [1, 1, 1]
        : memref<?x?x?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
    stencil.domain (%i, %j) = (1, 1) to (%nm1, %nm1) {
      %un = stencil.gather %plane[0, 0]
          : memref<?x?xf64, strided<[?, ?], offset: ?>>
      stencil.store %un to %dt : memref<?x?xf64, strided<[?, 1], offset: ?>>
    }
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
    %wt = memref.load %w[%t] : memref<?xf64>
    %sx1 = arith.addi %sx, %c1 : index
    %sy1 = arith.addi %sy, %c1 : index
    %sz1 = arith.addi %sz, %c1 : index
    stencil.domain (%i, %j, %k) = (%sx, %sy, %sz) to (%sx1, %sy1, %sz1) {
      stencil.accumulate %wt to %next[0, 0, 0] : memref<?x?x?xf64>
    }
    scf.yield %cur, %next, %prev
        : memref<?x?x?xf64>, memref<?x?x?xf64>, memref<?x?x?xf64>
  }
  return
}
