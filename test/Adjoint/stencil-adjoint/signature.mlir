// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s
// RUN: stencil-opt %s --stencil-adjoint=functions=second | FileCheck %s --check-prefix=FUNCS
// RUN: stencil-opt %s '--stencil-adjoint=functions=second,first suffix=_grad' | FileCheck %s --check-prefix=SUFFIX

// The adjoint's signature: the primal arguments, then one shadow per active
// argument in argument order (the same memref type for an array, a rank-0
// memref of the scalar type for a scalar), then one seed per result in result
// order; no results. The adjoint keeps the primal's visibility and names it in
// `stencil.adjoint_of`. Without `functions`, every function with an active
// argument is differentiated; `functions` restricts that list, `suffix` renames
// the adjoints.

// CHECK-LABEL: func.func private @first(
// CHECK-LABEL: func.func private @first_adjoint(
// CHECK-SAME: %{{[^:]*}}: memref<?x?xf32>, %{{[^:]*}}: memref<?x?xf32>, %{{[^:]*}}: f64, %{{[^:]*}}: f32, %{{[^:]*}}: memref<4x?xf32>, %{{[^:]*}}: index, %{{[^:]*}}: index,
// CHECK-SAME: %[[UB:[^:]*]]: memref<?x?xf32>, %[[DB:[^:]*]]: memref<f64>, %[[KB:[^:]*]]: memref<f32>, %[[RB:[^:]*]]: memref<4x?xf32>,
// CHECK-SAME: %[[SEED0:[^:]*]]: f64, %[[SEED1:[^:]*]]: f32)
// CHECK-NOT: ->
// CHECK-SAME: attributes {stencil.adjoint_of = @first, stencil.extra_args = [], stencil.shadows_of = array<i64: 0, 2, 3, 4>}
// The seeds of the two results reach the reversed domain, which sums the
// gradients of the two scalars. The primal domain is not replayed: its
// results are only returned, so no primal value of them is needed.
// CHECK-NOT: stencil.domain {{.*}} -> (f64, f32) {
// CHECK: stencil.domain {{.*}} -> (f32, f64) {
// CHECK-DAG: arith.mulf %[[SEED0]],
// CHECK-DAG: arith.addf %[[SEED1]],
// CHECK: stencil.accumulate %{{.*}} to %[[UB]][0, 0] : memref<?x?xf32>
// CHECK: memref.load %[[DB]][] : memref<f64>
// CHECK: memref.load %[[KB]][] : memref<f32>
// CHECK: return{{$}}

// FUNCS-NOT: @first_adjoint
// FUNCS: func.func @second_adjoint(
// FUNCS-NOT: @first_adjoint

// SUFFIX-DAG: func.func private @first_grad(
// SUFFIX-DAG: func.func @second_grad(
// SUFFIX-NOT: _adjoint
func.func private @first(%u: memref<?x?xf32> {stencil.active}, %c: memref<?x?xf32>,
                         %d: f64 {stencil.active}, %k: f32 {stencil.active},
                         %r: memref<4x?xf32> {stencil.active}, %n: index,
                         %m: index) -> (f64, f32) {
  %s:2 = stencil.domain (%i, %j) = (0, 0) to (%n, %m) -> (f64, f32) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf32>
    %y = arith.mulf %x, %k : f32
    %e = arith.extf %y : f32 to f64
    %f = arith.mulf %e, %d : f64
    stencil.yield %f, %y : f64, f32
  }
  return %s#0, %s#1 : f64, f32
}

// CHECK-LABEL: func.func @second_adjoint(
// CHECK-SAME: %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %{{[^:]*}}: memref<?xf64>)
// CHECK-SAME: attributes {stencil.adjoint_of = @second, stencil.extra_args = [], stencil.shadows_of = array<i64: 1>}
func.func @second(%c: memref<?xf64>, %u: memref<?xf64> {stencil.active}, %n: index) {
  return
}

// No active argument: not differentiated.
// CHECK-NOT: @passive_adjoint
func.func @passive(%u: memref<?xf64>, %n: index) {
  return
}
