// RUN: stencil-opt %s "--stencil-cut-shared=min-gain=1 padded=0" | FileCheck %s
// RUN: stencil-opt %s "--stencil-cut-shared=min-gain=1" | FileCheck %s --check-prefix=PADDED

// A scatter domain in the body of an scf.for (a time loop): the temporary
// lives for one iteration, allocated before the fill domain and freed at
// the end of the loop body (the scf.yield, implicit in the printed IR); the
// padded form keeps all of it inside its guard, inside the loop.

// CHECK-LABEL: func.func @in_loop
// CHECK:       scf.for
// CHECK:         %[[T:.*]] = memref.alloc
// CHECK-NEXT:    stencil.domain
// CHECK:           stencil.store %{{.*}} to %[[T]]
// CHECK:         stencil.domain
// CHECK-NEXT:      stencil.gather %[[T]][0]
// CHECK:         memref.dealloc %[[T]]
// CHECK-NEXT:  }
// CHECK-NEXT:  return
// PADDED-LABEL: func.func @in_loop
// PADDED:       scf.for
// PADDED:         scf.if
// PADDED:           %[[T:.*]] = memref.alloc
// PADDED:           memref.dealloc %[[T]]
// PADDED-NEXT:    }
// PADDED-NEXT:  }
// PADDED-NEXT:  return
func.func @in_loop(%u: memref<?xf64>, %ub: memref<?xf64>, %n: index,
                   %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %steps step %c1 {
    stencil.domain (%i) = (1) to (%n - 1) {
      %0 = stencil.gather %u[0] : memref<?xf64>
      %1 = math.cos %0 : f64
      stencil.accumulate %1 to %ub[1] : memref<?xf64>
      stencil.accumulate %1 to %ub[-1] : memref<?xf64>
    }
  }
  return
}
