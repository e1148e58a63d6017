// RUN: stencil-opt %s "--stencil-cut-shared=min-gain=1 padded=0" -split-input-file | FileCheck %s
// RUN: stencil-opt %s "--stencil-cut-shared=min-gain=1" -split-input-file | FileCheck %s --check-prefix=PADDED
// RUN: stencil-opt %s --stencil-scatter-to-gather -split-input-file | FileCheck %s --check-prefix=GATHER

// A weight read at a fixed element (`dims [_]`) in the shared value: the
// cut stores it like any gather; the padded fill shifts the gathers that
// follow the iteration dimension by -h = -2 and leaves the fixed index 2.
// CHECK-LABEL: func.func @fixed
// CHECK:       stencil.domain (%{{.*}}) = (1) to (%arg2 - 1) {
// CHECK:         stencil.gather %arg0[-1]
// CHECK:         stencil.gather %arg1[2] dims [_] : memref<3xf64>
// CHECK:         math.cos
// CHECK:         stencil.store %{{.*}} to %[[T:.*]] : memref<?xf64>
// CHECK-NEXT:  }
// CHECK-NEXT:  stencil.domain (%{{.*}}) = (1) to (%arg2 - 1) {
// CHECK-NEXT:    %[[R:.*]] = stencil.gather %[[T]][0] : memref<?xf64>
// CHECK-NEXT:    stencil.accumulate %[[R]] to %arg4[1]
// CHECK-NEXT:    stencil.accumulate %[[R]] to %arg4[0]
// CHECK-NEXT:    stencil.accumulate %[[R]] to %arg4[-1]
// CHECK-NEXT:  }
// PADDED-LABEL: func.func @fixed
// PADDED:       stencil.domain (%{{.*}}) = (3) to (%arg2 + 1) {
// PADDED-NEXT:    stencil.gather %arg0[-3]
// PADDED-NEXT:    stencil.gather %arg0[-2]
// PADDED-NEXT:    stencil.gather %arg0[-1]
// PADDED-NEXT:    stencil.gather %arg1[2] dims [_] : memref<3xf64>
// PADDED:         stencil.gather %arg3[-2]
// PADDED:         math.cos
// PADDED:         stencil.store
// PADDED-NEXT:  }
// PADDED-NEXT:  stencil.domain (%{{.*}}) = (0) to (%arg2) {
// PADDED:         stencil.accumulate %{{.*}} to %arg4[0]
// The gather nests read the weight at its fixed element at every shift.
// GATHER-LABEL: func.func @fixed
// GATHER:       affine.parallel
// GATHER:         affine.load %arg0[%{{.*}} - 2]
// GATHER:         affine.load %arg1[2] : memref<3xf64>
// GATHER-NOT:   stencil.domain
// GATHER:       return
func.func @fixed(%u: memref<?xf64>, %w: memref<3xf64>, %n: index,
                 %rb: memref<?xf64>, %ub: memref<?xf64>) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %0 = stencil.gather %u[-1] : memref<?xf64>
    %1 = stencil.gather %u[0] : memref<?xf64>
    %2 = stencil.gather %u[1] : memref<?xf64>
    %w2 = stencil.gather %w[2] dims [_] : memref<3xf64>
    %3 = arith.mulf %0, %w2 : f64
    %4 = arith.addf %3, %1 : f64
    %5 = arith.addf %4, %2 : f64
    %6 = stencil.gather %rb[0] : memref<?xf64>
    %7 = math.cos %5 : f64
    %8 = arith.mulf %6, %7 : f64
    stencil.accumulate %8 to %ub[1] : memref<?xf64>
    stencil.accumulate %8 to %ub[0] : memref<?xf64>
    stencil.accumulate %8 to %ub[-1] : memref<?xf64>
  }
  return
}

// -----

// A domain that scatters and also reduces into the weight's shadow (an
// accumulate at a fixed element): the reduction is not a scatter. Both
// passes first move it into a domain of its own with the same bounds,
// before the scatter (as --stencil-split-reductions does), then convert the
// scatter.
// CHECK-LABEL: func.func @mixed
// CHECK:       stencil.store %{{.*}} to %[[T:.*]] : memref<?xf64>
// CHECK:       stencil.domain (%{{.*}}) = (1) to (%arg2 - 1) {
// CHECK:         math.cos
// CHECK:         stencil.accumulate %{{.*}} to %arg5[2] dims [_] : memref<3xf64>
// CHECK-NEXT:  }
// CHECK-NEXT:  stencil.domain (%{{.*}}) = (1) to (%arg2 - 1) {
// CHECK-NEXT:    %[[R:.*]] = stencil.gather %[[T]][0] : memref<?xf64>
// CHECK-NEXT:    stencil.accumulate %[[R]] to %arg4[1]
// CHECK-NEXT:    stencil.accumulate %[[R]] to %arg4[0]
// CHECK-NEXT:    stencil.accumulate %[[R]] to %arg4[-1]
// CHECK-NEXT:  }
// CHECK-NEXT:  memref.dealloc
// PADDED-LABEL: func.func @mixed
// PADDED:       stencil.domain (%{{.*}}) = (1) to (%arg2 - 1) {
// PADDED:         stencil.accumulate %{{.*}} to %arg5[2] dims [_] : memref<3xf64>
// PADDED-NEXT:  }
// PADDED:       scf.if
// PADDED:         stencil.accumulate %{{.*}} to %arg4[0]
// PADDED-NEXT:  }
// PADDED-NEXT:  memref.dealloc
// GATHER-LABEL: func.func @mixed
// GATHER:       stencil.domain (%{{.*}}) = (1) to (%arg2 - 1) {
// GATHER:         stencil.accumulate %{{.*}} to %arg5[2] dims [_] : memref<3xf64>
// GATHER-NEXT:  }
// GATHER:       scf.if
// GATHER-NOT:     stencil.
// GATHER:         affine.store %{{.*}}, %arg4
// GATHER-NOT:     stencil.
// GATHER:       return
func.func @mixed(%u: memref<?xf64>, %w: memref<3xf64>, %n: index,
                 %rb: memref<?xf64>, %ub: memref<?xf64>,
                 %wb: memref<3xf64>) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %0 = stencil.gather %u[-1] : memref<?xf64>
    %1 = stencil.gather %u[0] : memref<?xf64>
    %2 = stencil.gather %u[1] : memref<?xf64>
    %w2 = stencil.gather %w[2] dims [_] : memref<3xf64>
    %3 = arith.mulf %0, %w2 : f64
    %4 = arith.addf %3, %1 : f64
    %5 = arith.addf %4, %2 : f64
    %6 = stencil.gather %rb[0] : memref<?xf64>
    %7 = math.cos %5 : f64
    %8 = arith.mulf %6, %7 : f64
    stencil.accumulate %8 to %ub[1] : memref<?xf64>
    stencil.accumulate %8 to %ub[0] : memref<?xf64>
    stencil.accumulate %8 to %ub[-1] : memref<?xf64>
    stencil.accumulate %8 to %wb[2] dims [_] : memref<3xf64>
  }
  return
}
