// RUN: stencil-opt %s --stencil-adjoint --canonicalize | FileCheck %s

// A loop linear in its state (k passive) through a temporary and a copy
// back: the step's adjoint reads none of the states (docs/TimeLoops.md,
// section 3). The forward domain that the straight-line differentiator
// recomputes (tmp = k (u[-1] + u[1])) is read by nothing in the reversal
// and is pruned; the driver then asks for a schedule of 0-byte states
// (reverse T-1 .. 0, nothing kept or recomputed) and handles REVERSE alone.

func.func @lin(%u: memref<?xf64> {stencil.active}, %tmp: memref<?xf64> {stencil.active},
               %k: f64, %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (1) to (%nm1) {
      %a = stencil.gather %u[-1] : memref<?xf64>
      %b = stencil.gather %u[1] : memref<?xf64>
      %s = arith.addf %a, %b : f64
      %v = arith.mulf %k, %s : f64
      stencil.store %v to %tmp : memref<?xf64>
    }
    stencil.domain (%i) = (1) to (%nm1) {
      %v = stencil.gather %tmp[0] : memref<?xf64>
      stencil.store %v to %u : memref<?xf64>
    }
  }
  return
}

// CHECK-LABEL: func.func @lin_adjoint(
// CHECK-SAME:    %[[U:[a-z0-9]+]]: memref<?xf64>, %[[TMP:[a-z0-9]+]]: memref<?xf64>, %[[K:[a-z0-9]+]]: f64, %{{.*}}: index, %{{.*}}: index, %[[UB:[a-z0-9]+]]: memref<?xf64>, %[[TB:[a-z0-9]+]]: memref<?xf64>, %{{.*}}: index)
// CHECK:       %[[BYTES:.*]] = arith.constant 0 : i64
// CHECK:       call @stencil_ckpt_start(%{{.*}}, %{{.*}}, %[[BYTES]])
// CHECK-NOT:   stencil_ckpt_workspace
// CHECK:       scf.index_switch
// CHECK-NEXT:  case 3 {
// CHECK:         func.call @lin_step_adjoint(%[[U]], %[[K]], %[[TMP]], %{{.*}}, %{{.*}}, %[[UB]], %[[TB]])
// CHECK:       default {
// CHECK-NOT:   case
// CHECK:       func.call @stencil_ckpt_finish

// The step's adjoint: the copy's adjoint and the stencil's, on the shadows
// only; no domain recomputes tmp, and nothing reads u or tmp.
// CHECK-LABEL: func.func private @lin_step_adjoint(
// CHECK-SAME:    %[[SU:[a-z0-9]+]]: memref<?xf64>, %{{.*}}: f64, %[[STMP:[a-z0-9]+]]: memref<?xf64>,
// CHECK-NOT:     %[[SU]]{{\[|,| }}
// CHECK-NOT:     %[[STMP]]{{\[|,| }}
// CHECK:         stencil.accumulate
// CHECK-NOT:     %[[SU]]{{\[|,| }}
// CHECK-NOT:     %[[STMP]]{{\[|,| }}
// CHECK:         return
