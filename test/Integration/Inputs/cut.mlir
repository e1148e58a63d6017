//===- cut.mlir - Nonlinear bodies whose gather form is cut ---------------===//
//
// Cases for gather-cut.test: bodies in which statements at several shifts
// share a nonlinear value, so that --stencil-cut-shared stores it in a
// temporary array before the gather conversion, with cut-min-gain=1 (the
// default cost model leaves bodies this small uncut).
//
//===----------------------------------------------------------------------===//

// r[i] = k * tanh(u[i-1] + 2 u[i] + u[i+1]) + u[i+1]: one value shared by
// three shifts, plus a linear term.
func.func @tanh1d(%r: memref<?xf64> {stencil.active},
                  %u: memref<?xf64> {stencil.active},
                  %k: f64 {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %two = arith.constant 2.0 : f64
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[0] : memref<?xf64>
    %c = stencil.gather %u[1] : memref<?xf64>
    %b2 = arith.mulf %two, %b : f64
    %s = arith.addf %a, %b2 : f64
    %t = arith.addf %s, %c : f64
    %h = math.tanh %t : f64
    %kh = arith.mulf %k, %h : f64
    %y = arith.addf %kh, %c : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// Two outputs with their own shared values: p = exp(a[i-1,j] * a[i+1,j]),
// q = sin(a[i,j-1] + a[i,j+1]) * c[i,j], with c passive.
func.func @two2d(%a: memref<?x?xf64> {stencil.active},
                 %c: memref<?x?xf64>,
                 %p: memref<?x?xf64> {stencil.active},
                 %q: memref<?x?xf64> {stencil.active},
                 %n: index, %m: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %m - 1) {
    %w = stencil.gather %a[-1, 0] : memref<?x?xf64>
    %e = stencil.gather %a[1, 0] : memref<?x?xf64>
    %s = stencil.gather %a[0, -1] : memref<?x?xf64>
    %nn = stencil.gather %a[0, 1] : memref<?x?xf64>
    %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
    %we = arith.mulf %w, %e : f64
    %x = math.exp %we : f64
    stencil.store %x to %p : memref<?x?xf64>
    %sn = arith.addf %s, %nn : f64
    %y = math.sin %sn : f64
    %z = arith.mulf %y, %cc : f64
    stencil.store %z to %q : memref<?x?xf64>
  }
  return
}

// A shared value that also feeds a domain result: r[i] = cos(u[i-1] u[i+1]),
// returns sum_i r[i] * u[i].
func.func @result1d(%r: memref<?xf64> {stencil.active},
                    %u: memref<?xf64> {stencil.active}, %n: index) -> f64 {
  %sum = stencil.domain (%i) = (1) to (%n - 1) -> (f64) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[0] : memref<?xf64>
    %c = stencil.gather %u[1] : memref<?xf64>
    %ac = arith.mulf %a, %c : f64
    %y = math.cos %ac : f64
    stencil.store %y to %r : memref<?xf64>
    %yb = arith.mulf %y, %b : f64
    stencil.yield %yb : f64
  }
  return %sum : f64
}

// Padded: r[i] = exp(u[i-2] - u[i+1]) over [2, n-1). The adjoint's two
// statements are the cut value and its negation, at offsets -2 and 1: a
// border of 3 on each side.
func.func @exp1d(%r: memref<?xf64> {stencil.active},
                 %u: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (2) to (%n - 1) {
    %a = stencil.gather %u[-2] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %d = arith.subf %a, %b : f64
    %y = math.exp %d : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// Padded: r[i,j] = tanh(u[i-1,j] + u[i+1,j] + 0.5 u[i,j-1] + u[i,j+1]) over
// [1, n-1) x [2, m-1): four statements, one scaled by 0.5.
func.func @tanh2d(%r: memref<?x?xf64> {stencil.active},
                  %u: memref<?x?xf64> {stencil.active}, %n: index,
                  %m: index) {
  stencil.domain (%i, %j) = (1, 2) to (%n - 1, %m - 1) {
    %half = arith.constant 0.5 : f64
    %w = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %e = stencil.gather %u[1, 0] : memref<?x?xf64>
    %s = stencil.gather %u[0, -1] : memref<?x?xf64>
    %nn = stencil.gather %u[0, 1] : memref<?x?xf64>
    %hs = arith.mulf %half, %s : f64
    %t0 = arith.addf %w, %e : f64
    %t1 = arith.addf %t0, %hs : f64
    %t2 = arith.addf %t1, %nn : f64
    %y = math.tanh %t2 : f64
    stencil.store %y to %r : memref<?x?xf64>
  }
  return
}
