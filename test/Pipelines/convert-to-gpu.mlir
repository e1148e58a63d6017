// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint \
// RUN:   "--convert-to-gpu=format=isa" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=NONE < %t.mlir
// RUN: FileCheck %s --check-prefix=INDEX < %t.mlir
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir \
// RUN:   "--convert-to-gpu=format=isa index32=false noalias=false" \
// RUN:   | FileCheck %s --check-prefix=BASE
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
// The wave step and its adjoint: one nest for the primal domain, and for
// the adjoint one for the guarded gather (every statement of the scatter
// domain) plus one for the reset of u_b. Each nest becomes two kernels
// (--stencil-narrow-gpu-indices): the first with 32-bit index arithmetic,
// launched when every array's extent fits in 31 bits, the second the
// 64-bit original. The host functions keep the CPU C ABI (_mlir_ciface_
// wrappers over memref descriptors) and only launch.
// CHECK-DAG: gpu.binary @wave3d_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-DAG: gpu.binary @wave3d_kernel_0  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-DAG: gpu.binary @wave3d_adjoint_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-DAG: gpu.binary @wave3d_adjoint_kernel_1  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-DAG: gpu.binary @wave3d_adjoint_kernel_2  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-DAG: gpu.binary @wave3d_adjoint_kernel_3  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-DAG: .target sm_90
// CHECK-DAG: .visible .entry wave3d_kernel(
// CHECK-DAG: .visible .entry wave3d_adjoint_kernel(
// CHECK-DAG: llvm.func @_mlir_ciface_wave3d(
// CHECK-DAG: llvm.func @_mlir_ciface_wave3d_adjoint(
// CHECK-DAG: gpu.launch_func  @wave3d_kernel::@wave3d_kernel blocks in
// CHECK-DAG: gpu.launch_func  @wave3d_kernel_0::@wave3d_kernel blocks in
// CHECK-DAG: gpu.launch_func  @wave3d_adjoint_kernel::@wave3d_adjoint_kernel blocks in
// CHECK-DAG: gpu.launch_func  @wave3d_adjoint_kernel_1::@wave3d_adjoint_kernel blocks in
// CHECK-DAG: gpu.launch_func  @wave3d_adjoint_kernel_2::@wave3d_adjoint_kernel blocks in
// CHECK-DAG: gpu.launch_func  @wave3d_adjoint_kernel_3::@wave3d_adjoint_kernel blocks in
//
// The 32-bit kernel sign-extends one 32-bit linear index per array
// (mul.wide.s32) and reads the arrays it never writes (u_1, u_2, c) through
// the read-only path (noalias: --stencil-gpu-kernel-noalias); the 64-bit
// kernel has 64-bit addresses only. Without both options (BASE) neither.
// INDEX: gpu.binary @wave3d_kernel  [{{.*}}mul.wide.s32{{.*}}ld.global.nc.b64
// INDEX: gpu.binary @wave3d_kernel_0  [
// INDEX-NOT: mul.wide.s32
// INDEX-SAME: ld.global.nc.b64
// BASE: gpu.binary @wave3d_kernel  [
// BASE-NOT: mul.wide.s32
// BASE-NOT: ld.global.nc
// BASE-NOT: gpu.binary @wave3d_kernel_0
// Nothing is left unlowered and the gather adjoint has no atomics (NONE
// scans the whole output).
// NONE-NOT: atom.
// NONE-NOT: {{stencil\.(domain|gather|store|accumulate)}}
// NONE-NOT: {{scf\.(parallel|for|if)}}
// NONE-NOT: {{memref\.(load|store|alloc|dealloc)}}
// NONE-NOT: {{gpu\.(alloc|func|module)}}
//
// scatter=atomic, the baseline from the same IR: the adjoint kernel adds
// each of its 8 updates of u_1_b (7 scatters and the centre) atomically,
// in its 32-bit and its 64-bit version.
// ATOMIC-COUNT-16: atom.global.add.f64
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
