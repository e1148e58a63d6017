// RUN: stencil-opt %s --stencil-distribute="grid=2 report=1" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s

// The paper's 1-D stencil on 2 ranks: the plan (one exchange of u, halo 1
// on each side), the extents argument, the run-time checks, the block's
// views and the bounds clipped to the rank's block.

// CHECK: remark: distribution plan: {"domains":[{"exchanges":[{"array":0,"widths":{{\[\[}}1,1]]}],"reach":{{\[\[}}0,0]]}],"halos":{{\[\[\[}}1,1]],{{\[\[}}0,0]],{{\[\[}}0,0]]],"max_halo":1,"rank":1}
// CHECK-NOT: dlti.map
// CHECK: llvm.mlir.global internal constant @stencil_dist_grid_stencil_grid("2\00")
// CHECK: llvm.mlir.global internal constant @stencil_dist_where_paper1d("{{.*}}distribute.mlir:{{[0-9]+}}:{{[0-9]+}}: 'paper1d'\00")
// CHECK: shard.grid @stencil_grid(shape = 2) {stencil.runtime, sym_visibility = "private"}
// CHECK-LABEL: func.func @paper1d(%arg0
// CHECK-SAME: : memref<?xf64>, %[[C:[a-z0-9]+]]: memref<?xf64>, %[[U:[a-z0-9]+]]: memref<?xf64>, %[[N:[a-z0-9]+]]: index, %[[G:[a-z0-9]+]]: index)
// CHECK-SAME: stencil.extra_args = ["global_extent_0"]
// CHECK: %[[SPEC:.*]] = llvm.getelementptr %{{.*}}[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x i8>
// CHECK: call @stencil_dist_check_grid(%{{.*}}, %[[SPEC]])
// CHECK: %[[COORD:.*]] = shard.process_multi_index on @stencil_grid : index
// CHECK: %[[PARTS:.*]] = shard.grid_shape @stencil_grid : index
// CHECK: %[[P:.*]] = arith.index_cast %[[PARTS]]
// CHECK: %[[K:.*]] = arith.index_cast %[[COORD]]
// CHECK: call @stencil_dist_block_start(%{{.*}}, %[[P]], %[[K]])
// CHECK: call @stencil_dist_block_count(%{{.*}}, %[[P]], %[[K]])
// CHECK-COUNT-3: call @stencil_dist_check_extent
// CHECK: call @stencil_dist_check_block(%{{.*}}, %{{.*}}, %c0_i64{{.*}}, %{{.*}}, %c1_i64
// CHECK: %[[SUB:.*]] = memref.subview %[[U]][0] [%{{.*}}] [1]
// CHECK: shard.update_halo %[[SUB]] on @stencil_grid split_axes = {{\[\[}}0]] halo_sizes = [1, 1] {exchange = 0 : i64}
// CHECK: %[[LO:.*]] = arith.maxsi
// CHECK: %[[HI:.*]] = arith.minsi
// CHECK: stencil.domain (%{{.*}}) = (%[[LO]]) to (%[[HI]])
// CHECK: stencil.gather %{{.*}}[-1] : memref<?xf64, strided<[1], offset: ?>>
// CHECK: stencil.store %{{.*}} to %{{.*}} : memref<?xf64, strided<[1], offset: ?>>
func.func @paper1d(%r: memref<?xf64>, %c: memref<?xf64>, %u: memref<?xf64>,
                   %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %two = arith.constant 2.0 : f64
    %u_m1 = stencil.gather %u[-1] : memref<?xf64>
    %u_p1 = stencil.gather %u[1] : memref<?xf64>
    %c_0 = stencil.gather %c[0] : memref<?xf64>
    %s = arith.addf %u_m1, %u_p1 : f64
    %v = arith.mulf %c_0, %s : f64
    stencil.store %v to %r : memref<?xf64>
  }
  return
}
