// RUN: stencil-opt %s -split-input-file --stencil-adjoint | FileCheck %s

// A replayed domain may overwrite an array that an earlier domain reads
// when that domain's adjoint does not read it (it is linear in the array):
// only then would the replay clobber values the reverse sweep needs
// (docs/Adjoint.md, section 3.3; the nonlinear case is refused,
// invalid.mlir and time-loop-invalid.mlir).

// The third domain reads the new %u, so the copy into %u is replayed; the
// first domain's adjoint scatters into the shadows without reading %u.
// CHECK-LABEL: func.func @linear_clobber_adjoint(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?xf64>, %[[A:[a-z0-9]+]]: memref<?xf64>, %{{[a-z0-9]+}}: memref<?xf64>, %{{[a-z0-9]+}}: index,
// CHECK-SAME: %[[UB:[a-z0-9]+]]: memref<?xf64>, %[[AB:[a-z0-9]+]]: memref<?xf64>, %[[RB:[a-z0-9]+]]: memref<?xf64>)
// Forward sweep: both domains replayed, in order.
// CHECK: stencil.gather %[[U]][-1]
// CHECK: stencil.store %{{.*}} to %[[A]]
// CHECK: stencil.gather %[[A]][0]
// CHECK: stencil.store %{{.*}} to %[[U]]
// Reverse of the square: reads the new %u.
// CHECK: stencil.gather %[[U]][0]
// CHECK: stencil.accumulate %{{.*}} to %[[UB]][0]
// Reverse of the copy, then of the first domain: no read of %u.
// CHECK: stencil.accumulate %{{.*}} to %[[AB]][0]
// CHECK-NOT: stencil.gather %[[U]]
// CHECK: stencil.gather %[[AB]][0]
// CHECK-NEXT: stencil.accumulate %{{.*}} to %[[UB]][1]
// CHECK-NEXT: stencil.accumulate %{{.*}} to %[[UB]][-1]
// CHECK: return
func.func @linear_clobber(%u: memref<?xf64> {stencil.active},
                          %a: memref<?xf64> {stencil.active},
                          %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %z = stencil.gather %u[1] : memref<?xf64>
    %y = arith.addf %x, %z : f64
    stencil.store %y to %a : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n - 1) {
    %x = stencil.gather %a[0] : memref<?xf64>
    stencil.store %x to %u : memref<?xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = arith.mulf %x, %x : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// -----

// A time loop whose state is written in place, linear, with a per-step sum
// of the state just written (found by test/Integration/gen/timeloopgen.py,
// which summed the temporary instead while this was refused). The step's
// adjoint reads no state (its replays are pruned), so the schedule keeps
// none.
// CHECK-LABEL: func.func @f_adjoint(
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: call @stencil_ckpt_start(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: stencil_ckpt_workspace
// CHECK: func.call @f_step_adjoint(
// CHECK-LABEL: func.func private @f_step_adjoint(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?xf64>, %[[T:[a-z0-9]+]]: memref<?xf64>, %{{[a-z0-9]+}}: index, %{{[a-z0-9]+}}: index,
// CHECK-SAME: %[[UB:[a-z0-9]+]]: memref<?xf64>, %[[TB:[a-z0-9]+]]: memref<?xf64>, %[[SEED:[a-z0-9]+]]: f64)
// CHECK-NOT: stencil.gather %[[U]]
// CHECK-NOT: stencil.gather %[[T]]
// CHECK: stencil.accumulate %[[SEED]] to %[[UB]][0]
// CHECK: stencil.accumulate %{{.*}} to %[[TB]][0]
// CHECK: stencil.accumulate %{{.*}} to %[[UB]][1]
// CHECK: stencil.accumulate %{{.*}} to %[[UB]][-1]
// CHECK: return
func.func @f(%u: memref<?xf64> {stencil.active}, %t: memref<?xf64> {stencil.active}, %n: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %S = scf.for %it = %c0 to %steps step %c1 iter_args(%acc = %z) -> (f64) {
    stencil.domain (%i) = (1) to (%n - 1) {
      %a = stencil.gather %u[-1] : memref<?xf64>
      %b = stencil.gather %u[1] : memref<?xf64>
      %s = arith.addf %a, %b : f64
      stencil.store %s to %t : memref<?xf64>
    }
    stencil.domain (%i) = (1) to (%n - 1) {
      %a = stencil.gather %t[0] : memref<?xf64>
      stencil.store %a to %u : memref<?xf64>
    }
    %q = stencil.domain (%i) = (0) to (%n) -> (f64) {
      %a = stencil.gather %u[0] : memref<?xf64>
      stencil.yield %a : f64
    }
    %acc1 = arith.addf %acc, %q : f64
    scf.yield %acc1 : f64
  }
  return %S : f64
}
