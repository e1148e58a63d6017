// RUN: stencil-opt %s --stencil-mark-gpu-kernel-args | FileCheck %s
// RUN: stencil-opt %s \
// RUN:   --pass-pipeline="builtin.module(stencil-mark-gpu-kernel-args, gpu.module(convert-gpu-to-nvvm, stencil-gpu-kernel-noalias))" \
// RUN:   | FileCheck %s --check-prefix=LLVM

// --stencil-mark-gpu-kernel-args (lib/GPU/KernelArgs.cpp): arrays a kernel
// only loads from get llvm.readonly; a kernel whose launches pass views of
// distinct function arguments or allocations is marked, and after the NVVM
// lowering --stencil-gpu-kernel-noalias makes its pointers noalias (the
// read-only data path needs both).

module attributes {gpu.container_module} {

// CHECK-LABEL: gpu.func @copy(
// CHECK-SAME: %{{[a-z0-9]+}}: memref<?xf32>, %{{[a-z0-9]+}}: memref<?xf32> {llvm.readonly}, %{{[a-z0-9]+}}: index)
// CHECK-SAME: kernel attributes {stencil.distinct_arrays}
// LLVM-LABEL: llvm.func @copy(
// LLVM-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// LLVM-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias, llvm.readonly}, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// LLVM-NOT: stencil.distinct_arrays
gpu.module @copy {
  gpu.func @copy(%dst: memref<?xf32>, %src: memref<?xf32>, %i: index) kernel {
    %v = memref.load %src[%i] : memref<?xf32>
    memref.store %v, %dst[%i] : memref<?xf32>
    gpu.return
  }
}

// The same array twice (a view of it and itself): read-only marks only.
// CHECK-LABEL: gpu.func @shift(
// CHECK-SAME: %{{[a-z0-9]+}}: memref<?xf32>, %{{[a-z0-9]+}}: memref<?xf32> {llvm.readonly}, %{{[a-z0-9]+}}: index)
// CHECK-SAME: kernel {
// LLVM-LABEL: llvm.func @shift(
// LLVM-NOT: llvm.noalias
// LLVM: llvm.return
gpu.module @shift {
  gpu.func @shift(%dst: memref<?xf32>, %src: memref<?xf32>, %i: index) kernel {
    %v = memref.load %src[%i] : memref<?xf32>
    memref.store %v, %dst[%i] : memref<?xf32>
    gpu.return
  }
}

// An array of unknown origin (a global) leaves the kernel unmarked too.
// CHECK-LABEL: gpu.func @fromglobal(
// CHECK-SAME: kernel {
gpu.module @fromglobal {
  gpu.func @fromglobal(%dst: memref<?xf32>, %src: memref<?xf32>, %i: index) kernel {
    %v = memref.load %src[%i] : memref<?xf32>
    memref.store %v, %dst[%i] : memref<?xf32>
    gpu.return
  }
}

memref.global "private" @table : memref<16xf32> = dense<0.0>

func.func @host(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch_func @copy::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%a : memref<?xf32>, %b : memref<?xf32>, %c0 : index)
  %v = memref.subview %a[1] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: 1>>
  %w = memref.cast %v : memref<?xf32, strided<[1], offset: 1>> to memref<?xf32, strided<[?], offset: ?>>
  %x = memref.reinterpret_cast %w to offset: [0], sizes: [%n], strides: [1] : memref<?xf32, strided<[?], offset: ?>> to memref<?xf32>
  gpu.launch_func @shift::@shift blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%a : memref<?xf32>, %x : memref<?xf32>, %c0 : index)
  %g = memref.get_global @table : memref<16xf32>
  %h = memref.cast %g : memref<16xf32> to memref<?xf32>
  gpu.launch_func @fromglobal::@fromglobal blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%a : memref<?xf32>, %h : memref<?xf32>, %c0 : index)
  return
}
}
