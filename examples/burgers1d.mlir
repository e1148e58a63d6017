//===- burgers1d.mlir - 1-D Burgers equation time step --------------------===//
//
// The Burgers equation test case of Section 4.2 of Hückelheim et al.,
// "Automatic Differentiation for Adjoint Stencil Loops", ICPP 2019. One
// explicit time step with first-order upwinding of the convective term,
// C = dt/dx and D = nu*dt/dx^2:
//
//   u[i] = u_1[i]
//        - C * ( max(u_1[i], 0) * (u_1[i] - u_1[i-1])
//              + min(u_1[i], 0) * (u_1[i+1] - u_1[i]) )
//        + D * ( u_1[i+1] + u_1[i-1] - 2.0 * u_1[i] )
//
// for 1 <= i <= n-2, where u_1 is the previous time step. The C code that
// PerforAD generates for it (Figure 7 of the paper):
//
//   for ( i=1; i<=n - 2; i++ ) {
//       u[i] += -C*((-u_1[i] + u_1[i + 1])*fmin(0, u_1[i])
//                  + (u_1[i] - u_1[i - 1])*fmax(0, u_1[i]))
//              + D*(-2.0*u_1[i] + u_1[i - 1] + u_1[i + 1])
//              + u_1[i];
//   }
//
// PerforAD writes `+=` into an output that starts at zero; this file writes
// the assignment `u = rhs` of the PerforAD script (`lhs=u(i), rhs=expr`).
// The inclusive C bounds 1..n-2 become the exclusive domain bounds (1) to
// (%n - 1). max and min are arith.maximumf and arith.minimumf; they differ
// from C's fmax/fmin only for NaN inputs (they propagate the NaN).
//
// Array sizes: u and u_1 have n elements (indices 0..n-1); u_1[0] and
// u_1[n-1] are read as boundary values, u[0] and u[n-1] are not written.
//
//===----------------------------------------------------------------------===//

func.func @burgers1d(%u: memref<?xf64> {stencil.active},
                     %u_1: memref<?xf64> {stencil.active}, %C: f64, %D: f64,
                     %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %zero = arith.constant 0.0 : f64
    %two = arith.constant 2.0 : f64

    %u1_m = stencil.gather %u_1[-1] : memref<?xf64>
    %u1_c = stencil.gather %u_1[0] : memref<?xf64>
    %u1_p = stencil.gather %u_1[1] : memref<?xf64>

    // Upwinded convection: ux = max(u,0) * (u[i]-u[i-1]) + min(u,0) * (u[i+1]-u[i])
    %ap = arith.maximumf %u1_c, %zero : f64
    %am = arith.minimumf %u1_c, %zero : f64
    %uxm = arith.subf %u1_c, %u1_m : f64
    %uxp = arith.subf %u1_p, %u1_c : f64
    %conv_m = arith.mulf %ap, %uxm : f64
    %conv_p = arith.mulf %am, %uxp : f64
    %ux = arith.addf %conv_m, %conv_p : f64

    // Diffusion: u[i+1] + u[i-1] - 2.0 * u[i]
    %sides = arith.addf %u1_p, %u1_m : f64
    %two_u = arith.mulf %two, %u1_c : f64
    %uxx = arith.subf %sides, %two_u : f64

    // u = u_1 - C * ux + D * uxx
    %C_ux = arith.mulf %C, %ux : f64
    %D_uxx = arith.mulf %D, %uxx : f64
    %advected = arith.subf %u1_c, %C_ux : f64
    %u_new = arith.addf %advected, %D_uxx : f64
    stencil.store %u_new to %u : memref<?xf64>
  }
  return
}
