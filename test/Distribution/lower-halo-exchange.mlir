// RUN: stencil-opt %s --stencil-lower-halo-exchange -split-input-file | FileCheck %s

// One exchange over a 2x3 grid, dimension 0 on grid axis 0 (halo 1 below, 0
// above) and dimension 1 on axis 1 (2 and 1): per split dimension, the two
// neighbours from the run-time library (which resolves the grid on the
// caller's communicator), and per side of non-zero width a slab packed into
// a 1-D buffer where there is a neighbour to send to, one sendrecv of its
// bytes, and the unpacking where there is one to receive from; nothing for
// the side of width 0. The grid goes once nothing uses it; its spec stays,
// for the run-time library.

// CHECK-NOT: shard.grid
// CHECK: llvm.mlir.global internal constant @stencil_dist_grid_g("2,3\00")
// CHECK-LABEL: func.func @exchange(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf64, strided<[?, 1], offset: ?>>)
// CHECK: %[[SPEC:.*]] = llvm.getelementptr
// Dimension 0, lower halo of width 1 only: one side, sent up, received from below.
// CHECK: %[[LO0:.*]] = call @stencil_dist_neighbor(%[[SPEC]], %c0_i64{{.*}}, %c-1_i64)
// CHECK: %[[DOWN:.*]] = arith.index_cast %[[LO0]]
// CHECK: %[[HI0:.*]] = call @stencil_dist_neighbor(%[[SPEC]], %c0_i64{{.*}}, %c1_i64)
// CHECK: %[[UP:.*]] = arith.index_cast %[[HI0]]
// CHECK: %[[SEND:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[RECV:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[HASUP:.*]] = arith.cmpi ne, %[[UP]], %c-1
// CHECK: scf.if %[[HASUP]] {
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %[[SEND]]
// CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %c8 : index
// CHECK: memref.extract_aligned_pointer_as_index %[[SEND]]
// CHECK: memref.extract_aligned_pointer_as_index %[[RECV]]
// CHECK: call @stencil_dist_sendrecv(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c20736_i64)
// CHECK: %[[HASDOWN:.*]] = arith.cmpi ne, %[[DOWN]], %c-1
// CHECK: scf.if %[[HASDOWN]] {
// CHECK: memref.load %[[RECV]]
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: memref.dealloc %[[SEND]]
// CHECK: memref.dealloc %[[RECV]]
// CHECK-NOT: %c20737_i64
// Dimension 1: both sides.
// CHECK: call @stencil_dist_neighbor(%[[SPEC]], %c1_i64
// CHECK: call @stencil_dist_sendrecv({{.*}}, %c20738_i64)
// CHECK: call @stencil_dist_sendrecv({{.*}}, %c20739_i64)
// CHECK: return %[[A]]
module {
  shard.grid @g(shape = 2x3) {sym_visibility = "private"}
  func.func @exchange(%a: memref<?x?xf64, strided<[?, 1], offset: ?>>) -> memref<?x?xf64, strided<[?, 1], offset: ?>> {
    %r = shard.update_halo %a on @g split_axes = [[0], [1]] halo_sizes = [1, 0, 2, 1] : memref<?x?xf64, strided<[?, 1], offset: ?>>
    return %r : memref<?x?xf64, strided<[?, 1], offset: ?>>
  }
}

// -----

// A grid whose extents are chosen at run time: its extents and this
// process's coordinates come from the run-time library; a fixed extent of 1
// is the constant coordinate 0, a fixed extent a constant.

// CHECK: llvm.mlir.global internal constant @stencil_dist_grid_h("?,1,4\00")
// CHECK-LABEL: func.func @grid(
// CHECK: %[[SPEC:.*]] = llvm.getelementptr
// CHECK: %[[C0:.*]] = call @stencil_dist_grid_coord(%[[SPEC]], %c0_i64)
// CHECK: %[[C2:.*]] = call @stencil_dist_grid_coord(%[[SPEC]], %c2_i64)
// CHECK: %[[P0:.*]] = call @stencil_dist_grid_extent(%{{.*}}, %c0_i64
// CHECK-NOT: call
// CHECK: return %{{.*}}, %c0, %{{.*}}, %{{.*}}, %c1{{.*}}, %c4
module {
  shard.grid @h(shape = ?x1x4) {sym_visibility = "private"}
  func.func @grid() -> (index, index, index, index, index, index) {
    %c:3 = shard.process_multi_index on @h : index, index, index
    %p:3 = shard.grid_shape @h : index, index, index
    return %c#0, %c#1, %c#2, %p#0, %p#1, %p#2 : index, index, index, index, index, index
  }
}
