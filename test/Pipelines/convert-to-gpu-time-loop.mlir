// RUN: stencil-opt %s --stencil-adjoint --stencil-gpu-checkpoints | FileCheck %s --check-prefix=PASS
// RUN: stencil-opt %s --stencil-adjoint --convert-to-gpu=format=isa | FileCheck %s

// Time loops on the GPU route (docs/GPU.md): the loop, the adjoint's
// schedule and its calls of the step functions stay on the host; every
// domain, the snapshot copies included, is a kernel. A 2-D leapfrog whose
// step's adjoint reads the state (the coefficient is active), so that
// Revolve keeps snapshots: their workspace is device memory, from the GPU
// run-time library.

func.func @lf2d(%u0: memref<?x?xf64> {stencil.active},
                %u1: memref<?x?xf64> {stencil.active},
                %u2: memref<?x?xf64> {stencil.active},
                %c: memref<?x?xf64> {stencil.active},
                %n: index, %m: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %mm1 = arith.subi %m, %c1 : index
  %r:3 = scf.for %t = %c0 to %T step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2)
      -> (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>) {
    stencil.domain (%i, %j) = (1, 1) to (%nm1, %mm1) {
      %a = stencil.gather %cur[-1, 0] : memref<?x?xf64>
      %b = stencil.gather %cur[0, 1] : memref<?x?xf64>
      %p = stencil.gather %prev[0, 0] : memref<?x?xf64>
      %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
      %s = arith.addf %a, %b : f64
      %q = arith.mulf %cc, %s : f64
      %v = arith.subf %q, %p : f64
      stencil.store %v to %next : memref<?x?xf64>
    }
    scf.yield %cur, %next, %prev : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>
  }
  return
}

// --stencil-gpu-checkpoints: the schedule starts in the GPU run-time
// library, which sizes a device workspace, and the snapshots are views of
// it; the other calls of the schedule are the host library's.
// PASS-LABEL: func.func @lf2d_adjoint(
// PASS:         %[[S:.*]] = call @stencil_gpu_ckpt_start(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64) -> !llvm.ptr
// PASS:         %[[W:.*]] = func.call @stencil_gpu_ckpt_workspace(%[[S]]) : (!llvm.ptr) -> memref<?xi8>
// PASS:         func.call @stencil_ckpt_step_action(%[[S]])
// PASS:         memref.view %[[W]]
// PASS-NOT:   @stencil_ckpt_start
// PASS-NOT:   @stencil_ckpt_workspace
// PASS:       func.func private @stencil_gpu_ckpt_start(i64, i64, i64) -> !llvm.ptr
// PASS:       func.func private @stencil_gpu_ckpt_workspace(!llvm.ptr) -> memref<?xi8> attributes {llvm.emit_c_interface, stencil.runtime}

// The whole route: the primal loop launches its kernel every step; the
// adjoint takes its workspace through the C interface, copies snapshots
// with kernels and calls the step functions, which launch theirs.
// CHECK-LABEL: llvm.func @lf2d(
// CHECK:         llvm.br
// CHECK:         gpu.launch_func @lf2d_kernel::@lf2d_kernel
// CHECK:       gpu.binary @lf2d_kernel {{.*}}chip = "sm_90"
// CHECK-LABEL: llvm.func @lf2d_adjoint(
// CHECK:         llvm.call @stencil_gpu_ckpt_start(
// CHECK:         llvm.call @stencil_gpu_ckpt_workspace(
// CHECK:         gpu.launch_func @lf2d_adjoint_kernel::@lf2d_adjoint_kernel
// CHECK:         llvm.call @lf2d_step(
// CHECK:         llvm.call @lf2d_step_adjoint
// CHECK-LABEL: llvm.func @lf2d_step(
// CHECK:         gpu.launch_func
// CHECK-LABEL: llvm.func @lf2d_step_adjoint(
// CHECK:         gpu.launch_func
// CHECK:       llvm.func @_mlir_ciface_stencil_gpu_ckpt_workspace(!llvm.ptr, !llvm.ptr)
// CHECK-NOT:   @stencil_ckpt_start
// CHECK-NOT:   @stencil_ckpt_workspace
