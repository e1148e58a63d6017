// RUN: stencil-opt %s -split-input-file --stencil-convert-to-emitc --reconcile-unrealized-casts | FileCheck %s

// The preamble: C99's headers, and omp_get_max_threads from <omp.h> with
// OpenMP or one thread without. The callee comes before its caller.

// CHECK: emitc.include <"stdint.h">
// CHECK-NEXT: emitc.include <"stddef.h">
// CHECK-NEXT: emitc.include <"stdbool.h">
// CHECK-NEXT: emitc.include <"stdlib.h">
// CHECK-NEXT: emitc.include <"math.h">
// CHECK-NEXT: emitc.verbatim "#ifdef _OPENMP\0A#include <omp.h>\0A#else\0Astatic int omp_get_max_threads(void) { return 1; }\0A#endif"
// CHECK-NOT: func.func
// CHECK: emitc.verbatim "// callee: x"
// CHECK-NEXT: emitc.func @callee(
// CHECK: emitc.func @caller(

// A signed division of index values divides int64_t values, not size_t
// ones (an unsigned division in C).
// CHECK: %[[A:.*]] = cast %{{.*}} : !emitc.size_t to !emitc.ptrdiff_t
// CHECK: %[[AW:.*]] = cast %[[A]] : !emitc.ptrdiff_t to i64
// CHECK: %[[Q:.*]] = div %[[AW]], %{{.*}} : (i64, i64) -> i64
// CHECK: call_opaque "omp_get_max_threads"() : () -> i32
// CHECK: call @callee(

func.func private @omp_get_max_threads() -> i32

func.func @caller(%a: !emitc.opaque<"double *restrict">, %n: index) -> index {
  %c2 = arith.constant 2 : index
  %q = arith.divsi %n, %c2 : index
  %t = func.call @omp_get_max_threads() : () -> i32
  %r = func.call @callee(%q) : (index) -> index
  return %r : index
}

// The callee's comment moves with it.
emitc.verbatim "// callee: x"
func.func @callee(%x: index) -> index {
  %c1 = arith.constant 1 : index
  %y = arith.addi %x, %c1 : index
  return %y : index
}

// -----

// Integer constants become literals, which the printer writes in place,
// where that keeps their meaning: never both operands of one operation (it
// would be computed in int), never a negative size_t.
// CHECK-LABEL: emitc.func @literals(
// CHECK-DAG: %[[ZERO:.*]] = literal "0" : !emitc.size_t
// CHECK-DAG: %[[ONE:.*]] = literal "1" : !emitc.size_t
// CHECK-DAG: %[[BIG:.*]] = "emitc.constant"() <{value = 4294967296 : i64}> : () -> i64
// CHECK-DAG: %[[MINUS:.*]] = "emitc.constant"() <{value = -1 : index}> : () -> !emitc.size_t
// CHECK-DAG: %[[A:.*]] = "emitc.constant"() <{value = 3 : i64}> : () -> i64
// CHECK-DAG: %[[B:.*]] = "emitc.constant"() <{value = 5 : i64}> : () -> i64
// CHECK-DAG: %[[M2:.*]] = literal "(-2)" : i64
// CHECK: for %{{.*}} = %[[ZERO]] to %{{.*}} step %[[ONE]]
// CHECK: add %{{.*}}, %[[MINUS]] : (!emitc.size_t, !emitc.size_t)
// CHECK: mul %[[A]], %[[B]]
// CHECK: mul %[[BIG]], %[[M2]]
// CHECK-NOT: emitc.constant
func.func @literals(%n: index, %p: !emitc.ptr<i64>, %q: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m1 = arith.constant -1 : index
  %m2 = arith.constant -2 : i64
  %big = arith.constant 4294967296 : i64
  %a = arith.constant 3 : i64
  %b = arith.constant 5 : i64
  %unused = arith.constant 7 : i64
  scf.for %i = %c0 to %n step %c1 {
    %j = arith.addi %i, %m1 : index
    %s = emitc.subscript %p[%j] : (!emitc.ptr<i64>, index) -> !emitc.lvalue<i64>
    %y = emitc.mul %a, %b : (i64, i64) -> i64
    %x = emitc.mul %big, %m2 : (i64, i64) -> i64
    %z = emitc.add %x, %y : (i64, i64) -> i64
    emitc.assign %z : i64 to %s : <i64>
  }
  return
}

// -----

// Math ops as calls of C99's functions (f suffix on f32); rsqrt as a
// division of one by sqrt, as the object route computes it.
// CHECK-LABEL: emitc.func @math_f32(
// CHECK: call_opaque "sqrtf"(%{{.*}}) : (f32) -> f32
// CHECK-LABEL: emitc.func @math(
// CHECK: call_opaque "atan2"(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: %[[ROOT:.*]] = call_opaque "sqrt"(%{{.*}}) : (f64) -> f64
// CHECK: %[[ONE:.*]] = "emitc.constant"() <{value = 1.000000e+00 : f64}> : () -> f64
// CHECK: div %[[ONE]], %[[ROOT]] : (f64, f64) -> f64
func.func @math_f32(%x: f32) -> f32 {
  %a = math.sqrt %x : f32
  return %a : f32
}

func.func @math(%y: f64, %z: f64) -> f64 {
  %b = math.atan2 %y, %z : f64
  %c = math.rsqrt %y : f64
  %d = arith.addf %b, %c : f64
  return %d : f64
}

// -----

// A pragma stays right before its loop, whatever the conversion puts
// before the loop (here the bound's variable, which its two uses keep from
// becoming an expression in the loop header).
// CHECK-LABEL: emitc.func @pragma(
// CHECK: sub
// CHECK-NEXT: verbatim "#pragma omp parallel for" {c_omp_pragma}
// CHECK-NEXT: for
func.func @pragma(%n: index, %p: !emitc.ptr<f64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  emitc.verbatim "#pragma omp parallel for" {c_omp_pragma}
  %m = arith.subi %n, %c1 : index
  scf.for %i = %c0 to %m step %c1 {
    %j = arith.addi %i, %m : index
    %s = emitc.subscript %p[%j] : (!emitc.ptr<f64>, index) -> !emitc.lvalue<f64>
    emitc.assign %x : f64 to %s : <f64>
  }
  return
}
