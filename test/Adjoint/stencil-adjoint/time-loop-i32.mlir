// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s
// RUN: stencil-opt %s --stencil-adjoint --convert-to-omp | FileCheck %s --check-prefix=LOWERED

// A time loop whose induction variable is an i32 (not an index): the
// reversal counts its steps in index, from the bounds cast (signed, as the
// loop compares them), and gives the step function, in the forward steps
// and the reversed ones alike, the value the variable had, cast back to
// i32. (Without the casts, the trip count compared an i32 with an index:
// invalid IR.) Inputs/time-loops.mlir (wave1d_i32) checks the gradient.

// CHECK-LABEL: func.func @iv32_adjoint(
// CHECK-SAME: %{{[a-z0-9]+}}: memref<?xf64>, %{{[a-z0-9]+}}: memref<?xf64>, %{{[a-z0-9]+}}: index, %[[STEPS:[a-z0-9]+]]: i32
// CHECK-DAG: %[[LB:.*]] = arith.index_cast %c0_i32 : i32 to index
// CHECK-DAG: %[[UB:.*]] = arith.index_cast %[[STEPS]] : i32 to index
// CHECK-DAG: %[[ST:.*]] = arith.index_cast %c1_i32 : i32 to index
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK: %[[POS:.*]] = arith.cmpi sgt, %[[ST]], %{{.*}} : index
// CHECK: %[[DIV:.*]] = arith.select %[[POS]], %[[ST]], %{{.*}} : index
// CHECK: arith.ceildivsi %[[SPAN]], %[[DIV]] : index
// CHECK: call @stencil_ckpt_start
// CHECK: %[[TIME:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: func.call @iv32_step(%{{.*}}, %{{.*}}, %{{.*}}, %[[TIME]]) : (index, memref<?xf64>, memref<?xf64>, i32) -> ()
// CHECK: %[[BACK:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: func.call @iv32_step_adjoint(%{{.*}}, %{{.*}}, %{{.*}}, %[[BACK]], %{{.*}}, %{{.*}}) :

// CHECK-LABEL: func.func private @iv32_step(
// CHECK-SAME: %{{[a-z0-9]+}}: i32)

// LOWERED-LABEL: llvm.func @iv32_adjoint(
func.func @iv32(%u0: memref<?xf64> {stencil.active}, %u1: memref<?xf64> {stencil.active}, %n: index, %steps: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1 : index
  %nm1 = arith.subi %n, %one : index
  %r:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%a = %u0, %b = %u1) -> (memref<?xf64>, memref<?xf64>) : i32 {
    stencil.domain (%i) = (1) to (%nm1) {
      %x = stencil.gather %a[-1] : memref<?xf64>
      %y = stencil.gather %a[1] : memref<?xf64>
      %p = arith.mulf %x, %y : f64
      stencil.store %p to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}
