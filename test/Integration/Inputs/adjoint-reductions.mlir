// Reads whose adjoint is a reduction, and a primal that reduces: the
// cases of adjoint-reductions.test (sizes and roles in
// adjoint-reductions.json).

// A 3x3 filter: r[i][j] = sum_{a,b} w[a][b] * u[i+a-1][j+b-1], with the
// taps read as fixed elements of w. u and w active.
func.func @filter3x3(%r: memref<?x?xf64> {stencil.active},
                     %u: memref<?x?xf64> {stencil.active},
                     %w: memref<3x3xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
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

// The same filter with u passive: linear in w (dot-product test).
func.func @filter_weights(%r: memref<?x?xf64> {stencil.active},
                          %u: memref<?x?xf64>,
                          %w: memref<3x3xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %w00 = stencil.gather %w[0, 0] dims [_, _] : memref<3x3xf64>
    %w12 = stencil.gather %w[1, 2] dims [_, _] : memref<3x3xf64>
    %w21 = stencil.gather %w[2, 1] dims [_, _] : memref<3x3xf64>
    %u00 = stencil.gather %u[-1, -1] : memref<?x?xf64>
    %u12 = stencil.gather %u[0, 1] : memref<?x?xf64>
    %u21 = stencil.gather %u[1, 0] : memref<?x?xf64>
    %p00 = arith.mulf %w00, %u00 : f64
    %p12 = arith.mulf %w12, %u12 : f64
    %p21 = arith.mulf %w21, %u21 : f64
    %s0 = arith.addf %p00, %p12 : f64
    %s1 = arith.addf %s0, %p21 : f64
    stencil.store %s1 to %r : memref<?x?xf64>
  }
  return
}

// A layered coefficient v[k] in a 3-D domain (i, j, k), nonlinear in v,
// with u active too.
func.func @layered(%r: memref<?x?x?xf64> {stencil.active},
                   %u: memref<?x?x?xf64> {stencil.active},
                   %v: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n - 1, %n - 1, %n - 1) {
    %vk = stencil.gather %v[0] dims [2] : memref<?xf64>
    %vu = stencil.gather %v[1] dims [2] : memref<?xf64>
    %a = stencil.gather %u[-1, 0, 0] : memref<?x?x?xf64>
    %b = stencil.gather %u[0, 1, 0] : memref<?x?x?xf64>
    %c = stencil.gather %u[0, 0, -1] : memref<?x?x?xf64>
    %v2 = arith.mulf %vk, %vk : f64
    %ab = arith.addf %a, %b : f64
    %t = arith.mulf %v2, %ab : f64
    %s = arith.mulf %vu, %c : f64
    %o = arith.addf %t, %s : f64
    stencil.store %o to %r : memref<?x?x?xf64>
  }
  return
}

// Coefficients read along the parallel dimension at two offsets (c[i-1],
// c[i+1]) and along the other one (e[j-1], e[j+1]), a rank-0 scale s and
// a diagonal a[i][i] (a repetition), all active.
func.func @selections(%r: memref<?x?xf64> {stencil.active},
                      %c: memref<?xf64> {stencil.active},
                      %e: memref<?xf64> {stencil.active},
                      %s: memref<f64> {stencil.active},
                      %a: memref<?x?xf64> {stencil.active},
                      %u: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %cm = stencil.gather %c[-1] dims [0] : memref<?xf64>
    %cp = stencil.gather %c[1] dims [0] : memref<?xf64>
    %em = stencil.gather %e[-1] dims [1] : memref<?xf64>
    %ep = stencil.gather %e[1] dims [1] : memref<?xf64>
    %sc = stencil.gather %s[] dims [] : memref<f64>
    %ad = stencil.gather %a[0, 0] dims [0, 0] : memref<?x?xf64>
    %uc = stencil.gather %u[0, 0] : memref<?x?xf64>
    %x = arith.mulf %cm, %cp : f64
    %y = arith.addf %em, %ep : f64
    %z = arith.mulf %x, %y : f64
    %w = arith.mulf %sc, %ad : f64
    %q = math.sin %w : f64
    %o = arith.addf %z, %q : f64
    %o2 = arith.mulf %o, %uc : f64
    stencil.store %o2 to %r : memref<?x?xf64>
  }
  return
}

// An unrolled channel: u[c][i+1][j] for c = 0, 1 (fixed first dimension).
func.func @channels(%r: memref<?x?xf64> {stencil.active},
                    %u: memref<2x?x?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n - 1, %n) {
    %a = stencil.gather %u[0, 1, 0] dims [_, 0, 1] : memref<2x?x?xf64>
    %b = stencil.gather %u[1, 0, 0] dims [_, 0, 1] : memref<2x?x?xf64>
    %p = arith.mulf %a, %b : f64
    stencil.store %p to %r : memref<?x?xf64>
  }
  return
}

// A primal reduction: r[i][k] += sum_j u[i][j][k]^2, an output indexed by
// a subset of the counters.
func.func @subset_output(%r: memref<?x?xf64> {stencil.active},
                         %u: memref<?x?x?xf64> {stencil.active},
                         %n: index) {
  stencil.domain (%i, %j, %k) = (0, 0, 0) to (%n, %n, %n) {
    %a = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    %sq = arith.mulf %a, %a : f64
    stencil.accumulate %sq to %r[0, 0] dims [0, 2] : memref<?x?xf64>
  }
  return
}
