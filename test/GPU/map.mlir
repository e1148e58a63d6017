// RUN: stencil-opt %s --convert-stencil-to-affine=all-parallel --lower-affine --canonicalize \
// RUN:   "--stencil-map-to-gpu=report align=32" 2>&1 | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-affine=all-parallel --lower-affine --canonicalize \
// RUN:   "--stencil-map-to-gpu=report block=64,2,2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: stencil-opt %s --convert-stencil-to-affine=all-parallel --lower-affine --canonicalize \
// RUN:   --stencil-map-to-gpu=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOALIGN
// RUN: not stencil-opt %s --stencil-map-to-gpu=block=64,32 -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOOMANY
// RUN: not stencil-opt %s --stencil-map-to-gpu=block=32,0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not stencil-opt %s --stencil-map-to-gpu=block=8,8,8,2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=FOURD

// The block plan (lib/GPU/BlockPlan.cpp) maps the innermost loop to x, so
// that a warp's threads touch consecutive elements, the next to y, the
// third to z; loops beyond three run sequentially in each thread. Default
// shapes have 256 threads: 256 in 1-D, 32x8 in 2-D, 32x8x1 in 3-D. Nests
// that store without loading (@four_d, @aligned) run 4 points of a row per
// thread (row_points; test/GPU/map-rows.mlir).

// CHECK: remark: gpu block plan: {"axis":["z","y","x"],"threads":256,"tile":[1,8,32]}
// CHECK: remark: gpu block plan: {"axis":["z","y","x"],"threads":256,"tile":[1,8,32]}
// CHECK: remark: gpu block plan: {"axis":["x"],"threads":256,"tile":[256]}
// CHECK: remark: gpu block plan: {"axis":["sequential","z","y","x"],"row_points":4,"threads":256,"tile":[1,1,8,32]}
// CHECK: remark: gpu block plan: {"aligned_lower":[3,0],"axis":["y","x"],"row_points":4,"threads":256,"tile":[8,32]}
// CHECK: remark: gpu block plan: {"aligned_lower":[35,32],"axis":["x"],"row_points":4,"threads":256,"tile":[256]}
// CHECK: remark: gpu block plan: {"axis":["y","x"],"row_points":4,"threads":256,"tile":[8,32]}
// NOALIGN: remark: gpu block plan: {"axis":["y","x"],"row_points":4,"threads":256,"tile":[8,32]}
// NOALIGN: remark: gpu block plan: {"axis":["x"],"row_points":4,"threads":256,"tile":[256]}
// NOALIGN: remark: gpu block plan: {"axis":["y","x"],"row_points":4,"threads":256,"tile":[8,32]}
// BLOCK: remark: gpu block plan: {"axis":["z","y","x"],"threads":256,"tile":[2,2,64]}
// BLOCK: remark: gpu block plan: {"axis":["z","y","x"],"threads":256,"tile":[2,2,64]}
// BLOCK: remark: gpu block plan: {"axis":["x"],"threads":64,"tile":[64]}
// BLOCK: remark: gpu block plan: {"axis":["sequential","z","y","x"],"row_points":4,"threads":256,"tile":[1,2,2,64]}
// TOOMANY: error: stencil-map-to-gpu: block=: a block has at most 1024 threads
// ZERO: error: stencil-map-to-gpu: block=: threads per block must be at least 1, got 0
// FOURD: error: stencil-map-to-gpu: block=: a block has at most three dimensions (x,y,z), got 4

// The 3-D nests: each tiled into a block loop (steps 1, 8, 32) holding a
// thread loop of extents 1 x 8 x 32 with a bounds check, both mapped (no
// canonicalization after the pass: it would merge the two loops and drop
// the mapping); the temporary is device memory, allocated and freed in the
// async form (between a fresh token and a wait), which gpu-to-llvm lowers.
// CHECK-LABEL: func.func @copy3d(
// CHECK: %[[W0:.+]] = gpu.wait async
// CHECK: %[[T:.+]], %[[A:.+]] = gpu.alloc async [%[[W0]]] (%{{.+}}, %{{.+}}, %{{.+}}) : memref<?x?x?xf64>
// CHECK: gpu.wait [%[[A]]]
// CHECK: scf.parallel (%{{.+}}, %{{.+}}, %{{.+}}) = ({{.+}}) to ({{.+}}) step (%{{.+}}, %{{.+}}, %{{.+}}) {
// CHECK:   scf.parallel (%{{.+}}, %{{.+}}, %{{.+}}) = ({{.+}}) to (%{{.+}}, %{{.+}}, %{{.+}}) step ({{.+}}) {
// CHECK:     scf.if
// CHECK:       memref.load
// CHECK:       memref.store %{{.+}}, %[[T]]
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = thread_z, {{.+}}>, #gpu.loop_dim_map<processor = thread_y, {{.+}}>, #gpu.loop_dim_map<processor = thread_x, {{.+}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_z, {{.+}}>, #gpu.loop_dim_map<processor = block_y, {{.+}}>, #gpu.loop_dim_map<processor = block_x, {{.+}}>]}
// CHECK: %[[W1:.+]] = gpu.wait async
// CHECK: %[[D:.+]] = gpu.dealloc async [%[[W1]]] %[[T]] : memref<?x?x?xf64>
// CHECK: gpu.wait [%[[D]]]
func.func @copy3d(%a: memref<?x?x?xf64>, %b: memref<?x?x?xf64>, %n: index) {
  %t = memref.alloc(%n, %n, %n) : memref<?x?x?xf64>
  stencil.domain (%i, %j, %k) = (1, 0, 0) to (%n, %n, %n) {
    %v = stencil.gather %b[-1, 0, 0] : memref<?x?x?xf64>
    stencil.store %v to %t : memref<?x?x?xf64>
  }
  stencil.domain (%i, %j, %k) = (1, 0, 0) to (%n, %n, %n) {
    %v = stencil.gather %t[0, 0, 0] : memref<?x?x?xf64>
    stencil.store %v to %a : memref<?x?x?xf64>
  }
  memref.dealloc %t : memref<?x?x?xf64>
  return
}

// CHECK-LABEL: func.func @line(
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.+}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.+}}>]}
func.func @line(%a: memref<?xf64>, %b: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %b[0] : memref<?xf64>
    stencil.store %v to %a : memref<?xf64>
  }
  return
}

// CHECK-LABEL: func.func @four_d(
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = sequential, {{.+}}>, #gpu.loop_dim_map<processor = thread_z, {{.+}}>, #gpu.loop_dim_map<processor = thread_y, {{.+}}>, #gpu.loop_dim_map<processor = thread_x, {{.+}}>]}
func.func @four_d(%a: memref<?x?x?x?xf64>, %n: index) {
  stencil.domain (%i, %j, %k, %l) = (0, 0, 0, 0) to (%n, %n, %n, %n) {
    %c = arith.constant 1.0 : f64
    stencil.store %c to %a : memref<?x?x?x?xf64>
  }
  return
}

// With align=32 (the default is 1: off), innermost loops that start at a
// constant off a multiple of 32 (a warp) start at the multiple below, the
// threads before the first point idle: each warp's row then starts on an
// aligned element. Loops starting
// at a multiple (the first nest of @copy3d starts at 1 in its outer
// dimension only) or at a value not known at compile time stay as they
// are (nests with reductions are refused: map-reduce.mlir).
// CHECK-LABEL: func.func @aligned(
// CHECK-SAME: %[[A:.+]]: memref<?x?xf64>, %[[X:.+]]: memref<?xf64>, %[[N:.+]]: index, %[[M:.+]]: index)
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C35:.+]] = arith.constant 35 : index
// CHECK: scf.if
// CHECK-NEXT: %[[L0:.+]] = arith.constant 0 : index
// CHECK: scf.parallel (%[[BI:.+]], %[[BJ:.+]]) = (%{{.+}}, %[[L0]]) to
// CHECK:   scf.parallel (%[[TI:.+]], %[[TJ:.+]]) =
// CHECK:     %[[J:.+]] = arith.addi %[[TJ]], %[[BJ]] : index
// CHECK:     scf.if
// CHECK:       %[[IN:.+]] = arith.cmpi sge, %[[J]], %[[C3]] : index
// CHECK:       scf.if %[[IN]] {
// CHECK:         memref.store %{{.+}}, %[[A]]
// CHECK: %[[L32:.+]] = arith.constant 32 : index
// CHECK: scf.parallel (%{{.+}}) = (%[[L32]]) to
// CHECK:       arith.cmpi sge, %{{.+}}, %[[C35]] : index
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%{{.+}}, %[[M]]) to
// CHECK-NOT: arith.cmpi sge
// CHECK: return
func.func @aligned(%a: memref<?x?xf64>, %x: memref<?xf64>, %n: index, %m: index) {
  stencil.domain (%i, %j) = (0, 3) to (%n, %n) {
    %c = arith.constant 1.0 : f64
    stencil.store %c to %a : memref<?x?xf64>
  }
  stencil.domain (%i) = (35) to (%n) {
    %c = arith.constant 2.0 : f64
    stencil.store %c to %x : memref<?xf64>
  }
  stencil.domain (%i, %j) = (0, %m) to (%n, %n) {
    %c = arith.constant 3.0 : f64
    stencil.store %c to %a : memref<?x?xf64>
  }
  return
}
