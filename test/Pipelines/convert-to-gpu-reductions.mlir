// RUN: stencil-opt %s --stencil-adjoint --convert-to-gpu=format=isa \
// RUN:   | FileCheck %s --implicit-check-not=atomicrmw --implicit-check-not=atom. --implicit-check-not=red.global

// Reductions on the GPU route (docs/GPU.md, "Reductions"): the adjoint of
// reads through fixed elements (w[0], w[2]), a selection (c[j]) and a
// rank-0 array (s) accumulates into their shadows through the same `dims`.
// The domain also scatters into u's shadow: the gather conversion first
// moves the reductions into a domain of their own, before the scatter
// domain (which then stays next to the reset of r's shadow, fused into its
// sweep). Its lowering sums each slice of dimension 0 serially, in one
// kernel: c's partial sums into a device buffer, which a second kernel adds
// in slice order; the fully reduced ones (s, w[2], w[0]) like domain
// results, summed in slice order into one-element buffers the host reads
// back and adds into their elements, one thread each. The CPU's order, no
// atomics in the MLIR (atomicrmw) or in the PTX (atom., red.global). Nests
// are a 32-bit and a 64-bit kernel each.

// CHECK-LABEL: llvm.func @layered_adjoint(
// c's partial sums and the carried sums of s, w[2] and w[0], per slice.
// CHECK-COUNT-4: llvm.call @mgpuMemAlloc
// CHECK:         gpu.launch_func @layered_adjoint_kernel::
// CHECK:         gpu.launch_func @layered_adjoint_kernel_1::
// c's slices added in order.
// CHECK:         gpu.launch_func @layered_adjoint_kernel_2::
// CHECK:         gpu.launch_func @layered_adjoint_kernel_3::
// CHECK:         llvm.call @mgpuMemFree
// The carried sums' slices added in order, their totals read back.
// CHECK:         gpu.launch_func @layered_adjoint_kernel_4::
// CHECK:         gpu.launch_func @layered_adjoint_kernel_5::
// CHECK-COUNT-3: llvm.call @stencil_gpu_read_f64
// Each total added into its element, then the gather nests of u's shadow
// with the reset of r's shadow.
// CHECK:         gpu.launch_func @layered_adjoint_kernel_6::
// CHECK:         gpu.launch_func @layered_adjoint_kernel_14::
// CHECK:       gpu.binary @layered_adjoint_kernel_2 {{.*}}chip = "sm_90"
// CHECK-SAME:    add.rn.f64

func.func @layered(%r: memref<?x?xf64> {stencil.active},
                   %u: memref<?x?xf64> {stencil.active},
                   %w: memref<3xf64> {stencil.active},
                   %c: memref<?xf64> {stencil.active},
                   %s: memref<f64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %w0 = stencil.gather %w[0] dims [_] : memref<3xf64>
    %w2 = stencil.gather %w[2] dims [_] : memref<3xf64>
    %cj = stencil.gather %c[0] dims [1] : memref<?xf64>
    %k = stencil.gather %s[] dims [] : memref<f64>
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %b = stencil.gather %u[1, 0] : memref<?x?xf64>
    %o = stencil.gather %u[0, 0] : memref<?x?xf64>
    %pa = arith.mulf %w0, %a : f64
    %pb = arith.mulf %w2, %b : f64
    %po = arith.mulf %cj, %o : f64
    %q = arith.addf %pa, %pb : f64
    %t = arith.addf %q, %po : f64
    %v = arith.mulf %k, %t : f64
    stencil.store %v to %r : memref<?x?xf64>
  }
  return
}
