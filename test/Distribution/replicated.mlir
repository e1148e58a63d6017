// RUN: stencil-opt %s --stencil-distribute="grid=2,1" | FileCheck %s

// Replicated arrays (docs/DistributedSums.md): `d` is read only through a
// subview per step, `w` by memref.load, so every rank holds them whole and
// reads them at global indices: no view of a block, no exchange, no extent
// check; `u`, read at offsets and never written, is a block exchanged once
// before the loop, and the misfit's sum runs on the rank's slices.

// CHECK-LABEL: func.func @misfit(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?x?xf64>, %[[D:[a-z0-9]+]]: memref<?x?x?xf64>, %[[W:[a-z0-9]+]]: memref<?xf64>
// CHECK-SAME: stencil.distribution = {blocks = array<i64: 0>, grid = array<i64: 2, 1>, halo = 1 : i64}
// CHECK-NOT: memref.dim %[[D]]
// CHECK-NOT: memref.dim %[[W]]
// CHECK: shard.update_halo
// CHECK: scf.for %[[T:[a-z0-9]+]] =
// CHECK: %[[DT:.*]] = memref.subview %[[D]][%[[T]], 0, 0]
// CHECK-NOT: shard.update_halo
// CHECK: stencil.domain
// CHECK: stencil.gather %[[DT]][0, 0] : memref<?x?xf64, strided<[?, 1], offset: ?>>
// CHECK: } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "slices"}}
func.func @misfit(%u: memref<?x?xf64>, %d: memref<?x?x?xf64>,
                  %w: memref<?xf64>, %n: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %J = scf.for %t = %c0 to %steps step %c1 iter_args(%acc = %zero) -> f64 {
    %dt = memref.subview %d[%t, 0, 0] [1, %n, %n] [1, 1, 1]
        : memref<?x?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %wt = memref.load %w[%t] : memref<?xf64>
    %term = stencil.domain (%i, %j) = (1, 1) to (%nm1, %nm1) -> f64 {
      %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
      %b = stencil.gather %u[1, 0] : memref<?x?xf64>
      %o = stencil.gather %dt[0, 0] : memref<?x?xf64, strided<[?, 1], offset: ?>>
      %s = arith.addf %a, %b : f64
      %e = arith.subf %s, %o : f64
      %f = arith.mulf %e, %wt : f64
      stencil.yield %f : f64
    }
    %next = arith.addf %acc, %term : f64
    scf.yield %next : f64
  }
  return %J : f64
}
