//===- Passes.h - Stencil lowering passes -------------------------*- C++ -*-===//
//
// This file declares the lowering of the stencil dialect to affine loops
// (and the outlining of domains that runs before it), the enum of its
// `scatter` option, and the registration hook generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_PASSES_H
#define STENCIL_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::stencil {

/// How domains that scatter (stencil.accumulate at an offset) run: the one
/// enum of the `scatter` option of --convert-stencil-to-affine and of the
/// convert-to-omp pipeline.
enum class ScatterLowering {
  /// Race-free parallel gather nests: --stencil-scatter-to-gather runs
  /// first, so --convert-stencil-to-affine sees no scatter (and rejects
  /// one).
  Gather,
  /// Serial loops: the conventional (Tapenade-like) adjoint.
  Serial,
  /// Parallel loops, every scattered update an atomic add.
  Atomic,
};

/// The command-line spellings of the enum, for every option that takes it
/// (pass and pipeline options alike).
inline llvm::cl::ValuesClass scatterLoweringValues() {
  return llvm::cl::values(
      clEnumValN(ScatterLowering::Gather, "gather",
                 "race-free parallel gather nests"),
      clEnumValN(ScatterLowering::Serial, "serial",
                 "serial loops (conventional adjoint)"),
      clEnumValN(ScatterLowering::Atomic, "atomic",
                 "parallel loops with atomic updates"));
}

/// The unit attribute that marks the `emitc.verbatim` of an OpenMP pragma
/// (--stencil-omp-pragmas), which must stand right before its loop
/// (--stencil-convert-to-emitc keeps it there).
inline constexpr llvm::StringLiteral kOMPPragmaAttrName = "c_omp_pragma";

#define GEN_PASS_DECL
#include "Stencil/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Conversion/Passes.h.inc"

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_PASSES_H
