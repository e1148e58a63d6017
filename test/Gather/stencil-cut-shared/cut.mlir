// RUN: stencil-opt %s "--stencil-cut-shared=min-gain=1 padded=0" -split-input-file | FileCheck %s
// RUN: stencil-opt %s "--stencil-cut-shared=min-gain=1" -split-input-file | FileCheck %s --check-prefix=PADDED
// RUN: stencil-opt %s --stencil-cut-shared -split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: stencil-opt %s "--stencil-cut-shared=min-gain=1 report" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN

// The adjoint of r[i] = sin(u[i-1] + u[i] + u[i+1]): every statement
// accumulates rb[i] * cos(sum) at its own offset. Its gather form would
// evaluate the 8 non-constant ops of that value (3 gathers of u, 2 adds,
// the gather of rb, cos, mul) at each of the 3 shifts: 24 ops per point;
// stored once, each shift reads it back with one gather: 3 ops, a gain of
// (3 - 1) * 8 = 16, below the default min-gain of 64.

// PLAN: remark: cut plan: {"ops_before": 24, "ops_after": 3, "ring": false, "ring_planes": 0, "padded": [2], "cuts": [{"op": "arith.mulf", "shifts": 3, "slice_ops": 8, "gain": 16}]}

// CHECK-LABEL: func.func @sin3
// CHECK:       %[[N:.*]] = affine.max #{{.*}}()[%arg2]
// CHECK:       %[[T:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xf64>
// CHECK:       stencil.domain (%{{.*}}) = (1) to (%arg2 - 1) {
// CHECK-COUNT-3: stencil.gather %arg0
// CHECK:         math.cos
// CHECK:         %[[V:.*]] = arith.mulf
// CHECK-NEXT:    stencil.store %[[V]] to %[[T]] : memref<?xf64>
// CHECK-NEXT:  }
// CHECK-NEXT:  stencil.domain (%{{.*}}) = (1) to (%arg2 - 1) {
// CHECK-NEXT:    %[[R:.*]] = stencil.gather %[[T]][0] : memref<?xf64>
// CHECK-NEXT:    stencil.accumulate %[[R]] to %arg4[1]
// CHECK-NEXT:    stencil.accumulate %[[R]] to %arg4[0]
// CHECK-NEXT:    stencil.accumulate %[[R]] to %arg4[-1]
// CHECK-NEXT:  }
// The reset of rb stays right after the scatter domain.
// CHECK-NEXT:  stencil.domain
// CHECK-NEXT:    arith.constant 0.0
// CHECK-NEXT:    stencil.store %{{.*}} to %arg3
// CHECK-NEXT:  }
// CHECK-NEXT:  memref.dealloc %[[T]] : memref<?xf64>
// CHECK-NEXT:  return
// Padded (every statement is the cut value): offsets -1..1 give a border of
// h = 2. The temporary spans [0, ub + 4) = [0, n + 3): zero below
// lb + h = 3 and from ub + h = n + 1 on, the value at p + 2 for p in
// [1, n - 1), its gathers shifted by -2. The gather domain covers the
// written box [lb - 1, ub + 1) = [0, n) and reads the temporary at
// h - o = 1, 2, 3 for the statements' offsets 1, 0, -1, summed in program
// order. Everything runs only if the domain is non-empty.
// PADDED-LABEL: func.func @sin3
// PADDED:       scf.if
// PADDED:         %[[N:.*]] = affine.apply #{{.*}}()[%arg2]
// PADDED-NEXT:    %[[T:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xf64>
// PADDED-NEXT:    stencil.domain (%{{.*}}) = (0) to (3) {
// PADDED-NEXT:      arith.constant 0.0
// PADDED-NEXT:      stencil.store %{{.*}} to %[[T]]
// PADDED-NEXT:    }
// PADDED-NEXT:    stencil.domain (%{{.*}}) = (%arg2 + 1) to (%arg2 + 3) {
// PADDED-NEXT:      arith.constant 0.0
// PADDED-NEXT:      stencil.store %{{.*}} to %[[T]]
// PADDED-NEXT:    }
// PADDED-NEXT:    stencil.domain (%{{.*}}) = (3) to (%arg2 + 1) {
// PADDED-NEXT:      stencil.gather %arg0[-3]
// PADDED-NEXT:      stencil.gather %arg0[-2]
// PADDED-NEXT:      stencil.gather %arg0[-1]
// PADDED-NEXT:      arith.addf
// PADDED-NEXT:      arith.addf
// PADDED-NEXT:      stencil.gather %arg3[-2]
// PADDED-NEXT:      math.cos
// PADDED-NEXT:      %[[V:.*]] = arith.mulf
// PADDED-NEXT:      stencil.store %[[V]] to %[[T]]
// PADDED-NEXT:    }
// PADDED-NEXT:    stencil.domain (%{{.*}}) = (0) to (%arg2) {
// PADDED-NEXT:      %[[A:.*]] = stencil.gather %[[T]][1]
// PADDED-NEXT:      %[[B:.*]] = stencil.gather %[[T]][2]
// PADDED-NEXT:      %[[AB:.*]] = arith.addf %[[A]], %[[B]]
// PADDED-NEXT:      %[[C:.*]] = stencil.gather %[[T]][3]
// PADDED-NEXT:      %[[S:.*]] = arith.addf %[[AB]], %[[C]]
// PADDED-NEXT:      stencil.accumulate %[[S]] to %arg4[0]
// PADDED-NEXT:    }
// PADDED-NEXT:    memref.dealloc %[[T]]
// PADDED-NEXT:  }
// The reset of rb, after the guard.
// PADDED-NEXT:  stencil.domain
// PADDED-NEXT:    arith.constant 0.0
// PADDED-NEXT:    stencil.store %{{.*}} to %arg3
// PADDED-NEXT:  }
// PADDED-NEXT:  return
// DEFAULT-LABEL: func.func @sin3
// DEFAULT-NOT:   memref.alloc
// DEFAULT:       math.cos
// DEFAULT:       stencil.accumulate
func.func @sin3(%u: memref<?xf64>, %r: memref<?xf64>, %n: index,
                %rb: memref<?xf64>, %ub: memref<?xf64>) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %0 = stencil.gather %u[-1] : memref<?xf64>
    %1 = stencil.gather %u[0] : memref<?xf64>
    %2 = stencil.gather %u[1] : memref<?xf64>
    %3 = arith.addf %0, %1 : f64
    %4 = arith.addf %3, %2 : f64
    %5 = stencil.gather %rb[0] : memref<?xf64>
    %6 = math.cos %4 : f64
    %7 = arith.mulf %5, %6 : f64
    stencil.accumulate %7 to %ub[1] : memref<?xf64>
    stencil.accumulate %7 to %ub[0] : memref<?xf64>
    stencil.accumulate %7 to %ub[-1] : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%n - 1) {
    %z = arith.constant 0.0 : f64
    stencil.store %z to %rb : memref<?xf64>
  }
  return
}

// -----

// Two shared values in one f32 domain, chosen by decreasing gain: x (4 ops:
// two gathers, mul and exp, at shifts (-1,0) and (1,0)) saves 4, then y
// (2 ops: a gather and sin, at shifts (0,-1) and (0,1)) saves 2. Before,
// the 4 shifts evaluate 4 + 4 + 2 + 2 ops; after, one gather each. The
// domain result uses x as well, and reads it back too.

// PLAN: remark: cut plan: {"ops_before": 12, "ops_after": 4, "ring": false, "ring_planes": 0, "padded": null, "cuts": [{"op": "math.exp", "shifts": 2, "slice_ops": 4, "gain": 4}, {"op": "math.sin", "shifts": 2, "slice_ops": 2, "gain": 2}]}

// CHECK-LABEL: func.func @two_cuts
// CHECK:       %[[TE:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK:       %[[TS:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK:       stencil.domain
// CHECK:         %[[E:.*]] = math.exp
// CHECK:         %[[S:.*]] = math.sin
// CHECK:         stencil.store %[[E]] to %[[TE]]
// CHECK-NEXT:    stencil.store %[[S]] to %[[TS]]
// CHECK:       %[[SUM:.*]] = stencil.domain (%{{.*}}, %{{.*}}) = (1, 1) to (%arg3 - 1, %arg3 - 1) -> (f32) {
// CHECK-DAG:     %[[RE:.*]] = stencil.gather %[[TE]][0, 0]
// CHECK-DAG:     %[[RS:.*]] = stencil.gather %[[TS]][0, 0]
// CHECK-NOT:     math.
// CHECK:         stencil.accumulate %[[RE]] to %arg2[-1, 0]
// CHECK:         stencil.accumulate %[[RE]] to %arg2[1, 0]
// CHECK:         stencil.accumulate %[[RS]] to %arg2[0, -1]
// CHECK:         stencil.accumulate %[[RS]] to %arg2[0, 1]
// CHECK:         stencil.yield %[[RE]] : f32
// CHECK:       memref.dealloc %[[TE]]
// CHECK-NEXT:  memref.dealloc %[[TS]]
// CHECK-NEXT:  return %[[SUM]]
func.func @two_cuts(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                    %ab: memref<?x?xf32>, %n: index) -> f32 {
  %sum = stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) -> (f32) {
    %w = stencil.gather %a[-1, 0] : memref<?x?xf32>
    %e = stencil.gather %a[1, 0] : memref<?x?xf32>
    %we = arith.mulf %w, %e : f32
    %x = math.exp %we : f32
    %s = stencil.gather %b[0, -1] : memref<?x?xf32>
    %y = math.sin %s : f32
    stencil.accumulate %x to %ab[-1, 0] : memref<?x?xf32>
    stencil.accumulate %x to %ab[1, 0] : memref<?x?xf32>
    stencil.accumulate %y to %ab[0, -1] : memref<?x?xf32>
    stencil.accumulate %y to %ab[0, 1] : memref<?x?xf32>
    stencil.yield %x : f32
  }
  return %sum : f32
}

// -----

// A symbolic lower bound (a distributed domain's are the rank's): the
// temporary, indexed by the domain's coordinates, is a buffer of the
// domain's extent seen through a view whose index %lo is its element 0
// (not padded: the padded form needs temporaries from index 0).

// PLAN: remark: cut plan: {"ops_before": 6, "ops_after": 2, "ring": false, "ring_planes": 0, "padded": null, "cuts": [{"op": "math.cos", "shifts": 2, "slice_ops": 3, "gain": 3}]}
// CHECK-LABEL: func.func @symbolic_lower
// CHECK-SAME:    %[[LO:[^:]*]]: index, %[[N:[^:]*]]: index
// CHECK:       %[[E:.*]] = affine.max #{{.*}}()[%[[LO]], %[[N]]]
// CHECK:       %[[B:.*]] = memref.alloc(%[[E]])
// CHECK:       %[[O:.*]] = affine.apply #{{.*}}()[%[[LO]], %[[N]]]
// CHECK:       %[[OFF:.*]] = arith.subi %{{.*}}, %{{.*}}
// CHECK:       %[[SIZE:.*]] = arith.addi %[[O]], %[[E]]
// CHECK:       %[[V:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%[[OFF]]], sizes: [%[[SIZE]]], strides: [1]
// CHECK:       stencil.domain (%{{.*}}) = (%[[LO]]) to (%[[N]]) {
// CHECK:         math.cos
// CHECK:         stencil.store %{{.*}} to %[[V]]
// CHECK:       stencil.domain (%{{.*}}) = (%[[LO]]) to (%[[N]]) {
// CHECK-NOT:     math.cos
// CHECK:         stencil.gather %[[V]][0]
// CHECK:       memref.dealloc %[[B]]
func.func @symbolic_lower(%u: memref<?xf64>, %ub: memref<?xf64>, %lo: index,
                          %n: index) {
  stencil.domain (%i) = (%lo) to (%n) {
    %0 = stencil.gather %u[0] : memref<?xf64>
    %1 = math.cos %0 : f64
    %2 = math.cos %1 : f64
    stencil.accumulate %2 to %ub[1] : memref<?xf64>
    stencil.accumulate %2 to %ub[-1] : memref<?xf64>
  }
  return
}

// -----

// A lower bound that is an SSA constant (`%c1 = arith.constant 1`) is a
// constant: it is folded into the bound map first, and the domain is cut.
// PLAN: remark: cut plan: {"ops_before": 4
// CHECK-LABEL: func.func @constant_operand_lower
// CHECK:       %[[T:.*]] = memref.alloc
// CHECK:       stencil.domain (%{{.*}}) = (1) to (%{{.*}}) {
// CHECK:         math.cos
// CHECK:         stencil.store %{{.*}} to %[[T]]
func.func @constant_operand_lower(%u: memref<?xf64>, %ub: memref<?xf64>,
                                  %n: index) {
  %c1 = arith.constant 1 : index
  stencil.domain (%i) = (%c1) to (%n) {
    %0 = stencil.gather %u[0] : memref<?xf64>
    %1 = math.cos %0 : f64
    %2 = math.cos %1 : f64
    stencil.accumulate %2 to %ub[1] : memref<?xf64>
    stencil.accumulate %2 to %ub[-1] : memref<?xf64>
  }
  return
}

// -----

// Padded, over a domain that is empty by its constant bounds: nothing runs,
// so nothing is emitted, and the scatter domain is gone.
// PADDED-LABEL: func.func @empty
// PADDED-NEXT:    return
func.func @empty(%u: memref<?xf64>, %ub: memref<?xf64>) {
  stencil.domain (%i) = (4) to (4) {
    %0 = stencil.gather %u[0] : memref<?xf64>
    %1 = math.cos %0 : f64
    stencil.accumulate %1 to %ub[1] : memref<?xf64>
    stencil.accumulate %1 to %ub[-1] : memref<?xf64>
  }
  return
}

// -----

// Two accumulates into one array through different `dims` (the identity,
// and a transpose): the padded form writes each array through one `dims`,
// so this domain is cut but not padded.
// PLAN: remark: cut plan: {"ops_before": 4, "ops_after": 2, "ring": false, "ring_planes": 0, "padded": null, "cuts": [{"op": "math.cos", "shifts": 2, "slice_ops": 2, "gain": 2}]}
// PADDED-LABEL: func.func @mixed_dims
// PADDED-NOT:   scf.if
// PADDED:       memref.alloc
// PADDED:       stencil.accumulate %{{.*}} to %arg1[1, 0]
// PADDED:       stencil.accumulate %{{.*}} to %arg1[1, 0] dims [1, 0]
func.func @mixed_dims(%u: memref<?x?xf64>, %ub: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %0 = stencil.gather %u[0, 0] : memref<?x?xf64>
    %1 = math.cos %0 : f64
    stencil.accumulate %1 to %ub[1, 0] : memref<?x?xf64>
    stencil.accumulate %1 to %ub[1, 0] dims [1, 0] : memref<?x?xf64>
  }
  return
}
