// RUN: stencil-opt %s --split-input-file --stencil-check-abi-bounds | FileCheck %s
// RUN: stencil-opt %s --split-input-file --stencil-check-abi-bounds --canonicalize | FileCheck %s --check-prefix=CANON

// One check per array and dimension whose accesses differ only in their
// constant offsets: `u` is read at i-1 and i+1 for i in [1, n), so at
// 0..n (the lowest and highest offsets, merged), when 1 < n; `v` is
// written at 1..n-1.
// The strings it prints, the C library functions it calls and the report
// function are private to the module (the last after the functions).
// CHECK-DAG: llvm.mlir.global internal constant @[[$WHERE_TEXT:stencil_abi_text[_0-9]*]]("{{.*}}check.mlir:{{[0-9]+}}:{{[0-9]+}}: 'f'\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[$U_TEXT:stencil_abi_text[_0-9]*]]("arg0\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[$READS:stencil_abi_text[_0-9]*]]("reads\00")
// CHECK-DAG: llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.func @abort()
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %[[N:[^:]*]]: index)
// CHECK: %[[WHERE:.*]] = llvm.mlir.addressof @[[$WHERE_TEXT]]
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[DIM:.*]] = memref.dim %[[U]], %{{.*}} : memref<?xf64>
// CHECK: %[[EXTENT:.*]] = arith.index_cast %[[DIM]] : index to i64
// CHECK: %[[WIDE_EXTENT:.*]] = arith.extsi %[[EXTENT]] : i64 to i128
// CHECK: arith.cmpi sge, %{{.*}}, %[[WIDE_EXTENT]] : i128
// CHECK: scf.if
// CHECK: llvm.mlir.addressof @[[$U_TEXT]]
// CHECK: llvm.mlir.addressof @[[$READS]]
// CHECK: llvm.call @stencil_abi_bounds_error(%[[WHERE]],
// CHECK: memref.dim %[[V]]
// CHECK: scf.if
// CHECK: llvm.call @stencil_abi_bounds_error(
// CHECK-NOT: scf.if
// CHECK: stencil.domain
// CHECK: llvm.func internal @stencil_abi_bounds_error(

// After canonicalization the constant parts fold: the check of `u`
// fails when the domain is not empty (1 < n) and u's extent is at most n
// (the highest index read); its lowest, 0, cannot be negative.
// CANON-LABEL: func.func @f(
// CANON: %[[N:.*]] = arith.extsi %{{.*}} : i64 to i128
// CANON: %[[HAPPENS:.*]] = arith.cmpi sgt, %[[N]], %c1_i128 : i128
// CANON: %[[DIM:.*]] = memref.dim %arg0
// CANON: %[[EXTENT:.*]] = arith.index_cast %[[DIM]] : index to i64
// CANON: %[[WIDE:.*]] = arith.extsi %[[EXTENT]] : i64 to i128
// CANON: %[[ABOVE:.*]] = arith.cmpi sge, %[[N]], %[[WIDE]] : i128
// CANON: %[[FAILED:.*]] = arith.andi %[[HAPPENS]], %[[ABOVE]] : i1
// CANON: scf.if %[[FAILED]] {
// CANON-NEXT: llvm.call @stencil_abi_bounds_error(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i64, %c0_i64, %{{.*}}, %[[EXTENT]], %false)
func.func @f(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %y = stencil.gather %u[1] : memref<?xf64>
    %s = arith.addf %x, %y : f64
    stencil.store %s to %v : memref<?xf64>
  }
  return
}

// -----

// An adjoint checks its primal's bounds on the primal arrays and on each
// shadow (stencil.shadows_of); the seed and the scalars are not arrays.
// CHECK-LABEL: func.func @g_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[N:[^:]*]]: index, %[[UB:[^:]*]]: memref<?xf64>, %{{.*}}: f64)
// CHECK: memref.dim %[[U]]
// CHECK: scf.if
// CHECK: memref.dim %[[UB]]
// CHECK: scf.if
// CHECK-NOT: scf.if
// CHECK: return
func.func @g(%u: memref<?xf64>, %n: index) -> f64 {
  %s = stencil.domain (%i) = (0) to (%n) -> f64 {
    %x = stencil.gather %u[2] : memref<?xf64>
    stencil.yield %x : f64
  }
  return %s : f64
}
func.func @g_adjoint(%u: memref<?xf64>, %n: index, %u_b: memref<?xf64>, %seed: f64)
    attributes {stencil.adjoint_of = @g, stencil.shadows_of = array<i64: 0>,
                stencil.extra_args = []} {
  return
}

// -----

// Bounds are computed exactly, in 128 bits, from the integer arguments
// (here 2 * n and 2 * n - 1), and compared there with 0 and the extents;
// a sum that overflows 128 bits (sign of the operands lost) fails the
// check too.
// CHECK-LABEL: func.func @twice(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %[[N:[^:]*]]: index)
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[WIDE_N:.*]] = arith.extsi %[[N64]] : i64 to i128
// CHECK: %[[TWO:.*]] = arith.constant 2 : i128
// CHECK: %[[PRODUCT:.*]] = arith.muli %[[WIDE_N]], %[[TWO]] : i128
// CHECK: %[[MINUS_ONE:.*]] = arith.constant -1 : i128
// CHECK: %[[SUM:.*]] = arith.addi %[[MINUS_ONE]], %{{.*}} : i128
// CHECK: %[[X1:.*]] = arith.xori %[[MINUS_ONE]], %[[SUM]] : i128
// CHECK: %[[X2:.*]] = arith.xori %{{.*}}, %[[SUM]] : i128
// CHECK: %[[SIGNS:.*]] = arith.andi %[[X1]], %[[X2]] : i128
// CHECK: arith.cmpi slt, %[[SIGNS]], %{{.*}} : i128
// CHECK: %[[DIM:.*]] = memref.dim %[[U]]
// CHECK: %[[EXTENT:.*]] = arith.index_cast %[[DIM]] : index to i64
// CHECK: %[[WIDE_EXTENT:.*]] = arith.extsi %[[EXTENT]] : i64 to i128
// CHECK: arith.cmpi sge, %[[SUM]], %[[WIDE_EXTENT]] : i128
// CHECK: scf.if
func.func @twice(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %c2 = arith.constant 2 : index
  %m = arith.muli %n, %c2 : index
  stencil.domain (%i) = (0) to (%m) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// -----

// No checks: a private function, one whose accesses cannot be bounded
// (an index the plan cannot follow), one without arrays, and an adjoint
// whose arguments are not its primal's (the plan would not apply).
// CHECK-LABEL: func.func private @private_fn(
// CHECK-NOT: scf.if
// CHECK-LABEL: func.func @unbounded(
// CHECK-NOT: scf.if
// CHECK-LABEL: func.func @scalars(
// CHECK-NOT: scf.if
// CHECK-LABEL: func.func @p(
// CHECK: scf.if
// CHECK-LABEL: func.func @p_adjoint(
// CHECK-NOT: scf.if
func.func private @private_fn(%u: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0.0 : f64
  %c1 = arith.constant 1 : index
  memref.store %c0, %u[%c1] : memref<?xf64>
  return
}
func.func @unbounded(%u: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0.0 : f64
  %c2 = arith.constant 2 : index
  %i = arith.divui %n, %c2 : index
  memref.store %c0, %u[%i] : memref<?xf64>
  return
}
func.func @scalars(%x: f64) -> f64 {
  return %x : f64
}
func.func @p(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}
func.func @p_adjoint(%n: f64, %u: memref<?xf64>, %v: index)
    attributes {stencil.adjoint_of = @p} {
  return
}

// -----

// Nor a function whose bounds depend on an integer wider than 64 bits
// (the C interface has no such type, and the checks compute with 64-bit
// arguments).
// CHECK-LABEL: func.func @wide(
// CHECK-NOT: scf.if
// CHECK: return
func.func @wide(%u: memref<?xf64>, %v: memref<?xf64>, %n: i128) {
  %m = arith.index_cast %n : i128 to index
  stencil.domain (%i) = (0) to (%m) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// -----

// A fixed dimension (`_`) reads its offset itself at every point: w[1][4]
// needs 2 rows and 5 columns of a dynamic w whenever the domain is not
// empty, checked like any other index (the error reports 1..1 and 4..4).
// CANON-LABEL: func.func @taps(
// CANON: %[[N:.*]] = arith.extsi %{{.*}} : i64 to i128
// CANON: %[[HAPPENS:.*]] = arith.cmpi sgt, %[[N]], %c0_i128 : i128
// CANON: %[[ROWS:.*]] = memref.dim %arg0, %c0
// CANON: %[[ROWS64:.*]] = arith.index_cast %[[ROWS]] : index to i64
// CANON: %[[WIDE_ROWS:.*]] = arith.extsi %[[ROWS64]] : i64 to i128
// CANON: %[[SHORT:.*]] = arith.cmpi sle, %[[WIDE_ROWS]], %c1_i128 : i128
// CANON: %[[FAILED:.*]] = arith.andi %[[HAPPENS]], %[[SHORT]] : i1
// CANON: scf.if %[[FAILED]] {
// CANON-NEXT: llvm.call @stencil_abi_bounds_error(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i64, %c1_i64, %c1_i64, %[[ROWS64]], %false)
// CANON: %[[COLS:.*]] = memref.dim %arg0, %c1
// CANON: %[[COLS64:.*]] = arith.index_cast %[[COLS]] : index to i64
// CANON: %[[WIDE_COLS:.*]] = arith.extsi %[[COLS64]] : i64 to i128
// CANON: %[[NARROW:.*]] = arith.cmpi sle, %[[WIDE_COLS]], %c4_i128 : i128
// CANON: %[[FAILED2:.*]] = arith.andi %{{.*}}, %[[NARROW]] : i1
// CANON: scf.if %[[FAILED2]] {
// CANON-NEXT: llvm.call @stencil_abi_bounds_error(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c4_i64, %c4_i64, %[[COLS64]], %false)
func.func @taps(%w: memref<?x?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %w[1, 4] dims [_, _] : memref<?x?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}
