//===- wave3d.mlir - 3-D wave equation time step --------------------------===//
//
// The wave equation test case of Section 4.1 of Hückelheim et al.,
// "Automatic Differentiation for Adjoint Stencil Loops", ICPP 2019. One time
// step of a second-order finite-difference solver with spatially varying
// wave speed (c = a^2) and D = (dt/dx)^2:
//
//   u[i,j,k] = 2.0 * u_1[i,j,k] - u_2[i,j,k]
//            + c[i,j,k] * D * ( u_1[i-1,j,k] + u_1[i+1,j,k]
//                             + u_1[i,j-1,k] + u_1[i,j+1,k]
//                             + u_1[i,j,k-1] + u_1[i,j,k+1]
//                             - 6.0 * u_1[i,j,k] )
//
// for 1 <= i, j, k <= n-2, where u_1 and u_2 are the two previous time steps.
// The C code that PerforAD generates for it (Figure 5 of the paper):
//
//   for ( i=1; i<=n - 2; i++ )
//     for ( j=1; j<=n - 2; j++ )
//       for ( k=1; k<=n - 2; k++ ) {
//         u[i][j][k] += D*(-6*u_1[i][ j][ k] + u_1[i][ j][ k - 1]
//                        + u_1[i][ j][ k + 1] + u_1[i][ j - 1][ k]
//                        + u_1[i][ j + 1][ k] + u_1[i - 1][ j][ k]
//                        + u_1[i + 1][ j][ k])*c[i][ j][ k]
//                        + 2.0*u_1[i][ j][ k] - u_2[i][ j][ k];
//       }
//
// PerforAD writes `+=` into an output that starts at zero; this file writes
// the assignment `u = rhs` of the PerforAD script (`lhs=u(i,j,k), rhs=expr`).
// The inclusive C bounds 1..n-2 become the exclusive domain bounds
// (1, 1, 1) to (%n - 1, %n - 1, %n - 1).
//
// Array sizes: u, u_1, u_2 and c are n x n x n (indices 0..n-1 in each
// dimension); the Laplacian reads u_1 one point beyond the domain on each
// side, i.e. on the boundary layers 0 and n-1.
//
//===----------------------------------------------------------------------===//

func.func @wave3d(%u: memref<?x?x?xf64> {stencil.active},
                  %u_1: memref<?x?x?xf64> {stencil.active},
                  %u_2: memref<?x?x?xf64> {stencil.active},
                  %c: memref<?x?x?xf64>, %D: f64,
                  %n: index) {
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n - 1, %n - 1, %n - 1) {
    %two = arith.constant 2.0 : f64
    %six = arith.constant 6.0 : f64

    // The 7-point star of u_1 around (i, j, k).
    %u1_c = stencil.gather %u_1[0, 0, 0] : memref<?x?x?xf64>
    %u1_im = stencil.gather %u_1[-1, 0, 0] : memref<?x?x?xf64>
    %u1_ip = stencil.gather %u_1[1, 0, 0] : memref<?x?x?xf64>
    %u1_jm = stencil.gather %u_1[0, -1, 0] : memref<?x?x?xf64>
    %u1_jp = stencil.gather %u_1[0, 1, 0] : memref<?x?x?xf64>
    %u1_km = stencil.gather %u_1[0, 0, -1] : memref<?x?x?xf64>
    %u1_kp = stencil.gather %u_1[0, 0, 1] : memref<?x?x?xf64>
    %u2_c = stencil.gather %u_2[0, 0, 0] : memref<?x?x?xf64>
    %c_c = stencil.gather %c[0, 0, 0] : memref<?x?x?xf64>

    // lap = (sum of the six neighbours) - 6.0 * u_1[i,j,k]
    %s_i = arith.addf %u1_im, %u1_ip : f64
    %s_j = arith.addf %u1_jm, %u1_jp : f64
    %s_k = arith.addf %u1_km, %u1_kp : f64
    %s_ij = arith.addf %s_i, %s_j : f64
    %neighbours = arith.addf %s_ij, %s_k : f64
    %six_u1 = arith.mulf %six, %u1_c : f64
    %lap = arith.subf %neighbours, %six_u1 : f64

    // c * D * lap
    %cD = arith.mulf %c_c, %D : f64
    %wave = arith.mulf %cD, %lap : f64

    // 2.0 * u_1 - u_2 + c * D * lap
    %two_u1 = arith.mulf %two, %u1_c : f64
    %leap = arith.subf %two_u1, %u2_c : f64
    %u_new = arith.addf %leap, %wave : f64
    stencil.store %u_new to %u : memref<?x?x?xf64>
  }
  return
}
