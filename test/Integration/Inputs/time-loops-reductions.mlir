// Time loops whose steps read parameters through non-permutations: the
// adjoint sums each parameter's gradient over the steps (the cases of
// time-loops-reductions.test, sizes and roles in
// time-loops-reductions.json).

// 2-D nonlinear decay through two rotated buffers:
//   b = a + s * v[j] * sin(w[0] a[i-1][j] - w[2] a[i+1][j])
// with a layered v[j] (a selection), two taps of a filter w (fixed
// elements) and a rank-0 s, all active; returns
// sum_t b[q][q]^2 + b[q][q] b[1][1], the probe b[1][1] read at a fixed
// element of the state (its adjoint reduces into the rotated shadow).
func.func @decay2d(%a0: memref<?x?xf64> {stencil.active},
                   %b0: memref<?x?xf64> {stencil.active},
                   %v: memref<?xf64> {stencil.active},
                   %w: memref<3xf64> {stencil.active},
                   %s: memref<f64> {stencil.active},
                   %n: index, %q: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %res:3 = scf.for %t = %c0 to %steps step %c1
      iter_args(%a = %a0, %b = %b0, %S = %zero)
      -> (memref<?x?xf64>, memref<?x?xf64>, f64) {
    stencil.domain (%i, %j) = (1, 0) to (%nm1, %n) {
      %l = stencil.gather %a[-1, 0] : memref<?x?xf64>
      %x = stencil.gather %a[0, 0] : memref<?x?xf64>
      %r = stencil.gather %a[1, 0] : memref<?x?xf64>
      %w0 = stencil.gather %w[0] dims [_] : memref<3xf64>
      %w2 = stencil.gather %w[2] dims [_] : memref<3xf64>
      %vj = stencil.gather %v[0] dims [1] : memref<?xf64>
      %sk = stencil.gather %s[] dims [] : memref<f64>
      %wl = arith.mulf %w0, %l : f64
      %wr = arith.mulf %w2, %r : f64
      %diff = arith.subf %wl, %wr : f64
      %sn = math.sin %diff : f64
      %k = arith.mulf %sk, %vj : f64
      %ks = arith.mulf %k, %sn : f64
      %y = arith.addf %x, %ks : f64
      stencil.store %y to %b : memref<?x?xf64>
    }
    %q1 = arith.addi %q, %c1 : index
    %term = stencil.domain (%i, %j) = (%q, %q) to (%q1, %q1) -> f64 {
      %y = stencil.gather %b[0, 0] : memref<?x?xf64>
      %p = stencil.gather %b[1, 1] dims [_, _] : memref<?x?xf64>
      %y2 = arith.mulf %y, %y : f64
      %yp = arith.mulf %y, %p : f64
      %e = arith.addf %y2, %yp : f64
      stencil.yield %e : f64
    }
    %S1 = arith.addf %S, %term : f64
    scf.yield %b, %a, %S1 : memref<?x?xf64>, memref<?x?xf64>, f64
  }
  return %res#2 : f64
}

// 1-D leapfrog wave through three rotated buffers whose squared velocity
// is a 3-tap filter w of a coefficient field c (fixed elements of w) and
// a rank-0 scale: linear in the states, nonlinear in w; the misfit of the
// current state at r, summed every step.
func.func @wave1d_filter(%u0: memref<?xf64> {stencil.active},
                         %u1: memref<?xf64> {stencil.active},
                         %u2: memref<?xf64> {stencil.active},
                         %c: memref<?xf64>,
                         %w: memref<3xf64> {stencil.active},
                         %g: memref<f64> {stencil.active},
                         %n: index, %r: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %r1 = arith.addi %r, %c1 : index
  %res:4 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2, %J = %zero)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>, f64) {
    %term = stencil.domain (%i) = (%r) to (%r1) -> f64 {
      %x = stencil.gather %cur[0] : memref<?xf64>
      %x2 = arith.mulf %x, %x : f64
      stencil.yield %x2 : f64
    }
    stencil.domain (%i) = (1) to (%nm1) {
      %two = arith.constant 2.0 : f64
      %a = stencil.gather %cur[-1] : memref<?xf64>
      %b = stencil.gather %cur[1] : memref<?xf64>
      %u = stencil.gather %cur[0] : memref<?xf64>
      %p = stencil.gather %prev[0] : memref<?xf64>
      %cl = stencil.gather %c[-1] : memref<?xf64>
      %cm = stencil.gather %c[0] : memref<?xf64>
      %cr = stencil.gather %c[1] : memref<?xf64>
      %w0 = stencil.gather %w[0] dims [_] : memref<3xf64>
      %w1 = stencil.gather %w[1] dims [_] : memref<3xf64>
      %w2 = stencil.gather %w[2] dims [_] : memref<3xf64>
      %gg = stencil.gather %g[] dims [] : memref<f64>
      %f0 = arith.mulf %w0, %cl : f64
      %f1 = arith.mulf %w1, %cm : f64
      %f2 = arith.mulf %w2, %cr : f64
      %f01 = arith.addf %f0, %f1 : f64
      %f = arith.addf %f01, %f2 : f64
      %f2s = arith.mulf %f, %f : f64
      %k = arith.mulf %gg, %f2s : f64
      %ab = arith.addf %a, %b : f64
      %u2x = arith.mulf %two, %u : f64
      %lap = arith.subf %ab, %u2x : f64
      %kl = arith.mulf %k, %lap : f64
      %d = arith.subf %u2x, %p : f64
      %y = arith.addf %d, %kl : f64
      stencil.store %y to %next : memref<?xf64>
    }
    %J1 = arith.addf %J, %term : f64
    scf.yield %cur, %next, %prev, %J1
        : memref<?xf64>, memref<?xf64>, memref<?xf64>, f64
  }
  return %res#3 : f64
}
