// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s
// RUN: stencil-opt %s "--stencil-adjoint=defer-hand-overs=0" | FileCheck %s --check-prefix=CHECK-STORED

// Resets the rotation makes unnecessary (docs/TimeLoops.md, section 3): a
// leapfrog's step assigns `next`, so its adjoint reads next's shadow and
// zeroes it; reversing the rotation hands that shadow to `prev`, which the
// step's adjoint only adds to, at the centre, over the same points. Between
// the first step reversed (T - 1, whose prev shadow holds the caller's
// seed) and the last (0, after which the shadows go back to the caller),
// the steady variant does not reset next's shadow. Since the value prev's
// shadow gets, -next_b, depends on next's shadow alone, it does not store
// it either: the next step reversed, to which the rotation hands next's
// shadow as prev's and prev's as cur's, stores it into cur's shadow first
// (the receiving variant, from step T - 3 on), and after step 0 (unless it
// was also T - 1) the flush stores what step 0 deferred.

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
// CHECK-NEXT:        %[[SECOND:.*]] = arith.subi %[[LAST]], %{{.*}} : index
// CHECK-NEXT:        %[[IS2:.*]] = arith.cmpi eq, %[[STEP]], %[[SECOND]] : index
// CHECK-NEXT:        scf.if %[[IS2]] {
// CHECK-NEXT:          func.call @leap_step_adjoint_steady(
// CHECK-NEXT:        } else {
// CHECK-NEXT:          func.call @leap_step_adjoint_receiving(
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[ZERO:.*]] = arith.cmpi eq, %[[STEP]], %{{.*}} : index
// CHECK-NEXT:      scf.if %[[ZERO]] {
// CHECK-NEXT:        %[[NOTFIRST:.*]] = arith.cmpi ne, %[[STEP]], %[[LAST]] : index
// CHECK-NEXT:        scf.if %[[NOTFIRST]] {
// CHECK-NEXT:          func.call @leap_step_adjoint_flush(
// CHECK-NEXT:        }
// CHECK-NEXT:        func.call @leap_step_adjoint_reset(
// CHECK-NEXT:      }

// With defer-hand-overs=0 the steady variant stores into prev's shadow
// itself, for every step but the first reversed.
// CHECK-STORED-LABEL: func.func @leap_adjoint(
// CHECK-STORED-NOT: @leap_step_adjoint_receiving
// CHECK-STORED-NOT: @leap_step_adjoint_flush
// CHECK-STORED: func.call @leap_step_adjoint(
// CHECK-STORED-NEXT: } else {
// CHECK-STORED-NEXT: func.call @leap_step_adjoint_steady(
// CHECK-STORED-NEXT: }
// CHECK-STORED-LABEL: func.func private @leap_step_adjoint_steady(
// CHECK-STORED: stencil.store %{{.*}} to %arg6 : memref<?xf64>
// CHECK-STORED-NOT: stencil.accumulate %{{.*}} to %arg6
// CHECK-STORED-NOT: stencil.store %{{.*}} to %arg8
// CHECK-STORED: return

// The general step adjoint: prev's shadow (%[[P]]) accumulated, next's
// (%[[N]]) reset.
// CHECK-LABEL: func.func private @leap_step_adjoint(
// CHECK-SAME:    %[[P:arg6]]: memref<?xf64>, %{{.*}}: memref<?xf64>, %[[N:arg8]]: memref<?xf64>)
// CHECK:         stencil.accumulate %{{.*}} to %[[P]][0]
// CHECK:         stencil.store %{{.*}} to %[[N]]
// CHECK:         return

// What step 0 deferred: -next_b into prev's shadow.
// CHECK-LABEL: func.func private @leap_step_adjoint_flush(
// CHECK-NEXT:    stencil.domain (%{{.*}}) = (1) to (%arg1) {
// CHECK-NEXT:      %[[NB:.*]] = stencil.gather %arg8[0] : memref<?xf64>
// CHECK-NEXT:      %[[NEG:.*]] = arith.negf %[[NB]] : f64
// CHECK-NEXT:      stencil.store %[[NEG]] to %arg6 : memref<?xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// The receiving variant: what the step reversed before deferred, computed
// from prev's shadow (which holds what next's held then) and stored into
// cur's, before the step adds to cur's; prev's and next's not written.
// CHECK-LABEL: func.func private @leap_step_adjoint_receiving(
// CHECK-NEXT:    stencil.domain (%{{.*}}) = (1) to (%arg1) {
// CHECK-NEXT:      %[[PB:.*]] = stencil.gather %arg6[0] : memref<?xf64>
// CHECK-NEXT:      %[[NEG:.*]] = arith.negf %[[PB]] : f64
// CHECK-NEXT:      stencil.store %[[NEG]] to %arg7 : memref<?xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    stencil.domain (%{{.*}}) = (1) to (%arg1) {
// CHECK-NOT:       to %arg6
// CHECK-NOT:       to %arg8
// CHECK:           stencil.accumulate %{{.*}} to %arg7[-1]
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// The resets alone.
// CHECK-LABEL: func.func private @leap_step_adjoint_reset(
// CHECK-NEXT:    stencil.domain (%{{.*}}) = (1) to (%arg1) {
// CHECK-NEXT:      arith.constant 0.0
// CHECK-NEXT:      stencil.store %{{.*}} to %arg8 : memref<?xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// The steady variant (step T - 2): prev's shadow deferred, next's not
// reset, nothing received.
// CHECK-LABEL: func.func private @leap_step_adjoint_steady(
// CHECK-NEXT:    stencil.domain
// CHECK-NOT:       to %arg6
// CHECK-NOT:       to %arg8
// CHECK:           stencil.accumulate %{{.*}} to %arg7[-1]
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// A leapfrog whose prev term has a per-step weight w[t]: the value prev's
// shadow gets, -w[t] * next_b, is that step's, so it is stored in the
// step itself (no receiving variant, no flush).
func.func @damped(%u0: memref<?xf64> {stencil.active}, %u1: memref<?xf64> {stencil.active},
                  %u2: memref<?xf64> {stencil.active}, %w: memref<?xf64>,
                  %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %r:3 = scf.for %t = %c0 to %T step %c1 iter_args(%prev = %u0, %cur = %u1, %next = %u2)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>) {
    %wt = memref.load %w[%t] : memref<?xf64>
    stencil.domain (%i) = (1) to (%nm1) {
      %l = stencil.gather %cur[-1] : memref<?xf64>
      %r = stencil.gather %cur[1] : memref<?xf64>
      %p = stencil.gather %prev[0] : memref<?xf64>
      %s = arith.addf %l, %r : f64
      %pw = arith.mulf %wt, %p : f64
      %v = arith.subf %s, %pw : f64
      stencil.store %v to %next : memref<?xf64>
    }
    scf.yield %cur, %next, %prev : memref<?xf64>, memref<?xf64>, memref<?xf64>
  }
  return
}

// CHECK-LABEL: func.func @damped_adjoint(
// CHECK-NOT:     @damped_step_adjoint_receiving
// CHECK-NOT:     @damped_step_adjoint_flush
// CHECK:         func.call @damped_step_adjoint(
// CHECK-NEXT:    } else {
// CHECK-NEXT:      func.call @damped_step_adjoint_steady(
// CHECK-NEXT:    }
// CHECK:         func.call @damped_step_adjoint_reset(
// CHECK-LABEL: func.func private @damped_step_adjoint_steady(
// CHECK-SAME:    %arg6: memref<?xf64>, %arg7: memref<?xf64>, %arg8: memref<?xf64>)
// CHECK:         %[[W:.*]] = memref.load %arg0[%arg5]
// CHECK:         %[[NEG:.*]] = arith.negf
// CHECK-NEXT:    %[[V:.*]] = arith.mulf %[[NEG]], %[[W]] : f64
// CHECK-NEXT:    stencil.store %[[V]] to %arg6 : memref<?xf64>
// CHECK-NOT:     stencil.store %{{.*}} to %arg8
// CHECK:         return
