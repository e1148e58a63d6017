// RUN: stencil-opt %s --stencil-inline-alloca-scopes | FileCheck %s

// An alloca scope without an alloca of its own is inlined (its results
// replaced by the yielded values); one that allocates is kept. An alloca
// inside a nested scope belongs to that scope: the outer scope is inlined,
// the inner one kept.

func.func private @g(f64) -> f64

// CHECK-LABEL: func.func @no_alloca
// CHECK-NOT: memref.alloca_scope
// CHECK: %[[Y:.*]] = call @g(%{{.*}})
// CHECK: return %[[Y]]
func.func @no_alloca(%a: f64) -> f64 {
  %r = memref.alloca_scope -> (f64) {
    %y = func.call @g(%a) : (f64) -> f64
    memref.alloca_scope.return %y : f64
  }
  return %r : f64
}

// CHECK-LABEL: func.func @with_alloca
// CHECK: memref.alloca_scope
// CHECK: memref.alloca
func.func @with_alloca(%a: f64) {
  memref.alloca_scope {
    %m = memref.alloca() : memref<f64>
    memref.store %a, %m[] : memref<f64>
  }
  return
}

// CHECK-LABEL: func.func @nested
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT: memref.alloca
// CHECK: }
// CHECK-NEXT: return
func.func @nested(%a: f64) {
  memref.alloca_scope {
    memref.alloca_scope {
      %m = memref.alloca() : memref<f64>
      memref.store %a, %m[] : memref<f64>
    }
  }
  return
}
