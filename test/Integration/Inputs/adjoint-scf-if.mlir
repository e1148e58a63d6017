//===- adjoint-scf-if.mlir - Choices whose untaken arm is undefined -------===//
//
// Cases for adjoint-scf-if.test: domain bodies with an scf.if whose arm is
// undefined where it is not taken (sqrt and log of a negative value, a
// division by zero), at points the inputs give: the condition's other side
// holds at about half of them. The adjoint's branch evaluates only the
// taken arm's derivatives, so every gradient is finite.
//
//===----------------------------------------------------------------------===//

// r[i] = t > 0 ? sqrt(t) : 0 with t = u[i-1] - u[i+1] (t < 0 at about half
// the points).
func.func @sqrt_clip(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                     %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %t = arith.subf %a, %b : f64
    %zero = arith.constant 0.0 : f64
    %c = arith.cmpf ogt, %t, %zero : f64
    %x = scf.if %c -> (f64) {
      %s = math.sqrt %t : f64
      scf.yield %s : f64
    } else {
      scf.yield %zero : f64
    }
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// Linear in u: x = max(c, 0) is 0 wherever c < 0 (about half the points),
// q = u[i-1][j] + 2 u[i][j+1],
// r[i][j] = x != 0 ? q / x + q * log(x) : -q.
func.func @safe_div(%u: memref<?x?xf64> {stencil.active}, %c: memref<?x?xf64>,
                    %r: memref<?x?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (1, 0) to (%n, %n - 1) {
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %b = stencil.gather %u[0, 1] : memref<?x?xf64>
    %w = stencil.gather %c[0, 0] : memref<?x?xf64>
    %zero = arith.constant 0.0 : f64
    %two = arith.constant 2.0 : f64
    %b2 = arith.mulf %two, %b : f64
    %q = arith.addf %a, %b2 : f64
    %x = arith.maxnumf %w, %zero : f64
    %nz = arith.cmpf one, %x, %zero : f64
    %y = scf.if %nz -> (f64) {
      %d = arith.divf %q, %x : f64
      %l = math.log %x : f64
      %m = arith.mulf %q, %l : f64
      %s = arith.addf %d, %m : f64
      scf.yield %s : f64
    } else {
      %nq = arith.negf %q : f64
      scf.yield %nq : f64
    }
    stencil.store %y to %r : memref<?x?xf64>
  }
  return
}

// Two results, a nested scf.if, an active scalar k used in an arm and an
// arm that yields a value from above, with a result summed over the domain:
// t = u[i-1] - u[i+1], w = c[i],
// (x, y) = t > 0.25 ? (log(t) * w, w != 0 ? k / t / w : 0) : (w * u[i+1], w),
// r[i] = x + y, and the function returns the sum of y * y.
func.func @two_results(%u: memref<?xf64> {stencil.active}, %c: memref<?xf64> {stencil.active},
                       %r: memref<?xf64> {stencil.active}, %k: f64 {stencil.active},
                       %n: index) -> f64 {
  %sum = stencil.domain (%i) = (1) to (%n - 1) -> (f64) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %w = stencil.gather %c[0] : memref<?xf64>
    %t = arith.subf %a, %b : f64
    %zero = arith.constant 0.0 : f64
    %quarter = arith.constant 0.25 : f64
    %pos = arith.cmpf ogt, %t, %quarter : f64
    %x, %y = scf.if %pos -> (f64, f64) {
      %s = math.log %t : f64
      %q = arith.mulf %s, %w : f64
      %d = arith.divf %k, %t : f64
      %ne = arith.cmpf one, %w, %zero : f64
      %z = scf.if %ne -> (f64) {
        %inv = arith.divf %d, %w : f64
        scf.yield %inv : f64
      } else {
        scf.yield %zero : f64
      }
      scf.yield %q, %z : f64, f64
    } else {
      %m = arith.mulf %w, %b : f64
      scf.yield %m, %w : f64, f64
    }
    %v = arith.addf %x, %y : f64
    stencil.store %v to %r : memref<?xf64>
    %yy = arith.mulf %y, %y : f64
    stencil.yield %yy : f64
  }
  return %sum : f64
}

// A time loop (docs/TimeLoops.md) whose step holds a choice between
// scalars, e = s > 0 ? log(s) : s, and one in a domain body:
// y[i] = x[i] + 0.1 * e * (t > 0 ? sqrt(t) : t), t = x[i-1] - x[i+1].
func.func @loop(%a: memref<?xf64> {stencil.active}, %b: memref<?xf64> {stencil.active},
                %s: f64 {stencil.active}, %n: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %dt = arith.constant 0.1 : f64
  %r:2 = scf.for %k = %c0 to %steps step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    %p = arith.cmpf ogt, %s, %zero : f64
    %e = scf.if %p -> (f64) {
      %l = math.log %s : f64
      scf.yield %l : f64
    } else {
      scf.yield %s : f64
    }
    %g = arith.mulf %dt, %e : f64
    stencil.domain (%i) = (1) to (%n - 1) {
      %u = stencil.gather %x[-1] : memref<?xf64>
      %v = stencil.gather %x[1] : memref<?xf64>
      %m = stencil.gather %x[0] : memref<?xf64>
      %t = arith.subf %u, %v : f64
      %c = arith.cmpf ogt, %t, %zero : f64
      %f = scf.if %c -> (f64) {
        %q = math.sqrt %t : f64
        scf.yield %q : f64
      } else {
        scf.yield %t : f64
      }
      %gf = arith.mulf %g, %f : f64
      %w = arith.addf %m, %gf : f64
      stencil.store %w to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return
}
