// RUN: stencil-opt %s "--stencil-cut-shared=ring-min-gain=8 report" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: stencil-opt %s "--stencil-cut-shared=ring-min-gain=8" -split-input-file | FileCheck %s
// RUN: stencil-opt %s --stencil-cut-shared -split-input-file | FileCheck %s --check-prefix=OFF

// ring-min-gain: where min-gain (64) cuts nothing, a value that saves at
// least 8 ops is cut if --stencil-ring-cut can keep its temporary as a ring
// of planes. Here t = c * c * rb is used at 4 shifts and costs 4 ops (2
// gathers, 2 products): a gain of 12. The reset of rb that follows reads
// rb, after the cut, only in the fill: the gather sweep stays one loop.
// The plan is not padded (a padded form's temporaries are no rings).
// PLAN: remark: cut plan: {"ops_before": 16, "ops_after": 4, "ring": true, "ring_planes": 3, "padded": null, "cuts": [{"op": "arith.mulf", "shifts": 4, "slice_ops": 4, "gain": 12}]}
// CHECK-LABEL: func.func @ring
// CHECK: %[[T:.*]] = memref.alloc({{.*}}) {alignment = 64 : i64, stencil.ring}
// CHECK: stencil.domain
// CHECK: stencil.store %{{.*}} to %[[T]]
// CHECK: stencil.domain
// CHECK: stencil.gather %[[T]][0, 0]
// OFF-LABEL: func.func @ring
// OFF-NOT: memref.alloc
func.func @ring(%c: memref<?x?xf64>, %rb: memref<?x?xf64>,
                %ub: memref<?x?xf64>, %n: index) attributes {stencil.noalias} {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
    %c2 = arith.mulf %cc, %cc : f64
    %r = stencil.gather %rb[0, 0] : memref<?x?xf64>
    %t = arith.mulf %c2, %r : f64
    stencil.accumulate %t to %ub[-1, 0] : memref<?x?xf64>
    stencil.accumulate %t to %ub[1, 0] : memref<?x?xf64>
    stencil.accumulate %t to %ub[0, -1] : memref<?x?xf64>
    stencil.accumulate %t to %ub[0, 1] : memref<?x?xf64>
  }
  %zero = arith.constant 0.0 : f64
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    stencil.store %zero to %rb : memref<?x?xf64>
  }
  return
}

// -----

// Not cut: arrays that may overlap (no stencil.noalias: no rings), a 1-D
// domain (no planes), a statement at offset (1, 1) that reads rb itself
// (its reset must lag: blocks, no ring), and offsets of dimension 0 over 9
// planes.
// PLAN-COUNT-4: remark: cut plan: {"ops_before": {{[0-9]+}}, "ops_after": {{[0-9]+}}, "ring": false, "ring_planes": 0, "padded": null, "cuts": []}
// CHECK-LABEL: func.func @may_alias
// CHECK-NOT: memref.alloc
// CHECK-LABEL: func.func @one_dim
// CHECK-NOT: memref.alloc
// CHECK-LABEL: func.func @reads_reset_off_centre
// CHECK-NOT: memref.alloc
// CHECK-LABEL: func.func @nine_planes
// CHECK-NOT: memref.alloc
func.func @may_alias(%c: memref<?x?xf64>, %rb: memref<?x?xf64>,
                     %ub: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
    %c2 = arith.mulf %cc, %cc : f64
    %r = stencil.gather %rb[0, 0] : memref<?x?xf64>
    %t = arith.mulf %c2, %r : f64
    stencil.accumulate %t to %ub[-1, 0] : memref<?x?xf64>
    stencil.accumulate %t to %ub[1, 0] : memref<?x?xf64>
    stencil.accumulate %t to %ub[0, -1] : memref<?x?xf64>
    stencil.accumulate %t to %ub[0, 1] : memref<?x?xf64>
  }
  return
}
func.func @one_dim(%c: memref<?xf64>, %rb: memref<?xf64>, %ub: memref<?xf64>,
                   %n: index) attributes {stencil.noalias} {
  stencil.domain (%i) = (2) to (%n - 2) {
    %cc = stencil.gather %c[0] : memref<?xf64>
    %c2 = arith.mulf %cc, %cc : f64
    %r = stencil.gather %rb[0] : memref<?xf64>
    %t = arith.mulf %c2, %r : f64
    stencil.accumulate %t to %ub[-2] : memref<?xf64>
    stencil.accumulate %t to %ub[-1] : memref<?xf64>
    stencil.accumulate %t to %ub[1] : memref<?xf64>
    stencil.accumulate %t to %ub[2] : memref<?xf64>
  }
  return
}
func.func @reads_reset_off_centre(%c: memref<?x?xf64>, %rb: memref<?x?xf64>,
                                  %ub: memref<?x?xf64>, %n: index)
    attributes {stencil.noalias} {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
    %c2 = arith.mulf %cc, %cc : f64
    %r = stencil.gather %rb[0, 0] : memref<?x?xf64>
    %t = arith.mulf %c2, %r : f64
    stencil.accumulate %t to %ub[-1, 0] : memref<?x?xf64>
    stencil.accumulate %t to %ub[1, 0] : memref<?x?xf64>
    stencil.accumulate %t to %ub[0, -1] : memref<?x?xf64>
    stencil.accumulate %t to %ub[0, 1] : memref<?x?xf64>
    stencil.accumulate %r to %ub[1, 1] : memref<?x?xf64>
  }
  %zero = arith.constant 0.0 : f64
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    stencil.store %zero to %rb : memref<?x?xf64>
  }
  return
}
func.func @nine_planes(%c: memref<?x?xf64>, %rb: memref<?x?xf64>,
                       %ub: memref<?x?xf64>, %n: index)
    attributes {stencil.noalias} {
  stencil.domain (%i, %j) = (4, 1) to (%n - 4, %n - 1) {
    %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
    %c2 = arith.mulf %cc, %cc : f64
    %r = stencil.gather %rb[0, 0] : memref<?x?xf64>
    %t = arith.mulf %c2, %r : f64
    stencil.accumulate %t to %ub[-4, 0] : memref<?x?xf64>
    stencil.accumulate %t to %ub[4, 0] : memref<?x?xf64>
    stencil.accumulate %t to %ub[0, -1] : memref<?x?xf64>
    stencil.accumulate %t to %ub[0, 1] : memref<?x?xf64>
  }
  return
}
