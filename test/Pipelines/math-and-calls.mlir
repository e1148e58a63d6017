// Every math op with a derivative rule lowers to LLVM (intrinsics where LLVM
// has them, libm calls otherwise), and calls inside guarded gather nests
// lower too (convert-scf-to-openmp wraps such bodies in a memref.alloca_scope
// that --stencil-inline-alloca-scopes removes).
// RUN: stencil-opt %s --stencil-adjoint --convert-to-omp | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: stencil-opt %s --stencil-adjoint --convert-to-omp="boundary=exact" | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-affine --lower-affine --convert-scf-to-openmp --stencil-inline-alloca-scopes | FileCheck %s --check-prefix=SCOPE

// CHECK-DAG: define void @math_ops_adjoint(
// CHECK-DAG: define void @calls_adjoint(
// CHECK-DAG: call double @cbrt(
// CHECK-DAG: call double @llvm.atan2.f64(
// CHECK-DAG: call double @llvm.tan.f64(
// CHECK-DAG: call double @dg(

// SCOPE-LABEL: func.func @calls
// SCOPE-NOT: memref.alloca_scope
// SCOPE: func.call @g

func.func @math_ops(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[0] : memref<?xf64>
    %one = arith.constant 1.0 : f64
    %sq = arith.mulf %a, %a : f64
    %pos = arith.addf %sq, %one : f64
    %x1 = math.sin %a : f64
    %x2 = math.cos %b : f64
    %x3 = math.tan %a : f64
    %x4 = math.exp %a : f64
    %x5 = math.exp2 %b : f64
    %x6 = math.expm1 %a : f64
    %x7 = math.log %pos : f64
    %x8 = math.log2 %pos : f64
    %x9 = math.log10 %pos : f64
    %x10 = math.log1p %sq : f64
    %x11 = math.sqrt %pos : f64
    %x12 = math.rsqrt %pos : f64
    %x13 = math.cbrt %pos : f64
    %x14 = math.tanh %a : f64
    %x15 = math.sinh %b : f64
    %x16 = math.cosh %a : f64
    %x17 = math.atan %b : f64
    %x18 = math.atan2 %a, %pos : f64
    %x19 = math.absf %a : f64
    %x20 = math.powf %pos, %b : f64
    %c2 = arith.constant 2 : i32
    %x21 = math.fpowi %a, %c2 : f64, i32
    %x22 = math.copysign %a, %b : f64
    %x23 = math.floor %a : f64
    %x24 = math.ceil %b : f64
    %s1 = arith.addf %x1, %x2 : f64
    %s2 = arith.addf %s1, %x3 : f64
    %s3 = arith.addf %s2, %x4 : f64
    %s4 = arith.addf %s3, %x5 : f64
    %s5 = arith.addf %s4, %x6 : f64
    %s6 = arith.addf %s5, %x7 : f64
    %s7 = arith.addf %s6, %x8 : f64
    %s8 = arith.addf %s7, %x9 : f64
    %s9 = arith.addf %s8, %x10 : f64
    %s10 = arith.addf %s9, %x11 : f64
    %s11 = arith.addf %s10, %x12 : f64
    %s12 = arith.addf %s11, %x13 : f64
    %s13 = arith.addf %s12, %x14 : f64
    %s14 = arith.addf %s13, %x15 : f64
    %s15 = arith.addf %s14, %x16 : f64
    %s16 = arith.addf %s15, %x17 : f64
    %s17 = arith.addf %s16, %x18 : f64
    %s18 = arith.addf %s17, %x19 : f64
    %s19 = arith.addf %s18, %x20 : f64
    %s20 = arith.addf %s19, %x21 : f64
    %s21 = arith.addf %s20, %x22 : f64
    %s22 = arith.addf %s21, %x23 : f64
    %s23 = arith.addf %s22, %x24 : f64
    stencil.store %s23 to %r : memref<?xf64>
  }
  return
}

func.func private @g(%a: f64) -> f64 {
  %s = math.sin %a : f64
  return %s : f64
}
func.func private @dg(%a: f64) -> f64 {
  %c = math.cos %a : f64
  return %c : f64
}
func.func @calls(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %z = func.call @g(%a) {stencil.partials = [@dg]} : (f64) -> f64
    %y = arith.addf %z, %b : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}
