// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s

// The rules of the stencil ops: a gather of an active array becomes an
// accumulate into its shadow at the same offset (and with the same `dims`),
// a store reads the shadow of its array at the centre and an accumulate reads
// it at its offset. Passive arrays have no shadow and get nothing.

// The paper's running example (Section 3.2): r[i] = c[i] * (2 u[i-1] -
// 3 u[i] + 4 u[i+1]). Its adjoint scatters into ub at the three offsets
// with the partial derivatives 2 c[i] rb[i], -3 c[i] rb[i], 4 c[i] rb[i].

// CHECK-LABEL: func.func @paper1d_adjoint(
// CHECK-SAME: %[[R:[^:]*]]: memref<?xf64>, %[[C:[^:]*]]: memref<?xf64>, %[[U:[^:]*]]: memref<?xf64>, %[[N:[^:]*]]: index, %[[RB:[^:]*]]: memref<?xf64>, %[[UB:[^:]*]]: memref<?xf64>)
// CHECK: stencil.domain (%{{.*}}) = (1) to (%[[N]]) {
// CHECK-DAG: %[[C0:.*]] = stencil.gather %[[C]][0] : memref<?xf64>
// CHECK-DAG: %[[SEED:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f64
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3.000000e+00 : f64
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4.000000e+00 : f64
// The adjoint of the sum, times c[i] (the other operand of the product).
// CHECK: %[[SUMB:.*]] = arith.mulf %[[SEED]], %[[C0]] : f64
// CHECK-DAG: %[[EB:.*]] = arith.mulf %[[SUMB]], %[[FOUR]] : f64
// CHECK-DAG: %[[NEG:.*]] = arith.negf %[[SUMB]] : f64
// CHECK-DAG: %[[CB:.*]] = arith.mulf %[[NEG]], %[[THREE]] : f64
// CHECK-DAG: %[[WB:.*]] = arith.mulf %[[SUMB]], %[[TWO]] : f64
// CHECK-DAG: stencil.accumulate %[[EB]] to %[[UB]][1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[CB]] to %[[UB]][0] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[WB]] to %[[UB]][-1] : memref<?xf64>
// CHECK-NOT: stencil.accumulate
// CHECK: }
func.func @paper1d(%r: memref<?xf64> {stencil.active}, %c: memref<?xf64>,
                   %u: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %two = arith.constant 2.0 : f64
    %three = arith.constant 3.0 : f64
    %four = arith.constant 4.0 : f64
    %u_m1 = stencil.gather %u[-1] : memref<?xf64>
    %u_0 = stencil.gather %u[0] : memref<?xf64>
    %u_p1 = stencil.gather %u[1] : memref<?xf64>
    %c_0 = stencil.gather %c[0] : memref<?xf64>
    %west = arith.mulf %two, %u_m1 : f64
    %centre = arith.mulf %three, %u_0 : f64
    %east = arith.mulf %four, %u_p1 : f64
    %west_centre = arith.subf %west, %centre : f64
    %sum = arith.addf %west_centre, %east : f64
    %r_0 = arith.mulf %c_0, %sum : f64
    stencil.store %r_0 to %r : memref<?xf64>
  }
  return
}

// A 2-D gather keeps its offset; a gather through `dims` (here a transpose,
// a[j][i+2]) becomes an accumulate with the same `dims`; a store through
// `dims` reads its shadow through them. The passive coefficient gets no
// accumulate.

// CHECK-LABEL: func.func @offsets_and_dims_adjoint(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf64>, %[[K:[^:]*]]: memref<?x?xf64>, %{{[^:]*}}: memref<?x?xf64>, %{{[^:]*}}: index, %[[AB:[^:]*]]: memref<?x?xf64>, %[[RB:[^:]*]]: memref<?x?xf64>)
// CHECK: stencil.domain
// CHECK: %[[SEED:.*]] = stencil.gather %[[RB]][0, 0] dims [1, 0] : memref<?x?xf64>
// CHECK-DAG: stencil.accumulate %{{.*}} to %[[AB]][-1, 3] : memref<?x?xf64>
// CHECK-DAG: stencil.accumulate %{{.*}} to %[[AB]][0, 2] dims [1, 0] : memref<?x?xf64>
// CHECK-NOT: stencil.accumulate %{{.*}} to %[[K]]
// CHECK: }
func.func @offsets_and_dims(%a: memref<?x?xf64> {stencil.active},
                            %k: memref<?x?xf64>,
                            %r: memref<?x?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (3, 3) to (%n - 3, %n - 3) {
    %x = stencil.gather %a[-1, 3] : memref<?x?xf64>
    %y = stencil.gather %a[0, 2] dims [1, 0] : memref<?x?xf64>
    %c = stencil.gather %k[1, -1] : memref<?x?xf64>
    %xy = arith.addf %x, %y : f64
    %v = arith.mulf %c, %xy : f64
    stencil.store %v to %r dims [1, 0] : memref<?x?xf64>
  }
  return
}

// Two gathers of the same element give two accumulates; an active gather
// whose value is unused gives none.

// CHECK-LABEL: func.func @repeated_and_unused_adjoint(
// CHECK-SAME: %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK: %[[SEED:.*]] = stencil.gather %[[RB]][0]
// CHECK-COUNT-2: stencil.accumulate %[[SEED]] to %[[UB]][1] : memref<?xf64>
// CHECK-NOT: stencil.accumulate
// CHECK: }
func.func @repeated_and_unused(%u: memref<?xf64> {stencil.active},
                               %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (2) to (%n - 2) {
    %a = stencil.gather %u[1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %unused = stencil.gather %u[-2] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    stencil.store %s to %r : memref<?xf64>
  }
  return
}

// An accumulated output: the adjoint reads its shadow at the accumulate's
// offset (and `dims`) and does not reset it.

// CHECK-LABEL: func.func @accumulate_output_adjoint(
// CHECK-SAME: %{{[^:]*}}: memref<?x?xf64>, %{{[^:]*}}: memref<?x?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?x?xf64>, %[[RB:[^:]*]]: memref<?x?xf64>)
// CHECK: stencil.domain
// CHECK-DAG: %[[S1:.*]] = stencil.gather %[[RB]][1, -1] dims [1, 0] : memref<?x?xf64>
// CHECK-DAG: %[[S0:.*]] = stencil.gather %[[RB]][0, 0] : memref<?x?xf64>
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK-SAME: %[[S0]]
// CHECK: stencil.accumulate %[[SUM]] to %[[UB]][0, 0] : memref<?x?xf64>
// CHECK: }
// CHECK-NOT: stencil.store
// CHECK: return
func.func @accumulate_output(%u: memref<?x?xf64> {stencil.active},
                             %r: memref<?x?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %x to %r[0, 0] : memref<?x?xf64>
    stencil.accumulate %x to %r[1, -1] dims [1, 0] : memref<?x?xf64>
  }
  return
}
