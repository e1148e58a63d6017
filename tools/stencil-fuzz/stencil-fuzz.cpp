//===- stencil-fuzz.cpp - libFuzzer target for the stencil passes -*- C++ -*-===//
//
// This file implements `stencil-fuzz`, a libFuzzer target: each input is
// parsed as a module and, if it parses and verifies, run through the
// pipelines a user runs (adjoint plus either boundary strategy, the
// serial and atomic scatter lowerings, distributed grids and the GPU route
// to PTX). Diagnostics are the expected outcome
// of bad input; what the fuzzer reports are crashes, sanitizer errors, hangs
// (-timeout) and these two invariant violations, which abort:
//   - a pass succeeds but leaves IR that does not verify;
//   - a pipeline fails without reporting an error.
// docs/Testing.md says how to run it (scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "Stencil/InitAll.h"
#include "Stencil/Target/AccessBounds.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

/// The pipelines every input runs through, each on its own copy.
static const char *const kPipelines[] = {
    "builtin.module(stencil-adjoint,convert-to-omp)",
    "builtin.module(stencil-adjoint,convert-to-omp{boundary=exact})",
    // Every shared value cut, so that small inputs reach both forms of
    // --stencil-cut-shared (the default min-gain leaves them uncut).
    "builtin.module(stencil-adjoint,convert-to-omp{cut-min-gain=1})",
    ("builtin.module(stencil-adjoint,"
     "convert-to-omp{cut-min-gain=1 cut-padded=0})"),
    "builtin.module(stencil-adjoint,convert-to-omp{scatter=serial})",
    ("builtin.module(stencil-adjoint{reset-output-adjoints=false},"
     "convert-to-omp{scatter=atomic})"),
    // Distributed over process grids of each rank (docs/Distributed.md):
    // the plan, the clipped domains, the exchanges and their lowering to
    // the mpi dialect and LLVM; other ranks are reported.
    "builtin.module(stencil-adjoint,stencil-distribute{grid=2},convert-to-omp)",
    ("builtin.module(stencil-adjoint,stencil-distribute{grid=2,3},"
     "convert-to-omp)"),
    ("builtin.module(stencil-adjoint,stencil-distribute{grid=2,1,2},"
     "convert-to-omp)"),
    // The GPU route (docs/GPU.md) to PTX: the check, the guarded gather
    // form, the block mapping, upstream's GPU lowering and serialization;
    // the second with the options that are off by default (aligned
    // innermost loops, FMA).
    "builtin.module(stencil-adjoint,convert-to-gpu{format=isa})",
    ("builtin.module(stencil-adjoint,convert-to-gpu{format=isa "
     "scatter=atomic block=16,4,2 align=32 fp-contract=1})"),
};

namespace {
/// Verifies the IR after every pass that succeeds, and aborts (a finding)
/// when a pass leaves IR that does not verify.
struct VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "stencil-fuzz: pass '" << pass->getArgument()
                 << "' succeeded but left IR that does not verify\n";
    std::abort();
  }
};
} // namespace

/// The dialects an input may be written in (`input`) and those the
/// pipelines lower to (`all`). Inputs are parsed as stencil-compile parses
/// them, without the LLVM and OpenMP dialects (InitAll.h).
struct Registries {
  DialectRegistry input, all;
};

static const Registries &getRegistries() {
  static Registries *registries = [] {
    auto *result = new Registries();
    stencil::registerStencilInputDialects(result->input);
    stencil::registerAllStencilDialects(result->all);
    stencil::registerAllStencilPasses();
    return result;
  }();
  return *registries;
}

/// Runs `pipeline` on a copy of `module`; aborts if it fails silently.
static void runPipeline(MLIRContext &context, ModuleOp module,
                        const char *pipeline, const bool &sawError) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  if (failed(parsePassPipeline(pipeline, pm))) {
    llvm::errs() << "stencil-fuzz: cannot parse '" << pipeline << "'\n";
    std::abort();
  }
  if (succeeded(pm.run(*copy)) || sawError)
    return;
  llvm::errs() << "stencil-fuzz: '" << pipeline
               << "' failed without reporting an error\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(getRegistries().input, MLIRContext::Threading::DISABLED);
  bool sawError = false;
  ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &diag) {
    sawError |= diag.getSeverity() == DiagnosticSeverity::Error;
    return success();
  });
  // The lexer reads up to a terminating NUL, which the fuzzer's buffer
  // lacks: parse a null-terminated copy.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "input"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module || failed(verify(*module)))
    return 0;
  // What stencil-compile plans on every input for --abi-json: it must not
  // crash on any valid module (a function it cannot bound is reported as
  // unsupported, not guessed).
  llvm::StringMap<stencil::FunctionAccessBounds> bounds =
      stencil::planAccessBounds(*module);
  for (const auto &entry : bounds) {
    std::string json;
    llvm::raw_string_ostream os(json);
    os << entry.second.toJSON();
  }
  context.appendDialectRegistry(getRegistries().all);
  for (const char *pipeline : kPipelines) {
    sawError = false;
    runPipeline(context, *module, pipeline, sawError);
  }
  return 0;
}
