// RUN: stencil-opt %s --stencil-lower-halo-exchange | FileCheck %s

// One exchange over a 2x3 grid, dimension 0 on grid axis 0 (halo 1 below, 0
// above) and dimension 1 on axis 1 (2 and 1): per split dimension and side
// of non-zero width, the grid coordinate (row-major: rank / 3 % 2 and
// rank % 3), a parity-ordered pair of blocking send/recv of 1-D buffers, and
// nothing for the side of width 0. The grid goes once nothing uses it.

// CHECK-NOT: shard.grid
// CHECK-LABEL: func.func @exchange(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf64, strided<[?, 1], offset: ?>>)
// CHECK: mpi.comm_world
// CHECK: %[[RANK:.*]] = mpi.comm_rank
// CHECK: %[[R:.*]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK: %[[Q:.*]] = arith.divui %[[R]], %c3
// CHECK: arith.remui %[[Q]], %c2
// Dimension 0, lower halo of width 1 only: one pair.
// CHECK: memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.if %{{.*}} {
// CHECK: mpi.send(%{{.*}}, %c20736_i32, %{{.*}}, %{{.*}}) : memref<?xf64>, i32, i32
// CHECK: mpi.recv(%{{.*}}, %c20736_i32, %{{.*}}, %{{.*}}) : memref<?xf64>, i32, i32
// CHECK: } else {
// CHECK: mpi.recv(%{{.*}}, %c20736_i32
// CHECK: mpi.send(%{{.*}}, %c20736_i32
// CHECK-NOT: %c20737_i32
// Dimension 1: both sides.
// CHECK: arith.remui %{{.*}}, %c3
// CHECK: mpi.send(%{{.*}}, %c20738_i32
// CHECK: mpi.send(%{{.*}}, %c20739_i32
// CHECK: return %[[A]]
module {
  shard.grid @g(shape = 2x3) {sym_visibility = "private"}
  func.func @exchange(%a: memref<?x?xf64, strided<[?, 1], offset: ?>>) -> memref<?x?xf64, strided<[?, 1], offset: ?>> {
    %r = shard.update_halo %a on @g split_axes = [[0], [1]] halo_sizes = [1, 0, 2, 1] : memref<?x?xf64, strided<[?, 1], offset: ?>>
    return %r : memref<?x?xf64, strided<[?, 1], offset: ?>>
  }
}
