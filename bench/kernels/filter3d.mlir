//===- filter3d.mlir - A 3x3x3 filter with learnable weights --------------===//
//
// A 3-D convolution (a cross-correlation, as in CNN layers) whose 27 taps
// are an array w, read as fixed elements:
//
//   r[i,j,k] = sum over (a,b,c) in {0,1,2}^3 of w[a,b,c] * u[i+a-1,j+b-1,k+c-1]
//
// for 1 <= i, j, k <= n-2, the terms summed in lexicographic order of
// (a,b,c), left to right (bench/reference/filter3d.c sums in the same
// order). u and w are active: the adjoint gives u_b (a gather, as for
// dense27) and w_b, 27 reductions over the whole domain. The same kernel
// with w passive is bench/kernels/filter3d_wpassive.mlir.
//
// Array sizes: u and r are n x n x n, w is 3 x 3 x 3.
//
//===----------------------------------------------------------------------===//

func.func @filter3d(%r: memref<?x?x?xf64> {stencil.active},
                   %u: memref<?x?x?xf64> {stencil.active},
                   %w: memref<3x3x3xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n - 1, %n - 1, %n - 1) {
    %w0 = stencil.gather %w[0, 0, 0] dims [_, _, _] : memref<3x3x3xf64>
    %u0 = stencil.gather %u[-1, -1, -1] : memref<?x?x?xf64>
    %t0 = arith.mulf %w0, %u0 : f64
    %w1 = stencil.gather %w[0, 0, 1] dims [_, _, _] : memref<3x3x3xf64>
    %u1 = stencil.gather %u[-1, -1, 0] : memref<?x?x?xf64>
    %t1 = arith.mulf %w1, %u1 : f64
    %s1 = arith.addf %t0, %t1 : f64
    %w2 = stencil.gather %w[0, 0, 2] dims [_, _, _] : memref<3x3x3xf64>
    %u2 = stencil.gather %u[-1, -1, 1] : memref<?x?x?xf64>
    %t2 = arith.mulf %w2, %u2 : f64
    %s2 = arith.addf %s1, %t2 : f64
    %w3 = stencil.gather %w[0, 1, 0] dims [_, _, _] : memref<3x3x3xf64>
    %u3 = stencil.gather %u[-1, 0, -1] : memref<?x?x?xf64>
    %t3 = arith.mulf %w3, %u3 : f64
    %s3 = arith.addf %s2, %t3 : f64
    %w4 = stencil.gather %w[0, 1, 1] dims [_, _, _] : memref<3x3x3xf64>
    %u4 = stencil.gather %u[-1, 0, 0] : memref<?x?x?xf64>
    %t4 = arith.mulf %w4, %u4 : f64
    %s4 = arith.addf %s3, %t4 : f64
    %w5 = stencil.gather %w[0, 1, 2] dims [_, _, _] : memref<3x3x3xf64>
    %u5 = stencil.gather %u[-1, 0, 1] : memref<?x?x?xf64>
    %t5 = arith.mulf %w5, %u5 : f64
    %s5 = arith.addf %s4, %t5 : f64
    %w6 = stencil.gather %w[0, 2, 0] dims [_, _, _] : memref<3x3x3xf64>
    %u6 = stencil.gather %u[-1, 1, -1] : memref<?x?x?xf64>
    %t6 = arith.mulf %w6, %u6 : f64
    %s6 = arith.addf %s5, %t6 : f64
    %w7 = stencil.gather %w[0, 2, 1] dims [_, _, _] : memref<3x3x3xf64>
    %u7 = stencil.gather %u[-1, 1, 0] : memref<?x?x?xf64>
    %t7 = arith.mulf %w7, %u7 : f64
    %s7 = arith.addf %s6, %t7 : f64
    %w8 = stencil.gather %w[0, 2, 2] dims [_, _, _] : memref<3x3x3xf64>
    %u8 = stencil.gather %u[-1, 1, 1] : memref<?x?x?xf64>
    %t8 = arith.mulf %w8, %u8 : f64
    %s8 = arith.addf %s7, %t8 : f64
    %w9 = stencil.gather %w[1, 0, 0] dims [_, _, _] : memref<3x3x3xf64>
    %u9 = stencil.gather %u[0, -1, -1] : memref<?x?x?xf64>
    %t9 = arith.mulf %w9, %u9 : f64
    %s9 = arith.addf %s8, %t9 : f64
    %w10 = stencil.gather %w[1, 0, 1] dims [_, _, _] : memref<3x3x3xf64>
    %u10 = stencil.gather %u[0, -1, 0] : memref<?x?x?xf64>
    %t10 = arith.mulf %w10, %u10 : f64
    %s10 = arith.addf %s9, %t10 : f64
    %w11 = stencil.gather %w[1, 0, 2] dims [_, _, _] : memref<3x3x3xf64>
    %u11 = stencil.gather %u[0, -1, 1] : memref<?x?x?xf64>
    %t11 = arith.mulf %w11, %u11 : f64
    %s11 = arith.addf %s10, %t11 : f64
    %w12 = stencil.gather %w[1, 1, 0] dims [_, _, _] : memref<3x3x3xf64>
    %u12 = stencil.gather %u[0, 0, -1] : memref<?x?x?xf64>
    %t12 = arith.mulf %w12, %u12 : f64
    %s12 = arith.addf %s11, %t12 : f64
    %w13 = stencil.gather %w[1, 1, 1] dims [_, _, _] : memref<3x3x3xf64>
    %u13 = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    %t13 = arith.mulf %w13, %u13 : f64
    %s13 = arith.addf %s12, %t13 : f64
    %w14 = stencil.gather %w[1, 1, 2] dims [_, _, _] : memref<3x3x3xf64>
    %u14 = stencil.gather %u[0, 0, 1] : memref<?x?x?xf64>
    %t14 = arith.mulf %w14, %u14 : f64
    %s14 = arith.addf %s13, %t14 : f64
    %w15 = stencil.gather %w[1, 2, 0] dims [_, _, _] : memref<3x3x3xf64>
    %u15 = stencil.gather %u[0, 1, -1] : memref<?x?x?xf64>
    %t15 = arith.mulf %w15, %u15 : f64
    %s15 = arith.addf %s14, %t15 : f64
    %w16 = stencil.gather %w[1, 2, 1] dims [_, _, _] : memref<3x3x3xf64>
    %u16 = stencil.gather %u[0, 1, 0] : memref<?x?x?xf64>
    %t16 = arith.mulf %w16, %u16 : f64
    %s16 = arith.addf %s15, %t16 : f64
    %w17 = stencil.gather %w[1, 2, 2] dims [_, _, _] : memref<3x3x3xf64>
    %u17 = stencil.gather %u[0, 1, 1] : memref<?x?x?xf64>
    %t17 = arith.mulf %w17, %u17 : f64
    %s17 = arith.addf %s16, %t17 : f64
    %w18 = stencil.gather %w[2, 0, 0] dims [_, _, _] : memref<3x3x3xf64>
    %u18 = stencil.gather %u[1, -1, -1] : memref<?x?x?xf64>
    %t18 = arith.mulf %w18, %u18 : f64
    %s18 = arith.addf %s17, %t18 : f64
    %w19 = stencil.gather %w[2, 0, 1] dims [_, _, _] : memref<3x3x3xf64>
    %u19 = stencil.gather %u[1, -1, 0] : memref<?x?x?xf64>
    %t19 = arith.mulf %w19, %u19 : f64
    %s19 = arith.addf %s18, %t19 : f64
    %w20 = stencil.gather %w[2, 0, 2] dims [_, _, _] : memref<3x3x3xf64>
    %u20 = stencil.gather %u[1, -1, 1] : memref<?x?x?xf64>
    %t20 = arith.mulf %w20, %u20 : f64
    %s20 = arith.addf %s19, %t20 : f64
    %w21 = stencil.gather %w[2, 1, 0] dims [_, _, _] : memref<3x3x3xf64>
    %u21 = stencil.gather %u[1, 0, -1] : memref<?x?x?xf64>
    %t21 = arith.mulf %w21, %u21 : f64
    %s21 = arith.addf %s20, %t21 : f64
    %w22 = stencil.gather %w[2, 1, 1] dims [_, _, _] : memref<3x3x3xf64>
    %u22 = stencil.gather %u[1, 0, 0] : memref<?x?x?xf64>
    %t22 = arith.mulf %w22, %u22 : f64
    %s22 = arith.addf %s21, %t22 : f64
    %w23 = stencil.gather %w[2, 1, 2] dims [_, _, _] : memref<3x3x3xf64>
    %u23 = stencil.gather %u[1, 0, 1] : memref<?x?x?xf64>
    %t23 = arith.mulf %w23, %u23 : f64
    %s23 = arith.addf %s22, %t23 : f64
    %w24 = stencil.gather %w[2, 2, 0] dims [_, _, _] : memref<3x3x3xf64>
    %u24 = stencil.gather %u[1, 1, -1] : memref<?x?x?xf64>
    %t24 = arith.mulf %w24, %u24 : f64
    %s24 = arith.addf %s23, %t24 : f64
    %w25 = stencil.gather %w[2, 2, 1] dims [_, _, _] : memref<3x3x3xf64>
    %u25 = stencil.gather %u[1, 1, 0] : memref<?x?x?xf64>
    %t25 = arith.mulf %w25, %u25 : f64
    %s25 = arith.addf %s24, %t25 : f64
    %w26 = stencil.gather %w[2, 2, 2] dims [_, _, _] : memref<3x3x3xf64>
    %u26 = stencil.gather %u[1, 1, 1] : memref<?x?x?xf64>
    %t26 = arith.mulf %w26, %u26 : f64
    %s26 = arith.addf %s25, %t26 : f64
    stencil.store %s26 to %r : memref<?x?x?xf64>
  }
  return
}
