// RUN: stencil-opt %s --convert-to-omp -split-input-file -verify-diagnostics
// RUN: stencil-opt %s --stencil-adjoint --convert-to-omp -split-input-file -verify-diagnostics
// RUN: stencil-opt %s --convert-to-gpu -split-input-file -verify-diagnostics

// User symbols named like what the lowering calls or defines are refused
// at the symbol by the pipelines' first pass (and by --stencil-adjoint):
// the OpenMP runtime's @__kmpc_fork_call, used to end in an unlocated LLVM
// verifier error.

// expected-error @below {{'func.func' op is named @__kmpc_fork_call, in the namespace `__kmpc_*` reserved for the OpenMP runtime}}
func.func @__kmpc_fork_call(%u: memref<?xf64> {stencil.active} loc("u"), %v: memref<?xf64> {stencil.active} loc("v"), %n: index loc("n")) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// -----

// expected-error @below {{is named @omp_get_max_threads, in the namespace `omp_*` reserved for the OpenMP runtime}}
func.func @omp_get_max_threads() -> i32 {
  %c = arith.constant 1 : i32
  return %c : i32
}

// -----

// expected-error @below {{is named @_mlir_ciface_f, in the namespace `_mlir_*` reserved for the C entry points and helpers the lowering generates}}
func.func @_mlir_ciface_f() { return }
func.func @f() { return }

// -----

// expected-error @below {{is named @malloc, the name `malloc` reserved for the allocator the lowering calls}}
func.func private @malloc(i64) -> !llvm.ptr

// -----

// expected-error @below {{is named @mgpuMemAlloc, in the namespace `mgpu*` reserved for the GPU library that the GPU lowering calls}}
func.func @mgpuMemAlloc() { return }

// -----

// expected-error @below {{is named @stencil_ckpt_start, in the namespace `stencil_ckpt_*` reserved for the checkpointing library (lib/Runtime/Checkpoint.c)}}
func.func private @stencil_ckpt_start(i64) -> i64
