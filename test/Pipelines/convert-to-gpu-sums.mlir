// RUN: stencil-opt %s --convert-to-gpu=format=isa | FileCheck %s

// A domain with results on the GPU route (docs/GPU.md, "Sums"): a kernel
// computes the partial sums of the slices of dimension 0 (each slice
// serially, as on the CPU), a second kernel sums them serially into a
// one-element device buffer, and the host reads that element back; each
// kernel in a 32-bit and a 64-bit version. The partial sums are never read
// on the host, and the order of the additions is the CPU's.

// CHECK-LABEL: llvm.func @energy(
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         gpu.launch_func @energy_kernel::@energy_kernel
// CHECK:         gpu.launch_func @energy_kernel_0::@energy_kernel
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         gpu.launch_func @energy_kernel_1::@energy_kernel blocks in
// CHECK:         gpu.launch_func @energy_kernel_2::@energy_kernel
// CHECK:         %[[S:.*]] = llvm.call @stencil_gpu_read_f64(%{{.*}}) : (!llvm.ptr) -> f64
// CHECK-NOT:     stencil_gpu_read_f64
// CHECK:         llvm.call @mgpuMemFree
// CHECK:       gpu.binary @energy_kernel {{.*}}chip = "sm_90"
// CHECK-SAME:    add.rn.f64
// CHECK:       gpu.binary @energy_kernel_2
// CHECK:       llvm.func @stencil_gpu_read_f64(!llvm.ptr) -> f64
func.func @energy(%a: memref<?x?xf64>, %n: index) -> f64 {
  %s = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> f64 {
    %v = stencil.gather %a[0, 0] : memref<?x?xf64>
    %w = arith.mulf %v, %v : f64
    stencil.yield %w : f64
  }
  return %s : f64
}
