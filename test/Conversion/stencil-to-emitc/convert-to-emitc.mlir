// RUN: stencil-opt %s --stencil-convert-to-emitc --reconcile-unrealized-casts | FileCheck %s

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
