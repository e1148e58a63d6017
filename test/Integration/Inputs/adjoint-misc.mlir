//===- adjoint-misc.mlir - Cases the generator lacks ----------------------===//
//
// Hand-written cases for adjoint-examples.test that the generator
// (gen/stencilgen.py) does not produce: active arrays accessed through a
// transposing `dims` with different extents per dimension, a domain result
// that a later domain divides by (so the first domain is replayed and its
// result gets a gradient), a top-level scalar op on an active scalar, and
// two returned results (the C interface then returns them through a struct),
// a coefficient computed from the induction variables, and a replayed
// domain that overwrites an array an earlier domain reads linearly.
//
//===----------------------------------------------------------------------===//

// r[i][j] = a[j][i-1] * sin(a[j][i+1]), rt[j][i] = r[i][j] + c[i][j],
// with a of extents m x n and r of n x m.
func.func @transpose(%a: memref<?x?xf64> {stencil.active},
                     %c: memref<?x?xf64>,
                     %r: memref<?x?xf64> {stencil.active},
                     %rt: memref<?x?xf64> {stencil.active},
                     %n: index, %m: index) {
  stencil.domain (%i, %j) = (1, 0) to (%n - 1, %m) {
    %w = stencil.gather %a[0, -1] dims [1, 0] : memref<?x?xf64>
    %e = stencil.gather %a[0, 1] dims [1, 0] : memref<?x?xf64>
    %s = math.sin %e : f64
    %v = arith.mulf %w, %s : f64
    stencil.store %v to %r : memref<?x?xf64>
  }
  stencil.domain (%i, %j) = (0, 0) to (%n, %m) {
    %x = stencil.gather %r[0, 0] : memref<?x?xf64>
    %k = stencil.gather %c[0, 0] : memref<?x?xf64>
    %y = arith.addf %x, %k : f64
    stencil.store %y to %rt dims [1, 0] : memref<?x?xf64>
  }
  return
}

// s = sum_i (1 + u[i]^2); r[i] = k^2 (u[i-1] - u[i+1]) / s;
// returns (k * sum_i r[i]^2, sum_i sin(r[i])).
func.func @normalise(%u: memref<?xf64> {stencil.active},
                     %k: f64 {stencil.active},
                     %r: memref<?xf64> {stencil.active},
                     %n: index) -> (f64, f64) {
  %s = stencil.domain (%i) = (0) to (%n) -> (f64) {
    %one = arith.constant 1.0 : f64
    %x = stencil.gather %u[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    %y = arith.addf %one, %x2 : f64
    stencil.yield %y : f64
  }
  %k2 = arith.mulf %k, %k : f64
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %d = arith.subf %a, %b : f64
    %dk = arith.mulf %d, %k2 : f64
    %y = arith.divf %dk, %s : f64
    stencil.store %y to %r : memref<?xf64>
  }
  %t:2 = stencil.domain (%i) = (0) to (%n) -> (f64, f64) {
    %x = stencil.gather %r[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    %sx = math.sin %x : f64
    stencil.yield %x2, %sx : f64, f64
  }
  %ret = arith.mulf %t#0, %k : f64
  return %ret, %t#1 : f64, f64
}

// A position-dependent coefficient from the induction variables:
// r[i][j] = (1 + i/4 - j/2) * u[i+1][j] * sin(u[i][j-1]). The gather form
// evaluates each shifted statement at q - o, so the coefficient must use
// the shifted position too.
func.func @position(%u: memref<?x?xf64> {stencil.active},
                    %r: memref<?x?xf64> {stencil.active},
                    %n: index, %m: index) {
  stencil.domain (%i, %j) = (0, 1) to (%n - 1, %m) {
    %a = stencil.gather %u[1, 0] : memref<?x?xf64>
    %b = stencil.gather %u[0, -1] : memref<?x?xf64>
    %s = math.sin %b : f64
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %fj = arith.sitofp %jj : i64 to f64
    %quarter = arith.constant 0.25 : f64
    %half = arith.constant 0.5 : f64
    %one = arith.constant 1.0 : f64
    %ti = arith.mulf %quarter, %fi : f64
    %tj = arith.mulf %half, %fj : f64
    %c0 = arith.addf %one, %ti : f64
    %c = arith.subf %c0, %tj : f64
    %as = arith.mulf %a, %s : f64
    %v = arith.mulf %c, %as : f64
    stencil.store %v to %r : memref<?x?xf64>
  }
  return
}

// A replayed domain that overwrites an array an earlier domain reads
// linearly: a = u[-1] + u[1] inside, copied back into u, then
// r = u^2 * sin(u[-1]) from the new u. The copy is replayed for the last
// domain; the first domain's adjoint does not read u, so nothing it needs
// is clobbered (docs/Adjoint.md, section 3.3).
func.func @linear_clobber(%u: memref<?xf64> {stencil.active},
                          %a: memref<?xf64> {stencil.active},
                          %r: memref<?xf64> {stencil.active}, %n: index) {
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  stencil.domain (%i) = (1) to (%nm1) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %z = stencil.gather %u[1] : memref<?xf64>
    %y = arith.addf %x, %z : f64
    stencil.store %y to %a : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%nm1) {
    %x = stencil.gather %a[0] : memref<?xf64>
    stencil.store %x to %u : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %w = stencil.gather %u[-1] : memref<?xf64>
    %s = math.sin %w : f64
    %x2 = arith.mulf %x, %x : f64
    %y = arith.mulf %x2, %s : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}
