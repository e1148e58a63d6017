// RUN: stencil-opt %s --stencil-lower-halo-exchange=overlap=1 | FileCheck %s

// With overlap, the first split dimension (0) is exchanged last and only
// started: dimension 1 first, blocking, so that dimension 0's slabs carry
// its corners; then dimension 0's two sides start (stencil_dist_isendrecv),
// and their waits and unpacking sit in one scf.execute_region marked with
// the dimension, its axis, its widths and the grid's spec. The finish goes
// after the exchange of the next array (b), whose own finish follows it:
// both exchanges start before either waits.

// CHECK-LABEL: func.func @two_arrays(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf64
// CHECK-SAME: %[[B:[^:]*]]: memref<?x?xf64
// CHECK: call @stencil_dist_sendrecv(%{{.*}}, %c20738_i64)
// CHECK: call @stencil_dist_sendrecv(%{{.*}}, %c20739_i64)
// CHECK: %[[A0:.*]] = call @stencil_dist_isendrecv(%{{.*}}, %c20736_i64{{.*}})
// CHECK-NOT: stencil_dist_wait
// CHECK: %[[A1:.*]] = call @stencil_dist_isendrecv(%{{.*}}, %c20737_i64{{.*}})
// CHECK-NOT: stencil_dist_wait
// b: one split dimension (0), started alone.
// CHECK: %[[B0:.*]] = call @stencil_dist_isendrecv(%{{.*}}, %c20736_i64{{.*}})
// CHECK: %[[B1:.*]] = call @stencil_dist_isendrecv(%{{.*}}, %c20737_i64{{.*}})
// CHECK: scf.execute_region {
// CHECK: func.call @stencil_dist_wait(%[[A0]])
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: func.call @stencil_dist_wait(%[[A1]])
// CHECK: scf.yield
// CHECK-NEXT: } {stencil.exchange_finish = {axis = 0 : i64, dim = 0 : i64, hi = 1 : i64, lo = 1 : i64, spec = "stencil_dist_grid_g"}}
// CHECK: scf.execute_region {
// CHECK: func.call @stencil_dist_wait(%[[B0]])
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: func.call @stencil_dist_wait(%[[B1]])
// CHECK: } {stencil.exchange_finish = {axis = 0 : i64, dim = 0 : i64, hi = 2 : i64, lo = 2 : i64, spec = "stencil_dist_grid_g"}}
// CHECK-NEXT: memref.load %[[A]]
// CHECK: func.func private @stencil_dist_isendrecv(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64) -> i64
// CHECK: func.func private @stencil_dist_wait(i64)
module {
  shard.grid @g(shape = 2x3) {sym_visibility = "private"}
  func.func @two_arrays(%a: memref<?x?xf64, strided<[?, 1], offset: ?>>,
                        %b: memref<?x?xf64, strided<[?, 1], offset: ?>>) -> f64 {
    %ra = shard.update_halo %a on @g split_axes = [[0], [1]] halo_sizes = [1, 1, 1, 1] : memref<?x?xf64, strided<[?, 1], offset: ?>>
    %rb = shard.update_halo %b on @g split_axes = [[0]] halo_sizes = [2, 2] : memref<?x?xf64, strided<[?, 1], offset: ?>>
    %c0 = arith.constant 0 : index
    %v = memref.load %ra[%c0, %c0] : memref<?x?xf64, strided<[?, 1], offset: ?>>
    %w = memref.load %rb[%c0, %c0] : memref<?x?xf64, strided<[?, 1], offset: ?>>
    %s = arith.addf %v, %w : f64
    return %s : f64
  }
}
