//===- RunPipelines.cpp - stencil-fuzz: run the pipelines on a module -----===//
//
// Each pipeline runs on a fresh copy of the input with the IR verified
// after every pass, then --stencil-verify-lowered and the translation to
// LLVM IR, as stencil-compile runs them. A module that reaches
// --stencil-prepare-abi also gets its C header and --abi-json written
// (HeaderCheck.cpp).
//
//===----------------------------------------------------------------------===//

#include "RunPipelines.h"

#include "HeaderCheck.h"
#include "Pipelines.h"

#include "Stencil/Dialect/StencilOps.h"
#include "Stencil/InitAll.h"
#include "Stencil/Target/AccessBounds.h"
#include "Stencil/Target/CInterface.h"
#include "Stencil/Target/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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

/// The dialects an input may be written in (`input`) and those the
/// pipelines lower to (`all`).
struct Registries {
  DialectRegistry input, all;
};
} // namespace

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

const DialectRegistry &stencil_fuzz::getInputRegistry() {
  return getRegistries().input;
}

const DialectRegistry &stencil_fuzz::getAllRegistry() {
  return getRegistries().all;
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

/// The input's name in the header: the file of its module's location, so
/// that the fuzzer can vary it (`module { ... } loc("a*/b.mlir":1:1)`).
static std::string getSourceName(ModuleOp module) {
  if (auto file = dyn_cast<FileLineColLoc>(module.getLoc()))
    return file.getFilename().str();
  return "input";
}

void stencil_fuzz::runPipelines(MLIRContext &context, ModuleOp module,
                                StringRef text, bool &sawError,
                                const RunLimits &limits) {
  static const bool verbose = std::getenv("STENCIL_FUZZ_VERBOSE");
  // What stencil-compile plans on every input for --abi-json: it must not
  // crash on any valid module (a function it cannot bound is reported as
  // unsupported, not guessed).
  Input input{module, getSourceName(module),
              stencil::planAccessBounds(module)};
  std::vector<Pipeline> pipelines = getPipelines(module, text);
  if (pipelines.size() > limits.maxPipelines)
    pipelines.resize(limits.maxPipelines);
  std::vector<std::string> headers;
  auto start = std::chrono::steady_clock::now();
  for (const Pipeline &pipeline : pipelines) {
    double elapsed = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    if (verbose)
      llvm::errs() << "stencil-fuzz: at " << elapsed << " s: running "
                   << pipeline.passes << "\n";
    if (elapsed > limits.budgetSeconds)
      break;
    sawError = false;
    runPipeline(context, input, pipeline, sawError, headers);
  }
  if (limits.compileHeaders)
    compileHeaders(headers, llvm::xxh3_64bits(text));
}
