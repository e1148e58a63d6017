//===- CPipeline.cpp - Stencil IR to C source --------------------*- C++ -*-===//
//
// This file implements the `convert-to-c` pipeline (docs/CSource.md): the
// stencil part of convert-to-omp, then the C route's passes
// (lib/Conversion/StencilToEmitC) and upstream's, ending in EmitC.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Pipelines/Pipelines.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/EmitC/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::buildConvertToCPipeline(OpPassManager &pm,
                                            const ConvertToCOptions &options) {
  ConvertToOMPOptions stencil;
  stencil.scatter = options.scatter;
  stencil.boundary = options.boundary;
  stencil.maxGatherOps = options.maxGatherOps;
  // The object route's C interface (descriptors, bounds checks) is not the
  // C source's; the cut's temporaries, rings and hoisting are speed-ups
  // of the object route that C compilers need not see.
  stencil.cInterface = false;
  stencil.cut = false;
  stencil.ringCut = false;
  stencil.hoistTemporaries = false;
  addStencilToSCFPasses(pm, stencil);
  pm.addPass(createStencilNarrowGuardsPass());
  pm.addPass(createStencilCArraysPass());
  // arith.ceildivsi and friends, which EmitC does not take, as plain
  // divisions; maximumf/minimumf as compares and selects.
  pm.addPass(arith::createArithExpandOpsPass());
  // Folds the linear indices' products and sums with constants, and drops
  // what nothing uses, before EmitC gives each value a C variable.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createStencilOMPPragmasPass());
  pm.addPass(createParallelForToNestedForsPass());
  pm.addPass(createStencilConvertToEmitCPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.formExpressions)
    pm.addPass(emitc::createFormExpressionsPass());
}
