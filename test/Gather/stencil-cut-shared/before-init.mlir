// RUN: stencil-opt %s "--stencil-cut-shared=min-gain=1 padded=0" -split-input-file | FileCheck %s
// RUN: stencil-opt %s "--stencil-cut-shared=min-gain=1 padded=0" -split-input-file \
// RUN:   --stencil-scatter-to-gather | FileCheck %s --check-prefix=FUSED

// A centre store into the array the scatter domain adds to (the deferred
// hand-over of a reversed time loop's step: ub1 = -h), right before it. The
// fill of the cut goes before that store, which then still stands right
// before the scatter domain, and --stencil-scatter-to-gather fuses it into
// the sweep as the first contribution: no nest of its own.

// CHECK-LABEL: func.func @handover
// CHECK:       %[[T:.*]] = memref.alloc
// CHECK-NEXT:  stencil.domain
// CHECK:         stencil.store %{{.*}} to %[[T]]
// CHECK-NEXT:  }
// CHECK-NEXT:  stencil.domain
// CHECK:         arith.negf
// CHECK-NEXT:    stencil.store %{{.*}} to %arg1
// CHECK-NEXT:  }
// CHECK-NEXT:  stencil.domain
// CHECK-NEXT:    stencil.gather %[[T]][0]
// FUSED-LABEL: func.func @handover
// FUSED-NOT:   arith.negf
// FUSED:       stencil.store %{{.*}} to %[[T:.*]] : memref
// FUSED-NEXT:  }
// FUSED-NOT:   stencil.domain
// FUSED:       affine.parallel
// FUSED:       arith.negf
// FUSED:       affine.load %[[T]][
func.func @handover(%u: memref<?xf64>, %ub1: memref<?xf64>,
                    %rb: memref<?xf64>, %h: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %x = stencil.gather %h[0] : memref<?xf64>
    %m = arith.negf %x : f64
    stencil.store %m to %ub1 : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %r = stencil.gather %rb[0] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    %c = math.cos %s : f64
    %v = arith.mulf %r, %c : f64
    stencil.accumulate %v to %ub1[1] : memref<?xf64>
    stencil.accumulate %v to %ub1[-1] : memref<?xf64>
  }
  return
}

// -----

// The store writes rb, which the fill reads: the fill stays after it.

// CHECK-LABEL: func.func @writes_read
// CHECK:       stencil.domain
// CHECK:         stencil.store %{{.*}} to %arg2
// CHECK-NEXT:  }
// CHECK:       %[[T:.*]] = memref.alloc
// CHECK-NEXT:  stencil.domain
// CHECK:         stencil.store %{{.*}} to %[[T]]
func.func @writes_read(%u: memref<?xf64>, %ub1: memref<?xf64>,
                       %rb: memref<?xf64>, %h: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %x = stencil.gather %h[0] : memref<?xf64>
    stencil.store %x to %rb : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %r = stencil.gather %rb[0] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    %c = math.cos %s : f64
    %v = arith.mulf %r, %c : f64
    stencil.accumulate %v to %ub1[1] : memref<?xf64>
    stencil.accumulate %v to %ub1[-1] : memref<?xf64>
  }
  return
}
