//===- paper1d.mlir - The 1-D three-point stencil of the paper ------------===//
//
// The running example of Section 3.2 ("1D Example") of Hückelheim et al.,
// "Automatic Differentiation for Adjoint Stencil Loops", ICPP 2019:
//
//   r[i] = c[i] * (2.0 * u[i-1] - 3.0 * u[i] + 4.0 * u[i+1]),  1 <= i <= n-1
//
// in C, as printed in the paper:
//
//   #pragma omp parallel for private(i)
//   for ( i=1; i<=n - 1; i++ ) {
//     r[i] = c[i]*(2.0*u[i-1]-3.0*u[i]+4*u[i+1]);
//   }
//
// The C loop bound is inclusive; `stencil.domain` upper bounds are exclusive,
// so the domain is (1) to (%n).
//
// Array sizes: the last point i = n-1 reads u[n], so `u` has n+1 elements
// (indices 0..n). `c` and `r` are accessed at 1..n-1 only and need at least
// n elements; the paper's adjoint (ub[0..n]) suggests allocating all three
// with n+1 elements.
//
//===----------------------------------------------------------------------===//

func.func @paper1d(%r: memref<?xf64> {stencil.active}, %c: memref<?xf64>,
                   %u: memref<?xf64> {stencil.active},
                   %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %two = arith.constant 2.0 : f64
    %three = arith.constant 3.0 : f64
    %four = arith.constant 4.0 : f64

    %u_m1 = stencil.gather %u[-1] : memref<?xf64>
    %u_0 = stencil.gather %u[0] : memref<?xf64>
    %u_p1 = stencil.gather %u[1] : memref<?xf64>
    %c_0 = stencil.gather %c[0] : memref<?xf64>

    // 2.0*u[i-1] - 3.0*u[i] + 4.0*u[i+1]
    %west = arith.mulf %two, %u_m1 : f64
    %centre = arith.mulf %three, %u_0 : f64
    %east = arith.mulf %four, %u_p1 : f64
    %west_centre = arith.subf %west, %centre : f64
    %sum = arith.addf %west_centre, %east : f64

    // r[i] = c[i] * (...)
    %r_0 = arith.mulf %c_0, %sum : f64
    stencil.store %r_0 to %r : memref<?xf64>
  }
  return
}
