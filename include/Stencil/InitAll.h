//===- InitAll.h - Register everything the stencil project offers -*- C++ -*-===//
//
// This file declares the entry points a DSL compiler calls to embed the
// stencil project: the dialect (with the adjoint rules attached to the
// upstream dialects), the passes and the named pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_INITALL_H
#define STENCIL_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::stencil {

/// Inserts the dialects a stencil program is written in (stencil, func,
/// arith, math, memref, scf, affine, cf), with the adjoint rules and the
/// upstream extensions attached. Drivers parse user input with only these,
/// then append registerAllStencilDialects: the LLVM and OpenMP dialects are
/// outputs of the pipeline, never input, and MLIR 22's parser of
/// `llvm.insertvalue`/`llvm.extractvalue` reads out of bounds on a position
/// of 2^32 or more (docs/Diagnostics.md).
void registerStencilInputDialects(DialectRegistry &registry);

/// Inserts the stencil dialect and every dialect that stencil IR and our
/// passes produce, and attaches the adjoint rules and the upstream extensions
/// the lowering needs (`registerAllExtensions`).
void registerAllStencilDialects(DialectRegistry &registry);

/// Registers the stencil passes and pipelines (for textual pipelines such as
/// `parsePassPipeline("convert-to-omp")` and for `stencil-opt`).
void registerAllStencilPasses();

/// Registers the stencil translations (`--stencil-to-c-header`) for
/// `stencil-translate`.
void registerAllStencilTranslations();

} // namespace mlir::stencil

#endif // STENCIL_INITALL_H
