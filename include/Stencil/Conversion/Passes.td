//===- Passes.td - Stencil lowering passes -----------------*- tablegen -*-===//
//
// This file declares the passes that lower the stencil dialect towards
// affine loops and native code.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_PASSES_TD
#define STENCIL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertStencilToAffinePass
    : Pass<"convert-stencil-to-affine", "::mlir::ModuleOp"> {
  let summary = "Lower stencil domains to affine loop nests";
  let description = [{
    Rewrites every `stencil.domain` into an affine loop nest: gathers and
    centre writes become `affine.load` / `affine.store` with the constant
    offsets folded into the access maps.

    Dimensions whose extent is the constant 1 get no loop. The outermost
    remaining dimension becomes an `affine.parallel` (which
    `convert-scf-to-openmp` later turns into an OpenMP worksharing loop) and
    the inner dimensions `affine.for` loops, so that the innermost loop stays
    a simple counted loop that LLVM vectorizes.

    A domain that scatters (`stencil.accumulate` at a non-zero offset) is
    not parallel as written. The `scatter` option chooses how it runs:
    `serial` (all loops `affine.for`, the conventional AD adjoint) or
    `atomic` (parallel, every update a `memref.atomic_rmw addf`). To get a
    race-free parallel gather instead, run `--stencil-scatter-to-gather`
    first.

    Domain results (sums over the domain) are computed in a fixed order
    whatever the number of threads: each index of the parallel dimension
    sums its slice serially into a temporary buffer, and the buffer is then
    summed serially in index order.

    #### Input invariant
    - Every bound operand of a domain is a valid affine symbol where the
      domain stands (for instance a function argument); otherwise the pass
      reports an error.

    #### Output IR
    - `affine.parallel`, `affine.for`, `affine.load`, `affine.store`,
      `affine.apply`, `memref.alloc`/`dealloc` (reductions),
      `memref.atomic_rmw` (atomic scatters), plus the cloned body ops.
      No stencil op remains.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
  ];
  let options = [
    Option<"scatter", "scatter", "::mlir::stencil::ScatterMode",
           "::mlir::stencil::ScatterMode::Serial",
           "How to run domains that scatter", [{::llvm::cl::values(
             clEnumValN(::mlir::stencil::ScatterMode::Serial, "serial",
                        "serial loops (conventional adjoint)"),
             clEnumValN(::mlir::stencil::ScatterMode::Atomic, "atomic",
                        "parallel loops with atomic updates"))}]>,
  ];
}

def StencilPrepareABIPass : Pass<"stencil-prepare-abi", "::mlir::ModuleOp"> {
  let summary = "Mark public functions for the C-callable ABI";
  let description = [{
    Adds `llvm.emit_c_interface` to every public `func.func` that has a
    body, so that the LLVM lowering emits a `_mlir_ciface_<name>` wrapper
    taking pointers to memref descriptors (see docs/ABI.md). It also records
    where the data pointers of array arguments will be, in the
    `stencil.noalias_args` attribute, so
    that `--stencil-annotate-noalias` can mark their data pointers `noalias`
    after the LLVM lowering: arrays passed to a stencil function must not
    overlap (docs/Dialect.md).

    #### Output IR
    - The same functions, with the two attributes added.
  }];
}

def StencilAnnotateNoAliasPass
    : Pass<"stencil-annotate-noalias", "::mlir::ModuleOp"> {
  let summary = "Mark the data pointers of array arguments noalias";
  let description = [{
    Runs after the lowering to the LLVM dialect. For every `llvm.func`
    carrying `stencil.noalias_args` (set by `--stencil-prepare-abi`), adds
    `llvm.noalias` to the allocated and aligned pointers of each expanded
    memref descriptor argument, which lets LLVM vectorize without runtime
    alias checks.

    #### Input invariant
    - Memref arguments were expanded with the default calling convention
      (allocated pointer, aligned pointer, offset, sizes, strides).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // STENCIL_CONVERSION_PASSES_TD
