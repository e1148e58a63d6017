// RUN: stencil-opt %s --stencil-c-arrays | FileCheck %s

// Array arguments become C pointers (const where the function only reads
// them) followed by one int64_t extent per dynamic dimension; index
// arguments int64_t; accesses subscripts at the row-major linear index.

// CHECK: emitc.verbatim "// copy: out, extent(out, 0), extent(out, 1), in, extent(in, 1), s, arg3"
// CHECK-NEXT: func.func @copy(
// CHECK-SAME: %[[OUT:[^:]*]]: !emitc.opaque<"double *restrict">, %[[O0:[^:]*]]: i64, %[[O1:[^:]*]]: i64,
// CHECK-SAME: %[[IN:[^:]*]]: !emitc.opaque<"const float *restrict">, %[[I1:[^:]*]]: i64,
// CHECK-SAME: %[[S:[^:]*]]: f64, %[[N:[^:]*]]: i64)
// CHECK-NOT: attributes
// CHECK-DAG: %[[X1:.*]] = arith.index_cast %[[O1]] : i64 to index
// CHECK-DAG: %[[IX1:.*]] = arith.index_cast %[[I1]] : i64 to index
// CHECK-DAG: %[[NN:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[NN]]
// In 4 x ? floats: (i * extent 1) + 1.
// CHECK: %[[R:.*]] = arith.muli %[[I]], %[[IX1]] : index
// CHECK: %[[L:.*]] = arith.addi %[[R]], %{{.*}} : index
// CHECK: %[[SUB:.*]] = emitc.subscript %[[IN]][%[[L]]] : (!emitc.opaque<"const float *restrict">, index) -> !emitc.lvalue<f32>
// CHECK: %[[V:.*]] = emitc.load %[[SUB]] : <f32>
// memref.dim of dimension 1: the extent argument.
// CHECK: %[[R2:.*]] = arith.muli %[[I]], %[[X1]] : index
// CHECK: %[[L2:.*]] = arith.addi %[[R2]], %[[X1]] : index
// CHECK: %[[DST:.*]] = emitc.subscript %[[OUT]][%[[L2]]] : (!emitc.opaque<"double *restrict">, index) -> !emitc.lvalue<f64>
// CHECK: emitc.assign %{{.*}} : f64 to %[[DST]] : <f64>
// CHECK-NOT: memref
// The comment before the function names the parameters after the arguments' NameLoc locations
// (stencil-compile gives them the source's names), else by position.
func.func @copy(%out: memref<?x?xf64> {stencil.active} loc("out"),
                %in: memref<4x?xf32> loc("in"), %s: f64 loc("s"), %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %in[%i, %c1] : memref<4x?xf32>
    %w = arith.extf %v : f32 to f64
    %x = arith.mulf %w, %s : f64
    %d = memref.dim %out, %c1 : memref<?x?xf64>
    memref.store %x, %out[%i, %d] : memref<?x?xf64>
  }
  return
}

// Temporaries: malloc of the element count (here the one extent) times the
// element size, free.
// CHECK-LABEL: func.func @temporary(
// CHECK-SAME: %[[A:[^:]*]]: !emitc.opaque<"double *restrict">, %{{[^:]*}}: i64, %[[M:[^:]*]]: i64)
// CHECK: %[[MM:.*]] = arith.index_cast %[[M]] : i64 to index
// CHECK: %[[BYTES:.*]] = arith.muli %[[MM]], %[[EIGHT:.*]] : index
// CHECK: %[[T:.*]] = emitc.call_opaque "malloc"(%[[BYTES]]) : (index) -> !emitc.ptr<f64>
// CHECK: emitc.subscript %[[T]][%{{.*}}] : (!emitc.ptr<f64>, index) -> !emitc.lvalue<f64>
// CHECK: emitc.call_opaque "free"(%[[T]]) : (!emitc.ptr<f64>) -> ()
// CHECK-NOT: memref
func.func @temporary(%a: memref<?xf64>, %m: index) {
  %c0 = arith.constant 0 : index
  %t = memref.alloc(%m) : memref<?xf64>
  %v = memref.load %a[%c0] : memref<?xf64>
  memref.store %v, %t[%c0] : memref<?xf64>
  %w = memref.load %t[%c0] : memref<?xf64>
  memref.store %w, %a[%c0] : memref<?xf64>
  memref.dealloc %t : memref<?xf64>
  return
}

// A rank-0 array is a pointer to its one element, without extents.
// CHECK-LABEL: func.func @scalar(
// CHECK-SAME: %[[P:[^:]*]]: !emitc.opaque<"double *restrict">)
// CHECK: emitc.subscript %[[P]][%{{.*}}]
func.func @scalar(%s: memref<f64>) {
  %v = memref.load %s[] : memref<f64>
  %w = arith.addf %v, %v : f64
  memref.store %w, %s[] : memref<f64>
  return
}
