// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint \
// RUN:   "--convert-to-gpu=format=isa" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=NONE < %t.mlir
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint \
// RUN:   "--convert-to-gpu=format=isa scatter=atomic" | FileCheck %s --check-prefix=ATOMIC
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint \
// RUN:   "--convert-to-gpu=format=isa block=128,2" | FileCheck %s --check-prefix=BLOCK
// RUN: stencil-opt %stencil_src/examples/burgers1d.mlir --stencil-adjoint \
// RUN:   "--convert-to-gpu=format=isa" | FileCheck %s --check-prefix=BURGERS
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint \
// RUN:   "--convert-to-gpu=format=isa" --stencil-verify-lowered -o /dev/null

// convert-to-gpu with format=isa embeds PTX (compiled by LLVM's NVPTX back
// end; no CUDA toolkit needed), so the kernels can be checked here.
//
// The wave step and its adjoint: one kernel for the primal domain, and for
// the adjoint one for the guarded gather (every statement of the scatter
// domain) plus one for the reset of u_b. The host functions keep the CPU
// C ABI (_mlir_ciface_ wrappers over memref descriptors) and only launch.
// CHECK-DAG: gpu.binary @wave3d_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-DAG: gpu.binary @wave3d_adjoint_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-DAG: gpu.binary @wave3d_adjoint_kernel_0  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-DAG: .target sm_90
// CHECK-DAG: .visible .entry wave3d_kernel(
// CHECK-DAG: .visible .entry wave3d_adjoint_kernel(
// CHECK-DAG: llvm.func @_mlir_ciface_wave3d(
// CHECK-DAG: llvm.func @_mlir_ciface_wave3d_adjoint(
// CHECK-DAG: gpu.launch_func  @wave3d_kernel::@wave3d_kernel blocks in
// CHECK-DAG: gpu.launch_func  @wave3d_adjoint_kernel::@wave3d_adjoint_kernel blocks in
// CHECK-DAG: gpu.launch_func  @wave3d_adjoint_kernel_0::@wave3d_adjoint_kernel blocks in
// Nothing is left unlowered and the gather adjoint has no atomics (NONE
// scans the whole output).
// NONE-NOT: atom.
// NONE-NOT: {{stencil\.(domain|gather|store|accumulate)}}
// NONE-NOT: {{scf\.(parallel|for|if)}}
// NONE-NOT: {{memref\.(load|store|alloc|dealloc)}}
// NONE-NOT: {{gpu\.(alloc|func|module)}}
//
// scatter=atomic, the baseline from the same IR: the adjoint kernel adds
// each of its 8 updates of u_1_b (7 scatters and the centre) atomically.
// ATOMIC-COUNT-8: atom.global.add.f64
// ATOMIC-NOT: atom.
//
// The block shape reaches the launches: 128 x 2 threads, innermost first.
// BLOCK: llvm.mlir.constant(128 : index)
// BLOCK: gpu.launch_func  @wave3d_kernel::@wave3d_kernel
//
// Burgers (1-D, nonlinear: max/min, multiplications) lowers as well.
// BURGERS-DAG: .visible .entry burgers1d_kernel(
// BURGERS-DAG: .visible .entry burgers1d_adjoint_kernel(
//
// Temporaries are device memory: test/GPU/map.mlir's chained domains
// through an alloc call mgpuMemAlloc and mgpuMemFree.
// RUN: stencil-opt %stencil_src/test/GPU/map.mlir "--convert-to-gpu=format=isa" \
// RUN:   | FileCheck %s --check-prefix=TEMP
// TEMP: llvm.call @mgpuMemAlloc(
// TEMP: gpu.launch_func
// TEMP: gpu.launch_func
// TEMP: llvm.call @mgpuMemFree(
