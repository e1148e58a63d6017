//===- stencil-fuzz.cpp - libFuzzer target for the stencil passes -*- C++ -*-===//
//
// This file implements `stencil-fuzz`, a libFuzzer target: each input is
// parsed as a module, as stencil-compile parses it, and, if it verifies,
// run through the pipelines a user runs (Pipelines.cpp: the adjoint with
// each boundary strategy and scatter lowering, the distribution over
// process grids of the input's ranks, time-loop adjoints with
// checkpointing, the GPU route to PTX, and the pipelines the input's
// comments name). Every pipeline that reaches --stencil-prepare-abi also
// writes the C header and the --abi-json of its module, and the header is
// compiled as C and as C++ (HeaderCheck.cpp). Diagnostics are the expected
// outcome of bad input; what the fuzzer reports are crashes, sanitizer
// errors, hangs (-timeout) and these invariant violations, which abort:
//   - a pass succeeds but leaves IR that does not verify;
//   - a pipeline, or the translation of its result to LLVM IR, fails
//     without reporting an error;
//   - a header that does not compile, or --abi-json that is not JSON.
// docs/Testing.md says how to run it (scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "RunPipelines.h"

#include "Stencil/Target/SourceNames.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

/// Parses `sourceMgr`'s buffer as stencil-compile does: one explicit
/// module is the module, and arguments are named after the source.
static OwningOpRef<ModuleOp> parseInput(MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr) {
  return stencil::parseSourceWithNames(sourceMgr, context, "input");
}

/// No pipeline starts after an input has run this long (scripts/fuzz.sh
/// gives it 20 s): the time-loop examples take seconds per pipeline under
/// the sanitizers. This only ever leaves out the last pipelines (their
/// order is fixed per input, Pipelines.h), so a finding replays.
static constexpr double kBudgetSeconds = 6;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(stencil_fuzz::getInputRegistry(),
                      MLIRContext::Threading::DISABLED);
  bool sawError = false;
  // STENCIL_FUZZ_VERBOSE=1 prints each pipeline and its diagnostics (to
  // replay a finding).
  static const bool verbose = std::getenv("STENCIL_FUZZ_VERBOSE");
  ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &diag) {
    sawError |= diag.getSeverity() == DiagnosticSeverity::Error;
    if (verbose)
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    return success();
  });
  // The lexer reads up to a terminating NUL, which the fuzzer's buffer
  // lacks: parse a null-terminated copy.
  StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "input"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseInput(context, sourceMgr);
  if (!module || failed(verify(*module)))
    return 0;
  context.appendDialectRegistry(stencil_fuzz::getAllRegistry());
  stencil_fuzz::RunLimits limits;
  limits.budgetSeconds = kBudgetSeconds;
  stencil_fuzz::runPipelines(context, *module, text, sawError, limits);
  return 0;
}
