// RUN: stencil-opt %s --stencil-outline-domains | FileCheck %s
// RUN: stencil-opt %s --stencil-outline-domains --convert-stencil-to-affine | FileCheck %s --check-prefix=AFFINE

// A time loop whose point source moves: its position is loaded per step,
// and a receiver's is carried by the loop. Neither is an affine symbol in
// the loop's body, so both domains move into functions of their own that
// take the positions (and the arrays and scalars they use) as arguments.
// The update, whose bounds are symbols, stays where it is.

// CHECK-LABEL: func.func @moving(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?xf64>, %[[V:[a-z0-9]+]]: memref<?xf64>, %[[POS:[a-z0-9]+]]: memref<?xindex>, %[[W:[a-z0-9]+]]: memref<?xf64>
// CHECK: scf.for %[[T:.*]] = %{{.*}} iter_args(%[[R:.*]] = %{{.*}}, %[[J:.*]] = %{{.*}})
// CHECK: stencil.domain (%{{.*}}) = (1) to
// CHECK: %[[S:.*]] = memref.load %[[POS]][%[[T]]] : memref<?xindex>
// CHECK: %[[S1:.*]] = arith.addi %[[S]], %{{.*}} : index
// CHECK: %[[WT:.*]] = memref.load %[[W]][%[[T]]] : memref<?xf64>
// CHECK: func.call @moving_domain(%[[S]], %[[S1]], %[[WT]], %[[V]]) : (index, index, f64, memref<?xf64>) -> ()
// CHECK: %[[TERM:.*]] = func.call @moving_domain_0(%[[R]], %{{.*}}, %[[V]]) : (index, index, memref<?xf64>) -> f64
// CHECK: arith.addf %[[J]], %[[TERM]]

// CHECK-LABEL: func.func private @moving_domain_0(
// CHECK-SAME: %[[A:[a-z0-9]+]]: index, %[[B:[a-z0-9]+]]: index, %[[X:[a-z0-9]+]]: memref<?xf64>) -> f64
// CHECK: %[[SUM:.*]] = stencil.domain (%{{.*}}) = (%[[A]]) to (%[[B]]) -> (f64)
// CHECK: stencil.gather %[[X]][0]
// CHECK: return %[[SUM]] : f64

// CHECK-LABEL: func.func private @moving_domain(
// CHECK-SAME: %[[A:[a-z0-9]+]]: index, %[[B:[a-z0-9]+]]: index, %[[F:[a-z0-9]+]]: f64, %[[X:[a-z0-9]+]]: memref<?xf64>)
// CHECK: stencil.domain (%{{.*}}) = (%[[A]]) to (%[[B]])
// CHECK: stencil.accumulate %[[F]] to %[[X]][0]
// CHECK: return

// After the lowering no domain is left, the outlined ones included.
// AFFINE-NOT: stencil.domain
// AFFINE-LABEL: func.func private @moving_domain_0(
// AFFINE: affine.parallel
// AFFINE-LABEL: func.func private @moving_domain(
// AFFINE: affine.parallel

func.func @moving(%u: memref<?xf64>, %v: memref<?xf64>, %pos: memref<?xindex>,
                  %w: memref<?xf64>, %n: index, %r0: index,
                  %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%r = %r0, %J = %zero)
      -> (index, f64) {
    stencil.domain (%i) = (1) to (%nm1) {
      %a = stencil.gather %u[-1] : memref<?xf64>
      %b = stencil.gather %u[1] : memref<?xf64>
      %s = arith.addf %a, %b : f64
      stencil.store %s to %v : memref<?xf64>
    }
    %s = memref.load %pos[%t] : memref<?xindex>
    %s1 = arith.addi %s, %c1 : index
    %wt = memref.load %w[%t] : memref<?xf64>
    stencil.domain (%i) = (%s) to (%s1) {
      stencil.accumulate %wt to %v[0] : memref<?xf64>
    }
    %r1 = arith.addi %r, %c1 : index
    %term = stencil.domain (%i) = (%r) to (%r1) -> f64 {
      %x = stencil.gather %v[0] : memref<?xf64>
      stencil.yield %x : f64
    }
    %J1 = arith.addf %J, %term : f64
    %rn = arith.remui %r1, %n : index
    scf.yield %rn, %J1 : index, f64
  }
  return %res#1 : f64
}
