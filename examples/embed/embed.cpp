//===- embed.cpp - Embedding the stencil dialect and passes -----*- C++ -*-===//
//
// This file implements a tiny compiler driver that embeds the stencil project
// the way a DSL compiler would: it registers the dialects and passes through
// `Stencil/InitAll.h`, parses a 1-D stencil function from a string, verifies
// it, lowers it to affine loops with a programmatic PassManager and prints the
// result, then lowers a fresh copy with the `convert-to-omp` pipeline and
// reports whether only LLVM and OpenMP dialect ops remain.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/Passes.h"
#include "Stencil/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

/// r[i] = c[i] * (u[i-1] + u[i+1]) over the interior 1 <= i < n-1.
static const char *const kStencilSource = R"mlir(
func.func @smooth(%u: memref<?xf64>, %c: memref<?xf64>, %r: memref<?xf64>,
                  %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %w = stencil.gather %c[0] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    %v = arith.mulf %w, %s : f64
    stencil.store %v to %r : memref<?xf64>
  }
  return
}
)mlir";

/// Parses and verifies kStencilSource; returns null (after printing the
/// diagnostics) on failure.
static OwningOpRef<ModuleOp> parseStencil(MLIRContext &context) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kStencilSource, &context);
  if (!module) {
    llvm::errs() << "error: cannot parse the stencil source\n";
    return nullptr;
  }
  if (failed(verify(*module))) {
    llvm::errs() << "error: the stencil source does not verify\n";
    return nullptr;
  }
  return module;
}

/// Runs the textual pass pipeline `pipeline` (passes that run on the module,
/// without the `builtin.module(...)` anchor) on `module`.
static LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  // This overload of parsePassPipeline adds the passes to `pm` as they are;
  // `pm` supplies the anchor. An anchored string, `builtin.module(...)`, would
  // nest one level too deep, and nothing would run (silently).
  auto pm = PassManager::on<ModuleOp>(module.getContext());
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    return failure();
  return pm.run(module);
}

int main() {
  DialectRegistry registry;
  stencil::registerAllStencilDialects(registry);
  stencil::registerAllStencilPasses();
  MLIRContext context(registry);

  // Stage 1: stencil -> affine, with a pass built directly (no registry
  // lookup), so the affine loop nest can be inspected.
  OwningOpRef<ModuleOp> module = parseStencil(context);
  if (!module)
    return EXIT_FAILURE;
  llvm::outs() << "// parsed and verified @smooth\n";
  {
    auto pm = PassManager::on<ModuleOp>(&context);
    pm.addPass(stencil::createConvertStencilToAffinePass());
    if (failed(pm.run(*module))) {
      llvm::errs() << "error: convert-stencil-to-affine failed\n";
      return EXIT_FAILURE;
    }
  }
  llvm::outs() << "// after convert-stencil-to-affine\n";
  module->print(llvm::outs());
  llvm::outs() << "\n";

  // Stage 2: the whole convert-to-omp pipeline, by name, on a fresh parse.
  OwningOpRef<ModuleOp> lowered = parseStencil(context);
  if (!lowered)
    return EXIT_FAILURE;
  if (failed(runPipeline(*lowered, "convert-to-omp"))) {
    llvm::errs() << "error: convert-to-omp failed\n";
    return EXIT_FAILURE;
  }
  // Conversions are partial: leftover ops are not an error, so count them.
  unsigned llvmOps = 0, ompOps = 0, otherOps = 0;
  lowered->walk([&](Operation *op) {
    if (op == lowered->getOperation())
      return;
    StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (ns == "llvm")
      ++llvmOps;
    else if (ns == "omp")
      ++ompOps;
    else {
      ++otherOps;
      llvm::outs() << "// leftover op: " << op->getName() << "\n";
    }
  });
  llvm::outs() << "// after convert-to-omp: " << llvmOps << " llvm ops, "
               << ompOps << " omp ops, " << otherOps << " other ops\n";
  llvm::outs() << "// only llvm/omp ops remain: "
               << (otherOps == 0 ? "yes" : "no") << "\n";
  return otherOps == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
