//===- wave3d_layered.mlir - wave3d with a layered, active speed ----------===//
//
// examples/wave3d.mlir with the coefficient c = a^2 depending on the depth k
// only, v[k] (a layered model, as in seismic inversion), and active: the
// adjoint gives v_b[k], the sum over (i, j) of each point's share, beside
// u_1b and u_2b. Otherwise the same stencil:
//
//   u[i,j,k] = 2 u_1[i,j,k] - u_2[i,j,k] + v[k] * D * lap(u_1)[i,j,k]
//
// for 1 <= i, j, k <= n-2; v has n elements. stencil-bench times its
// adjoint against the same step with a full 3-D c active
// (bench/kernels/wave3d_coef3d.mlir, the variant gather_coef3d).
//
//===----------------------------------------------------------------------===//

func.func @wave3d_layered(%u: memref<?x?x?xf64> {stencil.active},
                          %u_1: memref<?x?x?xf64> {stencil.active},
                          %u_2: memref<?x?x?xf64> {stencil.active},
                          %v: memref<?xf64> {stencil.active},
                          %D: f64,
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
    %v_k = stencil.gather %v[0] dims [2] : memref<?xf64>

    // lap = (sum of the six neighbours) - 6.0 * u_1[i,j,k]
    %s_i = arith.addf %u1_im, %u1_ip : f64
    %s_j = arith.addf %u1_jm, %u1_jp : f64
    %s_k = arith.addf %u1_km, %u1_kp : f64
    %s_ij = arith.addf %s_i, %s_j : f64
    %neighbours = arith.addf %s_ij, %s_k : f64
    %six_u1 = arith.mulf %six, %u1_c : f64
    %lap = arith.subf %neighbours, %six_u1 : f64

    // v[k] * D * lap
    %cD = arith.mulf %v_k, %D : f64
    %wave = arith.mulf %cD, %lap : f64

    // 2.0 * u_1 - u_2 + c * D * lap
    %two_u1 = arith.mulf %two, %u1_c : f64
    %leap = arith.subf %two_u1, %u2_c : f64
    %u_new = arith.addf %leap, %wave : f64
    stencil.store %u_new to %u : memref<?x?x?xf64>
  }
  return
}
