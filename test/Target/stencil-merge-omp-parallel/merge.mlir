// RUN: stencil-opt %s --convert-stencil-to-affine --lower-affine --convert-scf-to-openmp --canonicalize --stencil-merge-omp-parallel | FileCheck %s

// Two parallel nests separated by index arithmetic run in one team; the
// arithmetic is hoisted above the region and each worksharing loop keeps
// its barrier.
// CHECK-LABEL: func.func @two_nests
// CHECK-COUNT-1: omp.parallel
// CHECK-NOT: omp.parallel
// CHECK: omp.wsloop
// CHECK: omp.wsloop
// CHECK: omp.terminator
// CHECK-NOT: omp.
// CHECK: return
func.func @two_nests(%u: memref<?xf64>, %r: memref<?xf64>, %s: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %a to %r : memref<?xf64>
  }
  stencil.domain (%i) = (2) to (%n) {
    %a = stencil.gather %r[-1] : memref<?xf64>
    stencil.store %a to %s : memref<?xf64>
  }
  return
}

// A serial computation between two nests (here a reduction's final sum)
// keeps them in separate regions.
// CHECK-LABEL: func.func @serial_between
// CHECK: omp.parallel
// CHECK: scf.for
// CHECK: omp.parallel
func.func @serial_between(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) -> f64 {
  %t = stencil.domain (%i) = (0) to (%n) -> (f64) {
    %a = stencil.gather %u[0] : memref<?xf64>
    stencil.yield %a : f64
  }
  stencil.domain (%i) = (0) to (%n) {
    %a = stencil.gather %u[0] : memref<?xf64>
    %b = arith.mulf %a, %t : f64
    stencil.store %b to %r : memref<?xf64>
  }
  return %t : f64
}
