// RUN: stencil-opt %s --stencil-distribute="grid=2,1" | FileCheck %s
// RUN: stencil-opt %s --stencil-distribute="grid=2,1" --convert-stencil-to-affine | FileCheck %s --check-prefix=LOWER
// RUN: stencil-opt %s --stencil-distribute="grid=1,2" | FileCheck %s --check-prefix=BOXES
// RUN: stencil-opt %s --stencil-distribute="grid=?,?" | FileCheck %s --check-prefix=BOXES

// A sum over a distributed domain: its writes are split off (they may reach
// beyond the block, the sum covers the rank's points only), the sum is
// marked `stencil.distributed_sum`, and its lowering hands the partial sums
// of the rank's slices to the run-time library, which adds every rank's in
// global order. Over a grid that splits, or may split at run time, another
// dimension than the one the slices are taken along, each rank holds a box
// of the domain (sums-plane.mlir has its lowering).

// CHECK-LABEL: func.func @sum_and_scatter(
// CHECK: call @stencil_dist_check_grid
// CHECK: %[[S:.*]] = stencil.domain ({{.*}}) -> (f64) {
// CHECK-NOT: stencil.accumulate
// CHECK: stencil.yield
// CHECK-NEXT: } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "slices"}}
// CHECK: stencil.domain
// CHECK: stencil.accumulate %{{.*}} to %{{.*}}[-1, 0]
// CHECK: return %[[S]]

// BOXES-LABEL: func.func @sum_and_scatter(
// BOXES: stencil.domain ({{.*}}) -> (f64) {
// BOXES-NOT: stencil.accumulate
// BOXES: } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "boxes"}}

// LOWER-LABEL: func.func @sum_and_scatter(
// LOWER: memref.alloc(%{{.*}}) : memref<?xf64>
// LOWER: %[[P:.*]] = memref.extract_aligned_pointer_as_index
// LOWER: %[[I:.*]] = arith.index_cast %[[P]] : index to i64
// LOWER: %[[PTR:.*]] = llvm.inttoptr %[[I]] : i64 to !llvm.ptr
// LOWER: %[[SUM:.*]] = call @stencil_dist_sum_f64(%[[PTR]], %{{.*}}) : (!llvm.ptr, i64) -> f64
// LOWER: return %[[SUM]]
// LOWER: func.func private @stencil_dist_sum_f64(!llvm.ptr, i64) -> f64
func.func @sum_and_scatter(%u: memref<?x?xf64>, %v: memref<?x?xf64>,
                           %n: index) -> f64 {
  %s = stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) -> (f64) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %x to %v[-1, 0] : memref<?x?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x2 : f64
  }
  return %s : f64
}
