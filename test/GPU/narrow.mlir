// RUN: stencil-opt %s --stencil-narrow-gpu-indices=report 2>&1 | FileCheck %s
// RUN: stencil-opt %s --stencil-narrow-gpu-indices --canonicalize | FileCheck %s --check-prefix=IR
// RUN: stencil-opt %s --stencil-narrow-gpu-indices=loop-indices=false --canonicalize \
// RUN:   | FileCheck %s --check-prefix=ACCESS

// --stencil-narrow-gpu-indices (lib/GPU/NarrowIndices.cpp): each outermost
// scf.parallel whose arrays are only loaded and stored gets a 32-bit clone,
// run when every array fits in 31 bits and arrays of one rank share one
// layout with a unit innermost stride; the original runs otherwise.

// CHECK: remark: 32-bit index plan: {"arrays":2,"narrow":true}
// CHECK: remark: 32-bit index plan: {"arrays":2,"narrow":true}
// CHECK: remark: 32-bit index plan: {"arrays":0,"narrow":false,"reason":"'memref.dim' takes an array"}

// Two 2-D arrays of any strided layout (as the C interface passes them):
// one flat view each, one 32-bit layout (b's: offset and
// the outer stride; the inner stride is the constant 1), a's checked equal
// to it. The clone computes offset + i * s0 + j with nsw and sign-extends
// once per access; the else branch is the original nest.
// IR-LABEL: func.func @shift(
// IR-SAME: %[[A:.+]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[B:.+]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[N:.+]]: index)
// IR-DAG: %{{.+}}, %[[BOFF:.+]], %[[BSZ:.+]]:2, %[[BST:.+]]:2 = memref.extract_strided_metadata %[[B]]
// IR-DAG: %{{.+}}, %[[AOFF:.+]], %[[ASZ:.+]]:2, %[[AST:.+]]:2 = memref.extract_strided_metadata %[[A]]
// IR-DAG: %{{.+}} = arith.cmpi ult, %[[BOFF]], %[[LIMIT:c2147483648]] : index
// IR-DAG: %{{.+}} = arith.cmpi ult, %[[BSZ]]#0, %[[LIMIT]] : index
// IR-DAG: %{{.+}} = arith.cmpi ult, %[[BST]]#0, %[[LIMIT]] : index
// IR-DAG: %{{.+}} = arith.cmpi slt, %{{.+}}, %[[LIMIT]] : index
// IR-DAG: %[[SAMEOFF:.+]] = arith.cmpi eq, %[[AOFF]], %[[BOFF]] : index
// IR-DAG: %[[SAMES0:.+]] = arith.cmpi eq, %[[AST]]#0, %[[BST]]#0 : index
// IR-DAG: %{{.+}} = arith.cmpi eq, %[[BST]]#1, %c1 : index
// IR-DAG: %[[UNIT:.+]] = arith.cmpi eq, %[[AST]]#1, %c1 : index
// IR-DAG: %[[OFF32:.+]] = arith.index_cast %[[BOFF]] : index to i32
// IR-DAG: %[[S032:.+]] = arith.index_cast %[[BST]]#0 : index to i32
// IR-DAG: %[[FB:.+]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%{{.+}}], strides: [1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<?xf32>
// IR-DAG: %[[FA:.+]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%{{.+}}], strides: [1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<?xf32>
// The loop bound n from outside the nest is checked to lie in
// (-2^28, 2^28); the clone's index arithmetic (i - 1) is an i32 copy.
// IR-DAG: %[[NS:.+]] = arith.addi %[[N]], %c268435456 : index
// IR-DAG: %{{.+}} = arith.cmpi ult, %[[NS]], %c536870912 : index
// IR: scf.if %[[FITS:.+]] {
// IR:   scf.parallel (%[[I:.+]], %[[J:.+]]) =
// IR:     %[[I32:.+]] = arith.index_cast %[[I]] : index to i32
// IR:     %[[IM:.+]] = arith.subi %[[I32]], %c1_i32 : i32
// IR:     %[[T0:.+]] = arith.muli %[[IM]], %[[S032]] overflow<nsw> : i32
// IR:     %[[T1:.+]] = arith.addi %[[OFF32]], %[[T0]] overflow<nsw> : i32
// IR:     %[[JJ:.+]] = arith.index_cast %[[J]] : index to i32
// IR:     %[[T2:.+]] = arith.addi %[[T1]], %[[JJ]] overflow<nsw> : i32
// IR:     %[[L:.+]] = arith.index_cast %[[T2]] : i32 to index
// IR:     %[[V:.+]] = memref.load %[[FB]][%[[L]]] : memref<?xf32>
// IR:     memref.store %[[V]], %[[FA]][%{{.+}}] : memref<?xf32>
// IR: } else {
// IR:   scf.parallel
// IR:     memref.load %[[B]][%{{.+}}, %{{.+}}] : memref<?x?xf32, strided<[?, ?], offset: ?>>
// IR:     memref.store %{{.+}}, %[[A]][%{{.+}}, %{{.+}}] : memref<?x?xf32, strided<[?, ?], offset: ?>>
func.func @shift(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c1, %c0) to (%n, %n) step (%c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %v = memref.load %b[%im, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    memref.store %v, %a[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
  }
  return
}

func.func @mixed(%a: memref<?x?xf32>, %b: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %b[%i] : memref<?xf64>
    %w = arith.truncf %v : f64 to f32
    memref.store %w, %a[%i, %i] : memref<?x?xf32>
  }
  return
}

func.func @other_use(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %d = memref.dim %a, %c0 : memref<?xf32>
    %f = arith.index_cast %d : index to i32
    %g = arith.sitofp %f : i32 to f32
    memref.store %g, %a[%i] : memref<?xf32>
  }
  return
}

// Arrays of different ranks keep their own layouts: b (1-D) adds its
// offset to i, a (2-D) has its own offset and outer stride.
// IR-LABEL: func.func @mixed(
// IR: scf.if
// IR:   scf.parallel
// IR:     memref.load %{{.+}}[%{{.+}}] : memref<?xf64>
// IR:     memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<?xf32>
// IR: } else {

// With loop-indices=false only the accesses are 32-bit: i - 1 stays an
// index op, truncated where the linear index is formed, and n is not
// checked.
// ACCESS-LABEL: func.func @shift(
// ACCESS-NOT: %c268435456
// ACCESS: scf.if
// ACCESS:   scf.parallel (%[[I:.+]], %[[J:.+]]) =
// ACCESS:     %[[IM:.+]] = arith.subi %[[I]], %c1 : index
// ACCESS:     %{{.+}} = arith.index_cast %[[IM]] : index to i32

// An array handed to another op (memref.dim) leaves the nest alone.
// IR-LABEL: func.func @other_use(
// IR-NOT: scf.if
// IR-NOT: memref.reinterpret_cast
// IR: memref.dim
