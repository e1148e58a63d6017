// RUN: stencil-opt %s --stencil-allow-contraction | FileCheck %s

// Every arith op with fast-math flags gains `contract` (so that LLVM may
// form FMAs), keeping the flags it had; ops without fast-math flags are
// left alone.
// CHECK-LABEL: func.func @f
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f64
// CHECK: arith.addi %{{.*}}, %{{.*}} : i64
func.func @f(%a: f64, %b: f64, %c: f64, %i: i64) -> f64 {
  %m = arith.mulf %a, %b fastmath<nnan> : f64
  %s = arith.addf %m, %c : f64
  %j = arith.addi %i, %i : i64
  return %s : f64
}
