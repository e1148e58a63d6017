//===- adjoint-examples.mlir - Paper programs, scalars active -------------===//
//
// The three programs of examples/ (the paper's running example, the 3-D
// wave equation and the 1-D Burgers equation), with the arrays and scalars to
// differentiate marked stencil.active: r and u of paper1d; u, u_1, u_2 and
// the coefficient D of wave3d; u, u_1, C and D of burgers1d. The bodies are
// copies of examples/*.mlir; adjoint-examples.test checks the adjoints that
// --stencil-adjoint builds for them (adjoint-examples.json describes the
// arguments and sizes).
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

func.func @wave3d(%u: memref<?x?x?xf64> {stencil.active},
                  %u_1: memref<?x?x?xf64> {stencil.active},
                  %u_2: memref<?x?x?xf64> {stencil.active},
                  %c: memref<?x?x?xf64>, %D: f64 {stencil.active},
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

func.func @burgers1d(%u: memref<?xf64> {stencil.active},
                     %u_1: memref<?xf64> {stencil.active},
                     %C: f64 {stencil.active}, %D: f64 {stencil.active},
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
