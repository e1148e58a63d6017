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

#include "HeaderCheck.h"
#include "Pipelines.h"

#include "Stencil/Dialect/StencilOps.h"
#include "Stencil/InitAll.h"
#include "Stencil/Target/AccessBounds.h"
#include "Stencil/Target/CInterface.h"
#include "Stencil/Target/Passes.h"
#include "Stencil/Target/SourceNames.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;

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

/// What every pipeline of one input shares.
struct Input {
  ModuleOp module;
  /// The name the header gives the input (its module's file location).
  std::string source;
  llvm::StringMap<stencil::FunctionAccessBounds> bounds;
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
    registerAllToLLVMIRTranslations(result->all);
    stencil::registerAllStencilPasses();
    return result;
  }();
  return *registries;
}

[[noreturn]] static void
reportSilentFailure(const stencil_fuzz::Pipeline &pipeline, StringRef what) {
  llvm::errs() << "stencil-fuzz: '" << pipeline.passes << "' " << what
               << " without reporting an error\n";
  std::abort();
}

/// Erases the functions of `module` that have domains of another rank than
/// `rank` and that nothing references.
static void keepRank(ModuleOp module, unsigned rank) {
  SmallVector<func::FuncOp> others;
  for (auto func : module.getOps<func::FuncOp>()) {
    WalkResult walk = func.walk([&](stencil::DomainOp domain) {
      return domain.getRank() == rank ? WalkResult::advance()
                                      : WalkResult::interrupt();
    });
    if (walk.wasInterrupted() && SymbolTable::symbolKnownUseEmpty(func, module))
      others.push_back(func);
  }
  for (func::FuncOp func : others)
    func.erase();
}

/// Runs `pipeline`, then --stencil-verify-lowered, on a copy of the input,
/// and translates the result to LLVM IR; aborts if either fails silently.
/// Adds the C header of a run that succeeds to `headers`.
static void runPipeline(MLIRContext &context, const Input &input,
                        const stencil_fuzz::Pipeline &pipeline,
                        const bool &sawError,
                        std::vector<std::string> &headers) {
  OwningOpRef<ModuleOp> copy = ModuleOp(input.module).clone();
  if (pipeline.gridRank)
    keepRank(*copy, pipeline.gridRank);
  PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  auto *abi = new stencil::PlanAfterPrepareABI();
  pm.addInstrumentation(std::unique_ptr<PassInstrumentation>(abi));
  // Options from the input's comments may be invalid: the option parser
  // says why on stderr.
  std::string optionError;
  llvm::raw_string_ostream optionErrorOS(optionError);
  if (failed(parsePassPipeline(pipeline.passes, pm, optionErrorOS))) {
    if (pipeline.fromInput)
      return;
    llvm::errs() << "stencil-fuzz: cannot parse '" << pipeline.passes
                 << "': " << optionError << "\n";
    std::abort();
  }
  // What stencil-compile runs after the passes: only LLVM and OpenMP ops
  // may reach the translation.
  pm.addPass(stencil::createStencilVerifyLoweredPass());
  if (failed(pm.run(*copy))) {
    if (sawError)
      return;
    reportSilentFailure(pipeline, "failed");
  }
  if (!abi->plan || failed(*abi->plan))
    return;
  headers.push_back(
      stencil_fuzz::getCInterface(**abi->plan, input.source, input.bounds));
  // The translation to LLVM IR, as stencil-compile does it: LLVM's
  // verifier must not be the first to object.
  llvm::LLVMContext llvmContext;
  if (!translateModuleToLLVMIR(*copy, llvmContext, input.source) && !sawError)
    reportSilentFailure(pipeline, "failed its translation to LLVM IR");
}

/// Parses `sourceMgr`'s buffer as stencil-compile does: one explicit
/// module is the module, and arguments are named after the source.
static OwningOpRef<ModuleOp> parseInput(MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr) {
  return stencil::parseSourceWithNames(sourceMgr, context, "input");
}

/// The input's name in the header: the file of its module's location, so
/// that the fuzzer can vary it (`module { ... } loc("a*/b.mlir":1:1)`).
static std::string getSourceName(ModuleOp module) {
  if (auto file = dyn_cast<FileLineColLoc>(module.getLoc()))
    return file.getFilename().str();
  return "input";
}

/// No pipeline starts after an input has run this long (scripts/fuzz.sh
/// gives it 20 s): the time-loop examples take seconds per pipeline under
/// the sanitizers. This only ever leaves out the last pipelines (their
/// order is fixed per input, Pipelines.h), so a finding replays.
static constexpr double kBudgetSeconds = 6;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(getRegistries().input, MLIRContext::Threading::DISABLED);
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
  // What stencil-compile plans on every input for --abi-json: it must not
  // crash on any valid module (a function it cannot bound is reported as
  // unsupported, not guessed).
  Input input{*module, getSourceName(*module),
              stencil::planAccessBounds(*module)};
  std::vector<stencil_fuzz::Pipeline> pipelines =
      stencil_fuzz::getPipelines(*module, text);
  context.appendDialectRegistry(getRegistries().all);
  std::vector<std::string> headers;
  auto start = std::chrono::steady_clock::now();
  for (const stencil_fuzz::Pipeline &pipeline : pipelines) {
    double elapsed = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    if (verbose)
      llvm::errs() << "stencil-fuzz: at " << elapsed << " s: running "
                   << pipeline.passes << "\n";
    if (elapsed > kBudgetSeconds)
      break;
    sawError = false;
    runPipeline(context, input, pipeline, sawError, headers);
  }
  stencil_fuzz::compileHeaders(headers, llvm::xxh3_64bits(text));
  return 0;
}
