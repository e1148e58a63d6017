// RUN: stencil-opt %s --stencil-gpu-host-reads -split-input-file -verify-diagnostics | FileCheck %s

// --stencil-gpu-host-reads: an f64 or f32 element read on the host (outside
// the mapped scf.parallel loops) is copied from device memory by the GPU
// run-time library, at the address the descriptor gives: aligned pointer +
// (offset + sum of index * stride) * element bytes. Reads inside parallel
// loops (kernels) stay.

// CHECK-LABEL: func.func @reads(
// CHECK-SAME:    %[[W:[a-z0-9]+]]: memref<?x?xf64>, %[[F:[a-z0-9]+]]: memref<?xf32>, %[[I:[a-z0-9]+]]: index, %[[J:[a-z0-9]+]]: index
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata %[[W]]
// CHECK-NEXT:    %[[X0:.*]] = arith.muli %[[I]], %[[STR]]#0 : index
// CHECK-NEXT:    %[[L0:.*]] = arith.addi %[[OFF]], %[[X0]] : index
// CHECK-NEXT:    %[[X1:.*]] = arith.muli %[[J]], %[[STR]]#1 : index
// CHECK-NEXT:    %[[L1:.*]] = arith.addi %[[L0]], %[[X1]] : index
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK-NEXT:    %[[B:.*]] = arith.muli %[[L1]], %[[EIGHT]] : index
// CHECK-NEXT:    %[[A:.*]] = arith.addi %[[P]], %[[B]] : index
// CHECK-NEXT:    %[[A64:.*]] = arith.index_cast %[[A]] : index to i64
// CHECK-NEXT:    %[[PTR:.*]] = llvm.inttoptr %[[A64]] : i64 to !llvm.ptr
// CHECK-NEXT:    %[[V:.*]] = call @stencil_gpu_read_f64(%[[PTR]]) : (!llvm.ptr) -> f64
// CHECK:         arith.constant 4 : index
// CHECK:         %[[G:.*]] = call @stencil_gpu_read_f32(%{{.*}}) : (!llvm.ptr) -> f32
// CHECK:         scf.parallel
// CHECK:           memref.load %[[W]]
// CHECK:         return %[[V]], %[[G]]
// CHECK:       func.func private @stencil_gpu_read_f64(!llvm.ptr) -> f64
// CHECK:       func.func private @stencil_gpu_read_f32(!llvm.ptr) -> f32
func.func @reads(%w: memref<?x?xf64>, %f: memref<?xf32>, %i: index,
                 %j: index, %out: memref<?xf64>, %n: index) -> (f64, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %w[%i, %j] : memref<?x?xf64>
  %g = memref.load %f[%i] : memref<?xf32>
  scf.parallel (%k) = (%c0) to (%n) step (%c1) {
    %x = memref.load %w[%k, %k] : memref<?x?xf64>
    memref.store %x, %out[%k] : memref<?xf64>
    scf.reduce
  }
  return %v, %g : f64, f32
}

// -----

// An array without a strided layout has no element address to read from:
// a located error.
func.func @not_strided(%w: memref<8xf64, affine_map<(d0) -> (d0 floordiv 2)>>) -> f64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{reads an element of an array without a strided layout on the host}}
  %v = memref.load %w[%c0] : memref<8xf64, affine_map<(d0) -> (d0 floordiv 2)>>
  return %v : f64
}
