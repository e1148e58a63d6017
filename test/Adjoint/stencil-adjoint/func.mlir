// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s

// The rule of func.call for uninterpreted functions (lib/Adjoint/Rules/
// FuncRules.cpp): `stencil.partials` names the partial derivative of the
// callee with respect to each operand; the adjoint calls the partial of each
// active operand with the recomputed primal operands and multiplies it by the
// adjoint of the call's result.

func.func private @f(f64, f64) -> f64
func.func private @df_da(f64, f64) -> f64
func.func private @df_db(f64, f64) -> f64

// Both operands active: ub[i-1] += rb[i] * df_da(a, b) and
// vb[i+1] += rb[i] * df_db(a, b).

// CHECK-LABEL: func.func @both_active_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[PA:.*]] = func.call @df_da(%[[A]], %[[B]]) : (f64, f64) -> f64
// CHECK-DAG: %[[PB:.*]] = func.call @df_db(%[[A]], %[[B]]) : (f64, f64) -> f64
// CHECK-DAG: %[[DA:.*]] = arith.mulf %[[G]], %[[PA]] : f64
// CHECK-DAG: %[[DB:.*]] = arith.mulf %[[G]], %[[PB]] : f64
// CHECK-DAG: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
func.func @both_active(%u: memref<?xf64> {stencil.active},
                       %v: memref<?xf64> {stencil.active},
                       %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = func.call @f(%a, %b) {stencil.partials = [@df_da, @df_db]} : (f64, f64) -> f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// Only the first operand active: only @df_da is called.

// CHECK-LABEL: func.func @first_active_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-NOT: @df_db
// CHECK: %[[PA:.*]] = func.call @df_da(%[[A]], %[[B]]) : (f64, f64) -> f64
// CHECK-NOT: @df_db
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[PA]] : f64
// CHECK-NOT: @df_db
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-NOT: @df_db
// CHECK: return
func.func @first_active(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64>,
                        %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = func.call @f(%a, %b) {stencil.partials = [@df_da, @df_db]} : (f64, f64) -> f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// A call on passive values needs no partials: its result is passive, and the
// product rule uses it as a coefficient.

// CHECK-LABEL: func.func @passive_call_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[C:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[C0:.*]] = stencil.gather %[[C]][0] : memref<?xf64>
// CHECK-DAG: %[[K:.*]] = func.call @f(%[[C0]], %[[C0]]) : (f64, f64) -> f64
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[K]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][0] : memref<?xf64>
func.func @passive_call(%u: memref<?xf64> {stencil.active}, %c: memref<?xf64>,
                        %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %a = stencil.gather %u[0] : memref<?xf64>
    %c0 = stencil.gather %c[0] : memref<?xf64>
    %k = func.call @f(%c0, %c0) : (f64, f64) -> f64
    %z = arith.mulf %a, %k : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}
