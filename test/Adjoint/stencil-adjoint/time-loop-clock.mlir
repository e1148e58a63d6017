// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s

// A scalar the time loop carries passively (a clock, docs/TimeLoops.md,
// section 1): the simulated time, advanced by a table of time steps and
// scaling the step. The adjoint first computes its value before every step
// and after the last into a table of T + 1 entries, then passes step i its
// entry i, in the forward steps and in the reversed ones alike. The last
// entry is the loop's result, which the objective adds.

// CHECK-LABEL: func.func @forced_adjoint(
// CHECK-SAME: %[[U0:[a-z0-9]+]]: memref<?xf64>, %[[U1:[a-z0-9]+]]: memref<?xf64>, %[[DTS:[a-z0-9]+]]: memref<?xf64>, %[[T0:[a-z0-9]+]]: f64
// CHECK: %[[SIZE:.*]] = arith.addi %[[T:.*]], %{{.*}} : index
// CHECK: %[[TABLE:.*]] = memref.alloc(%[[SIZE]]) {stencil.host_memory} : memref<?xf64>
// CHECK: %[[LAST:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[T]] step %{{.*}} iter_args(%[[TIME:.*]] = %[[T0]]) -> (f64) {
// CHECK: memref.store %[[TIME]], %[[TABLE]][%[[I]]]
// CHECK: %[[DT:.*]] = memref.load %[[DTS]]
// CHECK: %[[NEXT:.*]] = arith.addf %[[TIME]], %[[DT]] : f64
// CHECK: scf.yield %[[NEXT]] : f64
// CHECK: memref.store %[[LAST]], %[[TABLE]][%[[T]]]
// CHECK: call @stencil_ckpt_start
// CHECK: %[[NOW:.*]] = memref.load %[[TABLE]][%[[J:.*]]] : memref<?xf64>
// CHECK: func.call @forced_step(%{{.*}}, %[[NOW]]) :
// CHECK: %[[THEN:.*]] = memref.load %[[TABLE]][%[[K:.*]]] : memref<?xf64>
// CHECK: func.call @forced_step_adjoint(%{{.*}}, %[[THEN]], %{{.*}}, %{{.*}}, %{{.*}}) :
// CHECK: memref.dealloc %[[TABLE]] : memref<?xf64>
// CHECK-NEXT: return

// The step takes the clock's value after its index; its adjoint too,
// before the shadows.
// CHECK-LABEL: func.func private @forced_step(
// CHECK-SAME: %{{.*}}: index, %[[TIME:[a-z0-9]+]]: f64) -> f64
// CHECK: math.cos %[[TIME]] : f64
func.func @forced(%u0: memref<?xf64> {stencil.active},
                  %u1: memref<?xf64> {stencil.active},
                  %dts: memref<?xf64>, %t0: f64, %n: index,
                  %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %res:4 = scf.for %it = %c0 to %steps step %c1
      iter_args(%a = %u0, %b = %u1, %J = %zero, %time = %t0)
      -> (memref<?xf64>, memref<?xf64>, f64, f64) {
    %f = math.cos %time : f64
    stencil.domain (%i) = (1) to (%nm1) {
      %l = stencil.gather %a[-1] : memref<?xf64>
      %r = stencil.gather %a[1] : memref<?xf64>
      %s = arith.addf %l, %r : f64
      %v = arith.mulf %s, %f : f64
      stencil.store %v to %b : memref<?xf64>
    }
    %term = stencil.domain (%i) = (0) to (%n) -> f64 {
      %v = stencil.gather %b[0] : memref<?xf64>
      %v2 = arith.mulf %v, %v : f64
      stencil.yield %v2 : f64
    }
    %J1 = arith.addf %J, %term : f64
    %dt = memref.load %dts[%it] : memref<?xf64>
    %time1 = arith.addf %time, %dt : f64
    scf.yield %b, %a, %J1, %time1 : memref<?xf64>, memref<?xf64>, f64, f64
  }
  %total = arith.addf %res#2, %res#3 : f64
  return %total : f64
}
