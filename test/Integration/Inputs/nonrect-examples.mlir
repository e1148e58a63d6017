//===- nonrect-examples.mlir - Hand-written nonrectangular domains --------===//
//
// Nonrectangular iteration domains for nonrect-examples.test, each inside
// the box its reads and writes need, so every access stays in bounds:
// a triangle, a trapezoid with sloped sides, a 3-D wedge, a domain whose
// rows are empty for small sizes, a 1-D window of symbol-only max/min
// bounds, a reduction over a triangle, and two domains on the same
// triangle chained through an allocation read at offset zero only (the
// elements outside the triangle are never written, and never read).
// nonrect-examples.json describes the arguments and sizes.
//
//===----------------------------------------------------------------------===//

// The triangle i in [1, n-2], j in [i, n-2] with a 5-point star:
// r[i][j] = c[i][j] * (4 u[i][j] - u[i-1][j] - u[i+1][j] - u[i][j-1]
// - u[i][j+1]). Linear.
func.func @triangle(%r: memref<?x?xf64> {stencil.active},
                    %u: memref<?x?xf64> {stencil.active},
                    %c: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, %i) to (%n - 1, %n - 1) {
    %four = arith.constant 4.0 : f64
    %uc = stencil.gather %u[0, 0] : memref<?x?xf64>
    %un = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %us = stencil.gather %u[1, 0] : memref<?x?xf64>
    %uw = stencil.gather %u[0, -1] : memref<?x?xf64>
    %ue = stencil.gather %u[0, 1] : memref<?x?xf64>
    %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
    %centre = arith.mulf %four, %uc : f64
    %a = arith.subf %centre, %un : f64
    %b = arith.subf %a, %us : f64
    %d = arith.subf %b, %uw : f64
    %e = arith.subf %d, %ue : f64
    %v = arith.mulf %cc, %e : f64
    stencil.store %v to %r : memref<?x?xf64>
  }
  return
}

// A trapezoid of an n x m grid whose sides slope outwards, clipped by the
// box: i in [1, n-1), j in [max(1, i - 2), min(m - 1, i + 3)). Nonlinear,
// with an active scalar, accumulating at two offsets (the primal scatters):
// r[i][j+1] += s * sin(u[i-1][j]) * u[i][j+1], r[i][j-1] += 0.5 * u[i][j]^2.
func.func @trapezoid(%r: memref<?x?xf64> {stencil.active},
                     %u: memref<?x?xf64> {stencil.active},
                     %s: f64 {stencil.active}, %n: index, %m: index) {
  stencil.domain (%i, %j) = (1, max(1, %i - 2))
                         to (%n - 1, min(%m - 1, %i + 3)) {
    %half = arith.constant 0.5 : f64
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %b = stencil.gather %u[0, 1] : memref<?x?xf64>
    %c = stencil.gather %u[0, 0] : memref<?x?xf64>
    %sa = math.sin %a : f64
    %sab = arith.mulf %sa, %b : f64
    %v = arith.mulf %s, %sab : f64
    stencil.accumulate %v to %r[0, 1] : memref<?x?xf64>
    %c2 = arith.mulf %c, %c : f64
    %w = arith.mulf %half, %c2 : f64
    stencil.accumulate %w to %r[0, -1] : memref<?x?xf64>
  }
  return
}

// A wedge: k bounded by both outer coordinates,
// k in [max(1, i - j), min(n - 1, i + j)), for i, j in [1, n - 1), with a
// 7-point star: r = u_1 * D * (sum of the six neighbours - 6 u) - u_2.
func.func @wedge(%r: memref<?x?x?xf64> {stencil.active},
                 %u: memref<?x?x?xf64> {stencil.active},
                 %u2: memref<?x?x?xf64> {stencil.active},
                 %D: f64 {stencil.active}, %n: index) {
  stencil.domain (%i, %j, %k) = (1, 1, max(1, %i - %j))
                             to (%n - 1, %n - 1, min(%n - 1, %i + %j)) {
    %six = arith.constant 6.0 : f64
    %c = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    %im = stencil.gather %u[-1, 0, 0] : memref<?x?x?xf64>
    %ip = stencil.gather %u[1, 0, 0] : memref<?x?x?xf64>
    %jm = stencil.gather %u[0, -1, 0] : memref<?x?x?xf64>
    %jp = stencil.gather %u[0, 1, 0] : memref<?x?x?xf64>
    %km = stencil.gather %u[0, 0, -1] : memref<?x?x?xf64>
    %kp = stencil.gather %u[0, 0, 1] : memref<?x?x?xf64>
    %old = stencil.gather %u2[0, 0, 0] : memref<?x?x?xf64>
    %s1 = arith.addf %im, %ip : f64
    %s2 = arith.addf %s1, %jm : f64
    %s3 = arith.addf %s2, %jp : f64
    %s4 = arith.addf %s3, %km : f64
    %s5 = arith.addf %s4, %kp : f64
    %c6 = arith.mulf %six, %c : f64
    %lap = arith.subf %s5, %c6 : f64
    %dl = arith.mulf %D, %lap : f64
    %cd = arith.mulf %c, %dl : f64
    %v = arith.subf %cd, %old : f64
    stencil.store %v to %r : memref<?x?x?xf64>
  }
  return
}

// Rows that are empty for small sizes: j in [max(1, 2i - 3), min(n - 1,
// n - i)) for i in [1, n - 1). Row i is empty where 2i - 3 >= n - i, so the
// lower rows survive and the upper ones vanish; for n <= 2 the domain is
// empty. r[i][j] = u[i][j-1] * exp(0.1 u[i+1][j]) + c[i][j] u[i][j+1].
func.func @emptyrows(%r: memref<?x?xf64> {stencil.active},
                     %u: memref<?x?xf64> {stencil.active},
                     %c: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, max(1, %i * 2 - 3))
                         to (%n - 1, min(%n - 1, %n - %i)) {
    %tenth = arith.constant 0.1 : f64
    %w = stencil.gather %u[0, -1] : memref<?x?xf64>
    %s = stencil.gather %u[1, 0] : memref<?x?xf64>
    %e = stencil.gather %u[0, 1] : memref<?x?xf64>
    %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
    %ts = arith.mulf %tenth, %s : f64
    %x = math.exp %ts : f64
    %a = arith.mulf %w, %x : f64
    %b = arith.mulf %cc, %e : f64
    %v = arith.addf %a, %b : f64
    stencil.store %v to %r : memref<?x?xf64>
  }
  return
}

// A 1-D window with symbol-only max/min bounds: i in
// [max(1, n - 6), min(n - 1, 5)), empty for n <= 2 and n >= 11.
// r[i] = u[i-1] - 2 u[i] + u[i+1]. Linear.
func.func @window(%r: memref<?xf64> {stencil.active},
                  %u: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (max(1, %n - 6)) to (min(%n - 1, 5)) {
    %two = arith.constant 2.0 : f64
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[0] : memref<?xf64>
    %c = stencil.gather %u[1] : memref<?xf64>
    %b2 = arith.mulf %two, %b : f64
    %d = arith.subf %a, %b2 : f64
    %v = arith.addf %d, %c : f64
    stencil.store %v to %r : memref<?xf64>
  }
  return
}

// Two domains on the triangle j <= i of an n x m grid chained through an
// allocation read only at offset zero, and a sum over the triangle:
// t = u[i][j] * u[i][j+1]; r[i][j] = sin(t) + t * v[i-1][j];
// returns sum over the triangle of r[i][j]^2.
func.func @chain(%r: memref<?x?xf64> {stencil.active},
                 %u: memref<?x?xf64> {stencil.active},
                 %v: memref<?x?xf64> {stencil.active},
                 %n: index, %m: index) -> f64 {
  %t = memref.alloc(%n, %m) : memref<?x?xf64>
  stencil.domain (%i, %j) = (1, 0) to (%n, min(%m - 1, %i + 1)) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    %b = stencil.gather %u[0, 1] : memref<?x?xf64>
    %x = arith.mulf %a, %b : f64
    stencil.store %x to %t : memref<?x?xf64>
  }
  stencil.domain (%i, %j) = (1, 0) to (%n, min(%m - 1, %i + 1)) {
    %x = stencil.gather %t[0, 0] : memref<?x?xf64>
    %w = stencil.gather %v[-1, 0] : memref<?x?xf64>
    %s = math.sin %x : f64
    %xw = arith.mulf %x, %w : f64
    %y = arith.addf %s, %xw : f64
    stencil.store %y to %r : memref<?x?xf64>
  }
  %sum = stencil.domain (%i, %j) = (1, 0) to (%n, min(%m - 1, %i + 1))
      -> (f64) {
    %y = stencil.gather %r[0, 0] : memref<?x?xf64>
    %y2 = arith.mulf %y, %y : f64
    stencil.yield %y2 : f64
  }
  memref.dealloc %t : memref<?x?xf64>
  return %sum : f64
}
