// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s
// RUN: stencil-opt %s --stencil-adjoint=snapshot-borders=false | FileCheck %s --check-prefix=OFF
// RUN: stencil-opt %s --symbol-privatize=exclude=lf2d --symbol-dce --stencil-adjoint --stencil-distribute=grid=2,1 \
// RUN:   | FileCheck %s --check-prefix=DIST --implicit-check-not=stencil.global_index

// Snapshots that keep only borders (docs/TimeLoops.md, section 4). The step
// of @lf2d stores into the interior of `next`, [1, n-1) x [2, m), before
// anything reads it, and its adjoint does not read `next`: outside
// store-all, a slot keeps the rest of `next` only, as four boxes (rows
// below and above the box, then the columns left and right of it within its
// rows), packed one after the other. An i1 constant marked
// stencil.snapshot_borders selects them.

func.func @lf2d(%u0: memref<?x?xf64> {stencil.active},
                %u1: memref<?x?xf64> {stencil.active},
                %u2: memref<?x?xf64> {stencil.active},
                %c: memref<?x?xf64> {stencil.active},
                %n: index, %m: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %r:3 = scf.for %t = %c0 to %T step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2)
      -> (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>) {
    stencil.domain (%i, %j) = (1, 2) to (%nm1, %m) {
      %a = stencil.gather %cur[-1, 0] : memref<?x?xf64>
      %b = stencil.gather %cur[0, -1] : memref<?x?xf64>
      %p = stencil.gather %prev[0, 0] : memref<?x?xf64>
      %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
      %s = arith.addf %a, %b : f64
      %q = arith.mulf %cc, %s : f64
      %v = arith.subf %q, %p : f64
      stencil.store %v to %next : memref<?x?xf64>
    }
    scf.yield %cur, %next, %prev : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>
  }
  return
}

// CHECK-LABEL: func.func @lf2d_adjoint(
// CHECK-SAME:    %{{[a-z0-9]+}}: memref<?x?xf64>, %{{[a-z0-9]+}}: memref<?x?xf64>, %{{[a-z0-9]+}}: memref<?x?xf64>, %{{[a-z0-9]+}}: memref<?x?xf64>, %[[N:[a-z0-9]+]]: index, %[[M:[a-z0-9]+]]: index,
// The box in the driver's values: [1, n - 1 + 0) x [2, m + 0) (the step's
// bounds, captures plus constants), each bound marked as a global index of
// its dimension, then clamped to the array's extents.
// CHECK:       %[[NM1:.*]] = arith.subi %[[N]], %c1
// CHECK:       arith.constant {stencil.global_index = 0 : i64} 1 : index
// CHECK:       %[[HI0:.*]] = arith.addi %[[NM1]], %{{.*}} {stencil.global_index = 0 : i64} : index
// CHECK:       arith.constant {stencil.global_index = 1 : i64} 2 : index
// CHECK:       %[[HI1:.*]] = arith.addi %[[M]], %{{.*}} {stencil.global_index = 1 : i64} : index
// CHECK:       %[[FLAG:.*]] = arith.constant {stencil.snapshot_borders} true
// CHECK:       %[[L0A:.*]] = arith.maxsi %{{.*}}, %[[ZERO:.*]] : index
// CHECK-NEXT:  %[[L0:.*]] = arith.minsi %[[L0A]], %[[E0:dim[_0-9]*]] : index
// CHECK-NEXT:  %[[U0A:.*]] = arith.maxsi %[[HI0]], %[[L0]] : index
// CHECK-NEXT:  %[[U0:.*]] = arith.minsi %[[U0A]], %[[E0]] : index
// CHECK-NEXT:  %[[L1A:.*]] = arith.maxsi %{{.*}}, %[[ZERO]] : index
// CHECK-NEXT:  %[[L1:.*]] = arith.minsi %[[L1A]], %[[E1:dim[_0-9]*]] : index
// CHECK-NEXT:  %[[U1A:.*]] = arith.maxsi %[[HI1]], %[[L1]] : index
// CHECK-NEXT:  %[[U1:.*]] = arith.minsi %[[U1A]], %[[E1]] : index
// The slot's part for `next`: the border's bytes where the flag is set, the
// whole array's otherwise.
// CHECK:       arith.select %[[FLAG]], %{{.*}}, %{{.*}} : index
// STORE: four boxes of `next` (the third working array) into four views.
// CHECK:       case 0 {
// CHECK:         scf.if %[[FLAG]] {
// CHECK:           %[[P0:.*]] = memref.view %{{.*}}[%{{.*}}][%[[L0]], %[[E1]]]
// CHECK-NEXT:      %[[S0:.*]] = memref.subview %[[NEXT:arg[0-9]+]][%[[ZERO]], %[[ZERO]]] [%[[L0]], %[[E1]]] [1, 1]
// CHECK-NEXT:      stencil.domain (%{{.*}}, %{{.*}}) = (0, 0) to (%[[L0]], %[[E1]]) {
// CHECK-NEXT:        %[[X:.*]] = stencil.gather %[[S0]][0, 0]
// CHECK-NEXT:        stencil.store %[[X]] to %[[P0]]
// CHECK:           memref.subview %[[NEXT]][%[[U0]], %[[ZERO]]] [%{{.*}}, %[[E1]]] [1, 1]
// CHECK:           memref.subview %[[NEXT]][%[[L0]], %[[ZERO]]] [%{{.*}}, %[[L1]]] [1, 1]
// CHECK:           memref.subview %[[NEXT]][%[[L0]], %[[U1]]] [%{{.*}}, %{{.*}}] [1, 1]
// CHECK:         } else {
// CHECK:           stencil.gather %[[NEXT]][0, 0]
// RESTORE: the same boxes the other way.
// CHECK:       case 1 {
// CHECK:         scf.if %[[FLAG]] {
// CHECK-COUNT-4:   stencil.store %{{.*}} to %subview
// CHECK:         } else {
// CHECK:           stencil.store %{{.*}} to %[[NEXT2:arg[0-9]+]] : memref<?x?xf64>

// Without the option, the slots keep whole arrays.
// OFF-NOT:     stencil.snapshot_borders
// OFF-NOT:     memref.subview

// Every array of the adjoint is a block (the states and shadows reach the
// step functions through the checkpointing loops). On a rank of a
// distribution, global index i of dimension k is local index
// i - start_k + halo, and the rank overwrites only the points it owns,
// local [halo, halo + count_k): each bound of the box becomes that, clamped
// (the halo is 1 here), and the marks are gone.
// DIST-LABEL:  func.func @lf2d_adjoint(
// DIST-SAME:     %[[G0:arg[0-9]+]]: index, %[[G1:arg[0-9]+]]: index) attributes {{.*}}stencil.distribution
// DIST-SAME:     {blocks = array<i64: 0, 1, 2, 3, 7, 8, 9, 10>, grid = array<i64: 2, 1>, halo = 1 : i64}
// DIST:          %[[P:.*]]:2 = shard.process_multi_index on @stencil_grid
// DIST:          %[[PARTS:.*]]:2 = shard.grid_shape @stencil_grid
// DIST:          %[[H:.*]] = arith.constant 1 : index
// DIST:          %[[E0:.*]] = arith.index_cast %[[G0]] : index to i64
// DIST:          %[[Q0:.*]] = arith.index_cast %[[PARTS]]#0 : index to i64
// DIST:          %[[C0:.*]] = arith.index_cast %[[P]]#0 : index to i64
// DIST:          %[[S0:.*]] = call @stencil_dist_block_start(%[[E0]], %[[Q0]], %[[C0]])
// DIST:          %[[S0I:.*]] = arith.index_cast %[[S0]] : i64 to index
// DIST:          %[[N0:.*]] = call @stencil_dist_block_count(%[[E0]], %[[Q0]], %[[C0]])
// DIST:          %[[N0I:.*]] = arith.index_cast %[[N0]] : i64 to index
// DIST:          %[[SH0:.*]] = arith.subi %[[H]], %[[S0I]] : index
// DIST:          %[[END0:.*]] = arith.addi %[[H]], %[[N0I]] : index
// DIST:          %[[Q1:.*]] = arith.index_cast %[[PARTS]]#1 : index to i64
// DIST:          call @stencil_dist_block_start(%{{.*}}, %[[Q1]],
// DIST:          %[[SH1:.*]] = arith.subi %[[H]], %{{.*}} : index
// DIST:          %[[END1:.*]] = arith.addi %[[H]], %{{.*}} : index
// DIST-NOT:      stencil.global_index
// DIST:          %[[A:.*]] = arith.addi %c1_{{[0-9]+}}, %[[SH0]] : index
// DIST-NEXT:     %[[B:.*]] = arith.maxsi %[[A]], %[[H]] : index
// DIST-NEXT:     %[[LOC0:.*]] = arith.minsi %[[B]], %[[END0]] : index
// DIST:          %[[C:.*]] = arith.addi %c2, %[[SH1]] : index
// DIST-NEXT:     %[[D:.*]] = arith.maxsi %[[C]], %[[H]] : index
// DIST-NEXT:     arith.minsi %[[D]], %[[END1]] : index
// DIST:          %[[FLAG:.*]] = arith.constant {stencil.snapshot_borders} true
// DIST-NEXT:     %[[Z:.*]] = arith.constant 0 : index
// DIST-NEXT:     arith.maxsi %[[LOC0]], %[[Z]] : index
// DIST:          case 0 {
// DIST:            scf.if %[[FLAG]] {
// DIST-COUNT-4:      memref.subview
// DIST:            } else {
// DIST:          case 1 {

// The step reads `next` (a source added to it) before it overwrites it:
// whole arrays.
func.func @read_first(%u0: memref<?xf64> {stencil.active},
                      %u1: memref<?xf64> {stencil.active},
                      %n: index, %s: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %s1 = arith.addi %s, %c1 : index
  %nm1 = arith.subi %n, %c1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%cur = %u0, %next = %u1)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (%s) to (%s1) {
      stencil.accumulate %one to %next[0] : memref<?xf64>
    }
    stencil.domain (%i) = (1) to (%nm1) {
      %a = stencil.gather %cur[-1] : memref<?xf64>
      %b = stencil.gather %cur[1] : memref<?xf64>
      %p = arith.mulf %a, %b : f64
      stencil.store %p to %next : memref<?xf64>
    }
    scf.yield %next, %cur : memref<?xf64>, memref<?xf64>
  }
  return
}

// CHECK-LABEL: func.func @read_first_adjoint(
// CHECK-NOT:   stencil.snapshot_borders
// CHECK:       return

// The box depends on the step index, which the driver does not pass with
// the state: whole arrays.
func.func @by_step(%u0: memref<?xf64> {stencil.active},
                   %u1: memref<?xf64> {stencil.active},
                   %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%cur = %u0, %next = %u1)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%t) {
      %a = stencil.gather %cur[-1] : memref<?xf64>
      %b = stencil.gather %cur[0] : memref<?xf64>
      %p = arith.mulf %a, %b : f64
      stencil.store %p to %next : memref<?xf64>
    }
    scf.yield %next, %cur : memref<?xf64>, memref<?xf64>
  }
  return
}

// CHECK-LABEL: func.func @by_step_adjoint(
// CHECK-NOT:   stencil.snapshot_borders
// CHECK:       return

// A store through `dims [1, 0]`: dimension 0 of the array is dimension 1
// of the domain, so the box is [2, m) x [1, n).
func.func @transposed(%u0: memref<?x?xf64> {stencil.active},
                      %u1: memref<?x?xf64> {stencil.active},
                      %n: index, %m: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%a = %u0, %b = %u1)
      -> (memref<?x?xf64>, memref<?x?xf64>) {
    stencil.domain (%i, %j) = (1, 2) to (%n, %m) {
      %x = stencil.gather %a[0, 0] dims [1, 0] : memref<?x?xf64>
      %y = arith.mulf %x, %x : f64
      stencil.store %y to %b dims [1, 0] : memref<?x?xf64>
    }
    scf.yield %b, %a : memref<?x?xf64>, memref<?x?xf64>
  }
  return
}

// CHECK-LABEL: func.func @transposed_adjoint(
// CHECK:       arith.constant {stencil.snapshot_borders} true
// CHECK-NEXT:  %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:  arith.maxsi %c2{{[_0-9]*}}, %[[Z]] : index
// CHECK-NEXT:  arith.minsi
// CHECK-NEXT:  arith.maxsi
// CHECK-NEXT:  arith.minsi
// CHECK-NEXT:  arith.maxsi %c1{{[_0-9]*}}, %[[Z]] : index
