// RUN: stencil-opt %s --stencil-distribute="grid=1,2" | FileCheck %s
// RUN: stencil-opt %s --stencil-distribute="grid=2,1" -verify-diagnostics -o /dev/null

// A plane (one point thick in dimension 0): its slices are taken along
// dimension 1, which a 1x2 grid may split, but a 2x1 grid may not.
// CHECK-LABEL: func.func @plane(
// CHECK: stencil.domain
// CHECK: } attributes {stencil.distributed_sum}
func.func @plane(%u: memref<?x?xf64>, %n: index) -> f64 {
  // expected-error @below {{computes a sum whose slices are taken along dimension 1, but the process grid splits dimension 0}}
  %s = stencil.domain (%i, %j) = (3, 0) to (4, %n) -> (f64) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.yield %x : f64
  }
  return %s : f64
}
