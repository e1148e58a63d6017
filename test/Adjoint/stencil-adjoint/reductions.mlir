// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s

// Reads of active arrays through a non-permutation: their adjoint is an
// accumulate through the same `dims`, a reduction over the points that
// read the element. And a primal reduction (an output at a subset of the
// counters), whose adjoint reads the shadow back as a broadcast.

// A fixed-element tap w[1][2], a layered v[k] read at k and k+1, a rank-0
// scale s and a diagonal a[i][i].
// CHECK-LABEL: func.func @params_adjoint(
// CHECK-SAME: %{{[^:]*}}: index, %[[RB:[^:]*]]: memref<?x?xf64>, %[[WB:[^:]*]]: memref<3x3xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[SB:[^:]*]]: memref<f64>, %[[AB:[^:]*]]: memref<?x?xf64>)
// CHECK: stencil.domain
// CHECK-DAG: %[[SEED:.*]] = stencil.gather %[[RB]][0, 0] : memref<?x?xf64>
// CHECK-DAG: stencil.accumulate %[[SEED]] to %[[WB]][1, 2] dims [_, _] : memref<3x3xf64>
// CHECK-DAG: stencil.accumulate %[[SEED]] to %[[VB]][0] dims [1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[SEED]] to %[[VB]][1] dims [1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[SEED]] to %[[SB]][] dims [] : memref<f64>
// CHECK-DAG: stencil.accumulate %[[SEED]] to %[[AB]][0, 0] dims [0, 0] : memref<?x?xf64>
// CHECK: }
func.func @params(%r: memref<?x?xf64> {stencil.active},
                  %w: memref<3x3xf64> {stencil.active},
                  %v: memref<?xf64> {stencil.active},
                  %s: memref<f64> {stencil.active},
                  %a: memref<?x?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %x = stencil.gather %w[1, 2] dims [_, _] : memref<3x3xf64>
    %y = stencil.gather %v[0] dims [1] : memref<?xf64>
    %y1 = stencil.gather %v[1] dims [1] : memref<?xf64>
    %z = stencil.gather %s[] dims [] : memref<f64>
    %d = stencil.gather %a[0, 0] dims [0, 0] : memref<?x?xf64>
    %p = arith.addf %x, %y : f64
    %p1 = arith.addf %p, %y1 : f64
    %q = arith.addf %z, %d : f64
    %o = arith.addf %p1, %q : f64
    stencil.store %o to %r : memref<?x?xf64>
  }
  return
}

// r[i][k] += u[i][j][k]: the adjoint reads r's shadow at (i, k) for every j.
// CHECK-LABEL: func.func @subset_adjoint(
// CHECK-SAME: %{{[^:]*}}: index, %[[RB:[^:]*]]: memref<?x?xf64>, %[[UB:[^:]*]]: memref<?x?x?xf64>)
// CHECK: stencil.domain
// CHECK: %[[SEED:.*]] = stencil.gather %[[RB]][0, 0] dims [0, 2] : memref<?x?xf64>
// CHECK: stencil.accumulate %[[SEED]] to %[[UB]][0, 0, 0] : memref<?x?x?xf64>
func.func @subset(%r: memref<?x?xf64> {stencil.active},
                  %u: memref<?x?x?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j, %k) = (0, 0, 0) to (%n, %n, %n) {
    %a = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    stencil.accumulate %a to %r[0, 0] dims [0, 2] : memref<?x?xf64>
  }
  return
}
