//===- wave3d_coef3d.mlir - wave3d with an active 3-D speed ---------------===//
//
// examples/wave3d.mlir with c active: the adjoint gives c_b, an array like
// u_1b, beside u_1b and u_2b. The yardstick of the layered model
// (bench/kernels/wave3d_layered.mlir, the same stencil with v[k]): stencil-
// bench times both adjoints in the same rounds (the wave3d_layered kernel,
// variants gather_compact and gather_coef3d).
//
//===----------------------------------------------------------------------===//

func.func @wave3d_coef3d(%u: memref<?x?x?xf64> {stencil.active},
                         %u_1: memref<?x?x?xf64> {stencil.active},
                         %u_2: memref<?x?x?xf64> {stencil.active},
                         %c: memref<?x?x?xf64> {stencil.active},
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
