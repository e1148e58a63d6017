// RUN: stencil-opt %s --stencil-vector-width | FileCheck %s
// RUN: stencil-opt %s --stencil-vector-width=rank1-width=512 | FileCheck %s --check-prefix=W512
// RUN: stencil-opt %s --stencil-vector-width=rank1-width=0 | FileCheck %s --check-prefix=OFF
// RUN: stencil-opt %s --convert-to-omp | FileCheck %s --check-prefix=LLVM
// RUN: stencil-opt %s "--convert-to-omp=vector-width-1d=0" | FileCheck %s --check-prefix=LLVMOFF

// Functions whose stencil domains all have rank 1 prefer 256-bit vectors;
// any domain of another rank, or none, leaves the choice to LLVM, and an
// attribute the function has is kept. The LLVM lowering passes it on.

// CHECK-LABEL: func.func @one_d
// CHECK-SAME: prefer_vector_width = "256"
// W512-LABEL: func.func @one_d
// W512-SAME: prefer_vector_width = "512"
// OFF-LABEL: func.func @one_d
// OFF-NOT: prefer_vector_width
// LLVM-LABEL: llvm.func @one_d
// LLVM-SAME: prefer_vector_width = "256"
// LLVMOFF-LABEL: llvm.func @one_d
// LLVMOFF-NOT: prefer_vector_width
// LLVMOFF: llvm.func @three_d
func.func @one_d(%r: memref<?xf64>, %u: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    stencil.store %s to %r : memref<?xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %z = arith.constant 0.0 : f64
    stencil.store %z to %u : memref<?xf64>
  }
  return
}

// CHECK-LABEL: func.func @three_d
// OFF-LABEL: func.func @three_d
// CHECK-NOT: prefer_vector_width
// CHECK-SAME: {
// LLVM-LABEL: llvm.func @three_d
// LLVM-NOT: prefer_vector_width
// LLVM-SAME: {
func.func @three_d(%r: memref<?x?x?xf64>, %u: memref<?x?x?xf64>, %n: index) {
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n, %n, %n) {
    %a = stencil.gather %u[0, 0, -1] : memref<?x?x?xf64>
    stencil.store %a to %r : memref<?x?x?xf64>
  }
  return
}

// One domain of rank 2 among rank-1 ones: no attribute.
// CHECK-LABEL: func.func @mixed
// CHECK-NOT: prefer_vector_width
// CHECK-SAME: {
func.func @mixed(%r: memref<?xf64>, %p: memref<?x?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %z = arith.constant 1.0 : f64
    stencil.store %z to %r : memref<?xf64>
  }
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %z = arith.constant 2.0 : f64
    stencil.store %z to %p : memref<?x?xf64>
  }
  return
}

// No domain: no attribute.
// CHECK-LABEL: func.func @none
// CHECK-NOT: prefer_vector_width
// CHECK-SAME: {
func.func @none(%x: f64) -> f64 {
  return %x : f64
}

// A width the function already asks for stays.
// CHECK-LABEL: func.func @given
// CHECK-SAME: prefer_vector_width = "128"
func.func @given(%r: memref<?xf64>, %n: index) attributes {prefer_vector_width = "128"} {
  stencil.domain (%i) = (0) to (%n) {
    %z = arith.constant 1.0 : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}
