//===- RunPipelines.h - stencil-fuzz: run the pipelines on a module -*- C++ -*-===//
//
// What the fuzz targets do with a module that verifies, whichever front end
// made it (stencil-fuzz parses stencil IR, stencil-import-c-fuzz imports C):
// run the pipelines of Pipelines.h on copies of it and check the
// invariants that make a finding.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_FUZZ_RUNPIPELINES_H
#define STENCIL_FUZZ_RUNPIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LLVM.h"

namespace stencil_fuzz {

/// The dialects an input may be written in: those stencil-compile parses,
/// without the LLVM and OpenMP dialects (InitAll.h).
const mlir::DialectRegistry &getInputRegistry();
/// The dialects the pipelines lower to, with their LLVM IR translations.
/// The first call also registers the passes.
const mlir::DialectRegistry &getAllRegistry();

/// How much of Pipelines.h an input runs.
struct RunLimits {
  /// At most this many pipelines, in the order getPipelines gives.
  size_t maxPipelines = ~size_t(0);
  /// No pipeline starts after the input has run this long.
  double budgetSeconds = 6;
  /// Compile the C headers of the pipelines (HeaderCheck.h).
  bool compileHeaders = true;
};

/// Runs the pipelines of getPipelines(module, text), each on a copy of
/// `module`, followed by --stencil-verify-lowered and the translation to
/// LLVM IR, and writes the header of each that reaches
/// --stencil-prepare-abi. Aborts (a finding) when a pass succeeds but
/// leaves IR that does not verify, when a pipeline or its translation fails
/// without an error, or when a header does not compile. `sawError` is the
/// flag the caller's diagnostic handler sets on an error; it is reset
/// before each pipeline. `context` must hold getAllRegistry()'s dialects.
/// STENCIL_FUZZ_VERBOSE=1 prints each pipeline as it starts.
void runPipelines(mlir::MLIRContext &context, mlir::ModuleOp module,
                  llvm::StringRef text, bool &sawError,
                  const RunLimits &limits = {});

} // namespace stencil_fuzz

#endif // STENCIL_FUZZ_RUNPIPELINES_H
