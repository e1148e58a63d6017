// RUN: stencil-opt %s "--stencil-map-to-gpu=report" 2>&1 | FileCheck %s
// RUN: stencil-opt %s "--stencil-map-to-gpu=report row-points=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: stencil-opt %s "--stencil-map-to-gpu=report row-points=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not stencil-opt %s --stencil-map-to-gpu=row-points=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not stencil-opt %s --stencil-map-to-gpu=row-points=65 -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOOMANY

// row_points: a nest that stores without reading memory (the reset of an
// output adjoint) runs 4 points of its innermost dimension per thread, a
// block's width (32) apart, so that a block covers 128 points of a row:
// blocks that store one element each end so soon that the rate at which
// the GPU starts blocks bounds the kernel (docs/GPU.md). Nests that load
// run one point per thread unless row-points asks for more.
// CHECK: remark: gpu block plan: {"axis":["y","x"],"row_points":4,"threads":256,"tile":[8,32]}
// CHECK: remark: gpu block plan: {"axis":["x"],"row_points":4,"threads":256,"tile":[256]}
// CHECK: remark: gpu block plan: {"axis":["y","x"],"threads":256,"tile":[8,32]}
// ONE: remark: gpu block plan: {"axis":["y","x"],"threads":256,"tile":[8,32]}
// ONE: remark: gpu block plan: {"axis":["x"],"threads":256,"tile":[256]}
// ONE: remark: gpu block plan: {"axis":["y","x"],"threads":256,"tile":[8,32]}
// TWO: remark: gpu block plan: {"axis":["y","x"],"row_points":2,"threads":256,"tile":[8,32]}
// TWO: remark: gpu block plan: {"axis":["x"],"row_points":2,"threads":256,"tile":[256]}
// TWO: remark: gpu block plan: {"axis":["y","x"],"row_points":2,"threads":256,"tile":[8,32]}
// NEGATIVE: error: stencil-map-to-gpu: row-points= must be 0 (chosen per nest) or 1 to 64, got -1
// TOOMANY: error: stencil-map-to-gpu: row-points= must be 0 (chosen per nest) or 1 to 64, got 65

// The block loop steps 32 * 4 along j. Each thread runs the tiled body
// (its bounds check, then the store) at j, then copies of it at j + 32,
// j + 64 and j + 96, each where that block-relative start is below the
// upper bound %m; the copy's own bounds check covers the threads past it.
// CHECK-LABEL: func.func @reset(
// CHECK-SAME: %[[A:.+]]: memref<?x?xf32>, %[[N:.+]]: index, %[[M:.+]]: index)
// CHECK: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[W:.+]] = arith.muli %{{.+}}, %[[C32]] : index
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[STEP:.+]] = arith.muli %[[W]], %[[C4]] : index
// CHECK: scf.parallel (%[[BI:.+]], %[[BJ:.+]]) = ({{.+}}) to (%[[N]], %[[M]]) step (%{{.+}}, %[[STEP]]) {
// CHECK:   scf.parallel (%[[TI:.+]], %[[TJ:.+]]) = ({{.+}}) to (%{{.+}}, %[[W]])
// CHECK:     %[[J0:.+]] = arith.addi %[[TJ]], %[[BJ]] : index
// CHECK:     scf.if
// CHECK-NEXT:  memref.store %{{.+}}, %[[A]][%{{.+}}, %[[J0]]]
// CHECK:     %[[O1:.+]] = arith.muli %[[W]], %{{.+}} : index
// CHECK:     %[[B1:.+]] = arith.addi %[[BJ]], %[[O1]] : index
// CHECK:     %[[IN1:.+]] = arith.cmpi slt, %[[B1]], %[[M]] : index
// CHECK:     scf.if %[[IN1]] {
// CHECK:       %[[J1:.+]] = arith.addi %[[TJ]], %[[B1]] : index
// CHECK:       arith.cmpi ult, %{{.+}}, %[[M]] : index
// CHECK:       scf.if
// CHECK-NEXT:    memref.store %{{.+}}, %[[A]][%{{.+}}, %[[J1]]]
// CHECK:     arith.cmpi slt
// CHECK:     scf.if
// CHECK:       memref.store
// CHECK:     arith.cmpi slt
// CHECK:     scf.if
// CHECK:       memref.store
// CHECK-NOT:   memref.store
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = thread_y
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_y
func.func @reset(%a: memref<?x?xf32>, %n: index, %m: index) {
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c1, %c1) to (%n, %m) step (%c1, %c1) {
    memref.store %z, %a[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// Constant bounds that are a multiple of the tile (512 = 2 x 256): the
// tiling adds no bounds check, so the copies' block-relative test is what
// keeps a block starting at 0 from storing at 512 and beyond (copies 2
// and 3 of the one block of 1024 points).
// CHECK-LABEL: func.func @reset_static(
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : index
// CHECK: scf.parallel (%[[B:.+]]) =
// CHECK:   scf.parallel (%[[T:.+]]) =
// CHECK:     memref.store
// CHECK:     %[[S:.+]] = arith.addi %[[B]], %{{.+}} : index
// CHECK:     arith.cmpi slt, %[[S]], %[[C512]] : index
func.func @reset_static(%x: memref<512xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %z = arith.constant 0.0 : f64
  scf.parallel (%i) = (%c0) to (%c512) step (%c1) {
    memref.store %z, %x[%i] : memref<512xf64>
    scf.reduce
  }
  return
}

// A nest that loads: one point per thread by default.
// CHECK-LABEL: func.func @copy(
// CHECK-COUNT-1: memref.store
// CHECK-NOT: memref.store
// CHECK: return
func.func @copy(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %v = memref.load %b[%i, %j] : memref<?x?xf32>
    memref.store %v, %a[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}
