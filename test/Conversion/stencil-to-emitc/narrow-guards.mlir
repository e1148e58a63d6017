// RUN: stencil-opt %s --stencil-narrow-guards | FileCheck %s

// The guard of a domain (1) to (%n - 1) as the lowerings emit it, exact in
// 128 bits; the C source route computes it in 64 (C99's int64_t). Overflow
// flags go: they were stated for 128 bits.

// CHECK-LABEL: func.func @guard(
// CHECK-SAME: %[[N:.*]]: index
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MINUS:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: %[[W:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[UP:.*]] = arith.addi %[[W]], %[[MINUS]] : i64
// CHECK: %[[Q:.*]] = arith.ceildivsi %[[UP]], %[[TWO]] : i64
// CHECK: %[[F:.*]] = arith.floordivsi %[[Q]], %[[TWO]] : i64
// CHECK: %[[P:.*]] = arith.muli %[[F]], %[[TWO]] : i64
// CHECK: %[[S:.*]] = arith.subi %[[Q]], %[[P]] : i64
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[ONE]], %[[S]] : i64
// CHECK: return %[[LT]]
// CHECK-NOT: i128
func.func @guard(%n: index) -> i1 {
  %one = arith.constant 1 : i128
  %minus = arith.constant -1 : i128
  %two = arith.constant 2 : i128
  %wide = arith.index_cast %n : index to i128
  %upper = arith.addi %wide, %minus overflow<nsw> : i128
  %q = arith.ceildivsi %upper, %two : i128
  %f = arith.floordivsi %q, %two : i128
  %p = arith.muli %f, %two overflow<nsw> : i128
  %s = arith.subi %q, %p : i128
  %less = arith.cmpi slt, %one, %s : i128
  return %less : i1
}

// Other integer arithmetic is left as it is.
// CHECK-LABEL: func.func @other(
// CHECK: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
func.func @other(%x: i32) -> i32 {
  %y = arith.addi %x, %x overflow<nsw> : i32
  return %y : i32
}
