// RUN: stencil-opt %s --convert-stencil-to-affine=all-parallel --lower-affine --canonicalize \
// RUN:   --stencil-map-to-gpu=report 2>&1 | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-affine=all-parallel --lower-affine --canonicalize \
// RUN:   "--stencil-map-to-gpu=report block=64,2,2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not stencil-opt %s --stencil-map-to-gpu=block=64,32 -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOOMANY
// RUN: not stencil-opt %s --stencil-map-to-gpu=block=32,0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not stencil-opt %s --stencil-map-to-gpu=block=8,8,8,2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=FOURD

// The block plan (lib/GPU/BlockPlan.cpp) maps the innermost loop to x, so
// that a warp's threads touch consecutive elements, the next to y, the
// third to z; loops beyond three run sequentially in each thread. Default
// shapes have 256 threads: 256 in 1-D, 32x8 in 2-D, 32x8x1 in 3-D.

// CHECK: remark: gpu block plan: {"axis":["z","y","x"],"threads":256,"tile":[1,8,32]}
// CHECK: remark: gpu block plan: {"axis":["z","y","x"],"threads":256,"tile":[1,8,32]}
// CHECK: remark: gpu block plan: {"axis":["x"],"threads":256,"tile":[256]}
// CHECK: remark: gpu block plan: {"axis":["sequential","z","y","x"],"threads":256,"tile":[1,1,8,32]}
// BLOCK: remark: gpu block plan: {"axis":["z","y","x"],"threads":256,"tile":[2,2,64]}
// BLOCK: remark: gpu block plan: {"axis":["z","y","x"],"threads":256,"tile":[2,2,64]}
// BLOCK: remark: gpu block plan: {"axis":["x"],"threads":64,"tile":[64]}
// BLOCK: remark: gpu block plan: {"axis":["sequential","z","y","x"],"threads":256,"tile":[1,2,2,64]}
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
