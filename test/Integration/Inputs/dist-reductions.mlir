// Gradients with respect to parameters summed into fixed elements (filter
// taps, a rank-0 scale), for mpi-reductions.test: distributed, each rank
// holds the parameter and its gradient whole, and the sums across ranks
// must be those of one process, bitwise (sizes and roles in
// dist-reductions.json).

// A 3x3 filter: r[i][j] = sum_{a,b} w[a][b] * u[i+a-1][j+b-1], u and w
// active (the adjoint: u_b, and 9 sums into w_b).
func.func @filter2d(%r: memref<?x?xf64> {stencil.active},
                    %u: memref<?x?xf64> {stencil.active},
                    %w: memref<3x3xf64> {stencil.active},
                    %n0: index, %n1: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n0 - 1, %n1 - 1) {
    %w0 = stencil.gather %w[0, 0] dims [_, _] : memref<3x3xf64>
    %u0 = stencil.gather %u[-1, -1] : memref<?x?xf64>
    %p0 = arith.mulf %w0, %u0 : f64
    %w1 = stencil.gather %w[0, 1] dims [_, _] : memref<3x3xf64>
    %u1 = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %p1 = arith.mulf %w1, %u1 : f64
    %s1 = arith.addf %p0, %p1 : f64
    %w2 = stencil.gather %w[0, 2] dims [_, _] : memref<3x3xf64>
    %u2 = stencil.gather %u[-1, 1] : memref<?x?xf64>
    %p2 = arith.mulf %w2, %u2 : f64
    %s2 = arith.addf %s1, %p2 : f64
    %w3 = stencil.gather %w[1, 0] dims [_, _] : memref<3x3xf64>
    %u3 = stencil.gather %u[0, -1] : memref<?x?xf64>
    %p3 = arith.mulf %w3, %u3 : f64
    %s3 = arith.addf %s2, %p3 : f64
    %w4 = stencil.gather %w[1, 1] dims [_, _] : memref<3x3xf64>
    %u4 = stencil.gather %u[0, 0] : memref<?x?xf64>
    %p4 = arith.mulf %w4, %u4 : f64
    %s4 = arith.addf %s3, %p4 : f64
    %w5 = stencil.gather %w[1, 2] dims [_, _] : memref<3x3xf64>
    %u5 = stencil.gather %u[0, 1] : memref<?x?xf64>
    %p5 = arith.mulf %w5, %u5 : f64
    %s5 = arith.addf %s4, %p5 : f64
    %w6 = stencil.gather %w[2, 0] dims [_, _] : memref<3x3xf64>
    %u6 = stencil.gather %u[1, -1] : memref<?x?xf64>
    %p6 = arith.mulf %w6, %u6 : f64
    %s6 = arith.addf %s5, %p6 : f64
    %w7 = stencil.gather %w[2, 1] dims [_, _] : memref<3x3xf64>
    %u7 = stencil.gather %u[1, 0] : memref<?x?xf64>
    %p7 = arith.mulf %w7, %u7 : f64
    %s7 = arith.addf %s6, %p7 : f64
    %w8 = stencil.gather %w[2, 2] dims [_, _] : memref<3x3xf64>
    %u8 = stencil.gather %u[1, 1] : memref<?x?xf64>
    %p8 = arith.mulf %w8, %u8 : f64
    %s8 = arith.addf %s7, %p8 : f64
    stencil.store %s8 to %r : memref<?x?xf64>
  }
  return
}

// A misfit with a rank-0 scale c: J = sum (c * u - d)^2 over the domain,
// c and u active (the adjoint: u_b, and the sum into c_b).
func.func @scaled_misfit(%u: memref<?x?xf64> {stencil.active},
                         %d: memref<?x?xf64>,
                         %c: memref<f64> {stencil.active},
                         %n0: index, %n1: index) -> f64 {
  %J = stencil.domain (%i, %j) = (0, 1) to (%n0, %n1 - 1) -> f64 {
    %s = stencil.gather %c[] dims [] : memref<f64>
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    %y = stencil.gather %d[0, 0] : memref<?x?xf64>
    %sx = arith.mulf %s, %x : f64
    %e = arith.subf %sx, %y : f64
    %e2 = arith.mulf %e, %e : f64
    stencil.yield %e2 : f64
  }
  return %J : f64
}

// A 3-D filter with seven taps w[0..6] (centre and faces), nonlinear in u.
func.func @filter3d(%r: memref<?x?x?xf64> {stencil.active},
                    %u: memref<?x?x?xf64> {stencil.active},
                    %w: memref<7xf64> {stencil.active},
                    %n0: index, %n1: index, %n2: index) {
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n0 - 1, %n1 - 1, %n2 - 1) {
    %w0 = stencil.gather %w[0] dims [_] : memref<7xf64>
    %u0 = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    %q0 = arith.mulf %u0, %u0 : f64
    %p0 = arith.mulf %w0, %q0 : f64
    %w1 = stencil.gather %w[1] dims [_] : memref<7xf64>
    %u1 = stencil.gather %u[-1, 0, 0] : memref<?x?x?xf64>
    %q1 = arith.mulf %u1, %u1 : f64
    %p1 = arith.mulf %w1, %q1 : f64
    %s1 = arith.addf %p0, %p1 : f64
    %w2 = stencil.gather %w[2] dims [_] : memref<7xf64>
    %u2 = stencil.gather %u[1, 0, 0] : memref<?x?x?xf64>
    %q2 = arith.mulf %u2, %u2 : f64
    %p2 = arith.mulf %w2, %q2 : f64
    %s2 = arith.addf %s1, %p2 : f64
    %w3 = stencil.gather %w[3] dims [_] : memref<7xf64>
    %u3 = stencil.gather %u[0, -1, 0] : memref<?x?x?xf64>
    %q3 = arith.mulf %u3, %u3 : f64
    %p3 = arith.mulf %w3, %q3 : f64
    %s3 = arith.addf %s2, %p3 : f64
    %w4 = stencil.gather %w[4] dims [_] : memref<7xf64>
    %u4 = stencil.gather %u[0, 1, 0] : memref<?x?x?xf64>
    %q4 = arith.mulf %u4, %u4 : f64
    %p4 = arith.mulf %w4, %q4 : f64
    %s4 = arith.addf %s3, %p4 : f64
    %w5 = stencil.gather %w[5] dims [_] : memref<7xf64>
    %u5 = stencil.gather %u[0, 0, -1] : memref<?x?x?xf64>
    %q5 = arith.mulf %u5, %u5 : f64
    %p5 = arith.mulf %w5, %q5 : f64
    %s5 = arith.addf %s4, %p5 : f64
    %w6 = stencil.gather %w[6] dims [_] : memref<7xf64>
    %u6 = stencil.gather %u[0, 0, 1] : memref<?x?x?xf64>
    %q6 = arith.mulf %u6, %u6 : f64
    %p6 = arith.mulf %w6, %q6 : f64
    %s6 = arith.addf %s5, %p6 : f64
    stencil.store %s6 to %r : memref<?x?x?xf64>
  }
  return
}

// Layered coefficients (reductions through some of the dimensions): a
// per-column c[j] (a selection off the summation dimension, summed per
// slice into partial sums) and a per-row a[i] (on the summation dimension:
// each slice sums into its own element in place),
// r = c[j] * (u[i-1][j] + u[i+1][j]) + a[i] * u[i][j]^2.
func.func @layered2d(%r: memref<?x?xf64> {stencil.active},
                     %u: memref<?x?xf64> {stencil.active},
                     %c: memref<?xf64> {stencil.active},
                     %a: memref<?xf64> {stencil.active},
                     %n0: index, %n1: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n0 - 1, %n1 - 1) {
    %cj = stencil.gather %c[0] dims [1] : memref<?xf64>
    %ai = stencil.gather %a[0] dims [0] : memref<?xf64>
    %um = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %up = stencil.gather %u[1, 0] : memref<?x?xf64>
    %uc = stencil.gather %u[0, 0] : memref<?x?xf64>
    %s = arith.addf %um, %up : f64
    %cs = arith.mulf %cj, %s : f64
    %q = arith.mulf %uc, %uc : f64
    %aq = arith.mulf %ai, %q : f64
    %v = arith.addf %cs, %aq : f64
    stencil.store %v to %r : memref<?x?xf64>
  }
  return
}

// A misfit with a per-column scale c[j], its result and the reduction into
// c_b in one domain: J = sum (c[j] * u - d)^2.
func.func @column_misfit(%u: memref<?x?xf64> {stencil.active},
                         %d: memref<?x?xf64>,
                         %c: memref<?xf64> {stencil.active},
                         %n0: index, %n1: index) -> f64 {
  %J = stencil.domain (%i, %j) = (0, 0) to (%n0, %n1) -> f64 {
    %s = stencil.gather %c[0] dims [1] : memref<?xf64>
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    %y = stencil.gather %d[0, 0] : memref<?x?xf64>
    %sx = arith.mulf %s, %x : f64
    %e = arith.subf %sx, %y : f64
    %e2 = arith.mulf %e, %e : f64
    stencil.yield %e2 : f64
  }
  return %J : f64
}

// A depth-layered velocity v[k] read at two depths, and a per-column,
// per-channel q[1][j] in 3-D:
// r = v[k] * (u[i-1] + u[i+1] + u[k-1]) + v[k+1] * u[k+1] + q[1][j] * u^2.
func.func @layered3d(%r: memref<?x?x?xf64> {stencil.active},
                     %u: memref<?x?x?xf64> {stencil.active},
                     %v: memref<?xf64> {stencil.active},
                     %q: memref<3x?xf64> {stencil.active},
                     %n0: index, %n1: index, %n2: index) {
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n0 - 1, %n1 - 1, %n2 - 1) {
    %v0 = stencil.gather %v[0] dims [2] : memref<?xf64>
    %v1 = stencil.gather %v[1] dims [2] : memref<?xf64>
    %qj = stencil.gather %q[1, 0] dims [_, 1] : memref<3x?xf64>
    %xm = stencil.gather %u[-1, 0, 0] : memref<?x?x?xf64>
    %xp = stencil.gather %u[1, 0, 0] : memref<?x?x?xf64>
    %zm = stencil.gather %u[0, 0, -1] : memref<?x?x?xf64>
    %zp = stencil.gather %u[0, 0, 1] : memref<?x?x?xf64>
    %uc = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    %s1 = arith.addf %xm, %xp : f64
    %s2 = arith.addf %s1, %zm : f64
    %a = arith.mulf %v0, %s2 : f64
    %b = arith.mulf %v1, %zp : f64
    %q2 = arith.mulf %uc, %uc : f64
    %c = arith.mulf %qj, %q2 : f64
    %ab = arith.addf %a, %b : f64
    %abc = arith.addf %ab, %c : f64
    stencil.store %abc to %r : memref<?x?x?xf64>
  }
  return
}

// A per-row coefficient a[i] read twice: its gradient is two accumulates
// into a_b[i] in place (on the summation dimension), whose terms one
// process adds point by point, in body order:
// r = a[i] * u[i-1][j] + a[i] * u[i+1][j] * u[i][j].
func.func @row_twice(%r: memref<?x?xf64> {stencil.active},
                     %u: memref<?x?xf64> {stencil.active},
                     %a: memref<?xf64> {stencil.active},
                     %n0: index, %n1: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n0 - 1, %n1 - 1) {
    %a0 = stencil.gather %a[0] dims [0] : memref<?xf64>
    %a1 = stencil.gather %a[0] dims [0] : memref<?xf64>
    %um = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %up = stencil.gather %u[1, 0] : memref<?x?xf64>
    %uc = stencil.gather %u[0, 0] : memref<?x?xf64>
    %x = arith.mulf %a0, %um : f64
    %y = arith.mulf %up, %uc : f64
    %z = arith.mulf %a1, %y : f64
    %s = arith.addf %x, %z : f64
    stencil.store %s to %r : memref<?x?xf64>
  }
  return
}
