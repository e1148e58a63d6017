//===- dense27_call.mlir - dense27 with its products in a function -----===//
//
// bench/kernels/dense27.mlir with each product w * u computed by a call to
// @scale, whose partial derivatives are @scale_dw and @scale_du
// (stencil.partials). The GPU benchmark's checks (bench/gpu, variant
// gather_call) require its adjoint on the device to be bitwise equal to
// dense27's: the calls run on the device (docs/GPU.md) and compute the
// same products. Made from dense27.mlir by replacing each
// `%tN = arith.mulf %wN, %uN` with the call.
//
//===----------------------------------------------------------------------===//

func.func private @scale(%w: f64, %u: f64) -> f64 {
  %p = arith.mulf %w, %u : f64
  return %p : f64
}
func.func private @scale_dw(%w: f64, %u: f64) -> f64 {
  return %u : f64
}
func.func private @scale_du(%w: f64, %u: f64) -> f64 {
  return %w : f64
}

func.func @dense27(%r: memref<?x?x?xf64> {stencil.active},
                   %u: memref<?x?x?xf64> {stencil.active},
                   %n: index) {
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n - 1, %n - 1, %n - 1) {
    %w0 = arith.constant 0.015625 : f64
    %u0 = stencil.gather %u[-1, -1, -1] : memref<?x?x?xf64>
    %t0 = func.call @scale(%w0, %u0) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %w1 = arith.constant 0.03125 : f64
    %u1 = stencil.gather %u[-1, -1, 0] : memref<?x?x?xf64>
    %t1 = func.call @scale(%w1, %u1) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s1 = arith.addf %t0, %t1 : f64
    %w2 = arith.constant 0.046875 : f64
    %u2 = stencil.gather %u[-1, -1, 1] : memref<?x?x?xf64>
    %t2 = func.call @scale(%w2, %u2) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s2 = arith.addf %s1, %t2 : f64
    %w3 = arith.constant 0.0625 : f64
    %u3 = stencil.gather %u[-1, 0, -1] : memref<?x?x?xf64>
    %t3 = func.call @scale(%w3, %u3) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s3 = arith.addf %s2, %t3 : f64
    %w4 = arith.constant 0.078125 : f64
    %u4 = stencil.gather %u[-1, 0, 0] : memref<?x?x?xf64>
    %t4 = func.call @scale(%w4, %u4) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s4 = arith.addf %s3, %t4 : f64
    %w5 = arith.constant 0.09375 : f64
    %u5 = stencil.gather %u[-1, 0, 1] : memref<?x?x?xf64>
    %t5 = func.call @scale(%w5, %u5) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s5 = arith.addf %s4, %t5 : f64
    %w6 = arith.constant 0.109375 : f64
    %u6 = stencil.gather %u[-1, 1, -1] : memref<?x?x?xf64>
    %t6 = func.call @scale(%w6, %u6) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s6 = arith.addf %s5, %t6 : f64
    %w7 = arith.constant 0.125 : f64
    %u7 = stencil.gather %u[-1, 1, 0] : memref<?x?x?xf64>
    %t7 = func.call @scale(%w7, %u7) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s7 = arith.addf %s6, %t7 : f64
    %w8 = arith.constant 0.140625 : f64
    %u8 = stencil.gather %u[-1, 1, 1] : memref<?x?x?xf64>
    %t8 = func.call @scale(%w8, %u8) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s8 = arith.addf %s7, %t8 : f64
    %w9 = arith.constant 0.15625 : f64
    %u9 = stencil.gather %u[0, -1, -1] : memref<?x?x?xf64>
    %t9 = func.call @scale(%w9, %u9) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s9 = arith.addf %s8, %t9 : f64
    %w10 = arith.constant 0.171875 : f64
    %u10 = stencil.gather %u[0, -1, 0] : memref<?x?x?xf64>
    %t10 = func.call @scale(%w10, %u10) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s10 = arith.addf %s9, %t10 : f64
    %w11 = arith.constant 0.1875 : f64
    %u11 = stencil.gather %u[0, -1, 1] : memref<?x?x?xf64>
    %t11 = func.call @scale(%w11, %u11) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s11 = arith.addf %s10, %t11 : f64
    %w12 = arith.constant 0.203125 : f64
    %u12 = stencil.gather %u[0, 0, -1] : memref<?x?x?xf64>
    %t12 = func.call @scale(%w12, %u12) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s12 = arith.addf %s11, %t12 : f64
    %w13 = arith.constant 0.21875 : f64
    %u13 = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    %t13 = func.call @scale(%w13, %u13) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s13 = arith.addf %s12, %t13 : f64
    %w14 = arith.constant 0.234375 : f64
    %u14 = stencil.gather %u[0, 0, 1] : memref<?x?x?xf64>
    %t14 = func.call @scale(%w14, %u14) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s14 = arith.addf %s13, %t14 : f64
    %w15 = arith.constant 0.25 : f64
    %u15 = stencil.gather %u[0, 1, -1] : memref<?x?x?xf64>
    %t15 = func.call @scale(%w15, %u15) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s15 = arith.addf %s14, %t15 : f64
    %w16 = arith.constant 0.265625 : f64
    %u16 = stencil.gather %u[0, 1, 0] : memref<?x?x?xf64>
    %t16 = func.call @scale(%w16, %u16) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s16 = arith.addf %s15, %t16 : f64
    %w17 = arith.constant 0.28125 : f64
    %u17 = stencil.gather %u[0, 1, 1] : memref<?x?x?xf64>
    %t17 = func.call @scale(%w17, %u17) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s17 = arith.addf %s16, %t17 : f64
    %w18 = arith.constant 0.296875 : f64
    %u18 = stencil.gather %u[1, -1, -1] : memref<?x?x?xf64>
    %t18 = func.call @scale(%w18, %u18) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s18 = arith.addf %s17, %t18 : f64
    %w19 = arith.constant 0.3125 : f64
    %u19 = stencil.gather %u[1, -1, 0] : memref<?x?x?xf64>
    %t19 = func.call @scale(%w19, %u19) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s19 = arith.addf %s18, %t19 : f64
    %w20 = arith.constant 0.328125 : f64
    %u20 = stencil.gather %u[1, -1, 1] : memref<?x?x?xf64>
    %t20 = func.call @scale(%w20, %u20) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s20 = arith.addf %s19, %t20 : f64
    %w21 = arith.constant 0.34375 : f64
    %u21 = stencil.gather %u[1, 0, -1] : memref<?x?x?xf64>
    %t21 = func.call @scale(%w21, %u21) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s21 = arith.addf %s20, %t21 : f64
    %w22 = arith.constant 0.359375 : f64
    %u22 = stencil.gather %u[1, 0, 0] : memref<?x?x?xf64>
    %t22 = func.call @scale(%w22, %u22) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s22 = arith.addf %s21, %t22 : f64
    %w23 = arith.constant 0.375 : f64
    %u23 = stencil.gather %u[1, 0, 1] : memref<?x?x?xf64>
    %t23 = func.call @scale(%w23, %u23) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s23 = arith.addf %s22, %t23 : f64
    %w24 = arith.constant 0.390625 : f64
    %u24 = stencil.gather %u[1, 1, -1] : memref<?x?x?xf64>
    %t24 = func.call @scale(%w24, %u24) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s24 = arith.addf %s23, %t24 : f64
    %w25 = arith.constant 0.40625 : f64
    %u25 = stencil.gather %u[1, 1, 0] : memref<?x?x?xf64>
    %t25 = func.call @scale(%w25, %u25) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s25 = arith.addf %s24, %t25 : f64
    %w26 = arith.constant 0.421875 : f64
    %u26 = stencil.gather %u[1, 1, 1] : memref<?x?x?xf64>
    %t26 = func.call @scale(%w26, %u26) {stencil.partials = [@scale_dw, @scale_du]}
        : (f64, f64) -> f64
    %s26 = arith.addf %s25, %t26 : f64
    stencil.store %s26 to %r : memref<?x?x?xf64>
  }
  return
}
