// RUN: stencil-opt %s --convert-stencil-to-affine | FileCheck %s --implicit-check-not=stencil.global_index

// A bound of a border snapshot marked as a global index (--stencil-adjoint)
// that no distribution made local is what it says on one process: the
// lowering keeps the value and drops the mark, which means nothing below
// the stencil level (arith-to-llvm would carry it onto an i64 llvm.add).

// CHECK-LABEL: func.func @bound(
// CHECK-SAME:    %{{.*}}: memref<?xf64>, %[[N:[a-z0-9]+]]: index
// CHECK:         %[[C:.*]] = arith.constant -1 : index
// CHECK:         %[[B:.*]] = arith.addi %[[N]], %[[C]] : index
// CHECK:         affine.parallel (%{{.*}}) = (0) to (symbol(%[[B]]))
func.func @bound(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %c = arith.constant -1 : index
  %b = arith.addi %n, %c {stencil.global_index = 0 : i64} : index
  stencil.domain (%i) = (0) to (%b) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}
