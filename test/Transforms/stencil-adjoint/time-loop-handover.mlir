// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s

// Resets the rotation makes unnecessary (docs/TimeLoops.md, section 3): a
// leapfrog's step assigns `next`, so its adjoint reads next's shadow and
// zeroes it; reversing the rotation hands that shadow to `prev`, which the
// step's adjoint only adds to, at the centre, over the same points. Between
// the first step reversed (T - 1, whose prev shadow holds the caller's
// seed) and the last (0, after which the shadows go back to the caller),
// the steady variant stores into prev's shadow and does not reset next's.

func.func @leap(%u0: memref<?xf64> {stencil.active}, %u1: memref<?xf64> {stencil.active},
                %u2: memref<?xf64> {stencil.active}, %c: memref<?xf64>,
                %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %r:3 = scf.for %t = %c0 to %T step %c1 iter_args(%prev = %u0, %cur = %u1, %next = %u2)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%nm1) {
      %two = arith.constant 2.0 : f64
      %l = stencil.gather %cur[-1] : memref<?xf64>
      %r = stencil.gather %cur[1] : memref<?xf64>
      %u = stencil.gather %cur[0] : memref<?xf64>
      %p = stencil.gather %prev[0] : memref<?xf64>
      %k = stencil.gather %c[0] : memref<?xf64>
      %s = arith.addf %l, %r : f64
      %ks = arith.mulf %k, %s : f64
      %u2x = arith.mulf %two, %u : f64
      %a = arith.subf %u2x, %p : f64
      %v = arith.addf %a, %ks : f64
      stencil.store %v to %next : memref<?xf64>
    }
    scf.yield %cur, %next, %prev : memref<?xf64>, memref<?xf64>, memref<?xf64>
  }
  return
}

// CHECK-LABEL: func.func @leap_adjoint(
// CHECK:         case 3 {
// CHECK:           %[[STEP:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:           %[[LAST:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.cmpi eq, %[[STEP]], %[[LAST]] : index
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK-NEXT:        func.call @leap_step_adjoint(
// CHECK-NEXT:      } else {
// CHECK-NEXT:        func.call @leap_step_adjoint_steady(
// CHECK-NEXT:        %[[ZERO:.*]] = arith.cmpi eq, %[[STEP]], %{{.*}} : index
// CHECK-NEXT:        scf.if %[[ZERO]] {
// CHECK-NEXT:          func.call @leap_step_adjoint_reset(
// CHECK-NEXT:        }
// CHECK-NEXT:      }

// The general step adjoint: prev's shadow (%[[P]]) accumulated, next's
// (%[[N]]) reset.
// CHECK-LABEL: func.func private @leap_step_adjoint(
// CHECK-SAME:    %[[P:arg6]]: memref<?xf64>, %{{.*}}: memref<?xf64>, %[[N:arg8]]: memref<?xf64>)
// CHECK:         stencil.accumulate %{{.*}} to %[[P]][0]
// CHECK:         stencil.store %{{.*}} to %[[N]]
// CHECK:         return

// The resets alone.
// CHECK-LABEL: func.func private @leap_step_adjoint_reset(
// CHECK-NEXT:    stencil.domain (%{{.*}}) = (1) to (%arg1) {
// CHECK-NEXT:      arith.constant 0.0
// CHECK-NEXT:      stencil.store %{{.*}} to %arg8 : memref<?xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// The steady variant: prev's shadow stored, next's not reset.
// CHECK-LABEL: func.func private @leap_step_adjoint_steady(
// CHECK:         stencil.domain
// CHECK:         stencil.store %{{.*}} to %arg6 : memref<?xf64>
// CHECK-NOT:     stencil.accumulate %{{.*}} to %arg6
// CHECK-NOT:     stencil.store %{{.*}} to %arg8
// CHECK:         return
