// A 2-D stencil through the math functions that have both an adjoint rule
// and a C99 function (test/Integration/c-source.test): the C source route
// calls <math.h>, the object route LLVM's intrinsics or libm.

func.func @c_source_math(%v: memref<?x?xf64> {stencil.active},
                         %u: memref<?x?xf64> {stencil.active}, %a: f64,
                         %n: index, %m: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %m - 1) {
    %one = arith.constant 1.0 : f64
    %c = stencil.gather %u[0, 0] : memref<?x?xf64>
    %e = stencil.gather %u[1, 0] : memref<?x?xf64>
    %w = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %s = stencil.gather %u[0, 1] : memref<?x?xf64>
    %no = stencil.gather %u[0, -1] : memref<?x?xf64>
    // sqrt(c^2 + 1) >= 1
    %cc = arith.mulf %c, %c : f64
    %cc1 = arith.addf %cc, %one : f64
    %t1 = math.sqrt %cc1 : f64
    %se = math.sin %e : f64
    %t2 = math.exp %se : f64
    %ww = arith.mulf %w, %w : f64
    %ww1 = arith.addf %ww, %one : f64
    %t3 = math.log %ww1 : f64
    %t4 = math.tanh %s : f64
    %t5 = math.atan2 %no, %t1 : f64
    %t6 = math.powf %t1, %a : f64
    %t7 = math.rsqrt %t1 : f64
    %cs = math.cos %s : f64
    %ecs = arith.mulf %e, %cs : f64
    %t8 = math.absf %ecs : f64
    %t9 = math.cbrt %w : f64
    %x1 = arith.addf %t1, %t2 : f64
    %x2 = arith.addf %x1, %t3 : f64
    %x3 = arith.mulf %x2, %t4 : f64
    %x4 = arith.addf %x3, %t5 : f64
    %x5 = arith.subf %x4, %t6 : f64
    %x6 = arith.addf %x5, %t7 : f64
    %x7 = arith.mulf %x6, %t8 : f64
    %x8 = arith.addf %x7, %t9 : f64
    stencil.store %x8 to %v : memref<?x?xf64>
  }
  return
}
